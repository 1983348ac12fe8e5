"""이슈 25의 평가 도구: 어절 단위 채점(`acceptance.score_words`), held-out 빈칸 세트 만들기, 후보 비교(`candidate`)."""

from __future__ import annotations

import torch

import bertlab as bl
from bertlab.minibert import acceptance, candidate, heldout
from bertlab.senses import SenseVector


def test_score_words_counts_exact_eojeol_only():
    tokenizer, model = bl.load_mlm("mini", quiet=True)
    sentence = "아침에 [MASK] 마시고 학교에 갔다."
    words = [w for w, _ in bl.fill_word(model, tokenizer, sentence, k=5)]
    rows = [{"sentence": sentence, "answers": [words[0]]},            # 1위와 같음
            {"sentence": sentence, "answers": ["없는어절", words[2]]},  # 3위와 같음
            {"sentence": sentence, "answers": [words[0] + "요"]}]      # 글자가 하나라도 다르면 틀림
    r = acceptance.score_words(model, tokenizer, rows, k=5)
    assert [i["rank"] for i in r["items"]] == [1, 3, None]
    assert r["rows"] == 3 and abs(r["top1"] - 1 / 3) < 1e-9 and abs(r["topk"] - 2 / 3) < 1e-9
    h = heldout.score(model, tokenizer, [{"sentence": sentence, "answer": words[1]}])
    assert h["topk"] == 1.0 and h["top1"] == 0.0


def test_mask_one_hides_a_content_eojeol_and_keeps_punctuation():
    from kiwipiepy import Kiwi

    kiwi = Kiwi()
    text = "동생이 마트에서 사과를 세 개 샀다."
    masked, answer = heldout.mask_one(text, kiwi)
    assert masked.count("[MASK]") == 1 and answer in [w.rstrip(".") for w in text.split()]
    assert masked.replace("[MASK]", answer) == text
    assert heldout.mask_one(text, kiwi) == (masked, answer)  # 문장이 같으면 늘 같은 어절


def test_heldout_build_samples_across_topics(tmp_path):
    """세트가 n개보다 많은 후보에서 고를 때 앞쪽 주제 파일에 몰리지 않는다."""
    n = 60
    path = tmp_path / "set.tsv"
    made = heldout.build(n=n, path=path)
    rows = heldout.read_set(path)
    assert made == len(rows) == n
    topics = {r["topic"] for r in rows}
    every = {s["topic"] for s in heldout.heldout_sentences()}
    assert len(topics) >= min(20, len(every) // 2), (len(topics), len(every))
    assert all(r["sentence"].count("[MASK]") == 1 and r["answer"] for r in rows)


def _vec(word, sense, x):
    return SenseVector(word, sense, torch.tensor([[0.0, 0.0], x]), 0)


def test_nearest_neighbour_accuracy():
    vectors = [_vec("배", "a", [1.0, 0.0]), _vec("배", "a", [0.9, 0.1]), _vec("배", "b", [0.0, 1.0]),
               _vec("배", "b", [0.1, 0.9]), _vec("눈", "a", [1.0, 0.0]), _vec("눈", "b", [0.95, 0.05]),
               _vec("눈", "a", [0.0, 1.0])]
    acc = candidate.nearest_neighbour_accuracy(vectors)
    assert acc["배"] == 1.0
    # 눈: 첫째(a)의 이웃은 둘째(b), 둘째(b)의 이웃은 첫째(a), 셋째(a)의 이웃은 둘째(b) → 0/3
    assert acc["눈"] == 0.0


def test_verdict_follows_the_rule():
    base = {"acceptance_word": {"topk": 0.226}, "heldout_word": {"topk": 0.10},
            "sense_gap_eval": {"배": 0.01, "눈": 0.02}, "weights_mb": 15.7}
    better = {"acceptance_word": {"topk": 0.30}, "heldout_word": {"topk": 0.2},
              "sense_gap_eval": {"배": 0.03, "눈": 0.001}, "weights_mb": 15.7}
    assert all(ok for _, ok in candidate.verdict(base, better))
    worse = dict(better, acceptance_word={"topk": 0.226}, sense_gap_eval={"배": 0.03, "눈": -0.01}, weights_mb=30)
    failed = [text[:2] for text, ok in candidate.verdict(base, worse) if not ok]
    assert failed == ["1.", "3.", "5."]


def test_the_frozen_heldout_set(tmp_path):
    """이슈 25의 일상 held-out 빈칸 세트: 학습 전에 만들어 커밋한 파일이 있고, 채택 규칙에 적은 sha256과 같으며, 지금 말뭉치에서
    다시 만들어도 바이트까지 같다(말뭉치나 규칙이 몰래 바뀌지 않았다). 문장은 모두 held-out 문서에서 왔다."""
    import hashlib
    import re

    data = heldout.SET_FILE.read_bytes()
    rows = heldout.read_set()
    assert len(rows) >= 500
    rule = (heldout.Path(candidate.__file__).parent / "ADOPTION_RULE_issue25.md").read_text(encoding="utf-8")
    assert hashlib.sha256(data).hexdigest() in re.findall(r"sha256 `([0-9a-f]{64})`", rule)
    again = tmp_path / "again.tsv"
    heldout.build(n=len(rows), path=again)
    assert again.read_bytes() == data
    held = {s["text"] for s in heldout.heldout_sentences()}
    for r in rows:
        assert r["sentence"].count("[MASK]") == 1 and r["sentence"].replace("[MASK]", r["answer"], 1) in held, r["id"]
