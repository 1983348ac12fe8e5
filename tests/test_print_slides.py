"""강의 슬라이드(`bertlab.course.slides`)와 인쇄판 PDF(`bertlab.course.printbook`)의 가벼운 시험.

- 개요 파일(`book/slides/*.yml`)이 지금의 장과 맞는지: 가리키는 쪽이 목차에 있고, 절이 장의 제목이나 라벨로 있고, 핵심 숫자의
  glue 이름을 장이 정말 붙이고, 실습실 링크의 라벨이 있는지. 원본만 읽으므로 빌드가 필요 없다(1초 안쪽).
- 빌드한 웹사이트(`_build/html`)와 Chromium, poppler-utils, websocket-client가 있으면: 덱 하나(3장)를 만들고, 3장 한 장의
  PDF를 인쇄해 쪽, 한국어 글꼴(pdffonts), 추출되는 한국어(pdftotext), 조판되지 않은 `$…$`가 없는지 본다(약 20초).
  없으면 이유를 적고 건너뛴다. 9개 덱을 브라우저로 여는 시험은 `tests/browser/test_slides.py`(bash scripts/browser-test.sh).
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
SITE = ROOT / "_build" / "html"
OUTLINES = sorted((ROOT / "book" / "slides").glob("*.yml"))
REVEAL_VERSION = re.search(r"REVEAL_VERSION=(\S+)", (ROOT / "scripts" / "build-slides.sh").read_text()).group(1)
# 인쇄된 글에 남은 TeX: 따옴표 안의 코드("$d_k$")는 빼고 찾는다
RAW_TEX = re.compile(r"(?<![\"'\w])\$[^$\s\"'][^$\n]{0,80}\$|\\\(|\\\)|\$\$")


def _source(docname: str) -> str:
    """쪽의 원본 글(노트북이면 모든 셀의 source를 이어 붙임)."""
    nb = ROOT / f"{docname}.ipynb"
    if nb.exists():
        cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
        return "\n".join("".join(c["source"]) if isinstance(c["source"], list) else c["source"] for c in cells)
    return (ROOT / f"{docname}.md").read_text(encoding="utf-8")


def _headings(text: str) -> list[str]:
    return [re.sub(r"\s+", " ", m.group(1)).strip() for m in re.finditer(r"^#{1,6}\s+(.+)$", text, re.M)]


def _plain(s: str) -> str:
    """제목 비교용: 수식 구분자와 백틱을 지운다(웹사이트의 제목 글과 원본의 차이)."""
    return re.sub(r"[`$]", "", s).strip()


def test_nine_outlines():
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    files = [re.sub(r"\.(md|ipynb)$", "", ch["file"]) for part in toc["parts"] for ch in part["chapters"]]
    pages = [yaml.safe_load(p.read_text(encoding="utf-8"))["page"] for p in OUTLINES]
    chapters = [f for f in files if f.startswith("notebooks/")] + ["book/transformer", "book/bert"]
    assert sorted(pages) == sorted(chapters), "장 7개와 배경 이론 두 쪽에 개요 파일이 하나씩 있어야 합니다"
    assert all(re.match(r"^\d\d_[a-z_]+$", p.stem) for p in OUTLINES), [p.stem for p in OUTLINES]


@pytest.mark.parametrize("path", OUTLINES, ids=[p.stem for p in OUTLINES])
def test_outline_points_at_the_chapter(path):
    outline = yaml.safe_load(path.read_text(encoding="utf-8"))
    text = _source(outline["page"])
    heads = [_plain(h) for h in _headings(text)]
    labels = set(re.findall(r"^\(([\w-]+)\)=\s*$", text, re.M))
    n = 0
    for spec in outline["slides"]:
        key = str(spec.get("section", ""))
        if not key:
            continue
        n += 1
        ok = any(k in labels or any(h.startswith(_plain(k)) for h in heads) for k in key.split(" | "))
        assert ok, f"{path.name}: 절 '{key}'이(가) {outline['page']}에 없습니다. 있는 제목: {heads}"
        assert set(spec.get("show", [])) <= {"text", "math", "figure", "table", "code"}, spec
    assert 10 <= n + 6 <= 30, f"{path.name}: 슬라이드가 {n + 6}장쯤 됩니다(15~30장 권장)"
    for item in outline.get("key_numbers", []):
        assert re.search(rf"""glue\(\s*["']{re.escape(item['glue'])}["']""", text), \
            f"{path.name}: 장이 glue '{item['glue']}'을(를) 붙이지 않습니다"
    lab = (outline.get("lab") or {}).get("href", "")
    if "#" in lab:
        anchor = lab.split("#", 1)[1]
        assert f"({anchor})=" in (ROOT / "book" / "lab.md").read_text(encoding="utf-8"), f"실습실에 라벨 {anchor}이(가) 없습니다"
    if outline["page"].startswith("book/"):
        assert outline.get("discussion") and outline.get("goals"), f"{path.name}: 이론 쪽은 goals와 discussion을 개요에 씁니다"


def _reveal_dir() -> Path | None:
    vendored = ROOT / "_build" / "vendor" / f"reveal.js-{REVEAL_VERSION}"
    return vendored if (vendored / "dist" / "reveal.js").exists() else None


def _need_browser_tools():
    if not (SITE / "index.html").exists() or not (SITE / "notebooks" / "03_attention.html").exists():
        pytest.skip("빌드한 웹사이트가 없습니다(bash scripts/build-book.sh)")
    pytest.importorskip("websocket", reason="websocket-client가 없습니다: pip install -r requirements-browser.txt")
    from bertlab.course import chromium

    if chromium.chromium_path() is None:
        pytest.skip("chromium이 없습니다: apt-get install chromium fonts-nanum")
    for tool in ("pdftotext", "pdffonts", "pdfinfo"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool}이(가) 없습니다: apt-get install poppler-utils")


def test_one_deck(tmp_path):
    if not (SITE / "index.html").exists():
        pytest.skip("빌드한 웹사이트가 없습니다(bash scripts/build-book.sh)")
    reveal = _reveal_dir()
    if reveal is None:
        pytest.skip("reveal.js가 아직 없습니다: bash scripts/build-slides.sh OUT 가 npm에서 한 번 받습니다")
    from bertlab.course import slides

    [deck] = slides.build(tmp_path, reveal, only=["03_attention"])
    html = deck.read_text(encoding="utf-8")
    n = html.count('<section class="')
    assert 15 <= n <= 30, f"슬라이드 {n}장"
    assert not re.search(r"""(src|href)=["'](https?:)?//""", re.sub(r'<a [^>]*target="_blank"[^>]*>', "", html)), \
        "덱이 다른 호스트의 파일을 불러옵니다"
    assert '<aside class="notes">' in html and "tex-mml-chtml.js" in html
    for rel in ("reveal/reveal.js", "reveal/plugin/notes.js", "mathjax/tex-mml-chtml.js", "fonts/NanumGothic.ttf"):
        assert (tmp_path / "_deck" / rel).exists(), rel
    for src in re.findall(r'<img[^>]+src="([^"]+)"', html):
        assert (tmp_path / src).exists(), f"그림이 덱 폴더에 없습니다: {src}"
    assert not re.search(r"\{(glue|ref|term|doc|eq|cite)[:}]|^:::|```", html, re.M), "MyST 표시가 그대로 남았습니다"


def test_one_chapter_pdf(tmp_path):
    _need_browser_tools()
    from bertlab.course import printbook

    pdf = tmp_path / "ch3.pdf"
    state = printbook.build(pdf, SITE, ["notebooks/03_attention"])
    assert state["external"] == [] and state["merror"] == 0 and state["math"] > 20, state
    assert not state["toc_missing"], state
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    pages = int(re.search(r"Pages:\s+(\d+)", info).group(1))
    assert pages >= 5, info
    fonts = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True).stdout
    nanum = [line for line in fonts.splitlines() if "Nanum" in line]
    assert nanum and all(line.split()[-5] == "yes" for line in nanum), f"나눔고딕이 PDF에 들어가지 않았습니다:\n{fonts}"
    text = subprocess.run(["pdftotext", "-enc", "UTF-8", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    for word in ("어텐션", "소프트맥스", "차례", "부록: 연습문제 풀이"):
        assert word in text, word
    assert not RAW_TEX.findall(text), f"조판되지 않은 TeX: {RAW_TEX.findall(text)[:5]}"
    assert "QZQ" not in text, "목차용 숨은 표지가 남았습니다"
    # 목차의 쪽 번호: 장 제목 줄 뒤에 숫자
    toc = text.split("\f")[1]
    assert re.search(r"3\.1\. 학습 목표\s+\d+", toc), toc[:400]
    # 풀이는 부록으로: 본문의 연습문제 절에는 '풀이' 드롭다운이 없고 안내만 있다
    assert "풀이는 책 끝의 부록" in text
