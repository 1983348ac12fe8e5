"""bl.fill_word: 어절 하나를 가린 빈칸에 조각 1~3개짜리 어절을 채우고 PLL-word-l2r로 점수를 매긴다(번들 모델)."""

from __future__ import annotations

import pytest
import torch

import bertlab as bl


@pytest.fixture(scope="module")
def mlm():
    return bl.load_mlm("mini", quiet=True)


def _pll_l2r(model, tokenizer, text, pieces):
    """정의 그대로 한 조각씩: 조각 i와 그 뒤는 가리고 앞은 보인 채 로그 확률을 더한다."""
    left, right = text.split(tokenizer.mask_token)
    enc = tokenizer(left + " ".join([tokenizer.mask_token] * len(pieces)) + right, return_tensors="pt")
    slots = (enc["input_ids"][0] == tokenizer.mask_token_id).nonzero().flatten()
    piece_ids = tokenizer.convert_tokens_to_ids(pieces)
    total = 0.0
    for i in range(len(pieces)):
        ids = enc["input_ids"].clone()
        ids[0, slots[:i]] = torch.tensor(piece_ids[:i], dtype=ids.dtype)
        with torch.no_grad():
            logp = model(**{**enc, "input_ids": ids}).logits[0, slots[i]].log_softmax(-1)
        total += float(logp[piece_ids[i]])
    return total


def test_candidates_are_whole_words_scored_by_pll(mlm):
    tokenizer, model = mlm
    text = "비 오는 저녁이라 엄마가 따끈한 [MASK] 한 냄비 끓여 놓으셨다."
    out = bl.fill_word(model, tokenizer, text, k=8)
    assert len(out) == 8 and len({w for w, _ in out}) == 8
    scores = [s for _, s in out]
    assert scores == sorted(scores, reverse=True)
    for word, s in out:
        pieces = tokenizer.tokenize(word)
        assert not pieces[0].startswith("##") and all(p.startswith("##") for p in pieces[1:])
        assert 1 <= len(pieces) <= 3
        # 토크나이저의 조각 나누기로 다시 계산한 PLL-word-l2r 이상이다(같은 어절이 다른 조각으로 나뉘면 점수가 높은 쪽을 쓴다)
        assert s >= _pll_l2r(model, tokenizer, text, pieces) - 1e-4
    many = bl.fill_word(model, tokenizer, text, k=20)
    assert any(len(tokenizer.tokenize(w)) > 1 for w, _ in many), "여러 조각 어절이 후보에 없다"
    word, s = next((w, s) for w, s in many if len(tokenizer.tokenize(w)) == 2)
    assert s == pytest.approx(_pll_l2r(model, tokenizer, text, tokenizer.tokenize(word)), abs=1e-4)


@pytest.mark.parametrize("text, message", [
    ("", "비어 있습니다"),
    ("가린 곳이 없는 문장.", "없습니다"),
    ("[MASK] 타고 [MASK] 갔다.", "2개 있습니다"),
    ("버스 대신 [MASK]를 탔다.", "통째로"),
])
def test_bad_input_gets_a_korean_error(mlm, text, message):
    tokenizer, model = mlm
    with pytest.raises(ValueError, match=message):
        bl.fill_word(model, tokenizer, text)


def test_too_long_is_refused(mlm):
    tokenizer, model = mlm
    with pytest.raises(ValueError, match="너무 깁니다"):
        bl.fill_word(model, tokenizer, "오늘은 날씨가 좋다. " * 60 + "[MASK] 갔다.")


def test_mean_score_divides_by_pieces(mlm):
    tokenizer, model = mlm
    text = "주말에 극장에서 [MASK] 봤다."
    by_sum = dict(bl.fill_word(model, tokenizer, text, k=50))
    by_mean = dict(bl.fill_word(model, tokenizer, text, k=50, score="mean"))
    for word in set(by_sum) & set(by_mean):
        n = len(tokenizer.tokenize(word))
        if n == 1:
            assert by_mean[word] == pytest.approx(by_sum[word], abs=1e-5)
