"""그림이 사라지지 않는다: `MPLBACKEND=Agg`인 서버에서도 커널 안의 `bl.setup()`은 그림을 셀 출력으로 내보내고,
`scripts/check_site.py`는 그림을 그리는 셀에 그림이 없으면 실패한다."""

from __future__ import annotations

import importlib.util
import json
import os
from pathlib import Path

import nbformat
from nbclient import NotebookClient

REPO = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("check_site", REPO / "scripts" / "check_site.py")
check_site = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(check_site)

DRAWING = "import matplotlib.pyplot as plt\nplt.plot([0, 1], [1, 0])\nplt.title('선 하나')\nplt.show()"


def _run(cells: list[str], tmp_path: Path) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    env = {**os.environ, "MPLBACKEND": "Agg", "BERTLAB_MODEL": "mini", "HF_HUB_OFFLINE": "1"}
    NotebookClient(nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute(env=env)
    return nb


def _images(cell) -> int:
    return sum("image/png" in o.get("data", {}) for o in cell.outputs)


def test_setup_keeps_figures_under_agg(tmp_path):
    """같은 그림 셀: bl.setup() 없이는 Agg에서 그림이 사라지고(이 테스트가 지키는 실패), bl.setup() 뒤에는 그림이 남는다."""
    nb = _run([DRAWING, "import bertlab as bl\nbl.setup(quiet=True)", DRAWING], tmp_path)
    assert _images(nb.cells[0]) == 0, "MPLBACKEND=Agg인데도 그림이 나왔다면 이 테스트는 더 이상 무엇도 지키지 않는다"
    assert _images(nb.cells[2]) == 1


def test_inline_figures_is_a_no_op_outside_a_kernel():
    import bertlab.env as env

    assert env.inline_figures() is False


def test_check_site_finds_a_drawing_cell_without_its_figure(tmp_path):
    executed = tmp_path / "jupyter_execute" / "notebooks"
    executed.mkdir(parents=True)
    with_figure = nbformat.v4.new_code_cell(DRAWING, outputs=[nbformat.v4.new_output("display_data", data={"image/png": "iVBOR"})])
    without = nbformat.v4.new_code_cell("bl.viz.heatmap(w, tokens)\nplt.show()")
    prose = nbformat.v4.new_code_cell("x = 1")
    nb = nbformat.v4.new_notebook(cells=[with_figure, prose, without])
    (executed / "03_attention.ipynb").write_text(json.dumps(nb), encoding="utf-8")
    assert check_site.missing_figures(tmp_path / "jupyter_execute") == {"notebooks/03_attention.ipynb": [2]}
