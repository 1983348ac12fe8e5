"""장마다 '보이는 코드' 가운데 쪽의 글만 만드는 줄(배관, plumbing)의 비율을 잽니다.

    .venv/bin/python scripts/plumbing_share.py [notebooks/NN_x.ipynb ...]   # 없으면 모든 장

보이는 코드: 웹사이트에 보이는 코드 셀(태그 remove-cell·remove-input이 없는 셀, 접힌 셀 포함)의 빈 줄·주석 줄이 아닌 줄.
배관 줄: 다음 가운데 하나에 해당하는 **문장**(파이썬 문장 단위, 여러 줄이면 그 줄 모두)입니다.
  1. `glue(` 호출, 글 도구 import(`bertlab.course.prose`, `myst_nb`)
  2. 쪽의 글을 다듬는 도우미 호출: `josa(`, `pct(`, `pp(`, `num(`, `lr_text(`, `bl.korean.`
  3. 시험 장치: `os.environ`, `BERTLAB_FAST`, `ACC_FLOOR`, `IS_MINI`
  4. 본문 문장을 담는 이름(`*_story`, `*_verdict`, `*_note`, `*_sentence`, `*_text`)에 **한글이 든 글자열**(따옴표 글이나
     f-문자열)을 넣거나 덧붙이는 문장(가르치는 변수 `my_sentence = "…"`처럼 학생이 바꿔 넣는 예문은 그 이름이 `my_`로 시작하면 뺌)
가르치는 계산과 표·그림, assert는 배관이 아닙니다. 목표(이슈 30): 장마다 10 % 이하.
"""

from __future__ import annotations

import ast
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HIDDEN = {"remove-cell", "remove-input"}
_CALLS = re.compile(r"\bglue\(|\bjosa\(|\bpct\(|\bpp\(|\bnum\(|\blr_text\(|\bbl\.korean\.|bertlab\.course\.prose|\bmyst_nb\b")
_SWITCH = re.compile(r"os\.environ|BERTLAB_FAST|ACC_FLOOR|IS_MINI")
_PROSE_NAME = re.compile(r"^\s*(\w+_(story|verdict|note|sentence|text))\s*(=|\+=|\.append\(|\.extend\()")


def _code_lines(src: str) -> list[int]:
    return [i for i, line in enumerate(src.splitlines(), 1) if line.strip() and not line.strip().startswith("#")]


def _statements(src: str) -> list[tuple[int, int, str]]:
    """(첫 줄, 끝 줄, 글) — 맨 위 문장과 그 안의 문장(if/for 안쪽)까지. IPython의 ! 와 % 줄은 빈 줄로 바꿔 읽는다."""
    clean = "\n".join("" if line.lstrip().startswith(("!", "%")) else line for line in src.splitlines())
    try:
        tree = ast.parse(clean)
    except SyntaxError:
        return []
    lines = clean.splitlines()
    out = []

    def visit(body):
        for node in body:
            inner = [getattr(node, f, None) for f in ("body", "orelse", "finalbody", "handlers")]
            if any(isinstance(b, list) and b and isinstance(b[0], ast.AST) for b in inner) and not isinstance(
                    node, (ast.FunctionDef, ast.ClassDef)):
                head_end = node.body[0].lineno - 1 if getattr(node, "body", None) else node.end_lineno
                out.append((node.lineno, head_end, "\n".join(lines[node.lineno - 1 : head_end])))
                for b in inner:
                    if isinstance(b, list):
                        visit([x for x in b if isinstance(x, ast.stmt)] + [h for h in b if isinstance(h, ast.ExceptHandler)])
            elif isinstance(node, ast.ExceptHandler):
                visit(node.body)
            else:
                out.append((node.lineno, node.end_lineno, "\n".join(lines[node.lineno - 1 : node.end_lineno])))

    visit(tree.body)
    return out


_HANGUL_STRING = re.compile(r"""[fF]?(["'])[^"'\n]*[가-힣][^"'\n]*\1""")


def is_plumbing(statement: str) -> bool:
    named = _PROSE_NAME.match(statement)
    prose_name = bool(named) and not named.group(1).startswith("my_") and bool(_HANGUL_STRING.search(statement))
    return bool(_CALLS.search(statement) or _SWITCH.search(statement) or prose_name)


def share(path: Path) -> tuple[int, int]:
    """(배관 줄 수, 보이는 코드 줄 수)"""
    cells = json.loads(Path(path).read_text(encoding="utf-8"))["cells"]
    plumbing = total = 0
    for cell in cells:
        if cell["cell_type"] != "code" or HIDDEN & set(cell.get("metadata", {}).get("tags", [])):
            continue
        src = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        code = set(_code_lines(src))
        total += len(code)
        marked = set()
        for first, last, text in _statements(src):
            if is_plumbing(text):
                marked |= set(range(first, last + 1))
        plumbing += len(code & marked)
    return plumbing, total


def main(argv: list[str]) -> int:
    paths = [Path(a) for a in argv] or sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    print("| 장 | 배관 줄 | 보이는 코드 줄 | 비율 |\n|---|---:|---:|---:|")
    worst = 0.0
    for p in paths:
        n, total = share(p)
        ratio = n / total if total else 0.0
        worst = max(worst, ratio)
        print(f"| {p.stem} | {n} | {total} | {100 * ratio:.0f} % |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
