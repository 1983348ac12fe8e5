"""한 반 채점(python -m bertlab.course.grade): 제출 네 개(기준 풀이, 빈 답, 틀린 답 하나, 오류를 내는 것)와 깨진 파일 하나로
CSV의 칸과 요약이 맞는지 본다. 3장의 연습 노트북을 쓴다."""
from __future__ import annotations

import copy
import csv
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from bertlab.course import grade
from bertlab.course.exercises import CHECK_TAG, make_exercise

ROOT = Path(__file__).resolve().parents[1]
CHAPTER = ROOT / "notebooks" / "03_attention.ipynb"


def _tags(cell):
    return cell.get("metadata", {}).get("tags", [])


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    nb = nbformat.read(str(CHAPTER), as_version=4)
    reference, _ = make_exercise(nb, source_name="notebooks/03_attention.ipynb", keep_solutions=True)
    blank, _ = make_exercise(nb, source_name="notebooks/03_attention.ipynb")
    wrong = copy.deepcopy(reference)
    first_check = next(i for i, c in enumerate(wrong.cells) if CHECK_TAG in _tags(c) and c.get("metadata", {}).get("bertlab", {}).get("wrong"))
    planted = wrong.cells[first_check].metadata["bertlab"]["wrong"]
    wrong.cells.insert(first_check, nbformat.v4.new_code_cell(planted["code"]))
    raises = copy.deepcopy(reference)
    first_check = next(i for i, c in enumerate(raises.cells) if CHECK_TAG in _tags(c))
    raises.cells.insert(first_check, nbformat.v4.new_code_cell("raise RuntimeError('학생 코드의 오류')"))
    folder = tmp_path_factory.mktemp("submissions")
    for name, book in {"a_reference": reference, "b_blank": blank, "c_wrong": wrong, "d_raises": raises}.items():
        nbformat.write(book, str(folder / f"{name}.ipynb"))
    (folder / "e_broken.ipynb").write_text("{ 이건 노트북이 아님", encoding="utf-8")
    out = folder / "grades.csv"
    proc = subprocess.run([sys.executable, "-m", "bertlab.course.grade", str(folder), "--out", str(out), "--timeout", "300"],
                          capture_output=True, text=True, cwd=ROOT, timeout=900)
    assert proc.returncode == 0, proc.stderr
    with open(out, encoding="utf-8-sig", newline="") as f:
        rows = {r["학생"]: r for r in csv.DictReader(f)}
    return rows, planted, proc.stdout, out


def test_reference_passes_everything(graded):
    rows, _, _, _ = graded
    r = rows["a_reference"]
    checks = [k for k in r if k[:1].isdigit()]
    assert checks and r["장"] == "03_attention"
    assert all(r[k] in ("통과", "글 답(채점자 확인)") for k in checks), r
    passed, total = map(int, r["점수"].split("/"))
    assert passed == total > 0


def test_blank_is_unanswered_not_failed(graded):
    rows, _, _, _ = graded
    r = rows["b_blank"]
    assert {r[k] for k in r if k[:1].isdigit()} <= {"미응답", "글 답(채점자 확인)"}
    assert r["점수"].startswith("0/")


def test_wrong_answer_gets_its_hint(graded):
    rows, planted, _, _ = graded
    r = rows["c_wrong"]
    failed = [r[k] for k in r if k[:1].isdigit() and r[k].startswith("실패")]
    assert len(failed) == 1 and planted["hint"] in failed[0]


def test_raising_and_broken_submissions_get_a_reason_and_grading_goes_on(graded):
    rows, _, stdout, out = graded
    assert "오류" in rows["d_raises"]["비고"] and "RuntimeError" in rows["d_raises"]["비고"]
    assert any(rows["d_raises"][k] == "통과" for k in rows["d_raises"] if k[:1].isdigit())  # 나머지 문제는 채점된다
    assert rows["e_broken"]["비고"].startswith("노트북을 열 수 없음")
    summary = out.with_suffix(".summary.txt").read_text(encoding="utf-8")
    assert "제출 5개" in summary and "명 통과" in summary and "채점하지 못한 제출: e_broken" in summary


def test_timeout_is_reported(tmp_path):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("import time\ntime.sleep(60)")],
                                  metadata={"bertlab": {"source": "notebooks/03_attention.ipynb"}})
    nbformat.write(nb, str(tmp_path / "slow.ipynb"))
    chapters = {p.stem: p for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")}
    row = grade.grade_one(tmp_path / "slow.ipynb", chapters, timeout=8)
    assert any("시간 초과" in n for n in row.notes)
    assert set(row.results.values()) == {"검사 셀 없음"}
