"""번들 미니 BERT의 모델 카드(metrics.json, README.md)가 번들된 가중치와 맞는지: 다시 재서 비교한다."""

from __future__ import annotations

import json

import pytest

import bertlab as bl


@pytest.fixture(scope="module")
def metrics():
    path = bl.MINI_DIR / "metrics.json"
    if not path.exists():
        pytest.skip("모델 카드가 아직 없습니다")
    return json.loads(path.read_text(encoding="utf-8"))


def test_card_matches_weights(metrics):
    from transformers import AutoTokenizer, BertForMaskedLM, BertModel

    tok = AutoTokenizer.from_pretrained(bl.MINI_DIR)
    mlm = BertForMaskedLM.from_pretrained(bl.MINI_DIR).eval()
    for sentence, top5 in metrics["fill_mask"].items():
        assert bl.modelcard.fill_mask(mlm, tok, sentence) == top5, sentence
    bert = BertModel.from_pretrained(bl.MINI_DIR).eval()
    for split, key in (("eval", "senses"), ("eval_particle", "senses_particle")):
        vectors = bl.pretrain.sense_vectors(bert, tok, bl.corpus.read_senses(split))
        live = bl.pretrain.separation_from_vectors(vectors)
        assert set(live) == set(metrics[key]) == {"배", "눈", "말", "밤", "차", "다리"}
        for word, v in metrics[key].items():
            assert live[word]["same"] == pytest.approx(v["same"], abs=1e-4)
            assert live[word]["cross"] == pytest.approx(v["cross"], abs=1e-4)
        # p값의 해상도는 1/2001: 다른 CPU에서는 부동소수점 반올림이 달라 경계의 순열 몇 개가 뒤바뀔 수 있다
        live_p = bl.pretrain.sense_gap_p_values(vectors)
        assert live_p == pytest.approx(metrics["senses_p"][split], abs=3e-3)


def test_card_reports_the_bars(metrics):
    """모델 카드가 잰 held-out 정확도: 선택한 모든 위치를 [MASK]로 바꿨을 때 최빈 토큰 기준선의 2배 이상."""
    held = metrics["heldout"]["all"]
    assert held["positions"] > 1000
    assert held["mask_acc"] >= 2 * held["freq_baseline_acc"], held
    assert held["nsp_acc"] > 0.5
    assert metrics["size_mb"] < 25
    card = (bl.MINI_DIR / "README.md").read_text(encoding="utf-8")
    assert f"{100 * held['mask_acc']:.1f} %" in card


def test_following_token_breakdown():
    from transformers import AutoTokenizer, BertModel

    tok = AutoTokenizer.from_pretrained(bl.MINI_DIR)
    bert = BertModel.from_pretrained(bl.MINI_DIR).eval()
    rows = bl.corpus.read_senses("eval")
    table = bl.pretrain.following_token_breakdown(bl.pretrain.sense_vectors(bert, tok, rows))
    pairs = {(r["same_sense"], r["same_next"]): r["pairs"] for r in table}
    # 같은 단어 안의 쌍만 센다: 배는 뜻 3개, 나머지 다섯 단어는 뜻 2개, 뜻마다 6문장
    assert pairs[True, True] + pairs[True, False] == 3 * 15 + 5 * 2 * 15
    assert pairs[False, True] + pairs[False, False] == 3 * 36 + 5 * 36
    assert all(-1 <= r["mean_cosine"] <= 1 for r in table)
    # 같은 문장 두 개는 뜻도 뒤 토큰도 같고 코사인이 1
    same = [dict(rows[0]), dict(rows[0])]
    assert bl.pretrain.following_token_breakdown(bl.pretrain.sense_vectors(bert, tok, same)) == [
        {"same_sense": True, "same_next": True, "mean_cosine": pytest.approx(1.0, abs=1e-5), "pairs": 1}
    ]
