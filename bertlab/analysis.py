"""어텐션 헤드와 은닉 상태를 분석하는 함수들.

4장 "멀티헤드 어텐션 분석"(ch-multihead)의 헤드 통계와 요약 어텐션, 5장 "은닉 상태와
풀러"(ch-pooler)의 층별 코사인 유사도와 평균 풀링을 모았습니다. 모든 함수는 배치의
``attention_mask`` 를 보고 [PAD] 위치를 계산에서 뺍니다.

헤드 통계(:func:`head_stats`)의 열 (질의 토큰 하나의 어텐션 분포 $a_{i\\cdot}$ 에 대해 계산한 뒤,
문장 안의 실제 토큰에 대해 평균하고 다시 문장들에 대해 평균):

- ``entropy``: $-\\sum_j a_{ij}\\log a_{ij}$ (nats). 작을수록 한두 토큰에 집중.
- ``cls`` / ``sep``: [CLS] / [SEP] 토큰(들)에 간 가중치의 합.
- ``self``: 자기 자신 $a_{ii}$; ``prev`` / ``next``: 바로 앞 $a_{i,i-1}$ / 뒤 $a_{i,i+1}$ 토큰
  (이웃이 있는 질의만 평균).
- ``distance``: 평균 어텐션 거리 $\\sum_j a_{ij}\\,|i-j|$ (토큰 단위).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
import torch
from torch import Tensor

__all__ = [
    "STAT_LABELS",
    "head_stats",
    "stat_map",
    "find_heads",
    "mean_attention",
    "most_attended",
    "cosine_by_layer",
    "layer_similarity",
    "mean_pool",
]

STAT_LABELS: dict[str, str] = {
    "entropy": "엔트로피 (nats)",
    "cls": "[CLS]로 가는 비율",
    "sep": "[SEP]으로 가는 비율",
    "self": "자기 자신으로 가는 비율",
    "prev": "앞 토큰으로 가는 비율",
    "next": "뒤 토큰으로 가는 비율",
    "distance": "평균 어텐션 거리 (토큰)",
}
"""헤드 통계 열 이름 → 그림에 쓸 한국어 이름."""


# ---------------------------------------------------------------------------
# 입력 검사
# ---------------------------------------------------------------------------


def _check_attentions(attentions) -> list[Tensor]:
    if isinstance(attentions, Tensor) or not isinstance(attentions, Sequence):
        raise TypeError(
            "attentions 에는 outputs.attentions (층마다 [B, H, T, T] 텐서 하나인 튜플)를 넘기세요."
        )
    if len(attentions) == 0 or any(a is None for a in attentions):
        raise ValueError(
            "attentions 가 비어 있거나 None이 있습니다: 모델을 attn_implementation=\"eager\"로 불러오고 "
            "output_attentions=True로 실행하세요 "
            "(bl.load_bert()는 그렇게 불러옵니다)."
        )
    first = attentions[0]
    for a in attentions:
        if not isinstance(a, Tensor) or a.dim() != 4 or a.shape[-1] != a.shape[-2]:
            raise ValueError(
                "attentions 의 각 원소는 [문장 수, 헤드 수, T, T] 모양의 텐서여야 합니다 "
                f"(받은 모양: {tuple(getattr(a, 'shape', ()))})."
            )
        if a.shape != first.shape:
            raise ValueError(f"층마다 어텐션 모양이 다릅니다: {tuple(first.shape)} 와 {tuple(a.shape)}.")
    return list(attentions)


def _check_batch(batch, shape: tuple[int, int]) -> tuple[Tensor, Tensor]:
    if not isinstance(batch, Mapping) or "input_ids" not in batch:
        raise TypeError("batch 에는 토크나이저가 돌려준 배치(input_ids, attention_mask)를 넘기세요.")
    ids = batch["input_ids"]
    mask = batch.get("attention_mask")
    if mask is None:
        mask = torch.ones_like(ids)
    if tuple(ids.shape) != shape or tuple(mask.shape) != shape:
        raise ValueError(
            f"batch 의 input_ids/attention_mask 모양 {tuple(ids.shape)} 이(가) 어텐션의 "
            f"[문장 수, 토큰 수] = {shape} 와 다릅니다: 같은 배치로 모델을 실행한 결과를 넘기세요."
        )
    return ids.cpu(), mask.cpu().to(torch.bool)


def _special_ids(tokenizer, cls_id, sep_id) -> tuple[int, int]:
    if tokenizer is not None:
        cls_id = tokenizer.cls_token_id if cls_id is None else cls_id
        sep_id = tokenizer.sep_token_id if sep_id is None else sep_id
    if cls_id is None or sep_id is None:
        raise ValueError("[CLS]/[SEP] 토큰 번호를 알 수 없습니다: tokenizer 를 넘기세요.")
    return int(cls_id), int(sep_id)


def _masked_mean(values: Tensor, weights: Tensor) -> Tensor:
    """[..., B, T] 값을 질의 가중치 [B, T]로 문장마다 평균한 뒤 문장들에 대해 평균 → [...]."""
    per_sentence = (values * weights).sum(-1) / weights.sum(-1).clamp_min(1.0)
    has_any = (weights.sum(-1) > 0).to(values.dtype)  # 이웃이 하나도 없는 문장은 빼고 평균
    return (per_sentence * has_any).sum(-1) / has_any.sum().clamp_min(1.0)


# ---------------------------------------------------------------------------
# 헤드 통계 (4장)
# ---------------------------------------------------------------------------


def head_stats(attentions, batch, tokenizer=None, *, cls_id: int | None = None, sep_id: int | None = None) -> pd.DataFrame:
    """모든 층 × 헤드의 어텐션 통계를 한 행씩 담은 표. (4장)

    Args:
        attentions: ``outputs.attentions`` (층마다 [B, H, T, T]).
        batch: 같은 실행에 쓴 배치 (``input_ids``, ``attention_mask``).
        tokenizer: [CLS]/[SEP] 번호를 읽을 토크나이저 (또는 ``cls_id``, ``sep_id``).

    Returns:
        열 ``layer, head`` 와 :data:`STAT_LABELS` 의 통계들. 패딩은 질의와 키 모두에서 빠지고,
        값은 문장마다 실제 토큰에 대해 평균한 뒤 문장들에 대해 평균한 것입니다.
    """
    attns = _check_attentions(attentions)
    batch_size, _, length, _ = attns[0].shape
    ids, real = _check_batch(batch, (batch_size, length))
    cls_id, sep_id = _special_ids(tokenizer, cls_id, sep_id)

    real_f = real.to(torch.float64)  # [B, T] 질의 가중치
    pos = torch.arange(length, dtype=torch.float64)
    dist = (pos[:, None] - pos[None, :]).abs()  # [T, T]
    is_cls = (ids == cls_id).to(torch.float64) * real_f  # [B, T] 키
    is_sep = (ids == sep_id).to(torch.float64) * real_f
    has_prev = real_f.clone()
    has_prev[:, 0] = 0.0
    has_next = torch.zeros_like(real_f)
    has_next[:, :-1] = real_f[:, 1:]
    has_next = has_next * real_f

    rows = []
    for layer, a in enumerate(attns):
        a = a.detach().cpu().to(torch.float64).permute(1, 0, 2, 3)  # [H, B, T, T]
        a = a * real_f[None, :, None, :]  # 패딩 키(이미 0)를 확실히 0으로
        plogp = torch.where(a > 0, a * torch.log(a.clamp_min(1e-300)), torch.zeros_like(a))
        diag = torch.diagonal(a, dim1=-2, dim2=-1)  # [H, B, T]
        prev = torch.zeros_like(diag)
        prev[..., 1:] = torch.diagonal(a, offset=-1, dim1=-2, dim2=-1)
        nxt = torch.zeros_like(diag)
        nxt[..., :-1] = torch.diagonal(a, offset=1, dim1=-2, dim2=-1)
        stats = {
            "entropy": _masked_mean(-plogp.sum(-1), real_f),
            "cls": _masked_mean((a * is_cls[None, :, None, :]).sum(-1), real_f),
            "sep": _masked_mean((a * is_sep[None, :, None, :]).sum(-1), real_f),
            "self": _masked_mean(diag, real_f),
            "prev": _masked_mean(prev, has_prev),
            "next": _masked_mean(nxt, has_next),
            "distance": _masked_mean((a * dist).sum(-1), real_f),
        }
        for head in range(a.shape[0]):
            rows.append({"layer": layer, "head": head, **{k: float(v[head]) for k, v in stats.items()}})
    return pd.DataFrame(rows)


def stat_map(stats: pd.DataFrame, column: str) -> pd.DataFrame:
    """:func:`head_stats` 표에서 통계 하나를 층 × 헤드 표로 펼칩니다. (4장)"""
    if column not in stats.columns or column in ("layer", "head"):
        choices = [c for c in stats.columns if c not in ("layer", "head")]
        raise KeyError(f"통계 {column!r} 이(가) 없습니다: {choices} 중 하나를 고르세요.")
    return stats.pivot(index="layer", columns="head", values=column)


def find_heads(stats: pd.DataFrame, column: str, *, above: float | None = None, below: float | None = None) -> pd.DataFrame:
    """통계 ``column`` 이 ``above`` 보다 크거나 ``below`` 보다 작은 헤드를 값 순서로 돌려줍니다. (4장)

    Clark et al. (2019)처럼 위치 헤드(``prev``/``next`` 가 큼)나 [SEP] 헤드(``sep`` 가 큼)를
    데이터에서 고를 때 씁니다.
    """
    stat_map(stats, column)  # 열 이름 검사
    if (above is None) == (below is None):
        raise ValueError("above 와 below 중 정확히 하나를 지정하세요.")
    if above is not None:
        picked = stats[stats[column] > above].sort_values(column, ascending=False)
    else:
        picked = stats[stats[column] < below].sort_values(column, ascending=True)
    return picked.reset_index(drop=True)


# ---------------------------------------------------------------------------
# 요약 어텐션 (4장)
# ---------------------------------------------------------------------------


def mean_attention(
    attentions,
    batch,
    tokenizer,
    *,
    index: int = 0,
    drop_special: bool = True,
    mask_diagonal: bool = True,
) -> pd.DataFrame:
    """문장 ``index`` 의 어텐션을 모든 층·헤드에 대해 평균한 토큰 × 토큰 표. (4장)

    패딩은 잘라 내고, ``drop_special`` 이면 [CLS]/[SEP] 행·열을 빼며, ``mask_diagonal`` 이면
    자기 자신(대각선)을 0으로 둡니다. 행을 뺀 뒤에는 각 행의 합이 1이 되도록 다시 나눕니다.
    행 = 주목하는 토큰(질의), 열 = 주목받는 토큰(키).
    """
    attns = _check_attentions(attentions)
    batch_size, _, length, _ = attns[0].shape
    ids, real = _check_batch(batch, (batch_size, length))
    if isinstance(index, bool) or not isinstance(index, int):
        raise TypeError(f"index 는 정수여야 합니다 (받은 것: {type(index).__name__}).")
    if not 0 <= index < batch_size:
        raise IndexError(f"index={index} 은(는) 범위를 벗어났습니다: 배치의 문장은 0..{batch_size - 1} 입니다.")
    keep = real[index].clone()
    if drop_special:
        cls_id, sep_id = _special_ids(tokenizer, None, None)
        keep &= (ids[index] != cls_id) & (ids[index] != sep_id)
    positions = torch.nonzero(keep).flatten()
    if len(positions) < 2:
        raise ValueError("특수 토큰을 빼고 나면 토큰이 2개보다 적어 요약할 수 없습니다.")
    mean = torch.stack([a[index].detach().cpu().to(torch.float64) for a in attns]).mean(dim=(0, 1))
    m = mean[positions][:, positions]
    if mask_diagonal:
        m.fill_diagonal_(0.0)
    m = m / m.sum(-1, keepdim=True)
    tokens = tokenizer.convert_ids_to_tokens(ids[index][positions].tolist())
    return pd.DataFrame(m.numpy(), index=tokens, columns=tokens)


def most_attended(matrix: pd.DataFrame) -> pd.DataFrame:
    """토큰 × 토큰 어텐션 표에서 행마다 가장 큰 열을 골라 "각 토큰이 가장 주목하는 토큰" 표를 만듭니다. (4장)"""
    if not isinstance(matrix, pd.DataFrame) or matrix.shape[0] != matrix.shape[1]:
        raise TypeError("matrix 에는 mean_attention()이 돌려준 정사각 DataFrame을 넘기세요.")
    values = matrix.to_numpy()
    best = values.argmax(axis=1)
    return pd.DataFrame(
        {
            "토큰": list(matrix.index),
            "가장 주목하는 토큰": [matrix.columns[j] for j in best],
            "가중치": values[np.arange(len(best)), best],
        }
    )


# ---------------------------------------------------------------------------
# 은닉 상태 (5장)
# ---------------------------------------------------------------------------


def _check_hidden_states(hidden_states) -> Tensor:
    if isinstance(hidden_states, Tensor) or not isinstance(hidden_states, Sequence) or len(hidden_states) < 2:
        raise TypeError("hidden_states 에는 outputs.hidden_states (임베딩 + 층마다 텐서 하나인 튜플)를 넘기세요.")
    first = hidden_states[0]
    for h in hidden_states:
        if not isinstance(h, Tensor) or h.dim() != 3 or h.shape != first.shape:
            raise ValueError("hidden_states 의 원소는 모두 같은 [문장 수, 토큰 수, 차원] 모양의 텐서여야 합니다.")
    return torch.stack([h.detach().cpu().to(torch.float64) for h in hidden_states])  # [L+1, B, T, D]


def cosine_by_layer(hidden_states, reference: int = 0) -> Tensor:
    """각 토큰 벡터와 같은 토큰의 ``reference`` 층 벡터 사이 코사인 유사도, [L+1, B, T]. (5장)

    기본값 ``reference=0`` 은 임베딩 층입니다: 층이 깊어질수록 토큰이 처음 벡터에서 얼마나
    멀어지는지 봅니다.
    """
    h = _check_hidden_states(hidden_states)
    if isinstance(reference, bool) or not isinstance(reference, int):
        raise TypeError("reference 는 정수 층 번호여야 합니다.")
    if not 0 <= reference < h.shape[0]:
        raise IndexError(
            f"reference={reference} 은(는) 범위를 벗어났습니다: hidden_states 는 0..{h.shape[0] - 1} 입니다."
        )
    return torch.nn.functional.cosine_similarity(h, h[reference][None], dim=-1)


def layer_similarity(hidden_states, attention_mask: Tensor | None = None) -> pd.DataFrame:
    """``hidden_states[a]`` 와 ``hidden_states[b]`` 에서 같은 토큰 벡터의 평균 코사인 유사도,
    (L+1) × (L+1) 표. (5장)

    [PAD] 위치는 빼고 실제 토큰들에 대해 평균합니다. 행·열 번호는 ``hidden_states`` 의 번호이고
    0은 임베딩입니다.
    """
    h = _check_hidden_states(hidden_states)
    n, batch, length, _ = h.shape
    if attention_mask is None:
        real = torch.ones(batch, length, dtype=torch.bool)
    else:
        if tuple(attention_mask.shape) != (batch, length):
            raise ValueError(
                f"attention_mask 의 모양 {tuple(attention_mask.shape)} 이(가) hidden_states 의 "
                f"{(batch, length)} 와 다릅니다."
            )
        real = attention_mask.cpu().to(torch.bool)
    vecs = torch.nn.functional.normalize(h[:, real], dim=-1)  # [L+1, N, D]
    sim = torch.einsum("and,bnd->abn", vecs, vecs).mean(-1)
    frame = pd.DataFrame(sim.numpy(), index=range(n), columns=range(n))
    frame.index.name = frame.columns.name = "hidden_states"
    return frame


def mean_pool(last_hidden_state: Tensor, attention_mask: Tensor) -> Tensor:
    """실제 토큰(마스크 1)만 평균한 문장 벡터, [B, D]. 패딩은 평균에 들어가지 않습니다. (5장)"""
    if not isinstance(last_hidden_state, Tensor):
        raise TypeError(f"last_hidden_state 는 torch.Tensor 여야 합니다 (받은 것: {type(last_hidden_state).__name__}).")
    if last_hidden_state.dim() != 3:
        raise ValueError(
            f"last_hidden_state 는 [문장 수, 토큰 수, 차원] 모양이어야 합니다 (받은 모양: {tuple(last_hidden_state.shape)})."
        )
    if not isinstance(attention_mask, Tensor):
        raise TypeError(f"attention_mask 는 torch.Tensor 여야 합니다 (받은 것: {type(attention_mask).__name__}).")
    if tuple(attention_mask.shape) != tuple(last_hidden_state.shape[:2]):
        raise ValueError(
            f"attention_mask 의 모양 {tuple(attention_mask.shape)} 이(가) last_hidden_state 의 "
            f"[문장 수, 토큰 수] = {tuple(last_hidden_state.shape[:2])} 와 다릅니다: 같은 배치의 마스크를 넘기세요."
        )
    w = attention_mask.to(last_hidden_state.dtype).unsqueeze(-1)
    return (last_hidden_state * w).sum(1) / w.sum(1).clamp_min(1.0)
