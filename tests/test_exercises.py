"""연습용 노트북 만들기(bertlab/course/exercises.py, ``python -m bertlab.course.exercises``) 시험.

- 명령이 장마다 연습용 노트북을 한 권씩 만들고, 풀이 셀은 비우고, 풀이 블록은 지우고, 출력은 남기지 않는다.
- 풀이가 아닌 셀은 글자 하나 바뀌지 않고, 원본 노트북도 바뀌지 않는다.
- 빈 풀이 셀이 뒤의 셀을 멈추게 하지 않는다: 모든 장에서 풀이 셀에서만 정의한 이름을 뒤의 본문 셀이
  쓰지 않는지 정적으로 확인한다(검사 셀은 답을 읽는 것이 할 일이라 뺀다). 모든 장의 연습 노트북을 실제로 실행하는
  시험은 tests/test_exercise_checks.py(기준 풀이, 빈 답, 심어 둔 틀린 답)에 있다.
"""
from __future__ import annotations

import ast
import builtins
import hashlib
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from bertlab.course import exercises as ex

ROOT = Path(__file__).resolve().parents[1]
NB_DIR = ROOT / "notebooks"
CHAPTERS = sorted(NB_DIR.glob(ex.CHAPTER_GLOB))
# 실행 시험에 쓸 장: 가벼운 순서(없으면 다음 것)


def _digest(paths):
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in paths}


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """``python -m bertlab.course.exercises --out <임시 폴더>`` 를 따로 된 프로세스로 한 번 실행한다."""
    assert CHAPTERS, "notebooks/ 에 장 노트북이 없습니다"
    out = tmp_path_factory.mktemp("exercises")
    before = _digest(CHAPTERS)
    proc = subprocess.run(
        [sys.executable, "-m", "bertlab.course.exercises", "--out", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert _digest(CHAPTERS) == before, "원본 노트북이 바뀌었습니다"
    return out, proc.stdout


def _tags(cell):
    return cell.get("metadata", {}).get("tags", [])


def test_one_exercise_notebook_per_chapter(made):
    out, stdout = made
    assert sorted(p.name for p in out.glob("*.ipynb")) == [p.name for p in CHAPTERS]
    assert f"{len(CHAPTERS)}권" in stdout


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_exercise_content(made, path):
    """연습 노트북: 준비 셀이 있고(장에 exercise-setup이 있으면 준비 셀과 연습문제 절만), 풀이 코드는 비었고(검사가 읽는 답
    이름만 `이름 = ...`으로 남음), 풀이 글과 출력은 없고, 문제와 검사 셀은 그대로다."""
    out, _ = made
    orig = nbformat.read(str(path), as_version=4)
    exe = nbformat.read(str(out / path.name), as_version=4)
    nbformat.validate(exe)
    assert exe.metadata["bertlab"]["exercise"] is True

    n_solutions = 0
    by_id = {c.get("id"): c for c in exe.cells}
    short = any(ex.EXERCISE_SETUP_TAG in _tags(c) for c in orig.cells)
    kept = ex.exercise_section(orig) if short else orig.cells
    kept_ids = {c.get("id") for c in kept} | {next(c for c in orig.cells if c.cell_type == "code").get("id")}
    for cell in orig.cells:
        if cell.cell_type != "code" or cell.get("id") not in kept_ids:
            continue
        twin = by_id[cell.get("id")]
        if "solution" in _tags(cell):
            n_solutions += 1
            lines = twin.source.splitlines()
            assert lines[0] == ex.CODE_PLACEHOLDER and all(l.endswith("= ...  # 답") for l in lines[1:]), twin.source
            assert "solution" not in _tags(twin) and "hide-input" not in _tags(twin) and "hide-cell" not in _tags(twin)
        else:
            assert twin.source == cell.source, "풀이가 아닌 코드 셀이 바뀌었습니다"
    assert n_solutions >= 1, f"{path.name}: solution 태그가 붙은 코드 풀이 셀이 없습니다"
    if short:
        assert not any(c.get("id") in by_id for c in orig.cells if c.get("id") not in kept_ids), "본문이 연습 노트북에 남았습니다"

    for cell in exe.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None
        if cell.cell_type == "markdown":
            assert "{dropdown} 풀이" not in cell.source
    # 문제(마크다운)는 남는다: 원본에 있던 '## 연습문제' 절과 문제 글이 그대로 있다
    md = "\n".join(c.source for c in exe.cells if c.cell_type == "markdown")
    assert "## 연습문제" in md
    orig_md_lines = {l for c in orig.cells if c.cell_type == "markdown" for l in c.source.splitlines() if l.startswith("**문제")}
    assert orig_md_lines <= set(md.splitlines())


def test_strip_dropdowns_nested_and_code():
    text = (
        "**문제 1.** 질문\n\n"
        ":::{dropdown} 풀이\n답\n```python\n:::\n```\n:::{note}\n안\n:::\n:::\n\n"
        "뒤 글\n\n"
        "````markdown\n:::{dropdown} 풀이\n예시\n:::\n````\n"
        ":::{dropdown} 더 알아보기\n남는다\n:::\n"
        "::::{dropdown} 풀이 2\n:::{hint}\nx\n:::\n::::\n끝"
    )
    new, n = ex.strip_solution_dropdowns(text)
    assert n == 2
    assert "답" not in new.replace("답을", "") and "안\n" not in new and "x\n" not in new
    assert "뒤 글" in new and "끝" in new and "더 알아보기" in new
    assert "````markdown\n:::{dropdown} 풀이\n예시\n:::\n````" in new  # 코드 블록 안의 예시는 그대로
    assert ex.strip_solution_dropdowns("글\n\n:::{dropdown} 풀이\n닫지 않음\n")[0] == "글\n\n" + ex.ANSWER_PLACEHOLDER


def test_dropdown_only_cell_becomes_answer_line():
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell("**문제.** 왜?"),
        nbformat.v4.new_markdown_cell(":::{dropdown} 풀이\n이래서.\n:::"),
        nbformat.v4.new_code_cell("x = 1", metadata={"tags": ["solution", "hide-input", "keep"]}),
    ]
    nb.cells[2].outputs = [nbformat.v4.new_output("stream", text="1\n")]
    nb.cells[2].execution_count = 3
    out, stats = ex.make_exercise(nb)
    assert [c.source for c in out.cells] == ["**문제.** 왜?", ex.ANSWER_PLACEHOLDER, ex.CODE_PLACEHOLDER]
    assert out.cells[2].metadata["tags"] == ["keep"] and out.cells[2].outputs == []
    assert (stats.solution_cells, stats.dropdowns, stats.outputs) == (1, 1, 1)
    assert nb.cells[2].source == "x = 1"  # 원본은 그대로


def test_errors_are_clear(tmp_path):
    with pytest.raises(FileNotFoundError, match="노트북 폴더"):
        ex.build_exercises(tmp_path / "없음", tmp_path / "out")
    with pytest.raises(FileNotFoundError, match="하나도 없습니다"):
        ex.build_exercises(tmp_path, tmp_path / "out")
    (tmp_path / "01_bad.ipynb").write_text('{"cells": [', encoding="utf-8")
    with pytest.raises(ValueError, match="올바른 JSON이 아니어서"):
        ex.build_exercises(tmp_path, tmp_path / "out")
    assert not (tmp_path / "out").exists(), "깨진 노트북이 있으면 아무것도 쓰지 않아야 합니다"
    (tmp_path / "01_bad.ipynb").write_text('{"cells": 3}', encoding="utf-8")
    with pytest.raises(ValueError, match="nbformat v4"):
        ex.build_exercises(tmp_path, tmp_path / "out")
    nbformat.write(nbformat.v4.new_notebook(), str(tmp_path / "01_bad.ipynb"))
    with pytest.raises(ValueError, match="원본 노트북 폴더와 같습니다"):
        ex.build_exercises(tmp_path, tmp_path)
    # 명령으로 부르면 트레이스백 대신 한국어 한 줄과 종료 코드 2
    proc = subprocess.run([sys.executable, "-m", "bertlab.course.exercises", "--src", str(tmp_path / "없음")],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stderr.startswith("오류: 노트북 폴더") and "Traceback" not in proc.stderr


# --- 빈 풀이 셀이 뒤의 셀을 멈추게 하지 않는가 -------------------------------------------------

def _names(source: str) -> tuple[set[str], set[str]]:
    """코드 셀이 정의하는 이름과 읽는 이름. IPython의 ! / % 줄은 빼고 파싱한다."""
    lines = []
    for line in source.splitlines():
        body = line.lstrip()
        lines.append(line[: len(line) - len(body)] + "pass" if body.startswith(("!", "%")) else line)
    tree = ast.parse("\n".join(lines))
    stored, loaded = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (stored if isinstance(node.ctx, (ast.Store, ast.Del)) else loaded).add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            stored.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            stored.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.arg):
            stored.add(node.arg)
    return stored, loaded


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_no_body_cell_depends_on_a_solution_cell(path):
    nb = nbformat.read(str(path), as_version=4)
    from_solutions: dict[str, int] = {}
    defined = set(dir(builtins)) | {"display", "get_ipython"}
    problems = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        stored, loaded = _names(cell.source)
        if "solution" in _tags(cell):
            for name in stored - defined:
                from_solutions.setdefault(name, i)
            continue
        if ex.CHECK_TAG in _tags(cell):
            continue  # 검사 셀은 답을 읽는 것이 할 일이고, 빈 답이면 '아직 답이 없습니다'를 낸다(test_exercise_checks.py)
        for name in sorted((loaded - defined - stored) & from_solutions.keys()):
            problems.append(f"셀 {i}이(가) 풀이 셀 {from_solutions[name]}에서만 정의한 '{name}'을(를) 씁니다")
        defined |= stored
    assert not problems, f"{path.name}: 연습용 노트북에서는 풀이 셀이 비므로 멈춥니다: {problems}"
