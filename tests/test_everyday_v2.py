"""이슈 20의 일상 말뭉치(bertlab/assets/text/everyday_v2/): 꼴, 다양성, 그리고 평가 문장이 하나도 섞이지 않았는지.

평가에 쓰는 문장이 학습 말뭉치에 들어가면 held-out 정확도와 뜻 분리, fill-mask 수용률이 부풀려집니다. 그래서
동음이의어 평가 문장(eval, eval_particle), 감성 데이터의 검증·테스트 세트, fill-mask 수용 시험 문장, 모델 카드의
fill-mask 문장이 이 말뭉치의 어느 문장에도 들어 있지 않아야 합니다(문장 안에 통째로 들어 있어도 안 됨).
"""
from __future__ import annotations

import csv
import json
import re
import unicodedata
from pathlib import Path

import pytest

from bertlab import MINI_DIR, data
from bertlab.minibert import corpus

FILES = corpus.everyday_v2_files()


def test_the_corpus_is_there():
    assert len(FILES) >= 80, f"everyday_v2 말뭉치가 없습니다: {corpus.EVERYDAY_V2_DIR}"


def _docs():
    return [(p.name, d) for p in FILES for d in data.read_documents(p)]


def _norm(s: str) -> str:
    return re.sub(r"[\s\W_]+", "", s)


def test_files_are_paragraphs_of_three_to_six_sentences():
    for path in FILES:
        text = path.read_text(encoding="utf-8")
        assert unicodedata.is_normalized("NFC", text), path.name
        assert text.endswith("\n") and "\r" not in text, path.name
        for doc in data.read_documents(path):
            assert 3 <= len(doc) <= 6, (path.name, doc)


def test_variety():
    """문장이 거의 되풀이되지 않는다: 서로 다른 문장 ≥ 99 %, 공백·문장부호를 지워도 같은 문장 ≤ 1 %, 주제 파일 ≥ 80개."""
    sentences = [s for _, d in _docs() for s in d]
    assert len(FILES) >= 80
    assert len(set(sentences)) / len(sentences) >= 0.99
    assert len({_norm(s) for s in sentences}) / len(sentences) >= 0.99
    assert sum(len(s) for s in sentences) >= 1_000_000


def _evaluation_sentences() -> dict[str, set[str]]:
    root = Path(data.TEXT_DIR)
    out = {"senses": {r["sentence"] for r in data.read_senses() if r["split"] != "train"}}
    out["sentiment"] = set()
    for split in ("validation", "test"):
        with open(data.SENTIMENT_DIR / f"{split}.tsv", encoding="utf-8", newline="") as f:
            out["sentiment"] |= {r["text"] for r in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)}
    out["model_card_fill_mask"] = set(json.loads((MINI_DIR / "metrics.json").read_text(encoding="utf-8"))["fill_mask"])
    acceptance = root / "fillmask_acceptance_ko.tsv"
    if acceptance.exists():
        with open(acceptance, encoding="utf-8", newline="") as f:
            out["fill_mask_acceptance"] = {r["sentence"] for r in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)}
    return out


def test_no_evaluation_sentence_in_the_corpus():
    corpus_norm = [_norm(s) for _, d in _docs() for s in d]
    joined = "\n".join(corpus_norm)
    for name, sentences in _evaluation_sentences().items():
        hits = []
        for s in sentences:
            if "[MASK]" in s:  # 수용 시험·모델 카드 문장: 가린 곳 앞뒤 글이 한 문장에 함께 있으면 그 문장을 본 것
                left, right = (_norm(part) for part in s.split("[MASK]", 1))
                if any(left in c and right in c and len(left) + len(right) >= 6 for c in corpus_norm):
                    hits.append(s)
            elif len(_norm(s)) >= 6 and _norm(s) in joined:
                hits.append(s)
        assert not hits, f"{name}의 평가 문장이 말뭉치에 있습니다: {hits[:5]}"
