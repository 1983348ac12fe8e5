"""문체 검사: 노트북의 마크다운 셀과 book/*.md를 읽기만 합니다(모델도, 노트북 실행도 없음).

1. 글루 값 바로 뒤에 조사를 쓰지 않는다. 조사의 꼴이 값에 따라 달라지기 때문입니다(2로, 3으로).
   값과 조사를 함께 만든 문자열을 붙여 넣는 것(``glue("n_josa", josa(...))``)은 괜찮습니다.
2. 용어집(book/glossary.md)의 용어 표가 "쓰지 않는 꼴"로 정한 말을 쓰지 않는다. 표는 용어집에서 직접 읽으므로
   용어집과 이 검사가 어긋날 일이 없습니다. 용어집의 용어 표 구역("% 용어 표 시작" ~ "% 용어 표 끝")은 검사하지 않습니다.
   노트북은 마크다운 셀과, 코드 셀 가운데 그림에 보이는 문자열(축 이름, 제목, 범례)과 본문에 붙는 글루 문자열을 봅니다.
3. 배, 눈, 말, 밤, 차, 다리는 동음이의어이므로 이 단어들을 '다의어'라고 부르지 않는다. 이 과정에서 '다의어'는
   거의 언제나 이 여섯 단어를 가리켰으므로, '다의어'는 앞뒤 80자 안에 '동음이의어'(둘을 구별하는 설명)나
   'polysemy'(정말 다의어를 말하는 곳)가 있을 때만 통과합니다.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GLOSSARY = ROOT / "book" / "glossary.md"
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
PAGES = sorted((ROOT / "book").glob("*.md"))
FILES = NOTEBOOKS + PAGES

TABLE_START = "% 용어 표 시작"
TABLE_END = "% 용어 표 끝"

HANGUL = "가-힣"
ERRATA = ROOT / "book" / "errata.md"
QUOTED = re.compile(r"'[^'\n]{1,60}'|‘[^’\n]{1,60}’")


# --------------------------------------------------------------------------- 읽기


@dataclass(frozen=True)
class Chunk:
    """검사할 글 한 덩어리: 어디서 왔는지(파일, 셀 번호)와 첫 줄 번호."""

    path: Path
    cell: int | None  # 노트북 셀 번호(0부터), 페이지면 None
    first_line: int
    text: str

    def where(self, offset: int) -> str:
        line = self.first_line + self.text.count("\n", 0, offset)
        rel = self.path.relative_to(ROOT).as_posix()
        return f"{rel} 셀 {self.cell}, {line}째 줄" if self.cell is not None else f"{rel}:{line}"


def _cells(path: Path) -> list[tuple[int, str, str]]:
    nb = json.loads(path.read_text(encoding="utf-8"))
    out = []
    for i, cell in enumerate(nb["cells"]):
        src = cell.get("source", "")
        out.append((i, cell["cell_type"], "".join(src) if isinstance(src, list) else src))
    return out


def _blank(text: str, start: int, end: int) -> str:
    """text[start:end]를 같은 길이의 공백으로 바꿉니다(줄바꿈은 남겨 줄 번호가 그대로)."""
    return text[:start] + re.sub(r"[^\n]", " ", text[start:end]) + text[end:]


def _without_style_table(text: str) -> str:
    start, end = text.find(TABLE_START), text.find(TABLE_END)
    if start < 0 or end < start:
        return text
    return _blank(text, start, end + len(TABLE_END))


def markdown_chunks(path: Path) -> list[Chunk]:
    """노트북이면 마크다운 셀마다 하나, 페이지면 파일 전체(용어집의 용어 표 구역은 지움)."""
    if path.suffix == ".ipynb":
        return [Chunk(path, i, 1, src) for i, kind, src in _cells(path) if kind == "markdown"]
    text = path.read_text(encoding="utf-8")
    if path == GLOSSARY:
        text = _without_style_table(text)
    return [Chunk(path, None, 1, text)]


_LABEL_CALL = re.compile(
    r"(?:set_xlabel|set_ylabel|set_title|suptitle|xlabel|ylabel|title|legend|annotate|\.text|glue)\s*\(|\blabels?\s*="
)
_STRING = re.compile(r"""[rRfFbBuU]{0,2}("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')""")


def _code_part(line: str) -> str:
    """주석(#, 문자열 밖)을 뗀 코드 줄."""
    quote, i = None, 0
    while i < len(line):
        ch = line[i]
        if quote:
            if ch == "\\":
                i += 1  # 이스케이프된 다음 글자는 건너뜀
            elif ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "#":
            return line[:i]
        i += 1
    return line


def _code_cells(path: Path) -> list[tuple[int | None, int, str]]:
    """(셀 번호, 첫 줄 번호, 코드): 노트북의 코드 셀, 또는 MyST 페이지의 ```{code-cell} 블록."""
    if path.suffix == ".ipynb":
        return [(i, 1, src) for i, kind, src in _cells(path) if kind == "code"]
    out, start, lines = [], None, path.read_text(encoding="utf-8").split("\n")
    for n, line in enumerate(lines, start=1):
        if start is None and line.strip().startswith("```{code-cell}"):
            start = n
        elif start is not None and line.strip() == "```":
            out.append((None, start + 1, "\n".join(lines[start:n - 1])))
            start = None
    return out


def label_chunks(path: Path) -> list[Chunk]:
    """코드에서 그림이나 본문에 보이는 문자열: 축 이름, 제목, 범례, 글루 값이 있는 줄의 문자열 상수."""
    out = []
    for i, first, src in _code_cells(path):
        for n, line in enumerate(src.splitlines(), start=first):
            code = _code_part(line)
            if not _LABEL_CALL.search(code):
                continue
            strings = " / ".join(m.group(1)[1:-1] for m in _STRING.finditer(code))
            if strings:
                out.append(Chunk(path, i, n, strings))
    return out


# --------------------------------------------------------------------------- 글 다듬기

_FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})(.*)$")
CODE_DIRECTIVES = ("{code-cell}", "{code-block}", "{code}", "{sourcecode}")


def _spaces(line: str) -> str:
    return " " * len(line)


def strip_code_blocks(text: str) -> str:
    """코드 블록(```python, ```{code-cell} 등)을 지웁니다. 다른 MyST 지시문(```{figure}, ```{glossary})의 내용은 글이므로 남깁니다."""
    lines = text.split("\n")
    out, fence = [], None
    for line in lines:
        m = _FENCE.match(line)
        if fence is None:
            if m:
                info = m.group(3).strip()
                fence = (m.group(2)[0], len(m.group(2)), not info.startswith("{") or info.startswith(CODE_DIRECTIVES))
                out.append(_spaces(line) if fence[2] else line)
                continue
            out.append(line)
        else:
            char, length, is_code = fence
            if m and m.group(2)[0] == char and len(m.group(2)) >= length and not m.group(3).strip():
                fence = None
                out.append(_spaces(line) if is_code else line)
                continue
            out.append(_spaces(line) if is_code else line)
    return "\n".join(out)


_DOUBLE_TICK = re.compile(r"``.+?``")
_ROLE = re.compile(r"\{[a-z:_-]+\}`[^`\n]*`")
_CODE = re.compile(r"`[^`\n]+`")
_URL = re.compile(r"https?://\S+")
_COMMENT_LINE = re.compile(r"^%.*$", re.M)
_HTML_COMMENT = re.compile(r"<!--.*?-->", re.S)


def prose(text: str) -> str:
    """용어 검사용: 코드, 역할(role)과 그 대상, 인라인 코드, 주소, 주석을 지운 글(길이와 줄 번호는 그대로)."""
    text = strip_code_blocks(text)
    for pattern in (_HTML_COMMENT, _COMMENT_LINE, _DOUBLE_TICK, _ROLE, _CODE, _URL):
        for m in reversed(list(pattern.finditer(text))):
            text = _blank(text, m.start(), m.end())
    return text


# --------------------------------------------------------------------------- 1. 글루 값 뒤의 조사

GLUE_ROLE = re.compile(r"\{glue(?::[a-z_]+)?\}`[^`\n]+`")
# 값 뒤에 오면 조사로 읽히는 말. 여러 음절짜리는 앞부분만 맞아도 조사입니다.
PARTICLES = (
    "이었", "였", "입니다", "입니까", "이에요", "예요", "이지만", "이므로", "이라는", "이라고", "이라면", "이라서",
    "이란", "이랑", "이며", "이고", "이다", "이면", "이나", "이든", "으로", "에게서", "에게", "에서", "한테",
    "보다", "처럼", "까지", "부터", "마다", "만큼", "밖에", "조차", "마저", "라는", "라고", "라면", "라서", "랑", "뿐",
)
# 한 음절 조사: 그것만 있거나 뒤에 보조사가 이어질 때만 조사로 봅니다('가지', '과정', '도로'는 조사가 아님).
ONE_SYLLABLE = frozenset("이가을를은는과와의도만에로")
AFTER_ONE = ("", "는", "도", "만", "의", "서", "써", "요", "나", "든", "라도")
# 값과 닫는 표시 사이에 올 수 있는 것: 강조 표시와 닫는 따옴표. 괄호 뒤의 조사는 괄호 앞말에 붙으므로 넘지 않습니다.
CLOSERS = "*_'\"’”」』"
_HANGUL_RUN = re.compile(f"[{HANGUL}]+")


def is_particle(run: str) -> bool:
    """값 바로 뒤의 한글 덩어리가 조사(또는 조사로 시작하는 말)인가."""
    if run.startswith(PARTICLES):
        return True
    return run[0] in ONE_SYLLABLE and run[1:] in AFTER_ONE


def particle_hits(text: str) -> list[tuple[int, str]]:
    """(위치, 값과 뒤따르는 말) 목록: 글루 역할 바로 뒤에 조사가 붙은 곳."""
    text = strip_code_blocks(text)
    for m in reversed(list(_DOUBLE_TICK.finditer(text))):  # ``{glue:text}`x` `` 같은 문법 예시는 빼고
        text = _blank(text, m.start(), m.end())
    hits = []
    for m in GLUE_ROLE.finditer(text):
        j = m.end()
        while j < len(text) and text[j] in CLOSERS:
            j += 1
        run = _HANGUL_RUN.match(text, j)
        if run and is_particle(run.group()):
            hits.append((m.start(), text[m.start() : run.end()]))
    return hits


def test_particle_detector():
    flagged = [
        "층 {glue:text}`n`을 봅니다", "정확도는 {glue:text}`acc:.1%`로 올랐다", "값은 {glue}`x`입니다",
        "'{glue:text}`tok`'만 찍으면", "**{glue:text}`n`**개가 아니라 **{glue:text}`m`**이다",
        "{glue:text}`a`에서 {glue:text}`b`까지", "{glue:text}`w`만큼 다르다", "{glue:text}`k`이며",
    ]
    allowed = [
        "층 {glue:text}`n_layers`개", "{glue:text}`n`차원", "{glue:text}`n`스텝 만에", "{glue:text}`r`배",
        "{glue:text}`n_josa` 학습합니다", "{glue:text}`n`가지", "정확도({glue:text}`acc`)는", "{glue:text}`x` 이상",
        "{glue:text}`e`에포크", "문법 예시 `` {glue:text}`acc`를 `` 는 코드", "{glue:text}`n`.",
    ]
    for s in flagged:
        assert particle_hits(s), s
    for s in allowed:
        assert not particle_hits(s), s


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_particle_after_glued_value(path):
    problems = [f"{c.where(i)}: {snippet}" for c in markdown_chunks(path) for i, snippet in particle_hits(c.text)]
    assert not problems, (
        "글루 값 바로 뒤에 조사가 있습니다. 값에 맞는 조사를 bertlab.course.prose.josa로 값과 함께 붙여 넣거나, "
        "조사가 필요 없게 문장을 바꾸십시오:\n" + "\n".join(problems)
    )


# --------------------------------------------------------------------------- 2. 용어집의 용어 표


@dataclass(frozen=True)
class TermRow:
    chosen: str
    retired: tuple[str, ...]
    english: str


def read_term_table(path: Path = GLOSSARY) -> list[TermRow]:
    """용어집의 용어 표 구역에서 | 쓰는 용어 | 쓰지 않는 꼴 | 영어 | 표를 읽습니다. 괄호 안은 설명이므로 뺍니다."""
    text = path.read_text(encoding="utf-8")
    start, end = text.find(TABLE_START), text.find(TABLE_END)
    assert 0 <= start < end, f"{path.name}에 '{TABLE_START}'와 '{TABLE_END}' 표시가 없습니다"
    rows = []
    for line in text[start:end].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.lstrip().startswith("|") else []
        if len(cells) != 3 or set(cells[0]) <= set("-: ") or cells[0] == "쓰는 용어":
            continue
        retired = tuple(v.strip() for v in re.sub(r"\([^)]*\)", "", cells[1]).split(",") if v.strip())
        rows.append(TermRow(cells[0], retired, cells[2]))
    return rows


def test_term_table_is_readable():
    rows = read_term_table()
    assert len(rows) >= 10
    chosen = [r.chosen for r in rows]
    assert len(set(chosen)) == len(chosen), "한 용어가 표에 두 번 있습니다"
    for row in rows:
        assert row.retired and row.english, row
        for variant in row.retired:
            assert variant not in chosen, f"'{variant}'가 쓰는 용어이면서 쓰지 않는 꼴입니다"
    assert "층 정규화" in {v for r in rows for v in r.retired}


def retired_hits(text: str, rows: list[TermRow]) -> list[tuple[int, str, str]]:
    """(위치, 쓰지 않는 꼴, 쓰는 용어) 목록. 한글 음절 바로 뒤에서 시작하는 것('첫머리'의 '머리')은 다른 단어로 봅니다.
    쓰는 용어 안에 든 쓰지 않는 꼴('가중치 감쇠' 안의 '감쇠')은 세지 않고, 겹치면 긴 꼴 하나만 셉니다."""
    for chosen in {r.chosen for r in rows}:
        if any(v in chosen for r in rows for v in r.retired):
            for m in reversed(list(re.finditer(re.escape(chosen), text))):
                text = _blank(text, m.start(), m.end())
    pairs = sorted(((v, r.chosen) for r in rows for v in r.retired), key=lambda p: -len(p[0]))
    taken: list[range] = []
    hits = []
    for variant, chosen in pairs:
        for m in re.finditer(f"(?<![{HANGUL}]){re.escape(variant)}", text):
            if any(m.start() in span or m.end() - 1 in span for span in taken):
                continue
            taken.append(range(m.start(), m.end()))
            hits.append((m.start(), variant, chosen))
    return sorted(hits)


def test_retired_detector():
    rows = [TermRow("가중치 감쇠", ("감쇠",), "weight decay"), TermRow("학습률 감소", ("선형 감쇠",), "lr decay"),
            TermRow("헤드", ("머리",), "head"), TermRow("LayerNorm", ("층 정규화",), "layer normalization")]
    assert [h[1] for h in retired_hits("가중치 감쇠 0.01과 선형 감쇠", rows)] == ["선형 감쇠"]
    assert [h[1] for h in retired_hits("분류 머리를 얹고, 단어 첫머리용 자모", rows)] == ["머리"]
    assert [h[1] for h in retired_hits("임베딩 층 정규화와 배치 정규화", rows)] == ["층 정규화"]
    assert not retired_hits(prose("코드 `층 정규화` 와 {ref}`머리`\n```python\n# 감쇠\n```\n"), rows)


def _term_chunks(path: Path) -> list[Chunk]:
    return [Chunk(c.path, c.cell, c.first_line, prose(c.text)) for c in markdown_chunks(path)] + label_chunks(path)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_retired_terms(path):
    rows = read_term_table()
    problems = []
    for chunk in _term_chunks(path):
        text = chunk.text
        if path == ERRATA:  # 강사용 정오표는 예전 자료의 말을 따옴표로 인용한다: 인용 안의 옛 용어는 세지 않는다
            for m in reversed(list(QUOTED.finditer(text))):
                text = _blank(text, m.start(), m.end())
        for i, variant, chosen in retired_hits(text, rows):
            context = " ".join(chunk.text[max(0, i - 25) : i + len(variant) + 25].split())
            problems.append(f"{chunk.where(i)}: '{variant}' → '{chosen}'  …{context}…")
    assert not problems, (
        "용어집(book/glossary.md '한 개념에 한 용어')의 표가 쓰지 않기로 한 꼴입니다:\n" + "\n".join(problems)
    )


# --------------------------------------------------------------------------- 3. 동음이의어를 '다의어'라 부르기

# 여섯 동음이의어가 단어로(뒤에 조사만 붙어) 나오는 곳. '차이'의 '차'는 빼고 셉니다.
_HOMONYM = re.compile(
    f"(?<![{HANGUL}])(?:다리|배|눈|말|밤|차(?!이))"
    f"(?=$|[^{HANGUL}]|(?:이|가|을|를|은|는|의|와|과|도|에|로|만|에서|으로)(?![{HANGUL}]))"
)
WINDOW = 80


def polysemy_hits(text: str) -> list[tuple[int, str]]:
    """'다의어'마다 앞뒤 80자를 봅니다. '동음이의어'가 있으면 둘을 구별하는 설명이고, 'polysemy'가 있으면
    정말 다의어(한 단어의 이어진 여러 뜻)를 말하는 곳이므로 넘어갑니다. 그 밖의 '다의어'는 모두 문제로 봅니다.
    이 과정에서 '다의어'는 거의 언제나 여섯 동음이의어를 가리켰고, 단어 목록 없이 가리키는 때도 많기 때문입니다
    ('다의어 평가 문장'). 여섯 단어가 가까이 있는지도 함께 알려 줍니다."""
    hits = []
    for m in re.finditer("다의어", text):
        window = text[max(0, m.start() - WINDOW) : m.end() + WINDOW]
        if "동음이의어" in window or "polysem" in window.lower():
            continue
        note = " [여섯 단어가 가까이 있음]" if _HOMONYM.search(window) else ""
        hits.append((m.start(), " ".join(window.split()) + note))
    return hits


def test_polysemy_detector():
    assert polysemy_hits("5장에서 뜻을 비교할 다의어(배, 눈, 말, 밤, 차, 다리)")
    assert polysemy_hits("### 다의어의 문맥 벡터\n\n| 배 | 0.69 |")
    assert not polysemy_hits("배, 눈, 말은 동음이의어이고 다의어와 다릅니다")
    assert polysemy_hits("학습에 쓰지 않은 다의어 평가 문장(뜻마다 6개)으로 잽니다")
    assert not polysemy_hits("'손'은 다의어(polysemy)입니다. 두 벡터의 차이를 봅니다")
    assert not polysemy_hits("다의어(polysemy)는 한 단어의 뜻이 서로 이어진 경우입니다")


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_homonyms_are_not_called_polysemous(path):
    problems = [f"{c.where(i)}: …{ctx}…" for c in _term_chunks(path) for i, ctx in polysemy_hits(c.text)]
    assert not problems, (
        "배, 눈, 말, 밤, 차, 다리는 동음이의어입니다. '다의어'를 '동음이의어'로 고치십시오"
        "(정말 다의어를 말하는 곳이면 '다의어(polysemy)'처럼 밝혀 두십시오):\n" + "\n".join(problems)
    )
