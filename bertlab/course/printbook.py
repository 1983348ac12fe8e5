"""책 전체의 인쇄판 PDF: 빌드한 웹사이트의 쪽을 한 HTML로 모아 헤드리스 Chromium으로 인쇄합니다.

    python -m bertlab.course.printbook [--out _build/pdf/korean-bert-course.pdf] [--pages notebooks/03_attention ...]

`bash scripts/build-pdf.sh`가 부르는 것이 정상 경로입니다. 길의 선택(xelatex 대신 Chromium 인쇄)과 그 까닭은 그 스크립트의
머리말에 있습니다.

- **내용은 웹사이트 그대로.** `_toc.yml`의 순서대로 `_build/html`의 각 쪽 본문(<article>)을 옮깁니다. 붙여 넣은 숫자, 표, 그림,
  출력, 수식이 웹사이트와 같고, 수식은 사이트가 내보내는 MathJax(`_static/mathjax`)로 조판합니다. 쪽 사이의 링크는 PDF 안의 링크가
  됩니다.
- **인쇄에 맞게 바꾸는 것.** 표지, 쪽 번호가 붙은 목차(두 번 인쇄: 처음 인쇄에서 제목마다 숨은 표지를 찾아 쪽을 알아낸 뒤 목차에
  적고 다시 인쇄), PDF 책갈피(Chromium의 `generateDocumentOutline`), CSS 페이지 미디어의 쪽 번호, 줄 바꿈하는 코드,
  접힌 코드(`hide-input`)는 출력만, 실습실 쪽은 웹사이트를 가리키는 짧은 안내, 연습문제의 풀이(풀이 셀과 '풀이' 드롭다운)는 책
  끝의 부록으로 옮기고, 검사 셀(`bl.check`)은 뺍니다(노트북에서 쓰는 것).
- **한국어 글꼴.** koreanize-matplotlib의 나눔고딕을 웹 글꼴로 지정하므로 PDF에 글꼴이 들어갑니다(`pdffonts`로 확인).
"""

from __future__ import annotations

import argparse
import copy
import datetime as _dt
import html
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import unquote, urlparse

from bertlab.course import sitepages as sp

PDF_NAME = "korean-bert-course.pdf"
OUT_DIR = sp.BUILD / "pdf"
LAB_DOC = "book/lab"
MARK = "QZQ{}QZQ"
RAW_TEX = re.compile(r"\\\(|\\\)|\\\[|\\\]|\$\$|(?<![\w])\$[^$\s][^$]*\$")


class PrintError(RuntimeError):
    pass


def slug(docname: str) -> str:
    return re.sub(r"[^A-Za-z0-9_]+", "-", docname)


def site_url() -> str:
    """`_config.yml`의 저장소 주소에서 GitHub Pages 주소(배포 워크플로가 올리는 곳)."""
    import yaml

    cfg = yaml.safe_load((sp.ROOT / "_config.yml").read_text(encoding="utf-8"))
    m = re.match(r"https://github\.com/([^/]+)/([^/]+?)/?$", cfg.get("repository", {}).get("url", ""))
    return f"https://{m.group(1)}.github.io/{m.group(2)}/" if m else ""


# --- 한 쪽을 인쇄용 조각으로 -----------------------------------------------------------------

class Chapter:
    def __init__(self, entry: sp.TocEntry, site: Path, included: set[str], workdir: Path):
        self.entry = entry
        self.page = sp.Page(entry.docname, site)
        self.included = included
        self.workdir = workdir
        self.prefix = slug(entry.docname)
        self.solutions: list[str] = []
        self.body = self._build()

    # 주소 바꾸기
    def _rewrite(self, root) -> None:
        page = self.page
        for el in root.find_all(id=True):
            el["id"] = f"{self.prefix}--{el['id']}"
        for a in root.find_all("a", href=True):
            href = a["href"]
            if sp.is_external(href) or href.startswith("mailto:"):
                continue
            u = urlparse(href)
            if u.path:
                target = (page.path.parent / unquote(u.path)).resolve()
                try:
                    doc = target.relative_to(page.site.resolve()).with_suffix("").as_posix()
                except ValueError:
                    a.unwrap()
                    continue
            else:
                doc = page.docname
            if doc in self.included:
                a["href"] = f"#{slug(doc)}--{u.fragment}" if u.fragment else f"#{slug(doc)}"
            elif u.path.endswith((".ipynb", ".md", ".py", ".pdf", ".zip")) or "_downloads" in u.path:
                a.unwrap()
            else:
                a.unwrap()
        for img in root.find_all("img"):
            src = img.get("src", "")
            if src and not sp.is_external(src) and not src.startswith("data:"):
                path = (page.path.parent / unquote(src.split("?")[0])).resolve()
                img["src"] = Path(os.path.relpath(path, self.workdir.resolve())).as_posix()
            img["loading"] = "eager"

    def _build(self) -> str:
        page = self.page
        if page.docname == LAB_DOC:
            return self._lab_note()
        top = copy.copy(page.top)
        for el in top.select("a.headerlink, button.copybtn, .toggle-button, script"):
            el.decompose()
        # 접힌 코드(hide-input): 인쇄판은 출력만
        for details in top.select("details.hide.above-input"):
            if not any(c in sp.classes(details.parent) for c in ("tag_solution",)):
                details.decompose()
        for cell in top.select("div.cell.tag_check, div.cell.tag_exercise-setup"):
            cell.decompose()
        self._move_solutions(top)
        for d in top.find_all("details"):
            d["open"] = ""
        self._rewrite(top)
        if top.get("id"):  # 라벨(예: ch-attention)로 오는 링크는 그대로 두고, 쪽 이름으로 오는 링크를 위해 id를 바꾼다
            top.insert(0, sp.soup(f'<span id="{top["id"]}"></span>'))
        top["id"] = self.prefix
        top["class"] = list(top.get("class") or []) + ["chapter"]
        return str(top)

    def _move_solutions(self, top) -> None:
        sec = None
        for s in top.find_all("section"):
            h = sp.section_heading(s)
            if h is not None and sp.heading_text(h) == "연습문제":
                sec = s
                break
        if sec is None:
            return
        label = ""
        moved = []
        for child in list(sec.children):
            if not getattr(child, "name", None):
                continue
            kind = sp.block_kind(child)
            if kind == "text":
                strong = child.find("strong")
                if strong and re.match(r"^\s*(문제|연습)", strong.get_text()):
                    label = strong.get_text().strip().rstrip(".")
                elif child.name == "ol":  # 번호 목록으로 쓴 문제(1. … 2. …)
                    label = f"문제 {child.get('start', '1')}"
            is_solution_cell = kind == "cell" and "tag_solution" in sp.classes(child)
            is_dropdown = kind == "dropdown" and "풀이" in (child.find("summary").get_text() if child.find("summary") else "")
            if is_solution_cell or is_dropdown:
                child.extract()
                if is_solution_cell:
                    for summary in child.select("details.hide.above-input > summary"):
                        summary.decompose()
                    for d in child.select("details.hide.above-input"):
                        d.unwrap()
                else:
                    summary = child.find("summary")
                    if summary:
                        summary.decompose()
                    child.name = "div"
                    child["class"] = ["solution-text"]
                moved.append((label, child))
        if moved:
            note = sp.soup('<p class="print-note">풀이는 책 끝의 부록 「연습문제 풀이」에 있습니다.</p>')
            head = sp.section_heading(sec)
            head.insert_after(note)
            blocks, last = [], None
            for label, el in moved:
                if label and label != last:
                    blocks.append(f'<h3 class="solution-label">{html.escape(label)}</h3>')
                    last = label
                self._rewrite(el)
                blocks.append(str(el))
            self.solutions = blocks

    def _lab_note(self) -> str:
        page = self.page
        intro = [b for b in page.intro() if sp.block_kind(b) == "text"][:1]
        url = site_url() + f"{LAB_DOC}.html"
        intro_html = "".join(str(b) for b in intro)
        h1 = copy.copy(page.h1)
        for el in h1.select("a.headerlink"):
            el.decompose()
        return (f'<section class="chapter lab-note" id="{self.prefix}">{h1}'
                f'{intro_html}'
                '<div class="admonition note"><p class="admonition-title">인쇄판 안내</p>'
                "<p>실습실은 번들 미니 BERT를 브라우저 안에서 돌리는 대화형 쪽이라 종이에 옮길 수 없습니다. "
                f'웹사이트에서 여세요: <a href="{url}">{html.escape(url)}</a>. '
                "빌드한 웹사이트를 내려받았다면 <code>_build/html/book/lab.html</code>을 파일로 열어도(인터넷 없이) 돕니다.</p></div>"
                "</section>")


# --- 책 한 권 -----------------------------------------------------------------------------------

PRINT_CSS = """
@font-face { font-family: "NanumGothicPrint"; src: url("{font_regular}"); font-weight: 400; }
@font-face { font-family: "NanumGothicPrint"; src: url("{font_bold}"); font-weight: 700; }
@page { size: A4; margin: 18mm 15mm 18mm 15mm;
  @bottom-center { content: counter(page); font-family: "NanumGothicPrint"; font-size: 9pt; color: #555; } }
@page cover { @bottom-center { content: none; } }
html, body { background: #fff !important; }
body { font-family: "NanumGothicPrint", sans-serif !important; font-size: 10pt; line-height: 1.55; color: #111; margin: 0; }
h1, h2, h3, h4 { font-family: "NanumGothicPrint", sans-serif !important; break-after: avoid; page-break-after: avoid; }
h1 { font-size: 20pt; margin: 0 0 8mm; } h2 { font-size: 14pt; margin-top: 8mm; } h3 { font-size: 11.5pt; }
.cover { page: cover; height: 250mm; display: flex; flex-direction: column; justify-content: center; text-align: center; }
.cover h1 { font-size: 30pt; margin-bottom: 6mm; border: 0; }
.cover .sub { font-size: 14pt; color: #333; } .cover .meta { margin-top: 30mm; font-size: 10pt; color: #555; }
.toc { break-before: page; } .toc h1 { font-size: 18pt; }
.toc ol { list-style: none; padding: 0; margin: 0; }
.toc li { display: flex; align-items: baseline; margin: 0.5mm 0; }
.toc li.part { font-weight: 700; margin-top: 4mm; }
.toc li.ch { font-weight: 700; margin-top: 1.5mm; }
.toc li.sec { padding-left: 8mm; font-size: 9pt; }
.toc li a { color: #111; text-decoration: none; }
.toc li .dots { flex: 1; border-bottom: 1px dotted #aaa; margin: 0 2mm; }
.toc li .pg { width: 9mm; text-align: right; font-variant-numeric: tabular-nums; }
.part-title { font-size: 10pt; color: #2a76dd; letter-spacing: 0.05em; margin-bottom: 2mm; }
section.chapter { break-before: page; }
.mark { position: absolute; font-size: 1px; color: #fff; }
pre, code, kbd { font-family: "DejaVu Sans Mono", monospace, "NanumGothicPrint"; }
pre { white-space: pre-wrap !important; word-break: break-all; overflow-wrap: anywhere; font-size: 8pt; line-height: 1.35;
      overflow: visible !important; max-height: none !important; }
div.highlight, .cell_input, .cell_output, .output { overflow: visible !important; max-height: none !important; }
.cell_output img, figure img, img { max-width: 100% !important; height: auto; break-inside: avoid; }
figure, .cell_output .output.text_html, table { break-inside: avoid; }
table { font-size: 8pt; border-collapse: collapse; max-width: 100%; }
.pst-scrollable-table-container, .table-wrapper { overflow: visible !important; }
.output.text_html table { width: auto; }
mjx-container[display="true"] { overflow: visible !important; max-width: 100%; }
a { color: #1a4fa0; text-decoration: none; }
.print-note { font-size: 9pt; color: #555; font-style: italic; }
.appendix-solutions .solution-label { margin-top: 5mm; }
.appendix-solutions h2 { break-before: auto; }
details > summary { display: none; }
.headerlink, .copybtn, .toggle-button { display: none !important; }
"""


def toc_from(chapters: list[Chapter], soup_of) -> list[tuple[str, str, str]]:
    """(종류, 글, 목표 id): 부, 장(h1), 절(h2)."""
    items, last_part = [], None
    for ch in chapters:
        if ch.entry.part and ch.entry.part != last_part:
            items.append(("part", ch.entry.part, ""))
            last_part = ch.entry.part
        s = soup_of(ch)
        h1 = s.find("h1")
        title = sp.heading_text(h1, number=True) if h1 else ch.page.title
        items.append(("ch", title, ch.prefix))
        for sec in s.find_all("section"):
            h2 = sec.find("h2", recursive=False)
            if h2 is not None and sec.get("id"):
                items.append(("sec", sp.heading_text(h2, number=True), sec["id"]))
    return items


def assemble(chapters: list[Chapter], site: Path, workdir: Path, pages: dict[str, int] | None, built: str) -> str:
    import koreanize_matplotlib

    fonts = Path(koreanize_matplotlib.__file__).parent / "fonts"
    rel = lambda p: Path(os.path.relpath(Path(p).resolve(), workdir.resolve())).as_posix()  # noqa: E731
    first = chapters[0].page
    links = [m for m in re.findall(r'<link[^>]+rel="stylesheet"[^>]*>', first.html)]
    head_css = []
    for link in links:
        href = re.search(r'href="([^"]+)"', link).group(1).split("?")[0]
        if any(skip in href for skip in ("togglebutton", "copybutton", "sphinx-thebe")):
            continue
        head_css.append(f'<link rel="stylesheet" href="{rel(first.path.parent / href)}">')
    css = PRINT_CSS.replace("{font_regular}", rel(fonts / "NanumGothic.ttf")).replace("{font_bold}", rel(fonts / "NanumGothicBold.ttf"))
    parsed = {id(ch): sp.soup(ch.body) for ch in chapters}
    marks: list[str] = []
    toc_items = toc_from(chapters, lambda ch: parsed[id(ch)])
    if pages is None:  # 첫 인쇄: 목차가 가리키는 제목마다 숨은 표지를 넣어 쪽을 찾는다
        for kind, _, target in toc_items:
            if kind == "part":
                continue
            for ch in chapters:
                el = parsed[id(ch)].find(id=target)
                if el is not None:
                    h = el.find(re.compile("^h[12]$"))
                    if h is not None:
                        h.insert(0, sp.soup(f'<span class="mark">{MARK.format(len(marks))}</span>'))
                        marks.append(target)
                    break
    lis = []
    for kind, text, target in toc_items:
        if kind == "part":
            lis.append(f'<li class="part">{html.escape(text)}</li>')
            continue
        pg = str(pages.get(target, "")) if pages else "000"
        lis.append(f'<li class="{kind}"><a href="#{target}">{html.escape(text)}</a><span class="dots"></span>'
                   f'<span class="pg">{pg}</span></li>')
    body = []
    last_part = None
    for ch in chapters:
        s = parsed[id(ch)]
        if ch.entry.part and ch.entry.part != last_part:
            h1 = s.find("h1")
            if h1 is not None:
                h1.insert_before(sp.soup(f'<p class="part-title">{html.escape(ch.entry.part)}</p>'))
            last_part = ch.entry.part
        body.append(str(s))
    sol = [ch for ch in chapters if ch.solutions]
    if sol:
        parts = ['<section class="chapter appendix-solutions" id="appendix-solutions"><h1>부록: 연습문제 풀이</h1>'
                 '<p>각 장의 연습문제 풀이입니다. 코드 풀이의 출력은 웹사이트를 빌드할 때 번들 미니 BERT로 실행한 결과입니다.</p>']
        for ch in sol:
            parts.append(f'<h2>{html.escape(sp.heading_text(ch.page.h1, number=True) if ch.page.h1 else ch.page.title)}</h2>')
            parts.extend(ch.solutions)
        parts.append("</section>")
        body.append("".join(parts))
        lis.append('<li class="ch"><a href="#appendix-solutions">부록: 연습문제 풀이</a><span class="dots"></span>'
                   f'<span class="pg">{(pages or {}).get("appendix-solutions", "000" if pages is None else "")}</span></li>')
        if pages is None:
            marks.append("appendix-solutions")
    doc_body = "\n".join(body)
    if pages is None and sol:
        doc_body = doc_body.replace('<h1>부록: 연습문제 풀이</h1>',
                                    f'<h1><span class="mark">{MARK.format(len(marks) - 1)}</span>부록: 연습문제 풀이</h1>')
    mathjax = rel(site / "_static" / "mathjax" / "tex-mml-chtml.js")
    cover = (f'<section class="cover"><h1>한국어로 배우는 BERT</h1>'
             '<p class="sub">BERT의 안쪽을 한국어로, 직접 계산하며 배우는 강의</p>'
             f'<p class="meta">bertlab 강의 팀<br>{html.escape(built)} 빌드 · 번들 미니 BERT로 실행한 판<br>'
             f'{html.escape(site_url())}</p></section>')
    toc = f'<section class="toc"><h1>차례</h1><ol>{"".join(lis)}</ol></section>'
    doc = f"""<!doctype html><html lang="ko"><head><meta charset="utf-8"><title>한국어로 배우는 BERT</title>
{chr(10).join(head_css)}
<style>{css}</style>
<script>{first.mathjax_config()}</script>
<script defer src="{mathjax}"></script>
</head><body><main class="bd-article print-book">
{cover}
{toc}
{doc_body}
</main></body></html>
"""
    return doc, marks


def find_pages(pdf: Path, n_marks: int) -> dict[int, int]:
    text = subprocess.run(["pdftotext", "-enc", "UTF-8", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    found = {}
    for number, page_text in enumerate(text.split("\f"), start=1):
        for m in re.finditer(MARK.format(r"(\d+)"), page_text):
            found.setdefault(int(m.group(1)), number)
    return found


def print_html(html_path: Path, pdf: Path, timeout: float = 900) -> dict:
    from bertlab.course import chromium as cr

    with cr.session(("Page", "Runtime", "Network"), width=1000, height=1400, allow_file_access=True) as cdp:
        cdp.load(html_path.resolve().as_uri(), timeout=timeout)
        state = cdp.evaluate("""(async () => {
          for (let i = 0; i < 600 && !(window.MathJax && MathJax.startup && MathJax.startup.promise); i++)
            await new Promise(r => setTimeout(r, 100));
          await MathJax.startup.promise;
          await document.fonts.ready;
          const imgs = Array.from(document.images);
          await Promise.all(imgs.map(i => i.complete ? null : new Promise(r => { i.onload = i.onerror = r; })));
          return {math: document.querySelectorAll('mjx-container').length,
                  merror: document.querySelectorAll('mjx-merror').length,
                  broken: imgs.filter(i => !i.naturalWidth).map(i => i.src).slice(0, 5), images: imgs.length};
        })()""", timeout=timeout)
        external = cr.requests_to_other_hosts(cdp.events)
        failed = [e["params"].get("errorText") for e in cdp.events if e["method"] == "Network.loadingFailed"]
        cdp.print_pdf(pdf, timeout=timeout, printBackground=True, preferCSSPageSize=True, displayHeaderFooter=False,
                      generateDocumentOutline=True, generateTaggedPDF=True)
    state.update(external=external, failed=failed)
    return state


def build(out: Path = OUT_DIR / PDF_NAME, site: Path = sp.SITE, docs: list[str] | None = None) -> dict:
    out = Path(out)
    workdir = out.parent
    workdir.mkdir(parents=True, exist_ok=True)
    entries = [e for e in sp.toc_entries() if docs is None or e.docname in docs]
    if docs:
        missing = set(docs) - {e.docname for e in entries}
        if missing:
            raise PrintError(f"목차(_toc.yml)에 없는 쪽입니다: {sorted(missing)}")
    absent = [e.docname for e in entries if not (site / f"{e.docname}.html").exists()]
    if absent:  # 목차에 새로 넣었지만 아직 빌드하지 않은 쪽: 알리고 건너뛴다(책을 다시 빌드하면 들어감)
        print(f"주의: 빌드한 사이트에 없는 쪽을 건너뜁니다(책을 다시 빌드하세요): {absent}", file=sys.stderr)
        entries = [e for e in entries if e.docname not in absent]
    included = {e.docname for e in entries}
    chapters = [Chapter(e, site, included, workdir) for e in entries]
    built = _dt.date.today().isoformat()
    t0 = time.monotonic()
    html1, marks = assemble(chapters, site, workdir, None, built)
    src = workdir / (out.stem + ".html")
    src.write_text(html1, encoding="utf-8")
    draft = workdir / (out.stem + ".draft.pdf")
    state = print_html(src, draft)
    found = find_pages(draft, len(marks))
    pages = {target: found[i] for i, target in enumerate(marks) if i in found}
    missing = [t for i, t in enumerate(marks) if i not in found]
    html2, _ = assemble(chapters, site, workdir, pages, built)
    src.write_text(html2, encoding="utf-8")
    state2 = print_html(src, out)
    draft.unlink(missing_ok=True)
    state2.update(seconds=round(time.monotonic() - t0, 1), toc_missing=missing[:10], toc_entries=len(marks))
    if state2["external"]:
        raise PrintError(f"인쇄판이 다른 호스트에 요청했습니다: {state2['external'][:5]}")
    if state2["broken"]:
        raise PrintError(f"그려지지 않은 그림이 있습니다: {state2['broken']}")
    return state2


def offer_download(site: Path, pdf: Path) -> int:
    """웹사이트의 내려받기 메뉴(sphinx-book-theme)에 책 PDF 항목을 넣고, PDF를 `_downloads/`에 복사한다. 고친 쪽 수."""
    target = site / "_downloads" / PDF_NAME
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(pdf, target)
    marker = "bertlab-book-pdf"
    changed = 0
    for page in sorted(site.rglob("*.html")):
        text = page.read_text(encoding="utf-8")
        if marker in text or "dropdown-download-buttons" not in text:
            continue
        rel = Path(os.path.relpath(target, page.parent)).as_posix()
        item = (f'<li><a href="{rel}" download class="btn btn-sm dropdown-item {marker}" title="책 전체 PDF 내려받기">'
                '<span class="btn__icon-container"><i class="fas fa-book"></i></span>'
                '<span class="btn__text-container">책 전체 PDF</span></a></li>')
        new = re.sub(r'(<div class="dropdown dropdown-download-buttons">.*?<ul class="dropdown-menu">)', lambda m: m.group(1) + item,
                     text, count=1, flags=re.S)
        if new != text:
            page.write_text(new, encoding="utf-8")
            changed += 1
    return changed


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="빌드한 웹사이트에서 책의 인쇄판 PDF를 만듭니다(헤드리스 Chromium).")
    ap.add_argument("--out", type=Path, default=OUT_DIR / PDF_NAME)
    ap.add_argument("--site", type=Path, default=sp.SITE)
    ap.add_argument("--pages", nargs="*", help="이 쪽들만(예: notebooks/03_attention). 기본은 _toc.yml의 모든 쪽")
    ap.add_argument("--offer-download", action="store_true", help="웹사이트의 내려받기 메뉴에 PDF를 넣는다")
    args = ap.parse_args(argv)
    try:
        state = build(args.out, args.site, args.pages)
    except (sp.SiteError, PrintError) as err:
        print(f"오류: {err}", file=sys.stderr)
        return 1
    print(f"완료: {args.out} (수식 {state['math']}개, 그림 {state['images']}개, 목차 항목 {state['toc_entries']}개, "
          f"{state['seconds']}초)")
    if state["toc_missing"]:
        print(f"주의: 목차에서 쪽을 찾지 못한 항목: {state['toc_missing']}", file=sys.stderr)
    if state["merror"]:
        print(f"주의: MathJax 오류가 {state['merror']}개 있습니다.", file=sys.stderr)
    if args.offer_download:
        n = offer_download(args.site, args.out)
        print(f"웹사이트의 내려받기 메뉴에 PDF를 넣었습니다({n}쪽): {args.site / '_downloads' / PDF_NAME}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
