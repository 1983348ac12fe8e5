"""장 노트북(MyST)에서 Colab·Jupyter용 보통 노트북을 만듭니다.

    python -m bertlab.course.colab OUT          # OUT/NN_*.ipynb 와 OUT/exercises/NN_*.ipynb
    bash scripts/colab-notebooks.sh OUT         # 같은 일(가상환경을 먼저 준비)

`notebooks/`의 장이 하나뿐인 원본이고, 이 모듈이 만든 노트북은 손으로 고치지 않습니다. Colab과 Jupyter는 MyST를
모르므로 마크다운 셀을 이렇게 바꿉니다.

- ``{glue:text}`이름:형식``` → 번들 미니 BERT로 노트북을 실제로 실행해 얻은 값(웹사이트를 mBERT로 빌드해도 그대로).
  형식은 myst-nb와 같은 함수(`format_plain_text`)로 적용합니다.
- ``{ref}`라벨``` 과 ``{doc}`경로``` → 웹사이트의 해당 쪽·앵커로 가는 보통 링크(글은 그 절의 제목), ``{term}`용어``` → 용어집 링크.
- ``{cite:p}`키``` → "(Devlin 외, 2019)", ``{cite:t}`키``` → "Devlin 외 (2019)", 둘 다 웹사이트의 참고문헌 쪽으로 링크.
- ``:::{dropdown} 풀이`` → ``<details><summary>풀이</summary> … </details>`` (Colab과 Jupyter 모두 접어서 보여 줌),
  ``{note}`` 같은 안내 상자 → 굵은 제목을 단 인용문, 라벨 줄 ``(ch-xxx)=`` → ``<a id="ch-xxx"></a>``.
- 수식 ``$…$`` 와 코드 블록은 그대로 둡니다.

준비 셀은 Colab 양식 필드 ``MODEL = "mini"  # @param ["mini", "mbert"]`` 로 모델을 고르게 바꿉니다. 기본값은 본문 숫자를
계산한 번들 미니 BERT이고, mBERT를 고르면 숫자가 본문과 달라진다고 한 문장으로 알립니다.

QuantEcon의 sphinx-tojupyter를 쓰지 않은 까닭: 그것은 Sphinx 문서 전체를 빌드해 노트북을 만드는 빌더라서, 이미 노트북인
장을 다시 만들려면 Sphinx 빌드 한 번이 더 필요하고, myst-nb의 glue 값(실행해야 생기는 값)을 채우지 못하며,
sphinx-book-theme의 드롭다운(sphinx-design)을 <details>로 바꾸지 않습니다. 여기서 필요한 변환은 역할 다섯 가지와
지시문 두 가지뿐이라 작은 변환기가 더 단순합니다.
"""

from __future__ import annotations

import argparse
import copy
import os
import re
import sys
from pathlib import Path

from .exercises import CHAPTER_GLOB, _fence_parts, make_exercise

ROOT = Path(__file__).resolve().parents[2]
COLAB_BRANCH = "colab"  # 배포 워크플로가 만든 노트북을 올리는 브랜치(.github/workflows/deploy.yml)
COLAB_MODELS = ("mini", "mbert")
_ROLE = re.compile(r"\{(?P<role>glue:text|glue|cite:p|cite:t|ref|doc|term|math)\}`(?P<body>[^`]+)`")
_LABEL = re.compile(r"^\((?P<label>[A-Za-z0-9_\-:.]+)\)=\s*$")
_HEADING = re.compile(r"^#{1,6}\s+(?P<title>.+?)\s*$")
_ADMONITIONS = {"note": "참고", "tip": "도움말", "warning": "주의", "important": "중요", "caution": "주의", "seealso": "함께 보기"}


# --------------------------------------------------------------------------- 책의 정보(주소, 라벨, 참고문헌)

def book_config(root: Path = ROOT) -> dict:
    import yaml

    return yaml.safe_load((root / "_config.yml").read_text(encoding="utf-8"))


def _owner_repo(config: dict) -> tuple[str, str]:
    url = config["repository"]["url"].rstrip("/")
    owner, repo = url.split("/")[-2:]
    return owner, repo


def site_url(config: dict) -> str:
    """웹사이트 주소: 저장소 주소(_config.yml의 repository.url, 한 곳)에서 GitHub Pages 주소를 얻습니다."""
    owner, repo = _owner_repo(config)
    return f"https://{owner.lower()}.github.io/{repo}/"


def colab_url(config: dict, notebook: str) -> str:
    """`notebook`(저장소 안 경로, 예: notebooks/01_tokenization.ipynb)을 Colab에서 여는 주소(colab 브랜치)."""
    owner, repo = _owner_repo(config)
    return f"https://colab.research.google.com/github/{owner}/{repo}/blob/{COLAB_BRANCH}/{notebook}"


def _markdown_sources(root: Path):
    """(문서 이름, 마크다운 글) — 장 노트북의 마크다운 셀과 book/*.md."""
    import nbformat

    for path in sorted((root / "notebooks").glob(CHAPTER_GLOB)):
        nb = nbformat.read(str(path), as_version=4)
        yield f"notebooks/{path.stem}", "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    for path in sorted((root / "book").glob("*.md")):
        yield f"book/{path.stem}", path.read_text(encoding="utf-8")


def _plain_title(title: str) -> str:
    return re.sub(r"\{[a-z:]+\}`([^`<]*?)(?:\s*<[^>]*>)?`", r"\1", title).replace("`", "").strip()


def label_index(root: Path = ROOT) -> tuple[dict[str, tuple[str, str, bool]], dict[str, str]]:
    """({라벨: (문서 이름, 제목, 쪽 맨 위인가)}, {문서 이름: 쪽 제목})."""
    labels: dict[str, tuple[str, str, bool]] = {}
    titles: dict[str, str] = {}
    for doc, text in _markdown_sources(root):
        pending = None
        for line in text.splitlines():
            if m := _LABEL.match(line):
                pending = m.group("label")
                continue
            if m := _HEADING.match(line):
                title = _plain_title(m.group("title"))
                top = line.startswith("# ") and doc not in titles
                titles.setdefault(doc, title)
                if pending:
                    labels[pending] = (doc, title, top)
            if line.strip():
                pending = None
    return labels, titles


def _bib_field(entry: str, name: str) -> str:
    m = re.search(rf"\b{name}\s*=\s*\{{(.*?)\}}\s*,?\s*$", entry, re.M | re.S)
    return m.group(1) if m else ""


def read_bib(path: Path = ROOT / "book" / "references.bib") -> dict[str, tuple[str, str]]:
    """{키: (저자 줄임, 연도)}. 저자 1명 → 성, 2명 → '성·성', 3명 이상 → '성 외'."""
    out = {}
    text = path.read_text(encoding="utf-8")
    for m in re.finditer(r"^@\w+\{(?P<key>[^,\s]+),(?P<body>.*?)^\}", text, re.M | re.S):
        authors = [a.strip() for a in re.split(r"\s+and\s+", _bib_field(m.group("body"), "author")) if a.strip()]
        last = [a.split(",")[0].strip("{} ") if "," in a else a.split()[-1].strip("{}") for a in authors]
        short = last[0] if len(last) == 1 else "·".join(last) if len(last) == 2 else f"{last[0]} 외"
        out[m.group("key")] = (short or m.group("key"), _bib_field(m.group("body"), "year") or "n.d.")
    return out


# --------------------------------------------------------------------------- glue 값: 번들 모델로 실행해서 얻는다

def execute(nb, model: str = "mini", cwd: Path = ROOT / "notebooks", timeout: int = 600):
    """노트북을 `BERTLAB_MODEL=model`로 새 커널에서 실행한 사본을 돌려줍니다(원본은 그대로)."""
    from nbclient import NotebookClient

    run = copy.deepcopy(nb)
    env = {**os.environ, "BERTLAB_MODEL": model, "MPLBACKEND": "Agg"}
    if model == "mini":
        env["HF_HUB_OFFLINE"] = "1"
    NotebookClient(run, timeout=timeout, kernel_name="python3", resources={"metadata": {"path": str(cwd)}}).execute(env=env)
    return run


def glue_values(executed_nb) -> dict[str, str]:
    """실행한 노트북의 출력에서 myst-nb glue 값(text/plain)을 모읍니다."""
    values = {}
    for cell in executed_nb.cells:
        for out in cell.get("outputs", []):
            scrap = out.get("metadata", {}).get("scrapbook", {})
            data = {k.removeprefix(scrap.get("mime_prefix", "")): v for k, v in out.get("data", {}).items()}
            if scrap.get("name") and "text/plain" in data:
                values[scrap["name"]] = data["text/plain"]
    return values


# --------------------------------------------------------------------------- 마크다운 바꾸기

class Context:
    """한 노트북을 바꾸는 데 필요한 것: 웹사이트 주소, 라벨·제목, 참고문헌, glue 값."""

    def __init__(self, root: Path = ROOT, glue: dict[str, str] | None = None, config: dict | None = None):
        self.config = config or book_config(root)
        self.site = site_url(self.config)
        self.labels, self.titles = label_index(root)
        self.bib = read_bib(root / "book" / "references.bib")
        self.glue = glue or {}
        self.doc = ""  # 지금 바꾸는 문서(상대 경로 {doc} 풀기에 씀)

    def page(self, doc: str, anchor: str | None = None) -> str:
        return f"{self.site}{doc}.html" + (f"#{anchor}" if anchor else "")


def _split_text_target(body: str) -> tuple[str | None, str]:
    m = re.fullmatch(r"\s*(?P<text>.*?)\s*<(?P<target>[^>]+)>\s*", body, re.S)
    return (m.group("text"), m.group("target").strip()) if m else (None, body.strip())


def _role(m: re.Match, ctx: Context) -> str:
    role, body = m.group("role"), m.group("body")
    if role in ("glue:text", "glue"):
        from myst_nb.core.variables import format_plain_text

        key, _, fmt = body.partition(":") if role == "glue:text" else (body, "", "")
        if key not in ctx.glue:
            raise KeyError(f"{ctx.doc}: glue 값 '{key}'이 실행 결과에 없습니다")
        if ctx.glue[key] == PLACEHOLDER:
            return PLACEHOLDER
        return format_plain_text(ctx.glue[key], fmt if fmt else "")
    if role == "math":
        return f"${body}$"
    if role in ("cite:p", "cite:t"):
        keys = [k.strip() for k in body.split(",")]
        missing = [k for k in keys if k not in ctx.bib]
        if missing:
            raise KeyError(f"{ctx.doc}: 참고문헌에 없는 키 {missing}")
        link = ctx.page("book/references")
        if role == "cite:p":
            inner = "; ".join(f"{ctx.bib[k][0]}, {ctx.bib[k][1]}" for k in keys)
            return f"([{inner}]({link}))"
        return ", ".join(f"[{ctx.bib[k][0]} ({ctx.bib[k][1]})]({link})" for k in keys)
    text, target = _split_text_target(body)
    if role == "term":  # 용어집 항목: 한국어 항목의 앵커는 빌드마다 번호가 바뀌므로 용어집 쪽으로 링크한다
        return f"[{text or target}]({ctx.page('book/glossary')})"
    if role == "ref":
        if target not in ctx.labels:
            raise KeyError(f"{ctx.doc}: 라벨 '{target}'을 찾지 못했습니다")
        doc, title, top = ctx.labels[target]
        return f"[{text or title}]({ctx.page(doc, None if top else target)})"
    # doc: 현재 문서 기준의 상대 경로
    doc = os.path.normpath(os.path.join(os.path.dirname(ctx.doc), target)).replace(os.sep, "/")
    doc = re.sub(r"\.(md|ipynb)$", "", doc)
    if doc not in ctx.titles:
        raise KeyError(f"{ctx.doc}: 문서 '{target}'을 찾지 못했습니다")
    return f"[{text or ctx.titles[doc]}]({ctx.page(doc)})"


def convert_markdown(text: str, ctx: Context) -> str:
    """MyST 마크다운 한 셀을 보통 마크다운(+ <details>)으로 바꿉니다."""
    out: list[str] = []
    stack: list[tuple[str, int, str]] = []  # (문자, 길이, 닫을 때 쓸 것)
    for line in text.splitlines():
        parts = _fence_parts(line)
        top = stack[-1] if stack else None
        in_code = top is not None and top[0] in "`~"
        if parts is not None:
            char, length, info = parts
            if top is not None and char == top[0] and length >= top[1] and info == "":
                stack.pop()
                if top[2] != "keep":
                    out += ["", top[2]] if top[2] else []
                    continue
                out.append(line)
                continue
            if not in_code:
                m = re.match(r"\{(?P<name>[a-z\-]+)\}\s*(?P<arg>.*)$", info)
                if m and m.group("name") == "dropdown":
                    stack.append((char, length, "</details>"))
                    out += [f"<details><summary>{m.group('arg') or '펼치기'}</summary>", ""]
                    continue
                if m and m.group("name") in _ADMONITIONS:
                    stack.append((char, length, ""))
                    out.append(f"> **{m.group('arg') or _ADMONITIONS[m.group('name')]}**")
                    out.append(">")
                    continue
                if m:
                    raise ValueError(f"{ctx.doc}: 바꿀 줄 모르는 지시문 {{{m.group('name')}}}")
                stack.append((char, length, "keep"))
                out.append(line)
                continue
        if in_code:
            out.append(line)
            continue
        if m := _LABEL.match(line):
            out.append(f'<a id="{m.group("label")}"></a>')
            continue
        line = _ROLE.sub(lambda mm: _role(mm, ctx), line)
        quoted = any(s[2] == "" for s in stack)  # 안내 상자 안
        out.append(("> " + line if line else ">") if quoted else line)
    return "\n".join(out).strip("\n")


# --------------------------------------------------------------------------- 노트북 바꾸기

def colab_setup_source(original: str) -> str:
    """원본 준비 셀(Colab에서만 pip 설치 + bl.setup())에 모델 고르는 양식 필드를 더합니다."""
    lines = [
        "# @title 준비: bertlab 설치와 모델 고르기",
        f"MODEL = \"mini\"  # @param {list(COLAB_MODELS)!r}".replace("'", '"'),
        "import os",
        "os.environ[\"BERTLAB_MODEL\"] = MODEL  # bl.load_bert()가 이 모델을 엽니다",
    ]
    return "\n".join(lines) + "\n" + original.strip() + "\n"


COLAB_NOTE = (
    "> **이 노트북에 대하여** — 웹사이트({site})의 장을 Colab·Jupyter용으로 옮긴 것입니다. 본문의 숫자는 모두 "
    "번들 한국어 미니 BERT(`MODEL = \"mini\"`)로 계산한 값이고, 아래 준비 셀의 기본값도 그 모델입니다. "
    "`MODEL`을 `\"mbert\"`로 바꾸면 원래 강의의 mBERT로 돌아가지만, 그때는 출력의 숫자가 본문과 달라집니다."
)


PROSE_TAG = "prose"  # 쪽의 글만 만드는 숨긴 셀(glue, 판정 문장): Colab판에서는 값이 본문에 이미 들어가므로 뺀다


def is_prose(cell) -> bool:
    return cell.cell_type == "code" and PROSE_TAG in cell.get("metadata", {}).get("tags", [])


def colab_code(nb, site_page: str, keep_prose: bool = False):
    """Colab판의 코드 부분: 출력을 지우고, 준비 셀 앞에 안내를 두고, 준비 셀에 모델 고르는 양식 필드를 넣습니다(새 객체).

    글 셀(태그 ``prose``)은 빼고(``keep_prose=True``면 남김: glue 값을 얻으려고 실행할 때), 학생이 읽는 코드만 남깁니다.
    """
    import nbformat

    out = copy.deepcopy(nb)
    cells = []
    setup_done = False
    for cell in out.cells:
        if is_prose(cell) and not keep_prose:
            continue
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
            if not setup_done:
                cells.append(nbformat.v4.new_markdown_cell(COLAB_NOTE.format(site=site_page)))
                cell.source = colab_setup_source(cell.source)
                setup_done = True
        cells.append(cell)
    out.cells = cells
    return out


def colab_markdown(nb, ctx: Context, source_name: str):
    """마크다운 셀의 MyST를 바꾸고 Colab 메타데이터를 답니다(`nb`를 고쳐서 돌려줌)."""
    import nbformat

    ctx.doc = source_name
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cell.source = convert_markdown(cell.source, ctx)
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    nb.metadata["colab"] = {"provenance": [], "toc_visible": True}
    nb.metadata["bertlab"] = {**nb.metadata.get("bertlab", {}), "generated_from": f"{source_name}.ipynb",
                              "do_not_edit": "bertlab.course.colab가 만든 파일입니다. notebooks/의 원본을 고치세요."}
    nbformat.validator.normalize(nb)
    return nb


def with_fast_settings(nb):
    """시험용 빠른 설정: 매개변수 셀(태그 ``parameters``)의 메타데이터 ``bertlab.fast``의 값을 그 셀 바로 뒤의 새 셀에서
    덮어쓴 사본(papermill과 같은 방식). 학생이 읽는 코드에는 시험 장치가 없고, 시험만 이 사본을 실행합니다."""
    import nbformat

    out = copy.deepcopy(nb)
    for i, cell in enumerate(out.cells):
        if cell.cell_type == "code" and "parameters" in cell.get("metadata", {}).get("tags", []):
            fast = cell.metadata.get("bertlab", {}).get("fast", {})
            if fast:
                src = "\n".join(f"{k} = {v!r}" for k, v in fast.items())
                out.cells.insert(i + 1, nbformat.v4.new_code_cell("# 시험용 빠른 설정\n" + src))
            break
    return out


PLACEHOLDER = "…"  # execute=False일 때 glue 자리에 넣는 값(코드만 시험할 때)


def build(out_dir: Path, src: Path = ROOT / "notebooks", model: str = "mini", chapters: list[str] | None = None,
          log=print, execute_glue: bool = True) -> dict[str, float]:
    """장마다 Colab 노트북과 연습용 판(OUT/exercises/)을 씁니다. {장: 실행 초}를 돌려줍니다.

    글 셀까지 든 장(양식 필드가 든 준비 셀 포함)을 `model`로 처음부터 끝까지 실행하고, 그 출력의 glue 값으로 본문을
    채웁니다. `execute_glue=False`면 실행하지 않고 glue 자리에 "…"를 넣습니다(코드만 시험하는 `scripts/colab-test.sh`가 씀;
    Colab판 코드는 빌드 도구가 없는 환경에서 따로 실행해 시험합니다). `chapters`로 몇 장만 고를 수 있습니다.
    """
    import time

    import nbformat

    out_dir, src = Path(out_dir), Path(src)
    if out_dir.resolve() == src.resolve():
        raise ValueError(f"출력 폴더('{out_dir}')가 원본 노트북 폴더와 같습니다. 다른 폴더를 주세요.")
    paths = [p for p in sorted(src.glob(CHAPTER_GLOB)) if chapters is None or p.stem in chapters or p.name in chapters]
    if not paths:
        raise FileNotFoundError(f"노트북 폴더('{src}')에 장 노트북(NN_*.ipynb)이 없습니다.")
    (out_dir / "exercises").mkdir(parents=True, exist_ok=True)
    ctx = Context(root=src.parent)
    seconds = {}
    for path in paths:
        nb = nbformat.read(str(path), as_version=4)
        name = f"{src.name}/{path.stem}"
        page = ctx.page(name)
        code = colab_code(nb, page)
        start = time.perf_counter()
        if execute_glue:
            ctx.glue = glue_values(execute(colab_code(nb, page, keep_prose=True), model=model, cwd=src))
        else:
            ctx.glue = _placeholders(nb)
        seconds[path.stem] = time.perf_counter() - start
        ex, _ = make_exercise(nb, source_name=path.name)
        for target, book in ((out_dir / path.name, code), (out_dir / "exercises" / path.name, colab_code(ex, page))):
            nbformat.write(colab_markdown(book, ctx, name), str(target))
        log(f"{path.name}: Colab판 실행 {seconds[path.stem]:.1f}초, glue 값 {len(ctx.glue)}개 → {out_dir / path.name}")
    return seconds


def _placeholders(nb) -> dict[str, str]:
    md = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    return {m.group("body").partition(":")[0]: PLACEHOLDER for m in _ROLE.finditer(md) if m.group("role").startswith("glue")}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bertlab.course.colab", description="장 노트북에서 Colab용 노트북을 만듭니다")
    p.add_argument("out", type=Path, help="출력 폴더 (장 노트북과 exercises/)")
    p.add_argument("--src", type=Path, default=ROOT / "notebooks")
    p.add_argument("--chapters", default="", help="쉼표로 가른 장(예: 01_tokenization,03_attention). 없으면 모든 장")
    p.add_argument("--no-glue", action="store_true", help="실행하지 않고 glue 자리에 '…'를 넣음(코드만 시험할 때)")
    a = p.parse_args(argv)
    try:
        build(a.out, a.src, chapters=[c for c in a.chapters.split(",") if c] or None, execute_glue=not a.no_glue)
    except (FileNotFoundError, ValueError, KeyError) as err:
        print(f"오류: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
