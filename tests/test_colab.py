"""Colab판 노트북 만들기(bertlab/course/colab.py, ``bash scripts/colab-notebooks.sh OUT``) 시험.

- 마크다운 변환: glue 값, {ref}/{doc} → 웹사이트 링크, {cite:p}/{cite:t} → "(Devlin 외, 2019)", 풀이 드롭다운 → <details>,
  안내 상자 → 인용문, 코드 블록은 그대로.
- 모든 장이 MyST 없이 바뀐다(실행 없이, glue 값 자리에 가짜 값을 넣어서 빠르게).
- 한 장은 실제로 번들 모델로 처음부터 끝까지 실행해 만든다(Colab판이 오프라인에서 도는지).
- 웹사이트의 Colab 버튼이 배포 워크플로가 노트북을 올리는 곳(colab 브랜치의 notebooks/)을 가리킨다.
"""
from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
import yaml

from bertlab.course import colab
from bertlab.course.exercises import make_exercise

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
MYST = re.compile(r"\{[a-z:\-]+\}`|^\s*(:{3,}|`{3,})\s*\{", re.M)
GLUE_ROLE = re.compile(r"\{glue(?::text)?\}`([^`:]+)")


@pytest.fixture(scope="module")
def ctx():
    return colab.Context(root=ROOT)


def test_markdown_conversion(ctx):
    ctx.glue = {"acc": "0.9123", "n": "42", "name": "'풀러'"}
    ctx.doc = "notebooks/03_attention"
    src = "\n".join([
        "(ch-demo)=",
        "# 제목",
        "정확도 {glue:text}`acc:.1%`, 개수 {glue:text}`n`개, 이름 {glue:text}`name`.",
        "{ref}`ch-attention`와 {ref}`여기 <theory-self-attention>`, {doc}`../book/mini_bert`.",
        "BERT {cite:p}`devlin2019bert,vaswani2017attention` / {cite:t}`devlin2019bert`. {term}`야코비 행렬`.",
        "",
        ":::{dropdown} 풀이",
        "답은 $\\sqrt{d_k}$입니다.",
        "```python",
        "{glue:text}`acc` 는 코드 블록 안이라 그대로",
        "```",
        ":::",
        "",
        ":::{note}",
        "참고할 점.",
        ":::",
    ])
    out = colab.convert_markdown(src, ctx)
    site = colab.site_url(colab.book_config())
    assert '<a id="ch-demo"></a>' in out
    assert "정확도 91.2%, 개수 42개, 이름 풀러." in out
    assert f"[어텐션 직접 계산하기]({site}notebooks/03_attention.html)" in out
    assert f"({site}book/transformer.html#theory-self-attention)" in out and "[여기](" in out
    assert f"({site}book/mini_bert.html)" in out
    assert f"([Devlin 외, 2019; Vaswani 외, 2017]({site}book/references.html))" in out
    assert f"[Devlin 외 (2019)]({site}book/references.html)" in out
    assert f"[야코비 행렬]({site}book/glossary.html)" in out
    assert "<details><summary>풀이</summary>" in out and out.count("</details>") == 1
    assert "$\\sqrt{d_k}$" in out
    assert "{glue:text}`acc` 는 코드 블록 안이라 그대로" in out
    assert "> **참고**" in out and "> 참고할 점." in out
    assert not MYST.search(out.replace("{glue:text}`acc` 는", ""))


def test_unknown_references_fail_loudly(ctx):
    ctx.glue, ctx.doc = {}, "notebooks/01_tokenization"
    for bad in ("{glue:text}`nope`", "{ref}`no-such-label`", "{cite:p}`nobody2099`", ":::{figure} x.png\n:::"):
        with pytest.raises((KeyError, ValueError)):
            colab.convert_markdown(bad, ctx)


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_every_chapter_converts_without_myst(path, ctx):
    nb = nbformat.read(str(path), as_version=4)
    md = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    ctx.glue = {name: "0.5" for name in GLUE_ROLE.findall(md)}  # 값은 가짜, 변환만 본다(값은 실제 실행 시험이 채운다)
    page = ctx.page(f"notebooks/{path.stem}")
    for book in (nb, make_exercise(nb)[0]):
        out = colab.colab_markdown(colab.colab_code(book, page), ctx, f"notebooks/{path.stem}")
        nbformat.validate(out)
        md = "\n".join(c.source for c in out.cells if c.cell_type == "markdown")
        assert not MYST.search(md), f"{path.name}: MyST가 남았습니다: {MYST.search(md).group(0)!r}"
        dropdowns = sum(c.source.count("{dropdown} 풀이") for c in book.cells if c.cell_type == "markdown")
        assert md.count("<summary>풀이</summary>") == dropdowns
        first_code = next(c for c in out.cells if c.cell_type == "code")
        assert 'MODEL = "mini"  # @param ["mini", "mbert"]' in first_code.source
        assert 'os.environ["BERTLAB_MODEL"] = MODEL' in first_code.source
        assert "bl.setup()" in first_code.source
        if book is nb:  # 장: 라벨 앵커로 시작. 연습 노트북은 '# 연습문제: …' 제목으로 시작
            assert out.cells[0].cell_type == "markdown" and out.cells[0].source.lstrip().startswith("<a id=")
        assert not any(colab.is_prose(c) for c in out.cells), "글 셀은 Colab판에서 빠진다"


def test_one_chapter_runs_offline_as_colab_notebook(tmp_path):
    """Colab판(양식 필드가 든 준비 셀 포함)을 번들 모델로 끝까지 실행해 만들고, 본문에 실제 값이 들어갔는지 본다."""
    seconds = colab.build(tmp_path, chapters=["03_attention"], log=lambda *_: None)
    assert set(seconds) == {"03_attention"}
    for path in (tmp_path / "03_attention.ipynb", tmp_path / "exercises" / "03_attention.ipynb"):
        nb = nbformat.read(str(path), as_version=4)
        md = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
        assert not MYST.search(md)
        assert all(not c.get("outputs") for c in nb.cells if c.cell_type == "code")
    full = nbformat.read(str(tmp_path / "03_attention.ipynb"), as_version=4)
    assert "bertlab.course.colab" in full.metadata["bertlab"]["do_not_edit"]


def test_colab_buttons_open_the_published_notebooks():
    """사이트의 Colab 버튼(sphinx-book-theme: .../blob/{branch}/{path_to_book}{쪽}.ipynb)이 워크플로가 올리는 곳을 가리킨다."""
    config = colab.book_config()
    repo = config["repository"]
    assert repo["branch"] == colab.COLAB_BRANCH
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "deploy.yml").read_text(encoding="utf-8"))
    steps = workflow["jobs"]["colab"]["steps"]
    generate = next(s for s in steps if "colab-notebooks.sh" in s.get("run", ""))
    out_dir = generate["run"].split("colab-notebooks.sh", 1)[1].split()[0]  # 예: _colab/notebooks
    publish = next(s for s in steps if "git push" in s.get("run", ""))
    branch_root = publish["working-directory"]
    assert f"-b {colab.COLAB_BRANCH}" in publish["run"] and f" {colab.COLAB_BRANCH}" in publish["run"].splitlines()[-1]
    published_prefix = Path(out_dir).relative_to(branch_root).as_posix()  # 브랜치 안의 폴더
    owner, name = repo["url"].rstrip("/").split("/")[-2:]
    for path in CHAPTERS:
        page = f"notebooks/{path.stem}"
        theme_link = (f"{config['launch_buttons']['colab_url']}/github/{owner}/{name}/blob/{repo['branch']}/"
                      f"{repo['path_to_book']}{page}.ipynb")
        assert theme_link == colab.colab_url(config, f"{published_prefix}/{path.name}")


def test_readme_colab_instructions_point_to_the_colab_branch():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"/blob/{colab.COLAB_BRANCH}/notebooks/" in readme
    assert "scripts/colab-notebooks.sh" in readme


def test_the_package_carries_every_asset_the_chapters_read():
    """Colab은 `pip install`한 패키지만 갖는다: 장, 연습 검사, 가르치는 API가 이름으로 읽는 assets 파일은 모두
    pyproject의 package-data에 들어 있어야 한다(빠뜨리면 Colab에서만 FileNotFoundError)."""
    import fnmatch
    import tomllib

    root = Path(__file__).resolve().parents[1]
    patterns = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["bertlab"]
    readers = [c.source for p in sorted((root / "notebooks").glob("[0-9][0-9]_*.ipynb"))
               for c in nbformat.read(str(p), as_version=4).cells if c.cell_type == "code"]
    readers += [p.read_text(encoding="utf-8") for p in sorted((root / "bertlab").glob("*.py"))]
    readers += [p.read_text(encoding="utf-8") for p in sorted((root / "bertlab" / "checks").glob("*.py"))]
    text = "\n".join(readers)
    assets = root / "bertlab" / "assets"
    read = [f.relative_to(root / "bertlab").as_posix() for f in sorted(assets.rglob("*")) if f.is_file()
            and re.search(rf"[\"'/]{re.escape(f.name)}[\"']", text)]
    assert read, "장이 읽는 assets 파일을 하나도 찾지 못했습니다(검사가 무의미해짐)"
    missing = [f for f in read if not any(fnmatch.fnmatch(f, pat) for pat in patterns)]
    assert not missing, f"장이 읽는데 패키지(package-data)에 없는 파일: {missing}"
