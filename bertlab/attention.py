"""BERT 인코더 층 하나를 모델의 실제 가중치로 손수 계산합니다.

3장 "어텐션 직접 계산하기"(:ref:`ch-attention`)에서 한 단계씩 설명한 코드를 모은 모듈입니다.
코드 번호 ``layer`` 인 층(본문의 ``layer + 1`` 층)의 입력 ``hidden_states[layer]`` 에서 출발해
3장의 1~8단계(Q·K·V 투영, 헤드로 나누기, 점수 $QK^\\top$ 를 $\\sqrt{d_k}$ 로 나누기, [PAD] 마스크,
소프트맥스, 가중합·헤드 합치기·출력 투영, 잔차 연결 + LayerNorm, GELU 피드포워드 + 잔차 연결 + LayerNorm)의
모든 중간값을 :class:`LayerSteps` 에 담아 돌려줍니다. 크기는 모두 ``model.config`` 에서 읽으므로
미니 BERT, mBERT, KLUE BERT 어느 것에나 쓸 수 있습니다.

기호는 3장과 용어집을 따릅니다: B = 문장 수, T = 토큰 수(패딩 포함), H = 은닉 크기(``hidden_size``),
A = 헤드 수, d_k = H / A = 헤드 크기, d_ff = ``intermediate_size``.

예::

    out = model(**batch)                       # output_hidden_states/attentions 켜짐
    steps = encoder_layer(model, out.hidden_states[0], layer=0,
                          attention_mask=batch["attention_mask"])
    torch.testing.assert_close(steps.weights, out.attentions[0])
    torch.testing.assert_close(steps.output, out.hidden_states[1])
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields

import torch
from torch import Tensor

__all__ = [
    "LayerSteps",
    "get_bert",
    "check_layer",
    "split_heads",
    "merge_heads",
    "additive_mask",
    "gelu",
    "layer_norm",
    "encoder_layer",
    "all_layers",
    "compare_with_model",
]


@dataclass
class LayerSteps:
    """인코더 층 하나를 손으로 계산한 모든 중간값 (3장).

    모양 기호(3장과 같음): B = 문장 수, T = 토큰 수(패딩 포함), H = 은닉 크기(``hidden_size``),
    A = 헤드 수, d_k = H / A = 헤드 크기, d_ff = ``intermediate_size``.
    """

    layer: int
    """코드의 층 번호 (0부터; 본문의 ``layer + 1`` 층)."""
    num_heads: int
    """헤드 수 A."""
    head_size: int
    """헤드 크기 d_k = H / A. 점수를 나누는 값은 $\\sqrt{d_k}$ 입니다."""
    x: Tensor
    """층의 입력 ``hidden_states[layer]``, [B, T, H]."""
    q: Tensor
    """1단계: $Q = XW_Q + b_Q$, [B, T, H]."""
    k: Tensor
    """1단계: $K = XW_K + b_K$, [B, T, H]."""
    v: Tensor
    """1단계: $V = XW_V + b_V$, [B, T, H]."""
    q_heads: Tensor
    """2단계: 헤드로 나눈 Q, [B, A, T, d_k]."""
    k_heads: Tensor
    """2단계: 헤드로 나눈 K, [B, A, T, d_k]."""
    v_heads: Tensor
    """2단계: 헤드로 나눈 V, [B, A, T, d_k]."""
    scores: Tensor
    """3단계: $QK^\\top$, [B, A, T, T]."""
    scaled: Tensor
    """3단계: $QK^\\top/\\sqrt{d_k}$, [B, A, T, T]."""
    mask: Tensor
    """4단계: 덧셈 마스크(실제 토큰 0, [PAD] 키는 ``torch.finfo(dtype).min``), [B, 1, 1, T]."""
    masked: Tensor
    """4단계: 마스크를 더한 점수, [B, A, T, T]."""
    weights: Tensor
    """5단계: 소프트맥스 어텐션 가중치 P(행의 합 1), [B, A, T, T] = ``outputs.attentions[layer]``."""
    context_heads: Tensor
    """6단계: 헤드별 가중합 $PV$, [B, A, T, d_k]."""
    context: Tensor
    """6단계: 헤드를 다시 이어 붙인 결과, [B, T, H]."""
    attn_output: Tensor
    """6단계: 출력 투영 $W_O$ 를 거친 결과, [B, T, H]."""
    attn_norm: Tensor
    """7단계: 잔차 연결 + LayerNorm, LN(x + attn_output), [B, T, H]."""
    ffn_hidden: Tensor
    """8단계: 피드포워드 첫 선형층(활성화 전), [B, T, d_ff]."""
    ffn_act: Tensor
    """8단계: GELU를 지난 값, [B, T, d_ff]."""
    ffn_output: Tensor
    """8단계: 피드포워드 둘째 선형층, [B, T, H]."""
    output: Tensor
    """8단계: 잔차 연결 + LayerNorm, 곧 층의 출력 = ``hidden_states[layer + 1]``, [B, T, H]."""

    def shapes(self) -> dict[str, tuple[int, ...]]:
        """텐서 중간값마다 이름 → 모양 사전을 돌려줍니다 (표로 보여 주기 좋게)."""
        return {
            f.name: tuple(getattr(self, f.name).shape)
            for f in fields(self)
            if isinstance(getattr(self, f.name), Tensor)
        }


# ---------------------------------------------------------------------------
# 입력 검사
# ---------------------------------------------------------------------------


def get_bert(model):
    """``BertModel`` 을 찾아 돌려줍니다. ``BertForSequenceClassification`` 처럼 ``.bert`` 를
    가진 모델이면 그 안의 ``BertModel`` 을 꺼냅니다. (3장)"""
    inner = getattr(model, "bert", None)
    if inner is not None and hasattr(inner, "encoder"):
        model = inner
    encoder = getattr(model, "encoder", None)
    if not isinstance(model, torch.nn.Module) or encoder is None or not hasattr(encoder, "layer"):
        raise TypeError(
            f"model 은(는) transformers의 BertModel이어야 합니다 (받은 것: {type(model).__name__}). "
            "bl.load_bert()가 돌려준 모델을 넘기세요."
        )
    if getattr(model.config, "is_decoder", False):
        raise ValueError(
            "이 함수는 양방향 인코더(BERT)만 계산합니다: config.is_decoder=True 인 모델은 지원하지 않습니다."
        )
    return model


def check_layer(model, layer) -> int:
    """층 번호가 정수이고 ``0..num_hidden_layers-1`` 범위인지 확인합니다. (3장)"""
    bert = get_bert(model)
    n = len(bert.encoder.layer)
    if isinstance(layer, bool) or not isinstance(layer, int):
        raise TypeError(f"layer 는 정수여야 합니다 (받은 것: {type(layer).__name__}).")
    if not 0 <= layer < n:
        raise IndexError(f"layer={layer} 은(는) 범위를 벗어났습니다: 이 모델의 층은 0..{n - 1} 입니다.")
    return layer


def _check_hidden(bert, hidden) -> Tensor:
    if isinstance(hidden, (tuple, list)):
        raise TypeError(
            "hidden 에는 텐서 하나(hidden_states[ℓ])를 넘기세요: 튜플 전체(outputs.hidden_states)가 들어왔습니다."
        )
    if not isinstance(hidden, Tensor):
        raise TypeError(f"hidden 은(는) torch.Tensor 여야 합니다 (받은 것: {type(hidden).__name__}).")
    size = bert.config.hidden_size
    if hidden.dim() != 3:
        raise ValueError(
            f"hidden 의 모양은 [문장 수, 토큰 수, {size}] 여야 합니다 (받은 모양: {tuple(hidden.shape)}). "
            "문장 하나라면 hidden.unsqueeze(0)으로 배치 차원을 더하세요."
        )
    if hidden.shape[-1] != size:
        raise ValueError(
            f"hidden 의 마지막 차원 {hidden.shape[-1]} 이(가) 모델의 hidden_size={size} 와 다릅니다: "
            "같은 모델의 hidden_states를 넘기세요."
        )
    weight_dtype = bert.encoder.layer[0].attention.self.query.weight.dtype
    if hidden.dtype != weight_dtype:
        raise TypeError(
            f"hidden 의 dtype {hidden.dtype} 이(가) 모델 가중치의 dtype {weight_dtype} 와 다릅니다: "
            f"hidden.to({weight_dtype})로 맞추세요."
        )
    return hidden


def _check_mask(attention_mask, hidden: Tensor) -> Tensor:
    batch, length = hidden.shape[:2]
    if attention_mask is None:
        return torch.ones(batch, length, dtype=torch.long, device=hidden.device)
    if not isinstance(attention_mask, Tensor):
        raise TypeError(
            f"attention_mask 는 torch.Tensor 여야 합니다 (받은 것: {type(attention_mask).__name__})."
        )
    if tuple(attention_mask.shape) != (batch, length):
        raise ValueError(
            f"attention_mask 의 모양 {tuple(attention_mask.shape)} 이(가) hidden 의 [문장 수, 토큰 수] = "
            f"{(batch, length)} 와 다릅니다: 토크나이저가 같은 배치에서 만든 attention_mask를 넘기세요."
        )
    if not bool(((attention_mask == 0) | (attention_mask == 1)).all()):
        raise ValueError("attention_mask 에는 0(패딩)과 1(실제 토큰)만 있어야 합니다.")
    if not bool((attention_mask != 0).any(dim=-1).all()):
        raise ValueError("attention_mask 에 실제 토큰이 하나도 없는 문장이 있습니다.")
    return attention_mask.to(hidden.device)


# ---------------------------------------------------------------------------
# 작은 부품들
# ---------------------------------------------------------------------------


def split_heads(x: Tensor, num_heads: int) -> Tensor:
    """[B, T, H] → [B, A, T, d_k]: 헤드 A개로 나눕니다(d_k = H/A). (3장 2단계)

    헤드 h는 열 h·d_k부터 (h+1)·d_k − 1까지를 가져갑니다.
    ``view`` 는 값을 복사하지 않고 같은 수들을 [B, T, A, d_k]로
    다시 읽을 뿐이고, ``transpose(1, 2)`` 는 헤드 축을 토큰 축 앞으로
    옮겨 헤드마다 [T, d_k] 행렬 하나가 되게 합니다.
    """
    if x.dim() != 3:
        raise ValueError(f"split_heads 는 [B, T, H] 텐서를 받습니다 "
                         f"(받은 모양: {tuple(x.shape)}).")
    batch, length, dim = x.shape
    if num_heads <= 0 or dim % num_heads:
        raise ValueError(f"차원 {dim} 을(를) 헤드 {num_heads}개로 "
                         "똑같이 나눌 수 없습니다.")
    return x.view(batch, length, num_heads, dim // num_heads).transpose(1, 2)


def merge_heads(x: Tensor) -> Tensor:
    """[B, A, T, d_k] → [B, T, H]: 헤드별 결과를 이어 붙입니다. (3장 6단계)

    :func:`split_heads` 를 거꾸로 합니다. ``transpose(1, 2)`` 로 토큰
    축을 다시 앞으로 옮기고, ``reshape`` 로 헤드 A개의 d_k 차원을 한
    줄로 잇습니다(헤드 0의 열이 맨 앞).
    """
    if x.dim() != 4:
        raise ValueError(f"merge_heads 는 [B, A, T, d_k] 텐서를 받습니다 "
                         f"(받은 모양: {tuple(x.shape)}).")
    batch, heads, length, size = x.shape
    return x.transpose(1, 2).reshape(batch, length, heads * size)


def additive_mask(attention_mask: Tensor,
                  dtype: torch.dtype = torch.float32) -> Tensor:
    """[B, T]의 0/1 마스크를 [B, 1, 1, T] 덧셈 마스크 M으로. (3장 4단계)

    키 j가 실제 토큰(1)이면 M의 j열은 0이고, [PAD](0)이면
    ``torch.finfo(dtype).min``, 곧 그 자료형이 나타낼 수 있는 가장
    작은 유한한 수입니다. 가운데 두 축(헤드, 질의)은 크기가 1이라
    [B, A, T, T] 점수에 더할 때 브로드캐스팅으로 퍼집니다.
    transformers도 같은 값을 씁니다. −∞와 달리 모든 키가 가려져도
    NaN이 나오지 않고, 보통 크기의 점수에 더해도 그 최솟값 그대로라서
    소프트맥스 뒤 가중치가 정확히 0이 됩니다.
    """
    if attention_mask.dim() != 2:
        raise ValueError(f"attention_mask 는 [B, T] 모양이어야 합니다 "
                         f"(받은 모양: {tuple(attention_mask.shape)}).")
    keep = attention_mask.to(torch.bool)[:, None, None, :]
    zero = torch.zeros((), dtype=dtype, device=attention_mask.device)
    low = torch.tensor(torch.finfo(dtype).min, dtype=dtype,
                       device=attention_mask.device)
    return torch.where(keep, zero, low)


def gelu(x: Tensor) -> Tensor:
    """BERT의 ``"gelu"``: x·Φ(x) = x/2 · (1 + erf(x/√2)). (3장 8단계)

    tanh 근사가 아닌 정확한 erf 형태이고, Φ는 표준정규분포의
    누적분포함수입니다.
    """
    return 0.5 * x * (1.0 + torch.erf(x / math.sqrt(2.0)))


def _gelu_tanh(x: Tensor) -> Tensor:
    # GPT-2 계열의 tanh 근사 ("gelu_new")
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x.pow(3))))


_ACTIVATIONS = {
    "gelu": gelu,
    "gelu_new": _gelu_tanh,
    "gelu_pytorch_tanh": _gelu_tanh,
    "relu": torch.relu,
}


def _activation(config):
    name = config.hidden_act
    if not isinstance(name, str) or name not in _ACTIVATIONS:
        raise ValueError(
            f"활성화 함수 {name!r} 은(는) 지원하지 않습니다: {sorted(_ACTIVATIONS)} 중 하나여야 합니다."
        )
    return _ACTIVATIONS[name]


def layer_norm(x: Tensor, weight: Tensor, bias: Tensor, eps: float) -> Tensor:
    """마지막 차원의 LayerNorm: γ · (x − μ) / √(σ² + ε) + β. (3장 7·8단계)

    마지막 차원은 토큰 하나의 H개 성분입니다. ``weight`` 가 γ,
    ``bias`` 가 β, ``eps`` 가 ε(``config.layer_norm_eps``)입니다.
    분산은 n − 1이 아니라 n으로 나누므로(``unbiased=False``)
    ``torch.nn.functional.layer_norm`` 과 같은 값을 냅니다.
    """
    mean = x.mean(dim=-1, keepdim=True)
    var = x.var(dim=-1, unbiased=False, keepdim=True)
    return (x - mean) / torch.sqrt(var + eps) * weight + bias


def _linear(x: Tensor, module: torch.nn.Linear) -> Tensor:
    # nn.Linear의 가중치는 [출력, 입력] 모양이므로 xWᵀ + b 입니다.
    return x @ module.weight.T + module.bias


# ---------------------------------------------------------------------------
# 층 하나, 모든 층
# ---------------------------------------------------------------------------


@torch.no_grad()
def encoder_layer(model, hidden: Tensor, layer: int, attention_mask: Tensor | None = None) -> LayerSteps:
    """층 ``layer`` 를 모델의 실제 가중치로 손수 계산하고 모든 중간값을 돌려줍니다. (3장)

    Args:
        model: ``BertModel`` (또는 ``.bert`` 를 가진 BERT 모델).
        hidden: 그 층의 입력 ``outputs.hidden_states[layer]``, [B, T, hidden_size].
        layer: 층 번호, ``0..num_hidden_layers-1``.
        attention_mask: 토크나이저의 0/1 마스크 [B, T]; ``None`` 이면 모든 토큰이 실제 토큰.

    Returns:
        :class:`LayerSteps`. ``weights`` 는 ``outputs.attentions[layer]`` 와,
        ``output`` 은 ``outputs.hidden_states[layer + 1]`` 과 같아야 합니다.
    """
    bert = get_bert(model)
    layer = check_layer(bert, layer)
    x = _check_hidden(bert, hidden)
    mask01 = _check_mask(attention_mask, x)
    config = bert.config
    block = bert.encoder.layer[layer]
    sa = block.attention.self
    num_heads = config.num_attention_heads
    head_size = config.hidden_size // num_heads
    eps = config.layer_norm_eps

    # 1단계: Q, K, V 투영
    q, k, v = _linear(x, sa.query), _linear(x, sa.key), _linear(x, sa.value)
    # 2단계: 헤드로 나누기 [B, A, T, d_k]
    qh, kh, vh = (split_heads(t, num_heads) for t in (q, k, v))
    # 3단계: 점수 QKᵀ를 √d_k 로 나누기
    scores = qh @ kh.transpose(-1, -2)
    scaled = scores / math.sqrt(head_size)
    # 4단계: [PAD] 키에 덧셈 마스크, 5단계: 소프트맥스
    mask = additive_mask(mask01, dtype=scaled.dtype)
    masked = scaled + mask
    weights = torch.softmax(masked, dim=-1)
    # 6단계: 가중합, 헤드 합치기, 출력 투영
    context_heads = weights @ vh
    context = merge_heads(context_heads)
    out = block.attention.output
    attn_output = _linear(context, out.dense)
    # 7단계: 잔차 연결 + LayerNorm
    attn_norm = layer_norm(x + attn_output, out.LayerNorm.weight, out.LayerNorm.bias, eps)
    # 8단계: 피드포워드(GELU), 잔차 연결 + LayerNorm
    ffn_hidden = _linear(attn_norm, block.intermediate.dense)
    ffn_act = _activation(config)(ffn_hidden)
    ffn_output = _linear(ffn_act, block.output.dense)
    ln = block.output.LayerNorm
    output = layer_norm(attn_norm + ffn_output, ln.weight, ln.bias, eps)

    return LayerSteps(
        layer=layer, num_heads=num_heads, head_size=head_size, x=x,
        q=q, k=k, v=v, q_heads=qh, k_heads=kh, v_heads=vh,
        scores=scores, scaled=scaled, mask=mask, masked=masked, weights=weights,
        context_heads=context_heads, context=context, attn_output=attn_output, attn_norm=attn_norm,
        ffn_hidden=ffn_hidden, ffn_act=ffn_act, ffn_output=ffn_output, output=output,
    )


def all_layers(
    model,
    hidden_states: Sequence[Tensor],
    attention_mask: Tensor | None = None,
    *,
    chain: bool = False,
) -> list[LayerSteps]:
    """모든 층을 손으로 계산합니다. (3장)

    ``chain=False`` (기본)이면 층 ℓ의 입력으로 모델의 ``hidden_states[ℓ]`` 을 씁니다(층마다 따로
    검증). ``chain=True`` 이면 ``hidden_states[0]`` (임베딩)에서 출발해 손으로 계산한 출력을 다음
    층에 넘깁니다(인코더 전체를 손으로 재현).
    """
    bert = get_bert(model)
    n = len(bert.encoder.layer)
    if isinstance(hidden_states, Tensor) or not isinstance(hidden_states, Sequence):
        raise TypeError(
            "hidden_states 에는 outputs.hidden_states (층마다 텐서 하나인 튜플)를 넘기세요."
        )
    needed = 1 if chain else n
    if len(hidden_states) < needed:
        raise ValueError(
            f"hidden_states 에 텐서가 {len(hidden_states)}개뿐입니다: 이 모델에는 임베딩 + 층 {n}개 = "
            f"{n + 1}개가 필요합니다 (output_hidden_states=True로 실행하세요)."
        )
    steps: list[LayerSteps] = []
    current = hidden_states[0]
    for layer in range(n):
        x = current if chain else hidden_states[layer]
        s = encoder_layer(bert, x, layer, attention_mask)
        steps.append(s)
        current = s.output
    return steps


def compare_with_model(
    model,
    batch: Mapping[str, Tensor],
    *,
    atol: float = 1e-5,
    rtol: float = 1e-5,
    check: bool = True,
):
    """모델을 실행하고 층마다 손 계산과 비교한 표를 돌려줍니다. (3장)

    표의 열: ``layer``, ``weights_max_abs_diff`` (손 계산 가중치 vs ``outputs.attentions[ℓ]``),
    ``output_max_abs_diff`` (손 계산 출력 vs ``hidden_states[ℓ+1]``). ``check=True`` 이면
    ``torch.testing.assert_close(atol, rtol)`` 로 검증해 다르면 ``AssertionError`` 를 냅니다.
    """
    import pandas as pd

    bert = get_bert(model)
    if not isinstance(batch, Mapping) or "input_ids" not in batch:
        raise TypeError("batch 에는 토크나이저가 돌려준 배치(input_ids, attention_mask)를 넘기세요.")
    if bert.training:
        raise ValueError("모델이 학습 모드라 드롭아웃이 켜져 있습니다: model.eval()을 먼저 호출하세요.")
    inputs = {key: batch[key] for key in ("input_ids", "attention_mask", "token_type_ids") if key in batch}
    with torch.no_grad():
        outputs = bert(**inputs, output_attentions=True, output_hidden_states=True)
    attns = outputs.attentions
    if not attns or len(attns) != len(bert.encoder.layer) or any(a is None for a in attns):
        raise ValueError(
            "모델이 어텐션 가중치를 돌려주지 않습니다: attn_implementation=\"eager\"로 불러오세요 "
            "(bl.load_bert()는 그렇게 불러옵니다)."
        )
    steps = all_layers(bert, outputs.hidden_states, inputs.get("attention_mask"))
    rows = []
    for s in steps:
        ref_w = outputs.attentions[s.layer]
        ref_h = outputs.hidden_states[s.layer + 1]
        rows.append(
            {
                "layer": s.layer,
                "weights_max_abs_diff": float((s.weights - ref_w).abs().max()),
                "output_max_abs_diff": float((s.output - ref_h).abs().max()),
            }
        )
        if check:
            torch.testing.assert_close(s.weights, ref_w, atol=atol, rtol=rtol)
            torch.testing.assert_close(s.output, ref_h, atol=atol, rtol=rtol)
    return pd.DataFrame(rows).set_index("layer")
