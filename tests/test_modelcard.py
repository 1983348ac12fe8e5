"""번들 미니 BERT의 모델 카드(metrics.json, README.md)가 번들된 가중치와 맞는지: 다시 재서 비교한다."""

from __future__ import annotations

import json

import pytest

import bertlab as bl


@pytest.fixture(scope="module")
def metrics():
    path = bl.MINI_DIR / "metrics.json"
    assert path.exists(), f"모델 카드가 없습니다: {path}"
    return json.loads(path.read_text(encoding="utf-8"))


def test_card_matches_weights(metrics):
    from transformers import AutoTokenizer, BertForMaskedLM, BertModel

    tok = AutoTokenizer.from_pretrained(bl.MINI_DIR)
    mlm = BertForMaskedLM.from_pretrained(bl.MINI_DIR).eval()
    for sentence, top5 in metrics["fill_mask"].items():
        assert bl.minibert.modelcard.fill_mask(mlm, tok, sentence) == top5, sentence
    bert = BertModel.from_pretrained(bl.MINI_DIR).eval()
    for split, key in (("eval", "senses"), ("eval_particle", "senses_particle")):
        vectors = bl.senses.sense_vectors(bert, tok, bl.data.read_senses(split))
        live = bl.senses.separation_from_vectors(vectors)
        assert set(live) == set(metrics[key]) == {"배", "눈", "말", "밤", "차", "다리"}
        for word, v in metrics[key].items():
            assert live[word]["same"] == pytest.approx(v["same"], abs=1e-4)
            assert live[word]["cross"] == pytest.approx(v["cross"], abs=1e-4)
        # p값의 해상도는 1/2001: 다른 CPU에서는 부동소수점 반올림이 달라 경계의 순열 몇 개가 뒤바뀔 수 있다
        live_p = bl.senses.sense_gap_p_values(vectors)
        assert live_p == pytest.approx(metrics["senses_p"][split], abs=3e-3)


def test_card_reports_the_bars(metrics):
    """모델 카드가 잰 held-out 정확도: 선택한 모든 위치를 [MASK]로 바꿨을 때 최빈 토큰 기준선의 2배 이상."""
    held = metrics["heldout"]["all"]
    assert held["positions"] > 1000
    assert held["mask_acc"] >= 2 * held["freq_baseline_acc"], held
    assert held["nsp_acc"] > 0.5
    assert metrics["size_mb"] < 25
    card = (bl.MINI_DIR / "README.md").read_text(encoding="utf-8")
    assert bl.course.prose.pct(held["mask_acc"]) in card   # 모델 카드의 표와 같은 서식(예: 21.3%)


def test_following_token_breakdown():
    from transformers import AutoTokenizer, BertModel

    tok = AutoTokenizer.from_pretrained(bl.MINI_DIR)
    bert = BertModel.from_pretrained(bl.MINI_DIR).eval()
    rows = bl.data.read_senses("eval")
    table = bl.senses.following_token_breakdown(bl.senses.sense_vectors(bert, tok, rows))
    pairs = {(r["same_sense"], r["same_next"]): r["pairs"] for r in table}
    # 같은 단어 안의 쌍만 센다: 배는 뜻 3개, 나머지 다섯 단어는 뜻 2개, 뜻마다 6문장
    assert pairs[True, True] + pairs[True, False] == 3 * 15 + 5 * 2 * 15
    assert pairs[False, True] + pairs[False, False] == 3 * 36 + 5 * 36
    assert all(-1 <= r["mean_cosine"] <= 1 for r in table)
    # 같은 문장 두 개는 뜻도 뒤 토큰도 같고 코사인이 1
    same = [dict(rows[0]), dict(rows[0])]
    assert bl.senses.following_token_breakdown(bl.senses.sense_vectors(bert, tok, same)) == [
        {"same_sense": True, "same_next": True, "mean_cosine": pytest.approx(1.0, abs=1e-5), "pairs": 1}
    ]


def test_senses_summary_reports_both_sets_and_the_permutation_test():
    """'한계'의 동음이의어 문장: 묶음마다 차이가 양수인 단어과 p < 0.05인 단어을, 0층과의 비교를 숫자 뒤 조사 없이 적는다."""

    def senses(gaps):
        return {w: {"same": 0.7 + g, "cross": 0.7} for w, g in gaps.items()}

    metrics = {
        "senses": senses({"배": 0.02, "다리": -0.01}),
        "senses_particle": senses({"배": 0.03, "다리": 0.01}),
        "senses_p": {"eval": {"배": 0.01, "다리": 0.7}, "eval_particle": {"배": 0.001, "다리": 0.02}},
        "senses_gap_by_layer": {"0": {"배": 0.02, "다리": 0.0}, "4": {"배": 0.02, "다리": -0.01}},
    }
    text = bl.minibert.modelcard.senses_summary(metrics)
    assert "단어 2개 중 1개에서만" in text and "다리에서는 뜻을 구별하지 못합니다" in text
    assert "단어는 1개(배)이고, 다리(p = 0.70)" in text  # 조사 제각각 묶음의 순열 검정
    assert "단어 2개 모두 같은 뜻끼리 더 비슷합니다(차이 +0.010–+0.030)" in text
    assert "단어 2개 모두 그 차이가 우연으로 보기 어렵습니다" in text  # 조사 고정 묶음
    assert "평균(+0.005)이" in text and "평균(+0.010)보다 크지 않아서" in text


def test_masking_sentence_follows_the_settings():
    """모델 카드의 가리기 설명은 학습 설정에서 나온다: run7(토큰, 15 % 고정)과 이슈 25의 레시피(단어 통째, 25 % → 15 %)."""
    from bertlab.minibert.modelcard import masking_sentence

    run7 = masking_sentence({"mask_prob": 0.15, "mask_prob_end": 0.15, "whole_word": False})
    assert "15 %" in run7 and "토큰(조각)을 골라" in run7 and "25 %" not in run7
    new = masking_sentence({"mask_prob": 0.25, "mask_prob_end": 0.15, "whole_word": True})
    assert "25 %에서" in new and "15 %로" in new and "**모두**" in new
    # 설정이 없는 옛 기록(mask_prob 이전)은 15 % 토큰 가리기
    assert masking_sentence({}) == run7
