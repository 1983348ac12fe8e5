"""bertlab.analysis: 손으로 만든 어텐션에서 정확한 값이 나오는지, 패딩을 빼는지, 오류를 내는지."""

import math

import numpy as np
import pandas as pd
import pytest
import torch
from transformers import BertConfig, BertModel, BertTokenizer

from bertlab import analysis as an

CLS, SEP, PAD = 2, 3, 0


@pytest.fixture(scope="module")
def tokenizer():
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + list("배를타고바다로나갔가파서밥먹었") + ["##를", "##고", "##었", "##다"]
    return BertTokenizer(vocab={t: i for i, t in enumerate(vocab)}, do_lower_case=False, strip_accents=False)


@pytest.fixture(scope="module")
def crafted():
    """층 하나, 헤드 셋: 0 = 모두 [CLS], 1 = 실제 토큰에 균등, 2 = 앞 토큰(0번은 자기 자신)."""
    ids = torch.tensor([[CLS, 7, 8, 9, SEP], [CLS, 7, SEP, PAD, PAD]])
    mask = (ids != PAD).long()
    B, H, T = 2, 3, 5
    a = torch.zeros(B, H, T, T)
    for b in range(B):
        n = int(mask[b].sum())
        a[b, 0, :, 0] = 1.0
        a[b, 1, :, :n] = 1.0 / n
        a[b, 2, 0, 0] = 1.0
        for i in range(1, T):
            a[b, 2, i, i - 1] = 1.0
    # 패딩 질의 행에는 엉뚱한 값: 통계에 들어가면 안 된다
    a[1, :, 3:, :] = 0.0
    a[1, :, 3:, 1] = 1.0
    return (a,), {"input_ids": ids, "attention_mask": mask}


def test_head_stats_exact_values(crafted, tokenizer):
    attns, batch = crafted
    stats = an.head_stats(attns, batch, tokenizer)
    assert list(stats.columns) == ["layer", "head", *an.STAT_LABELS]
    assert len(stats) == 3
    cls_head, uniform, prev_head = (stats.iloc[h] for h in range(3))
    # [CLS] 헤드
    assert cls_head["cls"] == pytest.approx(1.0)
    assert cls_head["entropy"] == pytest.approx(0.0)
    assert cls_head["distance"] == pytest.approx((2.0 + 1.0) / 2)  # 문장별 평균 거리 2, 1
    assert cls_head["self"] == pytest.approx((1 / 5 + 1 / 3) / 2)
    assert cls_head["prev"] == pytest.approx((1 / 4 + 1 / 2) / 2)
    # 균등 헤드: 엔트로피 = log(실제 토큰 수)
    assert uniform["entropy"] == pytest.approx((math.log(5) + math.log(3)) / 2)
    assert uniform["cls"] == pytest.approx((1 / 5 + 1 / 3) / 2)
    assert uniform["sep"] == pytest.approx((1 / 5 + 1 / 3) / 2)
    # 앞 토큰 헤드
    assert prev_head["prev"] == pytest.approx(1.0)
    assert prev_head["next"] == pytest.approx(0.0)
    assert prev_head["sep"] == pytest.approx(0.0)


def test_head_stats_ids_instead_of_tokenizer(crafted, tokenizer):
    attns, batch = crafted
    a = an.head_stats(attns, batch, tokenizer)
    b = an.head_stats(attns, batch, cls_id=CLS, sep_id=SEP)
    pd.testing.assert_frame_equal(a, b)


def test_stat_map_and_find_heads(crafted, tokenizer):
    attns, batch = crafted
    stats = an.head_stats(attns * 2, batch, tokenizer)  # 층 둘
    m = an.stat_map(stats, "prev")
    assert m.shape == (2, 3)
    assert m.loc[1, 2] == pytest.approx(1.0)
    picked = an.find_heads(stats, "prev", above=0.9)
    assert list(zip(picked["layer"], picked["head"])) == [(0, 2), (1, 2)]
    low = an.find_heads(stats, "entropy", below=1e-9)
    assert set(low["head"]) == {0, 2}
    with pytest.raises(KeyError, match="prev"):
        an.stat_map(stats, "previous")
    with pytest.raises(ValueError, match="정확히 하나"):
        an.find_heads(stats, "prev")


@pytest.fixture(scope="module")
def real_run(tokenizer):
    torch.manual_seed(0)
    cfg = BertConfig(vocab_size=len(tokenizer), hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                     intermediate_size=64, max_position_embeddings=32, attn_implementation="eager")
    model = BertModel(cfg).eval()
    batch = tokenizer(["배를 타고 바다로 나갔다", "밥 먹었다"], padding=True, return_tensors="pt")
    with torch.no_grad():
        out = model(**batch, output_attentions=True, output_hidden_states=True)
    return model, batch, out


def test_head_stats_on_model(real_run, tokenizer):
    model, batch, out = real_run
    stats = an.head_stats(out.attentions, batch, tokenizer)
    cfg = model.config
    assert len(stats) == cfg.num_hidden_layers * cfg.num_attention_heads
    share = stats[["cls", "sep", "self"]]
    assert ((share >= 0) & (share <= 1 + 1e-9)).all().all()
    assert (stats["entropy"] >= 0).all()
    assert (stats["entropy"] <= math.log(batch["input_ids"].shape[1]) + 1e-9).all()


def test_mean_attention_and_most_attended(real_run, tokenizer):
    _, batch, out = real_run
    m = an.mean_attention(out.attentions, batch, tokenizer, index=1)
    assert list(m.index) == ["밥", "먹", "##었", "##다"]
    np.testing.assert_allclose(m.to_numpy().sum(1), 1.0)
    np.testing.assert_allclose(np.diag(m.to_numpy()), 0.0)
    full = an.mean_attention(out.attentions, batch, tokenizer, index=0, drop_special=False, mask_diagonal=False)
    assert full.shape == (int(batch["attention_mask"][0].sum()),) * 2
    top = an.most_attended(m)
    assert list(top.columns) == ["토큰", "가장 주목하는 토큰", "가중치"]
    assert len(top) == len(m)
    j = int(np.argmax(m.to_numpy()[0]))
    assert top.loc[0, "가장 주목하는 토큰"] == m.columns[j]
    with pytest.raises(IndexError, match="범위"):
        an.mean_attention(out.attentions, batch, tokenizer, index=2)
    with pytest.raises(TypeError, match="정사각"):
        an.most_attended(m.to_numpy())


def test_hidden_state_helpers(real_run):
    model, batch, out = real_run
    hs = out.hidden_states
    cos = an.cosine_by_layer(hs)
    B, T = batch["input_ids"].shape
    assert cos.shape == (model.config.num_hidden_layers + 1, B, T)
    torch.testing.assert_close(cos[0], torch.ones(B, T, dtype=torch.float64))
    sim = an.layer_similarity(hs, batch["attention_mask"])
    assert sim.shape == (len(hs), len(hs))
    assert list(sim.index) == list(range(len(hs)))
    np.testing.assert_allclose(np.diag(sim.to_numpy()), 1.0)
    np.testing.assert_allclose(sim.to_numpy(), sim.to_numpy().T)
    # 패딩 위치를 바꿔도 결과는 같아야 한다
    pad = batch["attention_mask"] == 0
    assert pad.any()
    noisy = tuple(torch.where(pad[..., None], torch.randn_like(h), h) for h in hs)
    pd.testing.assert_frame_equal(an.layer_similarity(noisy, batch["attention_mask"]), sim)
    pooled = an.mean_pool(out.last_hidden_state, batch["attention_mask"])
    n = int(batch["attention_mask"][1].sum())
    torch.testing.assert_close(pooled[1], out.last_hidden_state[1, :n].mean(0))
    torch.testing.assert_close(an.mean_pool(noisy[-1], batch["attention_mask"]), pooled)


def test_errors(real_run, tokenizer):
    _, batch, out = real_run
    with pytest.raises(TypeError, match="outputs.attentions"):
        an.head_stats(out.attentions[0], batch, tokenizer)
    with pytest.raises(ValueError, match="eager"):
        an.head_stats((), batch, tokenizer)
    with pytest.raises(ValueError, match="T, T"):
        an.head_stats((torch.zeros(2, 4, 3, 5),), batch, tokenizer)
    with pytest.raises(ValueError, match="모양이 다릅니다"):
        an.head_stats((out.attentions[0], out.attentions[1][:, :2]), batch, tokenizer)
    with pytest.raises(TypeError, match="batch"):
        an.head_stats(out.attentions, batch["input_ids"], tokenizer)
    short = {"input_ids": batch["input_ids"][:1], "attention_mask": batch["attention_mask"][:1]}
    with pytest.raises(ValueError, match="같은 배치"):
        an.head_stats(out.attentions, short, tokenizer)
    with pytest.raises(ValueError, match="tokenizer"):
        an.head_stats(out.attentions, batch)
    with pytest.raises(TypeError, match="outputs.hidden_states"):
        an.cosine_by_layer(out.hidden_states[0])
    with pytest.raises(IndexError, match="reference"):
        an.cosine_by_layer(out.hidden_states, reference=99)
    with pytest.raises(ValueError, match="attention_mask"):
        an.layer_similarity(out.hidden_states, batch["attention_mask"][:, :-1])
    with pytest.raises(ValueError, match="같은 배치"):
        an.mean_pool(out.last_hidden_state, batch["attention_mask"][:1])
    with pytest.raises(ValueError, match="모양"):
        an.mean_pool(out.last_hidden_state[0], batch["attention_mask"])
    with pytest.raises(TypeError, match="torch.Tensor"):
        an.mean_pool(out.last_hidden_state, batch["attention_mask"].tolist())
