"""연습문제 검사를 세 가지로 실행합니다(이슈 28): 장마다 연습용 노트북(준비 셀 + 연습문제 절)을 만들어

1. **기준 풀이**(풀이 셀을 그대로 둠): 모든 검사가 정답(✅)이거나 점검 목록(📝)이다. 이어서 같은 커널에서 검사 셀마다
   메타데이터에 심어 둔 **틀린 답**(`bertlab.wrong.code`)을 실행하고 검사를 다시 부르면, 정한 힌트(`bertlab.wrong.hint`)가 나온다.
2. **빈 답**(학생판 그대로): 모든 검사가 '아직 답이 없습니다'(✏️)를 내고, 노트북은 끝까지 돈다.

검사 결과는 `bl.check`가 내보내는 JSON(`application/vnd.bertlab.check+json`)으로 읽습니다.
"""
from __future__ import annotations

import copy
import json
import os
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from bertlab.checks import MIME
from bertlab.course.exercises import CHECK_TAG, EXERCISE_SETUP_TAG, make_exercise

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
ENV = {**os.environ, "BERTLAB_MODEL": "mini", "HF_HUB_OFFLINE": "1", "MPLBACKEND": "Agg"}


def _tags(cell):
    return cell.get("metadata", {}).get("tags", [])


def _run(nb, cwd: Path):
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(cwd)}}).execute(env=ENV)
    return nb


def _verdicts(cell) -> list[dict]:
    return [o["data"][MIME] for o in cell.get("outputs", []) if MIME in o.get("data", {})]


def _with_planted_wrong_answers(nb):
    """검사 셀마다 바로 뒤에 [틀린 답 코드 + 같은 검사] 셀을 덧붙인 사본과, {덧붙인 셀 번호: 기대한 힌트}."""
    out = copy.deepcopy(nb)
    cells, expected = [], {}
    for cell in out.cells:
        cells.append(cell)
        wrong = cell.get("metadata", {}).get("bertlab", {}).get("wrong") if CHECK_TAG in _tags(cell) else None
        if wrong:
            planted = nbformat.v4.new_code_cell(wrong["code"] + "\n" + cell.source)
            expected[len(cells)] = wrong["hint"]
            cells.append(planted)
    out.cells = cells
    return out, expected


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_exercise_checks_three_ways(path, tmp_path):
    nb = nbformat.read(str(path), as_version=4)
    assert any(EXERCISE_SETUP_TAG in _tags(c) for c in nb.cells), f"{path.name}: 연습문제 절의 준비 셀(exercise-setup)이 없습니다"
    checks = [c for c in nb.cells if CHECK_TAG in _tags(c)]
    assert checks, f"{path.name}: 검사 셀이 없습니다"
    assert any(c.get("metadata", {}).get("bertlab", {}).get("wrong") for c in checks), f"{path.name}: 심어 둔 틀린 답이 없습니다"

    reference, _ = make_exercise(nb, keep_solutions=True)
    planted, expected = _with_planted_wrong_answers(reference)
    ran = _run(planted, path.parent)
    problems = []
    for i, cell in enumerate(ran.cells):
        for v in _verdicts(cell):
            if i in expected:
                if v["status"] != "wrong" or expected[i] not in v["message"]:
                    problems.append(f"틀린 답 {v['exercise']}: 기대한 힌트 '{expected[i]}' 대신 {v['status']}: {v['message']}")
            elif v["status"] not in ("correct", "points"):
                problems.append(f"기준 풀이 {v['exercise']}: {v['status']}: {v['message']}")
    n_checked = sum(len(_verdicts(c)) for c in ran.cells)
    assert n_checked >= len(checks) + len(expected), f"검사 결과가 {n_checked}개뿐입니다(검사 셀 {len(checks)}개)"
    assert not problems, "\n".join(problems)

    blank, _ = make_exercise(nb)
    ran = _run(blank, path.parent)
    statuses = [v for c in ran.cells for v in _verdicts(c)]
    assert len(statuses) == len(checks)
    bad = [f"{v['exercise']}: {v['status']}: {v['message']}" for v in statuses if v["status"] not in ("unanswered", "points")]
    assert not bad, "빈 답인데 미응답이 아닌 검사:\n" + "\n".join(bad)


def test_blank_solution_cells_name_the_answers():
    """빈 풀이 셀은 검사가 읽는 답 변수를 `이름 = ...`으로 남긴다(정의되지 않은 이름의 NameError 대신 부드러운 안내)."""
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("# 장"),
        nbformat.v4.new_code_cell("import bertlab as bl"),
        nbformat.v4.new_markdown_cell("## 연습문제\n\n1. 문제"),
        nbformat.v4.new_code_cell("x = 1", metadata={"tags": [EXERCISE_SETUP_TAG]}),
        nbformat.v4.new_code_cell("share = 0.2\ngap = 1", metadata={"tags": ["solution", "hide-cell"]}),
        nbformat.v4.new_code_cell('bl.check("1.1", share=share, gap=gap)', metadata={"tags": [CHECK_TAG]}),
        nbformat.v4.new_markdown_cell("## 참고문헌"),
    ])
    ex, _ = make_exercise(nb)
    solution = ex.cells[4]
    assert "share = ...  # 답" in solution.source and "gap = ...  # 답" in solution.source
    assert [c.source for c in ex.cells][-1] == 'bl.check("1.1", share=share, gap=gap)'
    assert json.dumps(ex.cells[0].source, ensure_ascii=False).startswith('"# 연습문제: 장')
