"""bertlab.course.korean(조사 고르기)과 bertlab.minibert.templates(결정성, 빈 문장 없음)."""

import csv
from pathlib import Path

import pytest

from bertlab.course.korean import has_batchim, josa
from bertlab.minibert.templates import TEMPLATES, generate

SENSES = Path(__file__).resolve().parents[1] / "bertlab" / "assets" / "text" / "senses_ko.tsv"


@pytest.mark.parametrize(
    "word, pair, expected",
    [
        ("사과", "을/를", "사과를"),
        ("배", "을/를", "배를"),
        ("물", "을/를", "물을"),
        ("학교", "으로/로", "학교로"),
        ("서울", "으로/로", "서울로"),
        ("집", "으로/로", "집으로"),
        ("친구", "과/와", "친구와"),
        ("동생", "과/와", "동생과"),
        ("눈", "이/가", "눈이"),
        ("차", "이/가", "차가"),
        ("밤", "은/는", "밤은"),
        ("다리", "은/는", "다리는"),
        ("지하철", "으로/로", "지하철로"),
        ("말", "와/과", "말과"),  # 짝의 순서는 상관없다
        ("만 칠천 원", "이/가", "만 칠천 원이"),
    ],
)
def test_josa(word, pair, expected):
    assert josa(word, pair) == expected


def test_has_batchim_and_unknown_pair():
    assert has_batchim("밥") and not has_batchim("사과")
    with pytest.raises(ValueError):
        josa("사과", "에/에서")


def test_generate_is_deterministic():
    assert generate(40, seed=3) == generate(40, seed=3)
    assert generate(40, seed=3) != generate(40, seed=4)


def test_documents_are_well_formed():
    docs = generate(300, seed=0)
    assert len(docs) == 300
    for doc in docs:
        assert 3 <= len(doc) <= 5
        for s in doc:
            assert s.strip() == s and s, doc
            assert s[-1] in ".!?", s
            assert not any(ch in s for ch in "{}[]|"), s  # 채우지 못한 빈칸이나 고르지 않은 선택지가 없다
            assert "  " not in s


def test_every_template_renders():
    # 틀마다 적어도 한 번은 나오고, 채우기에서 오류가 나지 않는다
    import random

    from bertlab.minibert.templates import _render

    rng = random.Random(0)
    for _, slots, sentences in TEMPLATES:
        doc = _render(slots, sentences, rng)
        assert len(doc) >= 3


def test_no_overlap_with_eval_sentences():
    assert SENSES.exists(), f"동음이의어 문장 표가 없습니다: {SENSES}"
    with SENSES.open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    evals = {r["sentence"] for r in rows if r["split"] != "train"}
    generated = {s for d in generate(2000, seed=1) for s in d}
    assert not evals & generated
