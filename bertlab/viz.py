"""어텐션과 헤드 통계를 그리는 함수들 (3–5장).

모든 그림이 같은 모양을 갖도록 크기(:data:`FIGSIZE`, 격자 칸 :data:`PANEL`)와 색 지도
(:data:`CMAP`)를 한곳에서 정합니다. 한국어 글꼴은 ``bl.setup()`` 이 등록하므로 여기서는
등록하지 않습니다. 함수는 그림을 그린 ``Axes`` 또는 ``Figure`` 를 돌려주고 ``plt.show()`` 는
부르지 않습니다.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

__all__ = [
    "FIGSIZE",
    "PANEL",
    "CMAP",
    "heatmap",
    "head_grid",
    "layer_head_map",
    "stat_maps",
    "layer_lines",
]

FIGSIZE: tuple[float, float] = (6.4, 5.2)
"""그림 하나의 기본 크기 (인치)."""
PANEL: float = 2.8
"""격자 그림에서 칸 하나의 크기 (인치)."""
CMAP: str = "viridis"
"""모든 히트맵의 색 지도."""


def _plt():
    import matplotlib.pyplot as plt

    return plt


def _to_float_array(x) -> np.ndarray | None:
    """torch.Tensor나 numpy 배열이면 float64 numpy 배열로, 아니면 None."""
    if hasattr(x, "detach"):  # torch.Tensor
        return x.detach().cpu().double().numpy()
    if isinstance(x, np.ndarray):
        return x.astype(float)
    return None


def _as_2d(matrix, name: str = "matrix") -> tuple[np.ndarray, list | None, list | None]:
    rows = cols = None
    if isinstance(matrix, pd.DataFrame):
        rows, cols = [str(x) for x in matrix.index], [str(x) for x in matrix.columns]
        arr = matrix.to_numpy(dtype=float)
    else:
        arr = _to_float_array(matrix)
    if arr is None:
        raise TypeError(
            f"{name} 은(는) torch.Tensor, numpy 배열, DataFrame 중 하나여야 합니다 (받은 것: {type(matrix).__name__})."
        )
    if arr.ndim != 2:
        raise ValueError(f"{name} 은(는) 2차원이어야 합니다 (받은 모양: {arr.shape}).")
    return arr, rows, cols


def _check_labels(labels, n: int, what: str) -> list[str] | None:
    if labels is None:
        return None
    labels = [str(x) for x in labels]
    if len(labels) != n:
        raise ValueError(f"{what} 이름이 {len(labels)}개인데 행렬의 {what} 수는 {n}개입니다.")
    return labels


def _text_colour(value: float, vmin: float, vmax: float) -> str:
    # viridis는 낮은 값이 어둡습니다: 어두운 칸에는 흰 글씨.
    frac = 0.0 if vmax <= vmin else (value - vmin) / (vmax - vmin)
    return "white" if frac < 0.6 else "black"


def heatmap(
    matrix,
    row_labels: Sequence[str] | None = None,
    col_labels: Sequence[str] | None = None,
    *,
    ax=None,
    title: str | None = None,
    cbar_label: str | None = "어텐션 가중치",
    xlabel: str | None = "주목받는 토큰 (키)",
    ylabel: str | None = "주목하는 토큰 (질의)",
    vmin: float | None = None,
    vmax: float | None = None,
    annotate: str | None = None,
    fmt: str = ".2f",
    cmap: str = CMAP,
):
    """행렬 하나를 토큰 이름이 붙은 히트맵으로 그립니다 (색 막대 포함). (3·4장)

    Args:
        matrix: [행, 열] 텐서/배열/DataFrame. DataFrame이면 인덱스와 열 이름이 기본 라벨입니다.
        annotate: ``None`` (숫자 없음), ``"rowmax"`` (행마다 최댓값만), ``"all"`` (모든 칸).
    Returns:
        matplotlib ``Axes``.
    """
    plt = _plt()
    arr, rows, cols = _as_2d(matrix)
    rows = _check_labels(row_labels, arr.shape[0], "행") if row_labels is not None else rows
    cols = _check_labels(col_labels, arr.shape[1], "열") if col_labels is not None else cols
    if cols is None and rows is not None and arr.shape[0] == arr.shape[1] and col_labels is None:
        cols = rows
    if annotate not in (None, "rowmax", "all"):
        raise ValueError(f"annotate 는 None, 'rowmax', 'all' 중 하나여야 합니다 (받은 것: {annotate!r}).")
    if ax is None:
        _, ax = plt.subplots(figsize=FIGSIZE)
    lo = float(np.nanmin(arr)) if vmin is None else vmin
    hi = float(np.nanmax(arr)) if vmax is None else vmax
    im = ax.imshow(arr, cmap=cmap, vmin=lo, vmax=hi, aspect="auto")
    if rows is not None:
        ax.set_yticks(range(arr.shape[0]), rows)
    if cols is not None:
        ax.set_xticks(range(arr.shape[1]), cols, rotation=60, ha="right", rotation_mode="anchor")
    if annotate is not None:
        for i in range(arr.shape[0]):
            js = [int(np.nanargmax(arr[i]))] if annotate == "rowmax" else range(arr.shape[1])
            for j in js:
                ax.text(j, i, format(arr[i, j], fmt), ha="center", va="center", fontsize=8,
                        color=_text_colour(arr[i, j], lo, hi),
                        fontweight="bold" if annotate == "rowmax" else "normal")
    if xlabel:
        ax.set_xlabel(xlabel)
    if ylabel:
        ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    if cbar_label is not None:
        ax.figure.colorbar(im, ax=ax, label=cbar_label, fraction=0.046, pad=0.04)
    return ax


def head_grid(
    layer_attention,
    tokens: Sequence[str],
    *,
    ncols: int | None = None,
    title: str | None = None,
    cbar_label: str = "어텐션 가중치",
):
    """한 층의 헤드들을 히트맵 격자로 그립니다: 모든 칸이 같은 색 범위와 색 막대 하나를 씁니다. (4장)

    Args:
        layer_attention: 문장 하나의 [H, T, T] 어텐션 (예: ``outputs.attentions[ℓ][0]``).
        tokens: 토큰 T개의 이름.
    Returns:
        matplotlib ``Figure``.
    """
    plt = _plt()
    arr = _to_float_array(layer_attention)
    if arr is None:
        raise TypeError(
            f"layer_attention 은(는) torch.Tensor 나 numpy 배열이어야 합니다 (받은 것: {type(layer_attention).__name__})."
        )
    if arr.ndim != 3 or arr.shape[1] != arr.shape[2]:
        raise ValueError(
            f"layer_attention 은(는) 문장 하나의 [헤드 수, T, T] 어텐션이어야 합니다 (받은 모양: {arr.shape}). "
            "outputs.attentions[층][문장 번호]를 넘기세요."
        )
    heads, length, _ = arr.shape
    labels = _check_labels(tokens, length, "토큰")
    ncols = min(heads, 4) if ncols is None else ncols
    if ncols < 1:
        raise ValueError("ncols 는 1 이상이어야 합니다.")
    nrows = -(-heads // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(PANEL * ncols + 1.0, PANEL * nrows + 0.6),
                             squeeze=False, layout="constrained")
    hi = float(arr.max())
    im = None
    for h, ax in enumerate(axes.flat):
        if h >= heads:
            ax.axis("off")
            continue
        im = ax.imshow(arr[h], cmap=CMAP, vmin=0.0, vmax=hi, aspect="auto")
        ax.set_title(f"헤드 {h}", fontsize=10)
        ax.set_xticks(range(length), labels, rotation=90, fontsize=7)
        ax.set_yticks(range(length), labels if h % ncols == 0 else [""] * length, fontsize=7)
    fig.colorbar(im, ax=axes, label=cbar_label, shrink=0.8)
    if title:
        fig.suptitle(title)
    return fig


def layer_head_map(
    values,
    *,
    ax=None,
    title: str | None = None,
    cbar_label: str | None = None,
    annotate: bool = True,
    fmt: str = ".2f",
    vmin: float | None = None,
    vmax: float | None = None,
    cmap: str = CMAP,
):
    """층 × 헤드 값(예: ``analysis.stat_map`` 의 결과)을 히트맵으로 그립니다. (4장)"""
    arr, _, _ = _as_2d(values, "values")
    n_layers, n_heads = arr.shape
    ax = heatmap(
        arr,
        [str(i) for i in range(n_layers)],
        [str(j) for j in range(n_heads)],
        ax=ax, title=title, cbar_label=cbar_label, xlabel="헤드", ylabel="층",
        vmin=vmin, vmax=vmax, annotate="all" if annotate else None, fmt=fmt, cmap=cmap,
    )
    ax.set_xticks(range(n_heads), [str(j) for j in range(n_heads)], rotation=0, ha="center")
    ax.set_ylabel("층", rotation=0, labelpad=10)  # 짧은 한글 라벨은 눕히지 않습니다
    return ax


def stat_maps(stats: pd.DataFrame, columns: Sequence[str], *, labels: dict[str, str] | None = None,
              ncols: int = 3, annotate: bool = True):
    """``analysis.head_stats`` 의 여러 통계를 층 × 헤드 지도 격자로 그립니다. (4장)"""
    plt = _plt()
    from .analysis import STAT_LABELS, stat_map

    labels = STAT_LABELS if labels is None else labels
    columns = list(columns)
    if not columns:
        raise ValueError("columns 에 통계 이름을 하나 이상 넘기세요.")
    maps = [stat_map(stats, c) for c in columns]  # 잘못된 이름은 여기서 KeyError
    ncols = min(ncols, len(columns))
    nrows = -(-len(columns) // ncols)
    n_layers, n_heads = maps[0].shape
    w = max(PANEL, 0.45 * n_heads + 1.5)
    h = max(PANEL * 0.8, 0.38 * n_layers + 1.2)
    fig, axes = plt.subplots(nrows, ncols, figsize=(w * ncols, h * nrows), squeeze=False, layout="constrained")
    for ax, col, m in zip(axes.flat, columns, maps):
        fixed = col not in ("entropy", "distance")  # 비율은 0..1로 고정해 지도끼리 비교
        layer_head_map(m, ax=ax, title=labels.get(col, col), annotate=annotate, cbar_label="",
                       vmin=0.0 if fixed else None, vmax=1.0 if fixed else None,
                       fmt=".2f" if fixed else ".1f")
    for ax in list(axes.flat)[len(columns):]:
        ax.axis("off")
    return fig


def layer_lines(data: pd.DataFrame, *, ax=None, title: str | None = None, ylabel: str | None = None,
                xlabel: str = "hidden_states 번호 (0 = 임베딩)"):
    """인덱스(층 또는 ``hidden_states`` 번호)를 가로축으로, 열마다 선 하나를 그립니다. (4·5장)"""
    plt = _plt()
    if not isinstance(data, pd.DataFrame):
        raise TypeError("data 에는 인덱스가 층 번호인 DataFrame을 넘기세요.")
    if ax is None:
        _, ax = plt.subplots(figsize=(FIGSIZE[0] + 1.2, FIGSIZE[1] * 0.8))
    markers = "os^Dvx*+"
    for i, col in enumerate(data.columns):
        ax.plot(data.index, data[col], marker=markers[i % len(markers)], label=str(col))
    ax.set_xticks(list(data.index))
    ax.set_xlabel(xlabel)
    if ylabel:
        ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="best")
    return ax
