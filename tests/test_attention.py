"""bertlab.attention: 손 계산이 작은 무작위 BERT의 출력과 일치하는지, 잘못된 입력을 거절하는지."""

import math

import pytest
import torch
from transformers import BertConfig, BertForSequenceClassification, BertModel

from bertlab import attention as A


def _config(**overrides):
    kwargs = dict(
        vocab_size=40, hidden_size=32, num_hidden_layers=3, num_attention_heads=4,
        intermediate_size=64, max_position_embeddings=32, attn_implementation="eager",
    )
    kwargs.update(overrides)
    return BertConfig(**kwargs)


def _model(**overrides):
    torch.manual_seed(0)
    return BertModel(_config(**overrides), add_pooling_layer=True).eval()


@pytest.fixture(scope="module")
def tiny():
    return _model()


@pytest.fixture(scope="module")
def batch():
    # 길이가 다른 두 문장: 둘째 문장에는 [PAD] 가 셋 있다.
    ids = torch.tensor([[2, 11, 12, 13, 14, 15, 3], [2, 21, 22, 3, 0, 0, 0]])
    return {"input_ids": ids, "attention_mask": (ids != 0).long()}


@pytest.fixture(scope="module")
def outputs(tiny, batch):
    with torch.no_grad():
        return tiny(**batch, output_attentions=True, output_hidden_states=True)


def test_every_layer_matches_model(tiny, batch, outputs):
    steps = A.all_layers(tiny, outputs.hidden_states, batch["attention_mask"])
    assert len(steps) == tiny.config.num_hidden_layers
    for s in steps:
        torch.testing.assert_close(s.weights, outputs.attentions[s.layer], atol=1e-6, rtol=1e-5)
        torch.testing.assert_close(s.output, outputs.hidden_states[s.layer + 1], atol=1e-5, rtol=1e-5)


def test_chain_reproduces_whole_encoder(tiny, batch, outputs):
    steps = A.all_layers(tiny, outputs.hidden_states, batch["attention_mask"], chain=True)
    torch.testing.assert_close(steps[-1].output, outputs.last_hidden_state, atol=1e-5, rtol=1e-5)
    # chain=True 는 임베딩만 있으면 된다
    steps2 = A.all_layers(tiny, outputs.hidden_states[:1], batch["attention_mask"], chain=True)
    torch.testing.assert_close(steps2[-1].output, steps[-1].output)


def test_compare_with_model_table(tiny, batch):
    table = A.compare_with_model(tiny, batch)
    assert list(table.index) == list(range(tiny.config.num_hidden_layers))
    assert (table["weights_max_abs_diff"] < 1e-5).all()
    assert (table["output_max_abs_diff"] < 1e-5).all()


def test_intermediate_shapes_and_invariants(tiny, batch, outputs):
    cfg = tiny.config
    s = A.encoder_layer(tiny, outputs.hidden_states[1], 1, batch["attention_mask"])
    B, T = batch["input_ids"].shape
    H, D = cfg.num_attention_heads, cfg.hidden_size
    d = D // H
    assert s.head_size == d and s.num_heads == H
    shapes = s.shapes()
    assert shapes["q"] == (B, T, D)
    assert shapes["q_heads"] == (B, H, T, d)
    assert shapes["scores"] == (B, H, T, T)
    assert shapes["mask"] == (B, 1, 1, T)
    assert shapes["context"] == (B, T, D)
    assert shapes["ffn_hidden"] == (B, T, cfg.intermediate_size)
    # 나누는 값은 헤드 크기의 제곱근 (hidden_size 가 아니다)
    torch.testing.assert_close(s.scaled, s.scores / math.sqrt(d))
    # 행의 합 1, [PAD] 키의 가중치는 정확히 0
    torch.testing.assert_close(s.weights.sum(-1), torch.ones(B, H, T))
    assert torch.all(s.weights[1, :, :, 4:] == 0)
    # 헤드 나누기는 Q의 열을 나눈 것
    torch.testing.assert_close(s.q_heads[:, 2], s.q[..., 2 * d:3 * d])
    assert torch.isfinite(s.masked).all()


def test_no_mask_means_all_real(tiny, outputs):
    x = outputs.hidden_states[0][:1, :7]
    with torch.no_grad():
        ref = tiny(input_ids=torch.tensor([[2, 11, 12, 13, 14, 15, 3]]), output_attentions=True)
    s = A.encoder_layer(tiny, x, 0)
    torch.testing.assert_close(s.weights, ref.attentions[0], atol=1e-6, rtol=1e-5)


def test_parts():
    x = torch.randn(2, 5, 12)
    h = A.split_heads(x, 3)
    assert h.shape == (2, 3, 5, 4)
    torch.testing.assert_close(A.merge_heads(h), x)
    t = torch.linspace(-4, 4, 101)
    torch.testing.assert_close(A.gelu(t), torch.nn.functional.gelu(t))
    assert not torch.allclose(A.gelu(t), torch.nn.functional.gelu(t, approximate="tanh"), atol=1e-6, rtol=0)
    w, b = torch.randn(12), torch.randn(12)
    torch.testing.assert_close(A.layer_norm(x, w, b, 1e-12), torch.nn.functional.layer_norm(x, (12,), w, b, 1e-12))
    m = A.additive_mask(torch.tensor([[1, 1, 0]]))
    assert m.shape == (1, 1, 1, 3)
    assert m[0, 0, 0, 0] == 0 and m[0, 0, 0, 2] == torch.finfo(torch.float32).min
    assert A.additive_mask(torch.tensor([[0, 1]]), dtype=torch.float16)[0, 0, 0, 0] == torch.finfo(torch.float16).min


@pytest.mark.parametrize("act", ["gelu_new", "relu"])
def test_other_activations(act):
    m = _model(hidden_act=act, num_hidden_layers=1)
    ids = torch.tensor([[2, 5, 6, 3]])
    table = A.compare_with_model(m, {"input_ids": ids, "attention_mask": torch.ones_like(ids)})
    assert (table["output_max_abs_diff"] < 1e-5).all()


def test_model_with_head_and_other_sizes():
    torch.manual_seed(1)
    clf = BertForSequenceClassification(_config(hidden_size=48, num_attention_heads=6, num_hidden_layers=2)).eval()
    ids = torch.tensor([[2, 5, 6, 7, 3], [2, 9, 3, 0, 0]])
    table = A.compare_with_model(clf, {"input_ids": ids, "attention_mask": (ids != 0).long()})
    assert len(table) == 2


# --------------------------------------------------------------------------- 오류 경로


def test_layer_errors(tiny, outputs):
    x = outputs.hidden_states[0]
    with pytest.raises(IndexError, match="범위를 벗어났습니다"):
        A.encoder_layer(tiny, x, tiny.config.num_hidden_layers)
    with pytest.raises(IndexError, match="0..2"):
        A.encoder_layer(tiny, x, -1)
    with pytest.raises(TypeError, match="정수"):
        A.encoder_layer(tiny, x, 1.0)
    with pytest.raises(TypeError, match="정수"):
        A.encoder_layer(tiny, x, True)


def test_hidden_errors(tiny, outputs):
    with pytest.raises(TypeError, match="튜플 전체"):
        A.encoder_layer(tiny, outputs.hidden_states, 0)
    with pytest.raises(TypeError, match="torch.Tensor"):
        A.encoder_layer(tiny, outputs.hidden_states[0].numpy(), 0)
    with pytest.raises(ValueError, match="unsqueeze"):
        A.encoder_layer(tiny, outputs.hidden_states[0][0], 0)
    with pytest.raises(ValueError, match="hidden_size=32"):
        A.encoder_layer(tiny, torch.zeros(1, 4, 16), 0)
    with pytest.raises(TypeError, match="dtype"):
        A.encoder_layer(tiny, outputs.hidden_states[0].double(), 0)


def test_mask_errors(tiny, batch, outputs):
    x = outputs.hidden_states[0]
    mask = batch["attention_mask"]
    with pytest.raises(ValueError, match="attention_mask 의 모양"):
        A.encoder_layer(tiny, x, 0, mask[:, :-1])
    with pytest.raises(TypeError, match="torch.Tensor"):
        A.encoder_layer(tiny, x, 0, mask.tolist())
    with pytest.raises(ValueError, match="0\\(패딩\\)과 1"):
        A.encoder_layer(tiny, x, 0, mask * 2)
    bad = mask.clone()
    bad[1] = 0
    with pytest.raises(ValueError, match="하나도 없는"):
        A.encoder_layer(tiny, x, 0, bad)
    with pytest.raises(ValueError, match="\\[B, T\\]"):
        A.additive_mask(mask[0])


def test_model_errors(tiny, batch, outputs):
    with pytest.raises(TypeError, match="BertModel"):
        A.encoder_layer(torch.nn.Linear(2, 2), outputs.hidden_states[0], 0)
    with pytest.raises(TypeError, match="BertModel"):
        A.get_bert("bert")
    with pytest.raises(ValueError, match="is_decoder"):
        A.get_bert(_model(is_decoder=True, num_hidden_layers=1))
    with pytest.raises(ValueError, match="지원하지 않습니다"):
        A.encoder_layer(_model(hidden_act="silu", num_hidden_layers=1), outputs.hidden_states[0], 0)
    with pytest.raises(ValueError, match="헤드"):
        A.split_heads(torch.zeros(1, 2, 10), 3)
    with pytest.raises(ValueError, match="merge_heads"):
        A.merge_heads(torch.zeros(2, 3, 4))


def test_all_layers_and_compare_errors(tiny, batch, outputs):
    with pytest.raises(TypeError, match="outputs.hidden_states"):
        A.all_layers(tiny, outputs.hidden_states[0], batch["attention_mask"])
    with pytest.raises(ValueError, match="output_hidden_states=True"):
        A.all_layers(tiny, outputs.hidden_states[:2], batch["attention_mask"])
    with pytest.raises(TypeError, match="batch"):
        A.compare_with_model(tiny, batch["input_ids"])
    tiny.train()
    try:
        with pytest.raises(ValueError, match="eval"):
            A.compare_with_model(tiny, batch)
    finally:
        tiny.eval()
    sdpa = _model(attn_implementation="sdpa", num_hidden_layers=1)
    with pytest.raises(ValueError, match="eager"):
        A.compare_with_model(sdpa, batch)


def test_shared_fixture_model(tiny_bert, tiny_batch):
    # conftest의 공용 모델(설정에서 output_attentions/hidden_states가 켜짐)로도 같다
    table = A.compare_with_model(tiny_bert, tiny_batch)
    assert (table["output_max_abs_diff"] < 1e-5).all()


def test_bundled_mini_bert(mini_tokenizer):
    # 번들 미니 BERT(있을 때만): 실제 가중치에서도 모든 층이 일치한다
    import bertlab as bl

    _, model = bl.load_bert("mini", quiet=True)
    batch = mini_tokenizer(["배를 타고 바다로 나갔다.", "배가 고프다."], padding=True, return_tensors="pt")
    assert (batch["attention_mask"] == 0).any()
    table = A.compare_with_model(model, batch)
    assert len(table) == model.config.num_hidden_layers
