"""일상 말뭉치 v3(bertlab/minibert/text/everyday_v3/, 이슈 25): 꼴, 되풀이, 다양성, 평가 글과 겹치지 않음, 데이터 카드.

파일이 하나도 없으면 실패합니다(싣기 전에는 이 테스트를 두지 않음). 수치는 `python -m bertlab.minibert.everyday stats`가 찍습니다.
"""
from __future__ import annotations

import unicodedata
from collections import Counter

import pytest

from bertlab.minibert import everyday as ev

FILES = ev.files()


def test_the_corpus_is_there():
    assert FILES, "everyday_v3에 실린 주제 파일이 없습니다"
    assert all(p.suffix == ".xz" for p in FILES)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_each_file_has_the_form_and_all_genres(path):
    text = ev.read_text(path)
    assert unicodedata.is_normalized("NFC", text)
    problems, stats = ev.check_text(text, path.name)
    assert not problems, problems[:5]
    assert set(stats["genres"]) == set(ev.GENRES), f"빠진 장르: {set(ev.GENRES) - set(stats['genres'])}"
    assert set(stats["registers"]) == set(ev.REGISTERS)
    assert stats["characters"] >= 17000


def test_no_duplicate_sentences_and_few_repeated_spans():
    lines = Counter(l for p in FILES for d in ev.read_documents(p) for l in d if len(l) >= 10)
    dups = [l for l, c in lines.items() if c > 1]
    assert not dups, f"같은 문장(10자 이상)이 여러 번: {dups[:5]}"
    st = ev.corpus_stats()
    print(f"\n말뭉치 v3: 파일 {st['files']}, 글자 {st['characters']:,}, 서로 다른 어절 {st['distinct_eojeol']:,}"
          f"(앞 절반 {st['distinct_eojeol_half']:,}), 되풀이 8어절 {100 * st['repeated_span_share']:.2f}%")
    assert st["repeated_span_share"] <= 0.01
    if st["files"] >= 4:  # 서로 다른 어절은 말뭉치와 함께 자란다
        assert st["distinct_eojeol"] >= 1.3 * st["distinct_eojeol_half"]


def test_no_evaluation_text_in_the_corpus():
    """평가 글(동음이의어 평가 문장, 감성 검증·테스트, 빈칸 채우기 평가 세트, 모델 카드의 빈칸 문장)과 공백을 뺀 12자 이상이 겹치지 않는다."""
    spans = ev.evaluation_spans()
    assert len(spans) > 10_000  # 평가 글을 실제로 읽었다
    hits = [l for p in FILES for d in ev.read_documents(p) for l in d if ev.overlaps(l, spans)]
    assert not hits, hits[:5]


def test_overlap_detector():
    spans = {"따끈한국한냄비를", "가나다라마바사아자차카타"}
    assert ev.overlaps("오늘은 가나다라 마바사아 자차카타파하", {"가나다라마바사아자차카타"}, n=12)
    assert not ev.overlaps("가나다라마바사아자차카", spans, n=12)


def test_data_card_is_current():
    card = (ev.V3_DIR / "DATA_CARD.md").read_text(encoding="utf-8")
    before = card
    ev.write_data_card()
    assert (ev.V3_DIR / "DATA_CARD.md").read_text(encoding="utf-8") == before, "DATA_CARD.md를 pack으로 다시 만드세요"


def test_heldout_is_document_level_and_stable():
    docs = [d for p in FILES for d in ev.read_documents(p)]
    held = [d for d in docs if ev.is_heldout(d)]
    assert 0 < len(held) < 0.1 * len(docs)
    assert ev.is_heldout(held[0]) and ev.is_heldout(list(held[0]))
