"""bertlab.viz: 그림이 라벨·색 막대와 함께 그려지고, 잘못된 입력을 거절하는지."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
import torch  # noqa: E402

from bertlab import viz  # noqa: E402

TOKENS = ["[CLS]", "배", "##를", "타", "##고", "[SEP]"]


@pytest.fixture(autouse=True)
def _korean_font_and_cleanup():
    try:  # 한글 글꼴은 bl.setup()이 등록한다 (여기서는 같은 함수만 부른다)
        from bertlab.env import register_korean_font

        register_korean_font()
    except Exception:  # 글꼴이 없어도 그림 구조는 검사할 수 있다
        pass
    yield
    plt.close("all")


def _attn(h=4, t=len(TOKENS), seed=0):
    g = torch.Generator().manual_seed(seed)
    return torch.softmax(torch.randn(h, t, t, generator=g), dim=-1)


def test_heatmap_labels_colourbar_and_rowmax():
    a = _attn()[0]
    ax = viz.heatmap(a, TOKENS, annotate="rowmax", title="제목")
    assert [t.get_text() for t in ax.get_yticklabels()] == TOKENS
    assert [t.get_text() for t in ax.get_xticklabels()] == TOKENS  # 정사각이면 열 라벨 = 행 라벨
    assert len(ax.figure.axes) == 2  # 그림 + 색 막대
    texts = [t.get_text() for t in ax.texts]
    assert len(texts) == len(TOKENS)
    assert texts[0] == format(float(a[0].max()), ".2f")
    assert ax.get_title() == "제목"


def test_heatmap_accepts_dataframe_and_numpy():
    df = pd.DataFrame(np.eye(3), index=list("가나다"), columns=list("라마바"))
    ax = viz.heatmap(df, annotate="all", cbar_label=None)
    assert [t.get_text() for t in ax.get_xticklabels()] == list("라마바")
    assert len(ax.texts) == 9
    assert len(ax.figure.axes) == 1
    fig, ax2 = plt.subplots()
    assert viz.heatmap(np.ones((2, 3)), ax=ax2) is ax2


def test_heatmap_errors():
    with pytest.raises(ValueError, match="2차원"):
        viz.heatmap(_attn())
    with pytest.raises(ValueError, match="행 이름이 2개"):
        viz.heatmap(_attn()[0], ["a", "b"])
    with pytest.raises(TypeError, match="numpy"):
        viz.heatmap([[1, 2], [3, 4]])
    with pytest.raises(ValueError, match="annotate"):
        viz.heatmap(np.eye(2), annotate="max")


def test_head_grid():
    a = _attn(h=6)
    fig = viz.head_grid(a, TOKENS, ncols=4, title="0층")
    # 칸 8개(6개 사용, 2개 끔) + 공통 색 막대 하나
    assert len(fig.axes) == 8 + 1
    titles = [ax.get_title() for ax in fig.axes[:6]]
    assert titles == [f"헤드 {h}" for h in range(6)]
    assert fig.get_suptitle() == "0층"
    images = [ax.images[0] for ax in fig.axes[:6]]
    assert {im.get_clim() for im in images} == {(0.0, float(a.max()))}  # 모든 칸이 같은 색 범위
    with pytest.raises(ValueError, match="헤드 수, T, T"):
        viz.head_grid(_attn()[0], TOKENS)
    with pytest.raises(ValueError, match="토큰 이름이 3개"):
        viz.head_grid(a, TOKENS[:3])
    with pytest.raises(TypeError):
        viz.head_grid(a.tolist(), TOKENS)


def test_layer_head_map_and_stat_maps():
    rows = [{"layer": l, "head": h, "entropy": l + h / 10, "cls": 0.1 * h, "prev": 0.0}
            for l in range(3) for h in range(4)]
    stats = pd.DataFrame(rows)
    m = stats.pivot(index="layer", columns="head", values="entropy")
    ax = viz.layer_head_map(m, title="엔트로피", cbar_label="nats")
    assert ax.get_xlabel() == "헤드" and ax.get_ylabel() == "층"
    assert len(ax.texts) == 12
    fig = viz.stat_maps(stats, ["entropy", "cls", "prev"], ncols=2)
    titles = [ax.get_title() for ax in fig.axes if ax.get_title()]
    assert titles[:3] == ["엔트로피 (nats)", "[CLS]로 가는 비율", "앞 토큰으로 가는 비율"]
    cls_ax = fig.axes[[a.get_title() for a in fig.axes].index("[CLS]로 가는 비율")]
    assert cls_ax.images[0].get_clim() == (0.0, 1.0)  # 비율 지도는 0..1 고정
    with pytest.raises(KeyError):
        viz.stat_maps(stats, ["nope"])
    with pytest.raises(ValueError, match="하나 이상"):
        viz.stat_maps(stats, [])


def test_layer_lines():
    df = pd.DataFrame({"배(탈것)": [1.0, 0.8, 0.6], "배(과일)": [1.0, 0.7, 0.5]}, index=[0, 1, 2])
    ax = viz.layer_lines(df, title="층별", ylabel="코사인")
    assert len(ax.get_lines()) == 2
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["배(탈것)", "배(과일)"]
    with pytest.raises(TypeError, match="DataFrame"):
        viz.layer_lines(np.ones((3, 2)))
