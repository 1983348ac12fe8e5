"""연습용 노트북 만들기 (make exercise versions of the chapter notebooks).

수업에서 학생에게 나누어 줄, 풀이를 뺀 노트북을 만든다(book/instructor.md 의 "연습용 노트북 만들기")::

    python -m bertlab.course.exercises                 # notebooks/NN_*.ipynb → exercises/NN_*.ipynb
    python -m bertlab.course.exercises --out 배포용     # 다른 폴더에 쓰기

각 장 노트북에서

* 설명과 문제(마크다운)는 그대로 두고,
* ``solution`` 태그가 붙은 코드 셀은 내용을 지우고 ``# 여기에 코드를 작성하세요`` 한 줄만 남기며
  (셀 자체는 남으므로 학생이 그 자리에 답을 쓴다. 태그 ``solution``, ``hide-input`` 은 뗀다),
* 마크다운의 MyST 풀이 블록(``:::{dropdown} 풀이`` … ``:::``)은 지우고 그 자리에 답을 적을 줄을 남기며,
* 모든 출력과 실행 번호를 지운다.

원본 노트북은 바꾸지 않는다. 빈 풀이 셀은 아무것도 정의하지 않으므로, 풀이 셀에서만 만든 변수를
뒤의 본문 셀이 쓰면 연습용 노트북이 멈춘다. ``tests/test_exercises.py`` 가 그런 의존을 찾고,
한 장의 연습용 노트북을 실제로 실행해 본다.

기존 도구를 쓰지 않은 까닭: nbconvert의 ``TagRemovePreprocessor`` 는 태그 붙은 셀을 통째로 지울 뿐이라 학생이 답을 쓸
빈 셀을 남기지 못하고, 마크다운 셀 *안의* 풀이 드롭다운은 건드리지 못한다. nbgrader의 풀이 지우기는 원본 셀에
``### BEGIN SOLUTION`` 표시를 요구하는데, 그 표시가 웹사이트에 그대로 보이고 nbgrader 전체를 의존성으로 들여야 한다.
필요한 것은 태그 하나와 MyST 펜스 규칙이라 이 작은 모듈이 더 단순하다(Colab판 변환기 `colab` 도 같은 펜스 읽기를 쓴다).
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "CODE_PLACEHOLDER",
    "ANSWER_PLACEHOLDER",
    "SOLUTION_TAG",
    "ExerciseStats",
    "strip_solution_dropdowns",
    "make_exercise",
    "chapter_notebooks",
    "build_exercises",
    "main",
]

CODE_PLACEHOLDER = "# 여기에 코드를 작성하세요"
ANSWER_PLACEHOLDER = "*(여기에 답을 적어 보세요.)*"
SOLUTION_TAG = "solution"
# 풀이 셀을 비운 뒤에는 의미가 없는 태그(빈 셀의 입력을 웹사이트에서 숨길 까닭이 없다)
_DROPPED_TAGS = {SOLUTION_TAG, "hide-input", "hide-output", "hide-cell", "remove-input", "remove-cell"}
CHAPTER_GLOB = "[0-9][0-9]_*.ipynb"

# 펜스 줄: 들여쓰기 0~3칸, ::: 또는 ``` 또는 ~~~ 세 개 이상, 그 뒤의 정보 문자열
_FENCE = re.compile(r"^[ \t]{0,3}(?P<fence>:{3,}|`{3,}|~{3,})(?P<info>.*)$")
# 풀이 드롭다운: {dropdown} 다음의 제목이 '풀이'로 시작한다('풀이', '풀이 1', '풀이 (코드)' …)
_SOLUTION_DROPDOWN = re.compile(r"^\{dropdown\}\s*풀이")


@dataclass
class ExerciseStats:
    """노트북 하나에서 바꾼 것의 개수."""

    solution_cells: int = 0  # 비운 풀이 코드 셀
    dropdowns: int = 0  # 지운 풀이 블록
    outputs: int = 0  # 지운 출력이 있던 셀


def _fence_parts(line: str) -> tuple[str, int, str] | None:
    """펜스 줄이면 (문자, 길이, 정보 문자열)을, 아니면 None을 돌려준다."""
    m = _FENCE.match(line)
    if not m:
        return None
    fence, info = m.group("fence"), m.group("info").strip()
    if fence[0] == "`" and "`" in info:  # CommonMark: 백틱 펜스의 정보 문자열에는 백틱이 올 수 없다
        return None
    return fence[0], len(fence), info


def strip_solution_dropdowns(text: str, placeholder: str = ANSWER_PLACEHOLDER) -> tuple[str, int]:
    """마크다운에서 ``:::{dropdown} 풀이`` … ``:::`` 블록을 지우고 (새 글, 지운 개수)를 돌려준다.

    MyST의 펜스 규칙을 따른다. 닫는 줄은 여는 줄과 같은 문자를 같은 개수 이상 쓴 빈 펜스이고,
    블록 안의 다른 지시문(``:::{note}``)과 코드 블록(```` ```python ````)은 중첩으로 센다.
    닫히지 않은 블록은 셀 끝까지 이어진다. 코드 블록 안에 예시로 적은 ``:::{dropdown}`` 은 건드리지 않는다.
    지운 자리에는 ``placeholder`` 한 줄을 남긴다(빈 문자열이면 아무것도 남기지 않는다).
    """
    out: list[str] = []
    stack: list[tuple[str, int]] = []  # 열려 있는 펜스들 (문자, 길이)
    skipping_depth: int | None = None  # 풀이 블록이 열린 깊이(그 안은 모두 버린다)
    removed = 0
    for line in text.splitlines(keepends=True):
        parts = _fence_parts(line.rstrip("\r\n"))
        if parts is not None:
            char, length, info = parts
            top = stack[-1] if stack else None
            in_code = top is not None and top[0] in "`~"  # 코드 블록 안은 글자 그대로다
            closes = top is not None and char == top[0] and length >= top[1] and info == ""
            if closes:
                stack.pop()
                if skipping_depth is not None and len(stack) == skipping_depth:
                    skipping_depth = None  # 풀이 블록의 닫는 줄: 이 줄까지 버린다
                    continue
            elif not in_code:
                if skipping_depth is None and char == ":" and _SOLUTION_DROPDOWN.match(info):
                    skipping_depth = len(stack)
                    removed += 1
                    if placeholder:
                        out.append(placeholder + "\n")
                stack.append((char, length))
        if skipping_depth is None:
            out.append(line)
    new = "".join(out)
    if removed:
        new = re.sub(r"\n{3,}", "\n\n", new).strip("\n")
    return new, removed


def _tags(cell) -> list[str]:
    return list(cell.get("metadata", {}).get("tags", []))


EXERCISE_SETUP_TAG = "exercise-setup"  # 연습문제 절의 첫 코드 셀: 본문 없이도 연습문제가 돌도록 필요한 것을 다시 준비한다
CHECK_TAG = "check"  # bl.check/bl.points를 부르는 셀: 학생판에도 남는다
_EXERCISE_HEADING = re.compile(r"^##\s+연습문제\s*$", re.M)
_REFERENCES_HEADING = re.compile(r"^##\s+참고문헌\s*$", re.M)


def exercise_section(nb) -> list:
    """장 노트북에서 연습문제 절의 셀들('## 연습문제'로 시작하는 마크다운 셀부터 '## 참고문헌' 앞까지)."""
    start = next((i for i, c in enumerate(nb.cells) if c.cell_type == "markdown" and _EXERCISE_HEADING.search(c.source)), None)
    if start is None:
        raise ValueError("'## 연습문제' 절이 없습니다")
    if not nb.cells[start].source.lstrip().startswith("## 연습문제"):
        raise ValueError("'## 연습문제'는 마크다운 셀의 첫 줄이어야 합니다(연습용 노트북이 그 셀부터 시작)")
    end = next((i for i in range(start + 1, len(nb.cells))
                if nb.cells[i].cell_type == "markdown" and _REFERENCES_HEADING.search(nb.cells[i].source)), len(nb.cells))
    return nb.cells[start:end]


def _title(nb) -> str:
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    return ""


def _check_names(source: str) -> list[str]:
    """검사 셀의 `bl.check("N.M", a=a, b=b)`에서 답 변수 이름(a, b)."""
    import ast

    names = []
    try:
        tree = ast.parse("\n".join(l for l in source.splitlines() if not l.lstrip().startswith(("!", "%"))))
    except SyntaxError:
        return names
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) == "check":
            names += [kw.value.id for kw in node.keywords if isinstance(kw.value, ast.Name)
                      and kw.arg not in ("model", "tokenizer", "mlm")]
    return names


def _answer_names(cells) -> dict[int, list[str]]:
    """{풀이 셀 번호: 그 뒤 검사 셀이 읽는 답 변수}: 빈 풀이 셀에 `이름 = ...`을 남겨, 답을 쓰지 않아도 검사가 '아직 답이
    없습니다'라고 부드럽게 알리게 한다(정의되지 않은 이름의 NameError 대신)."""
    out: dict[int, list[str]] = {}
    last_solution = None
    for i, cell in enumerate(cells):
        tags = _tags(cell)
        if cell.cell_type == "code" and SOLUTION_TAG in tags:
            last_solution = i
        elif cell.cell_type == "code" and CHECK_TAG in tags and last_solution is not None:
            out.setdefault(last_solution, []).extend(n for n in _check_names(cell.source) if n not in out.get(last_solution, []))
        elif cell.cell_type == "markdown" and re.match(r"^\s*\d+\.", cell.source):
            last_solution = None  # 다음 문제
    return out


def make_exercise(nb, source_name: str | None = None, keep_solutions: bool = False, whole_chapter: bool = False):
    """노트북(nbformat NotebookNode) 한 권의 연습용 사본과 :class:`ExerciseStats` 를 돌려준다.

    장에 ``exercise-setup`` 태그가 붙은 셀이 있으면 연습용 노트북은 **연습문제 절만** 담는다: 제목, 준비 셀(첫 코드 셀),
    그리고 '## 연습문제'부터 '## 참고문헌' 앞까지. 검사 셀(``check``)은 그대로 남고, 풀이 코드 셀은 비우고(``keep_solutions``
    가 참이면 그대로 둠: 시험과 기준 답안용), 풀이 블록은 지운다. ``whole_chapter=True``면 장 전체를 두고 풀이만 지운다
    (학생판 웹사이트, `student_edition`). 원본 ``nb`` 는 바꾸지 않는다.
    """
    import copy

    import nbformat

    ex = copy.deepcopy(nb)
    if not whole_chapter and any(EXERCISE_SETUP_TAG in _tags(c) for c in ex.cells):
        setup = next(c for c in ex.cells if c.cell_type == "code")
        title = _title(ex)
        head = nbformat.v4.new_markdown_cell(
            f"# 연습문제: {title}\n\n이 노트북은 '{title}' 장의 연습문제만 담았습니다. 코드 셀을 채우고, 문제마다 있는 "
            "검사 셀(`bl.check`)을 실행하면 답이 맞는지 한국어로 알려 줍니다.")
        ex.cells = [head, setup, *exercise_section(ex)]
    stats = ExerciseStats()
    cells = []
    answers = _answer_names(ex.cells)
    for index, cell in enumerate(ex.cells):
        tags = _tags(cell)
        is_solution = SOLUTION_TAG in tags and not keep_solutions
        if cell.cell_type == "code":
            if cell.get("outputs"):
                stats.outputs += 1
            cell.outputs = []
            cell.execution_count = None
            cell.metadata.pop("execution", None)
            if is_solution:
                names = answers.get(index, [])
                cell.source = "\n".join([CODE_PLACEHOLDER, *(f"{n} = ...  # 답" for n in names)])
                stats.solution_cells += 1
        elif cell.cell_type == "markdown":
            if is_solution:  # 마크다운 셀 전체가 풀이인 경우
                cell.source = ANSWER_PLACEHOLDER
                stats.dropdowns += 1
            elif not keep_solutions:
                cell.source, n = strip_solution_dropdowns(cell.source)
                stats.dropdowns += n
                if n and not cell.source.strip():
                    continue  # 풀이만 있던 셀은 통째로 뺀다
        if is_solution or any(t in _DROPPED_TAGS for t in tags):
            kept = [t for t in tags if t not in _DROPPED_TAGS]
            if kept:
                cell.metadata["tags"] = kept
            else:
                cell.metadata.pop("tags", None)
        cells.append(cell)
    ex.cells = cells
    meta = {"exercise": True, "chapter": _title(nb)}
    if source_name:
        meta["source"] = source_name
    ex.metadata["bertlab"] = meta
    return ex, stats


def student_edition(nb):
    """학생판 웹사이트의 장: 본문과 문제, 검사 셀은 그대로 두고 풀이 코드·풀이 글만 지운 사본(이슈 28)."""
    ex, _ = make_exercise(nb, whole_chapter=True)
    ex.metadata.pop("bertlab", None)
    for cell in ex.cells:
        # 글로 답하는 문제의 '답에 들어가야 할 점'은 학생이 셀을 실행할 때만 보인다: 학생판 쪽에는 그 출력을 싣지 않는다
        if cell.cell_type == "code" and "bl.points(" in cell.source:
            tags = cell.metadata.setdefault("tags", [])
            tags[:] = [t for t in tags if t not in ("hide-output", "remove-output")] + ["remove-output"]
    return ex


def _read_notebook(path: Path):
    import nbformat

    try:
        text = path.read_text(encoding="utf-8")
        json.loads(text)
    except UnicodeDecodeError as e:
        raise ValueError(f"{path}: UTF-8 글이 아닙니다. 노트북(.ipynb) 파일인지 확인하세요.") from e
    except json.JSONDecodeError as e:
        raise ValueError(
            f"{path}: 올바른 JSON이 아니어서 노트북으로 읽을 수 없습니다 ({e.lineno}번째 줄 {e.colno}번째 칸: {e.msg}). "
            "파일이 잘렸거나 병합 충돌 표시(<<<<<<<)가 남았는지 확인하세요."
        ) from e
    try:
        nb = nbformat.reads(text, as_version=4)
        nbformat.validate(nb)
    except Exception as e:  # nbformat.ValidationError, 형식이 맞지 않는 JSON
        raise ValueError(f"{path}: nbformat v4 노트북 형식이 아닙니다: {e}") from e
    return nb


def chapter_notebooks(src: str | Path = "notebooks") -> list[Path]:
    """``src`` 안의 장 노트북(``NN_이름.ipynb``)을 번호 순서로 돌려준다."""
    src = Path(src)
    if not src.is_dir():
        raise FileNotFoundError(
            f"노트북 폴더 '{src}'이(가) 없습니다. 저장소 맨 위 폴더에서 실행하거나 --src 로 노트북 폴더를 알려 주세요."
        )
    found = sorted(src.glob(CHAPTER_GLOB))
    if not found:
        raise FileNotFoundError(f"'{src}'에 장 노트북(NN_이름.ipynb)이 하나도 없습니다. 폴더가 맞는지 확인하세요.")
    return found


def build_exercises(src: str | Path = "notebooks", out: str | Path = "exercises") -> dict[Path, ExerciseStats]:
    """``src`` 의 장 노트북마다 연습용 사본을 ``out`` 에 쓰고 {쓴 파일: 바꾼 개수}를 돌려준다.

    노트북을 모두 먼저 읽어 확인한 뒤에 쓰므로, 한 권이라도 깨져 있으면 아무것도 쓰지 않는다.
    """
    import nbformat

    src, out = Path(src), Path(out)
    paths = chapter_notebooks(src)
    if out.resolve() == src.resolve():
        raise ValueError(f"출력 폴더 '{out}'이(가) 원본 노트북 폴더와 같습니다. 원본을 덮어쓰지 않도록 다른 폴더를 고르세요.")
    made = [(p, *make_exercise(_read_notebook(p), source_name=f"{src.name}/{p.name}")) for p in paths]
    out.mkdir(parents=True, exist_ok=True)
    result: dict[Path, ExerciseStats] = {}
    for path, ex, stats in made:
        target = out / path.name
        nbformat.write(ex, str(target))
        result[target] = stats
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bertlab.course.exercises",
        description="장 노트북에서 풀이와 출력을 뺀 연습용 노트북을 만듭니다. 원본은 바뀌지 않습니다.",
    )
    parser.add_argument("--src", default="notebooks", help="장 노트북 폴더 (기본값: notebooks)")
    parser.add_argument("--out", default="exercises", help="연습용 노트북을 쓸 폴더 (기본값: exercises)")
    args = parser.parse_args(argv)
    try:
        result = build_exercises(args.src, args.out)
    except (FileNotFoundError, ValueError) as e:
        print(f"오류: {e}", file=sys.stderr)
        return 2
    for target, s in result.items():
        print(f"{target}: 풀이 셀 {s.solution_cells}개 비움, 풀이 블록 {s.dropdowns}개 지움")
    print(f"연습용 노트북 {len(result)}권을 '{args.out}'에 썼습니다.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
