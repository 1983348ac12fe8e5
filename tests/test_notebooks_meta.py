"""장 노트북(notebooks/NN_*.ipynb)의 형식 약속(CONTRIBUTING.md)을 실행하지 않고 확인한다.

- 올바른 nbformat v4 노트북이고, 출력과 실행 번호 없이 저장되어 있다.
- 파일 이름은 ASCII이고 번호가 붙어 있으며, 모두 _toc.yml에 실려 있다(그 반대도).
- 첫 코드 셀은 Colab에서만(``if "google.colab" in sys.modules:``) bertlab을 설치하고, 그 주소는
  ``_config.yml`` 의 ``repository.url`` + ``@v`` + 고정 태그다. 태그는 모든 노트북에서 같고
  pyproject.toml의 버전과 맞는다. 그 밖에는 어떤 노트북도 어디서도 패키지를 설치하지 않는다.
- 노트북마다 ``assert`` 가 하나 이상 있다(노트북의 검사는 nbval이 실행한다).
- 쪽 뼈대: ``(ch-xxx)=`` 이름표 아래 ``# 제목``(장 번호 없이: _toc.yml이 매긴다), 그리고 ## 학습 목표 → 요약 → 연습문제 → 참고문헌.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import nbformat
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
NB_DIR = ROOT / "notebooks"
NOTEBOOKS = sorted(NB_DIR.glob("*.ipynb"))
SECTIONS = ["학습 목표", "요약", "연습문제", "참고문헌"]

GUARD = re.compile(r"""^if\s+(["'])google\.colab\1\s+in\s+sys\.modules\s*:\s*$""")
INSTALL = re.compile(
    r"""^(?P<indent>\s+)[!%]pip\s+install\s+(?:-q\s+|--quiet\s+)*(?P<q>["']?)bertlab\s*@\s*git\+(?P<url>\S+?)@(?P<tag>[^\s"']+)(?P=q)\s*$"""
)
# 설치로 보이는 모든 것: !pip / %pip / pip3 / python -m pip / conda·mamba / apt
ANY_INSTALL = re.compile(
    r"""\bpip3?\s+install\b|-m\s+pip\b|["']pip["']\s*,\s*["']install"""
    r"""|\b(?:conda|mamba|micromamba)\s+install\b|\bapt(?:-get)?\s+install\b"""
)
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
# 한 장에서만 쓰는 패키지의 Colab 설치 줄(판은 requirements.txt와 같아야 한다): 1장의 Kiwi(형태소 분석기)
_REQ = (ROOT / "requirements.txt").read_text(encoding="utf-8")
_KIWI = re.search(r"^kiwipiepy==(\S+)$", _REQ, re.M)
EXTRA_COLAB_INSTALLS = {
    "01_tokenization.ipynb": re.compile(rf"^\s+!pip install -q kiwipiepy=={re.escape(_KIWI.group(1))}\s*$") if _KIWI else None,
}
LABEL = re.compile(r"^\(([A-Za-z0-9_\-:.]+)\)=\s*$")


def _config() -> dict:
    return yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))


def _toc_files() -> list[str]:
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    files: list[str] = []

    def walk(node):
        if isinstance(node, dict):
            if "file" in node:
                files.append(str(node["file"]))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(toc)
    return [re.sub(r"\.(ipynb|md)$", "", f) for f in files]


def _read(path: Path):
    return nbformat.read(str(path), as_version=nbformat.NO_CONVERT)


def _code_cells(nb):
    return [c for c in nb.cells if c.cell_type == "code"]


def _headings(nb) -> list[tuple[int, str, int]]:
    """마크다운 셀의 (수준, 글, 셀 번호). 코드 블록 안의 # 줄은 뺀다."""
    found = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "markdown":
            continue
        fence = None
        for line in cell.source.splitlines():
            m = re.match(r"^\s{0,3}(`{3,}|~{3,})", line)
            if m:
                if fence is None:
                    fence = m.group(1)
                elif m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                    fence = None
                continue
            if fence is None and (h := HEADING.match(line)):
                found.append((len(h.group(1)), h.group(2), i))
    return found


def _install_line(nb) -> re.Match | None:
    """첫 코드 셀에서 Colab 가드 안에 든 bertlab 설치 줄을 찾는다."""
    lines = _code_cells(nb)[0].source.splitlines()
    for i, line in enumerate(lines):
        if GUARD.match(line):
            for body in lines[i + 1 :]:
                if not body.strip():
                    continue
                if not body[:1].isspace():  # if 블록이 끝났다
                    break
                if m := INSTALL.match(body):
                    return m
    return None


def test_there_are_notebooks():
    assert NOTEBOOKS, "notebooks/ 에 노트북이 하나도 없습니다"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_file_name_ascii_and_numbered(path):
    assert path.name.isascii(), f"{path.name}: 파일 이름은 ASCII여야 합니다"
    assert re.fullmatch(r"\d{2}_[a-z0-9_]+\.ipynb", path.name), f"{path.name}: 이름은 'NN_소문자_이름.ipynb' 꼴이어야 합니다"


def test_numbers_unique():
    numbers = [p.name[:2] for p in NOTEBOOKS]
    assert len(numbers) == len(set(numbers)), f"장 번호가 겹칩니다: {numbers}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_valid_nbformat_v4(path):
    raw = json.loads(path.read_text(encoding="utf-8"))
    assert raw.get("nbformat") == 4, f"{path.name}: nbformat {raw.get('nbformat')} (4여야 합니다)"
    nb = _read(path)
    nbformat.validate(nb)
    assert nb.metadata.get("kernelspec", {}).get("name") == "python3", f"{path.name}: kernelspec은 python3이어야 합니다"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_outputs_or_execution_counts(path):
    nb = _read(path)
    dirty = [i for i, c in enumerate(nb.cells) if c.cell_type == "code" and (c.get("outputs") or c.get("execution_count") is not None)]
    assert not dirty, f"{path.name}: 셀 {dirty}에 출력이나 실행 번호가 남아 있습니다. 출력을 지우고 저장하세요."


def test_notebooks_and_toc_agree():
    toc = _toc_files()
    listed = {f for f in toc if f.startswith("notebooks/")}
    present = {f"notebooks/{p.stem}" for p in NOTEBOOKS}
    assert present - listed == set(), f"_toc.yml에 없는 노트북: {sorted(present - listed)}"
    assert listed - present == set(), f"_toc.yml에는 있지만 파일이 없는 노트북: {sorted(listed - present)}"
    in_toc = [f for f in toc if f.startswith("notebooks/")]
    assert in_toc == sorted(in_toc), f"_toc.yml의 장 순서가 파일 번호 순서와 다릅니다: {in_toc}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_first_cell_installs_bertlab_only_on_colab(path):
    nb = _read(path)
    assert _code_cells(nb), f"{path.name}: 코드 셀이 없습니다"
    first = _code_cells(nb)[0].source
    assert re.search(r"^import sys\s*$", first, re.M), f"{path.name}: 첫 코드 셀에 'import sys'가 없습니다"
    m = _install_line(nb)
    assert m, f'{path.name}: 첫 코드 셀의 `if "google.colab" in sys.modules:` 블록 안에 bertlab 설치 줄이 없습니다'
    url = _config()["repository"]["url"]
    assert m.group("url") == url, f"{path.name}: 설치 주소 {m.group('url')} ≠ _config.yml의 repository.url {url}"
    assert re.fullmatch(r"v\d+\.\d+\.\d+", m.group("tag")), f"{path.name}: 태그 {m.group('tag')}는 vX.Y.Z 꼴의 고정 태그여야 합니다"
    assert re.search(r"^import bertlab as bl\s*$", first, re.M) and "bl.setup(" in first, f"{path.name}: 첫 셀은 bertlab을 불러와 bl.setup()을 불러야 합니다"


def test_same_pinned_tag_everywhere():
    tags = {}
    for path in NOTEBOOKS:
        m = _install_line(_read(path))
        if m:
            tags[path.name] = m.group("tag")
    assert len(set(tags.values())) <= 1, f"노트북마다 태그가 다릅니다: {tags}"
    version = re.search(r'^version\s*=\s*"([^"]+)"', (ROOT / "pyproject.toml").read_text(encoding="utf-8"), re.M).group(1)
    for name, tag in tags.items():
        assert tag == f"v{version}", f"{name}: 태그 {tag}가 pyproject.toml의 버전 {version}(v{version})과 다릅니다"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_installs_nothing_else(path):
    nb = _read(path)
    allowed = _install_line(nb)
    extra = EXTRA_COLAB_INSTALLS.get(path.name)
    offenders = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        lines = cell.source.splitlines()
        for j, line in enumerate(lines):
            if allowed is not None and line == allowed.group(0):
                continue
            # 그 장에만 필요한 패키지: requirements.txt와 같은 판을, Colab에서만(바로 윗줄이 Colab 조건) 설치한다
            if extra and extra.match(line) and j > 0 and GUARD.match(lines[j - 1].strip()):
                continue
            if ANY_INSTALL.search(line):
                offenders.append(f"셀 {i}: {line.strip()}")
    assert not offenders, f"{path.name}: bertlab 말고도 설치하는 줄이 있습니다: {offenders}"
    assert sum(bool(INSTALL.match(l)) for c in _code_cells(nb) for l in c.source.splitlines()) == 1, f"{path.name}: bertlab 설치 줄은 한 번만 있어야 합니다"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_has_assert(path):
    nb = _read(path)
    code = "\n".join(c.source for c in _code_cells(nb))
    assert re.search(r"^\s*assert\b|\bassert_close\(|\bassert_allclose\(", code, re.M), f"{path.name}: assert가 하나도 없습니다"


_COMPARE = {"assert_close", "assert_allclose", "allclose", "equal", "assert_equal"}
_MODEL_SIDE = re.compile(r"\b(model|hf_model|mlm|outputs?|out|hidden_states|attentions|last_hidden_state|pooler_output|logits|"
                         r"by_tokenizer|tokenizer|loss|reference|ref)\b")


def hand_vs_model_checks(source: str) -> list[str]:
    """`torch.testing.assert_close(손 계산, 모델의 값)`처럼 손 계산을 모델(또는 토크나이저)의 출력과 견주는 검사 문장들."""
    import ast

    clean = "\n".join("" if l.lstrip().startswith(("!", "%")) else l for l in source.splitlines())
    try:
        tree = ast.parse(clean)
    except SyntaxError:
        return []
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name in _COMPARE and len(node.args) >= 2:
                text = ast.get_source_segment(clean, node) or ""
                if _MODEL_SIDE.search(text):
                    found.append(text)
        elif isinstance(node, ast.Assert) and isinstance(node.test, ast.Compare) and isinstance(node.test.ops[0], ast.Eq):
            text = ast.get_source_segment(clean, node) or ""
            if re.search(r"by_hand|manual|hand", text) and _MODEL_SIDE.search(text):
                found.append(text)
    return found


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_hand_computation_is_checked_against_the_model(path):
    """assert가 '어딘가에 있다'가 아니라, 장의 보이는 코드가 손 계산을 모델(토크나이저)의 출력과 견주는 검사를 한다(이슈 30)."""
    cells = [c for c in _code_cells(_read(path)) if not {"prose", "solution"} & set(c.get("metadata", {}).get("tags", []))]
    found = [t for c in cells for t in hand_vs_model_checks(c.source)]
    assert found, f"{path.name}: 손 계산을 모델의 출력과 견주는 assert_close/allclose가 보이는 코드에 없습니다"


def test_hand_vs_model_detector():
    assert hand_vs_model_checks("torch.testing.assert_close(manual, out.last_hidden_state)")
    assert hand_vs_model_checks("for k in keys:\n    assert by_hand[k] == by_tokenizer[k], k")
    assert not hand_vs_model_checks("assert x == x")
    assert not hand_vs_model_checks("torch.testing.assert_close(a, b)")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_page_skeleton(path):
    nb = _read(path)
    heads = _headings(nb)
    titles = [h for h in heads if h[0] == 1]
    assert len(titles) == 1, f"{path.name}: '# 제목' 꼴의 H1 제목이 하나여야 합니다 (찾은 것: {[t[1] for t in titles]})"
    # 장 번호는 _toc.yml이 매기므로 제목에는 번호를 쓰지 않는다('3장. …'이면 웹사이트에 '5. 3장. …'처럼 두 번 붙는다)
    assert not re.match(r"\d+\s*장|\d+\.\s", titles[0][1]), f"{path.name}: 제목 '{titles[0][1]}'에 장 번호를 쓰지 마세요(목차가 매깁니다)"
    # 제목 바로 위 줄에 ASCII 이름표 (ch-xxx)=
    cell = nb.cells[titles[0][2]].source.splitlines()
    at = next(i for i, line in enumerate(cell) if HEADING.match(line) and line.startswith("# "))
    above = [line for line in cell[:at] if line.strip()]
    assert above and LABEL.match(above[-1]), f"{path.name}: 제목 바로 위에 '(ch-이름)=' 이름표가 있어야 합니다"
    order = []
    for section in SECTIONS:
        where = [k for k, h in enumerate(heads) if h[0] == 2 and h[1] == section]
        assert where, f"{path.name}: '## {section}' 절이 없습니다"
        order.append(where[0])
    assert order == sorted(order), f"{path.name}: 절의 순서는 {' → '.join(SECTIONS)}여야 합니다"


FACTORY = re.compile(r"\b(?:bl|bertlab)\.(?:minibert|course)\b|from\s+bertlab\.(?:minibert|course)\b|import\s+bertlab\.(?:minibert|course)\b")
PROSE_IMPORT = re.compile(r"^\s*from\s+bertlab\.course\.prose\s+import\b.*$", re.M)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_chapters_use_only_the_teaching_api(path):
    """장은 가르치는 API만 쓴다: 미니 BERT 공장(bertlab.minibert)과 책 도구(bertlab.course)는 부록과 명령줄의 몫.
    글 셀(태그 prose: 쪽의 글만 만드는 숨긴 셀)만 책 도구의 `bertlab.course.prose`를 import할 수 있다."""
    hits = []
    for cell in _code_cells(_read(path)):
        src = cell.source
        if "prose" in cell.get("metadata", {}).get("tags", []) or PROSE_IMPORT.search(src):
            src = PROSE_IMPORT.sub("", src)
        hits += [m.group(0) for m in FACTORY.finditer(src)]
    assert not hits, f"{path.name}이 공장/도구 모듈을 씁니다: {hits}"


TEACHING_API = {"env", "models", "senses", "attention", "analysis", "viz", "data", "train", "scratch", "checks"}


def _imports(path: Path) -> set[str]:
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = "." * node.level + (node.module or "")
            out |= {base} | {f"{base}.{a.name}" if base.endswith(".") is False else base + a.name for a in node.names}
        elif isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
    return out


def test_house_by_meaning():
    """세 방(이슈 30): 가르치는 API(bertlab/*.py와 bertlab/checks/), 미니 BERT 공장(bertlab/minibert/), 책 도구
    (bertlab/course/). 맨 위의 모듈은 모두 가르치는 API로 정해 둔 것이고(새 모듈은 이 목록에 일부러 더함), 의존은 한쪽으로만
    흐른다: 가르치는 API는 공장도 책 도구도 import하지 않는다. 모듈 길이는 규칙이 아니라 CONTRIBUTING의 권고다."""
    pkg = ROOT / "bertlab"
    top = {p.stem for p in pkg.glob("*.py") if p.stem != "__init__"} | {
        p.name for p in pkg.iterdir() if p.is_dir() and (p / "__init__.py").exists() and p.name not in ("minibert", "course")}
    assert top == TEACHING_API, f"가르치는 API가 아닌 모듈이 맨 위에 있습니다: {sorted(top ^ TEACHING_API)}"
    teaching = [p for p in pkg.glob("*.py")] + list((pkg / "checks").glob("*.py"))
    wrong = {}
    for path in teaching:
        bad = [m for m in _imports(path) if re.search(r"(^|\.)(minibert|course)(\.|$)", m)]
        if path.name == "__init__.py" and path.parent == pkg:
            bad = [m for m in bad if m not in (".minibert", ".course")]  # 지연 import 목록에 이름만 있다
        if bad:
            wrong[str(path.relative_to(pkg))] = bad
    assert not wrong, f"가르치는 API가 공장이나 책 도구를 import합니다: {wrong}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_title_first_then_collapsed_setup_cell(path):
    """웹사이트에서 장은 제목과 여는 글로 시작하고, 준비 셀(첫 코드 셀)은 그 뒤에 접혀 있지만 실행된다."""
    nb = _read(path)
    first = nb.cells[0]
    assert first.cell_type == "markdown" and re.search(r"^# \S", first.source, re.M), f"{path.name}: 첫 셀이 제목이 아닙니다"
    setup = _code_cells(nb)[0]
    assert nb.cells.index(setup) == 1, f"{path.name}: 준비 셀이 제목 셀 바로 뒤에 있어야 합니다"
    tags = setup.metadata.get("tags", [])
    assert "hide-input" in tags or "hide-cell" in tags, f"{path.name}: 준비 셀에 hide-input 태그가 없습니다"
    assert not {"remove-cell", "remove-input", "skip-execution"} & set(tags), f"{path.name}: 준비 셀은 실행되어야 합니다"


PRIMITIVES = {"split_heads", "merge_heads", "additive_mask", "layer_norm", "mask_tokens", "continuation_ids",
              "url_reachable", "pct", "pp", "josa", "mcnemar", "train_epoch"}


def test_each_primitive_has_one_definition():
    """한 생각에 한 정의(이슈 30 §1): 패키지, 장 노트북, 책 쪽, 스크립트를 통틀어 `def 이름(`이 한 곳에만 있다.
    장은 패키지의 정의를 쓰고(bl.show_source로 보여 주기도 함), 같은 것을 다시 정의하지 않는다."""
    root = Path(__file__).resolve().parents[1]
    sources = {p.relative_to(root).as_posix(): p.read_text(encoding="utf-8")
               for folder in ("bertlab", "scripts", "book") for p in (root / folder).rglob("*")
               if p.suffix in (".py", ".md") and p.is_file() and "_build" not in p.parts}
    for nb in sorted((root / "notebooks").glob("*.ipynb")):
        sources[nb.name] = "\n".join(c.source for c in _read(nb).cells if c.cell_type == "code")
    where = {name: [path for path, text in sources.items() if re.search(rf"^\s*def {name}\(", text, re.M)] for name in PRIMITIVES}
    twice = {name: paths for name, paths in where.items() if len(paths) > 1}
    missing = sorted(name for name, paths in where.items() if not paths)
    assert not twice, f"같은 것을 두 번 정의했습니다: {twice}"
    assert not missing, f"정의를 찾지 못했습니다(이름이 바뀌었으면 PRIMITIVES를 고치세요): {missing}"
