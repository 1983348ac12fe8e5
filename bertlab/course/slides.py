"""강의 슬라이드: 빌드한 웹사이트의 장에서 reveal.js 발표 자료(`OUT/NN_name.html`)를 만듭니다.

    python -m bertlab.course.slides OUT --reveal DIR [--site _build/html] [--only 03_attention ...]

`bash scripts/build-slides.sh OUT`이 부르는 것이 정상 경로입니다(그 스크립트가 npm에서 고정한 reveal.js를 받아 `--reveal`로
넘깁니다).

- **내용은 한 벌.** 슬라이드는 본문을 다시 쓰지 않습니다. 장마다 작은 개요 파일(`book/slides/NN_name.yml`)이 웹사이트의 절(제목이나
  라벨), 셀(실행한 노트북의 셀 id)을 가리키고, 이 도구가 빌드한 쪽의 HTML 조각(글, 수식, 그림, 표, 코드)을 그대로 옮깁니다.
  그래서 숫자(glue)와 그림이 웹사이트와 같습니다. 개요 파일은 강사 노트(`notes`), 핵심 숫자(glue 이름), 실습실 링크, 이론 쪽의
  토론 질문처럼 장에 없는 것만 더합니다.
- **자동으로 붙는 슬라이드.** 제목, 학습 목표(장의 '학습 목표' 절), 핵심 숫자, 요약('요약' 절), 실습실에서 해 보기, 토론 질문(수업
  운영 가이드의 그 장 항목).
- **강사 노트.** 슬라이드에 보이지 않은 절의 나머지 문단이 그 슬라이드의 노트(`<aside class="notes">`, 키 S)가 됩니다.
- **오프라인.** reveal.js(npm, 고정 버전), 사이트의 MathJax(`_static/mathjax`), 한국어 웹 글꼴(koreanize-matplotlib의 나눔고딕)을
  `OUT/_deck/`에 복사합니다. 다른 호스트에서 불러오는 것이 없으므로 `file://`로 열립니다. `?print-pdf`를 붙이면 reveal.js의 인쇄
  보기(한 슬라이드가 한 쪽)가 됩니다.
- **1280×720.** 그림·표·코드의 크기를 제한하고, 그래도 넘치는 슬라이드는 `deck.js`가 글자 크기를 줄여 맞춥니다. 브라우저
  시험(`tests/browser/test_slides.py`)이 넘치는 슬라이드가 없는지 확인합니다.
"""

from __future__ import annotations

import argparse
import copy
import html
import os
import re
import shutil
import sys
from pathlib import Path

from bertlab.course import sitepages as sp

OUTLINES = sp.ROOT / "book" / "slides"
DECK_ASSETS = "_deck"
MAX_CODE_LINES = 12
MAX_TABLE_ROWS = 8
REVEAL_FILES = ["dist/reveal.css", "dist/reveal.js", "dist/theme/white.css", "dist/plugin/notes.js", "LICENSE"]
DEFAULT_SHOW = ("text", "math", "figure")


class OutlineError(ValueError):
    """개요 파일이 잘못됨(메시지는 한국어)."""


# --- 개요 파일 ------------------------------------------------------------------------------

def outlines(directory: Path = OUTLINES) -> list[Path]:
    return sorted(directory.glob("*.yml"))


def load_outline(path: Path) -> dict:
    import yaml

    try:
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as err:
        raise OutlineError(f"{path}: YAML 형식이 잘못되었습니다(쌍점이 든 제목은 따옴표로 감싸세요): {err}") from err
    if "page" not in data or "slides" not in data:
        raise OutlineError(f"{path}: 'page'(쪽 이름, 예: notebooks/03_attention)와 'slides'(슬라이드 목록)가 있어야 합니다.")
    data.setdefault("deck", Path(path).stem)
    return data


# --- HTML 조각 다듬기 ------------------------------------------------------------------------

class Assets:
    """슬라이드가 쓰는 그림을 `OUT/_deck/img/`로 복사하고 새 주소를 돌려준다."""

    def __init__(self, out: Path):
        self.dir = out / DECK_ASSETS / "img"
        self.dir.mkdir(parents=True, exist_ok=True)
        self.copied: dict[Path, str] = {}

    def image(self, page: sp.Page, src: str) -> str:
        if sp.is_external(src) or src.startswith("data:"):
            return src
        path = (page.path.parent / src.split("?")[0].split("#")[0]).resolve()
        if not path.exists():
            raise sp.SiteError(f"{page.docname}: 그림 {src}이(가) 사이트에 없습니다({path}).")
        if path not in self.copied:
            name = path.name
            if (self.dir / name).exists() and path not in self.copied:
                name = f"{len(self.copied)}_{name}"
            shutil.copy2(path, self.dir / name)
            self.copied[path] = f"{DECK_ASSETS}/img/{name}"
        return self.copied[path]


def clean(tag, page: sp.Page, assets: Assets):
    """조각 하나를 슬라이드에 맞게: 제목 옆 '#' 링크, 복사 단추를 빼고, 쪽 안 링크는 글만 남기고, 그림은 복사한다."""
    tag = copy.copy(tag)
    for a in tag.select("a.headerlink, button, .copybtn"):
        a.decompose()
    for img in tag.find_all("img"):
        img["src"] = assets.image(page, img.get("src", ""))
        img.attrs.pop("style", None)
        img["loading"] = "eager"
    for a in tag.find_all("a"):
        href = a.get("href", "")
        if href and sp.is_external(href):
            a["target"] = "_blank"
            a["rel"] = "noopener"
        else:
            a.unwrap()
    for table in tag.find_all("table"):
        rows = table.find("tbody").find_all("tr", recursive=False) if table.find("tbody") else []
        if len(rows) > MAX_TABLE_ROWS + 1:
            for row in rows[MAX_TABLE_ROWS:]:
                row.decompose()
            cols = len(rows[0].find_all(["td", "th"]))
            table.find("tbody").append(sp.soup(f'<tr class="more"><td colspan="{cols}">… (전체 {len(rows)}행은 웹사이트에)</td></tr>'))
    return tag


def code_excerpt(cell, max_lines: int = MAX_CODE_LINES) -> str:
    pre = cell.select_one(".cell_input pre")
    if pre is None:
        return ""
    lines = pre.get_text().rstrip("\n").split("\n")
    # 앞뒤 빈 줄을 빼고, 길면 자른다(전체는 웹사이트와 노트북에)
    while lines and not lines[0].strip():
        lines.pop(0)
    more = len(lines) > max_lines
    lines = lines[:max_lines]
    text = html.escape("\n".join(lines)) + ("\n<span class=\"more\"># … (이어지는 코드는 노트북에)</span>" if more else "")
    return f'<pre class="code"><code>{text}</code></pre>'


def cell_output(cell, page: sp.Page, assets: Assets) -> str:
    out = cell.select_one(".cell_output")
    if out is None:
        return ""
    if out.find("img") is not None:
        return str(clean(out, page, assets).find("img"))
    table = out.find("table")
    if table is not None:
        return f'<div class="table">{clean(table, page, assets)}</div>'
    pre = out.find("pre")
    if pre is not None:
        lines = pre.get_text().rstrip("\n").split("\n")
        more = len(lines) > 8
        return f'<pre class="output">{html.escape(chr(10).join(lines[:8]))}{"…" if more else ""}</pre>'
    return ""


# --- 한 절에서 슬라이드 하나 ----------------------------------------------------------------------

def section_blocks(section) -> list:
    """절의 바로 아래 요소(하위 절 제외)."""
    return [c for c in section.children if getattr(c, "name", None) and sp.block_kind(c) not in ("heading", "section", "skip")]


def _take(blocks, kind):
    return [b for b in blocks if sp.block_kind(b) == kind]


def _has_image(cell) -> bool:
    out = cell.select_one(".cell_output")
    return bool(out and out.find("img"))


def _visible_input(cell) -> bool:
    cls = sp.classes(cell)
    return cell.select_one(".cell_input pre") is not None and not any(
        c in cls for c in ("tag_hide-input", "tag_remove-input", "tag_hide-cell", "tag_solution"))


def find_section(page: sp.Page, key: str):
    """`key`는 제목(앞부분)이나 라벨. 장이 제목을 바꾸는 중이면 'A | B'처럼 여럿을 써 둘 수 있다(앞의 것부터)."""
    keys = [k.strip() for k in str(key).split(" | ")]
    for k in keys[:-1]:
        try:
            return page.section(k)
        except sp.SiteError:
            continue
    return page.section(keys[-1])


def section_slide(page: sp.Page, spec: dict, assets: Assets, executed: Path) -> tuple[str, str, str]:
    """(제목, 본문 HTML, 노트 HTML)."""
    section = find_section(page, spec["section"]) if "section" in spec else page.top
    blocks = section_blocks(section)
    title = spec.get("title") or sp.heading_text(sp.section_heading(section))
    show = spec.get("show", DEFAULT_SHOW)
    used = set()
    parts: list[str] = []
    texts = _take(blocks, "text")
    if "text" in show:
        for b in texts[: int(spec.get("text", 1))]:
            parts.append(str(clean(b, page, assets)))
            used.add(id(b))
    if "math" in show:
        for b in _take(blocks, "math")[: int(spec.get("math", 1))]:
            parts.append(str(clean(b, page, assets)))
    pick = int(spec.get("pick", 1)) - 1  # 절에 표나 그림이 여럿이면 몇 번째인지(1부터)
    if "table" in show:
        tables = [b for b in blocks if sp.block_kind(b) == "table"
                  or (sp.block_kind(b) == "cell" and b.select_one(".cell_output table") is not None)]
        if len(tables) > pick:
            t = tables[pick]
            parts.append(cell_output(t, page, assets) if sp.block_kind(t) == "cell"
                         else f'<div class="table">{clean(t, page, assets)}</div>')
    if "figure" in show:
        figs = [b for b in blocks if sp.block_kind(b) == "figure" or (sp.block_kind(b) == "cell" and _has_image(b))]
        if len(figs) > pick:
            f = figs[pick]
            if sp.block_kind(f) == "cell":
                parts.append(f'<div class="figure">{cell_output(f, page, assets)}</div>')
            else:
                fig = clean(f, page, assets)
                for cap in fig.select(".caption-number"):
                    cap.decompose()
                parts.append(f'<div class="figure">{fig}</div>')
    if "code" in show:
        cells = [c for c in _take(blocks, "cell") if _visible_input(c)]
        if cells:
            parts.append(code_excerpt(cells[0], int(spec.get("code_lines", MAX_CODE_LINES))))
    if "cell" in spec:
        cell = page.cell_by_id(spec["cell"], executed)
        if spec.get("input", True):
            parts.append(code_excerpt(cell, int(spec.get("code_lines", MAX_CODE_LINES))))
        if spec.get("output", True):
            parts.append(cell_output(cell, page, assets))
    # 노트: 보이지 않은 문단(긴 설명)과 개요의 노트
    notes = [str(clean(b, page, assets)) for b in texts if id(b) not in used][: int(spec.get("note_paragraphs", 4))]
    if spec.get("notes"):
        notes.insert(0, f"<p>{html.escape(str(spec['notes']).strip())}</p>")
    body = "\n".join(p for p in parts if p)
    if not body.strip():
        raise OutlineError(f"{page.docname}: 슬라이드 '{title}'에 보일 것이 없습니다(show={list(show)}). 개요 파일을 고치세요.")
    return title, body, "\n".join(notes)


# --- 자동 슬라이드 --------------------------------------------------------------------------------

def goals_html(page: sp.Page, outline: dict, assets: Assets) -> str:
    if outline.get("goals"):
        return "<ul>" + "".join(f"<li>{html.escape(g)}</li>" for g in outline["goals"]) + "</ul>"
    try:
        sec = page.section("학습 목표")
    except sp.SiteError:
        intro = [b for b in page.intro() if sp.block_kind(b) == "text"]
        return "".join(str(clean(b, page, assets)) for b in intro[:2])
    return "".join(str(clean(b, page, assets)) for b in _take(section_blocks(sec), "text"))


def discussion_html(page: sp.Page, outline: dict, site: Path, assets: Assets) -> str:
    """수업 운영 가이드에서 이 장의 '토론 질문' 목록. 이론 쪽처럼 그 항목이 없으면 개요 파일의 `discussion`."""
    if outline.get("discussion"):
        return "<ul>" + "".join(f"<li>{html.escape(q)}</li>" for q in outline["discussion"]) + "</ul>"
    guide = sp.Page("book/instructor", site)
    for sec in guide.sections():
        head = sp.heading_text(sp.section_heading(sec))
        if page.number and head.startswith(f"{page.number}장"):
            for li in sec.find_all("li"):
                strong = li.find("strong")
                if strong and "토론" in strong.get_text():
                    ul = li.find("ul")
                    if ul is not None:
                        return str(clean(ul, guide, assets))
    raise OutlineError(f"{page.docname}: 수업 운영 가이드에서 '{page.number}장'의 토론 질문을 찾지 못했습니다. "
                       "개요 파일에 discussion 목록을 쓰세요.")


def key_numbers_html(page: sp.Page, outline: dict, executed: Path) -> str:
    items = outline.get("key_numbers") or []
    if not items:
        return ""
    values = sp.glue_values(page.docname, executed)
    rows = []
    for item in items:
        key, label = item["glue"], item["label"]
        if key not in values:
            raise OutlineError(f"{page.docname}: glue '{key}'이(가) 빌드에 없습니다. 있는 것: {sorted(values)[:40]}")
        rows.append(f"<tr><th>{html.escape(label)}</th><td>{html.escape(sp.format_glue(values[key], item.get('format', '')))}</td></tr>")
    return '<table class="keynums">' + "".join(rows) + "</table>"


def slide(title: str, body: str, notes: str = "", cls: str = "") -> str:
    aside = f'\n<aside class="notes">{notes}</aside>' if notes else ""
    return f'<section class="{cls}">\n<h2>{title}</h2>\n<div class="body">{body}</div>{aside}\n</section>'


# --- 덱 하나 -------------------------------------------------------------------------------------

def deck_html(outline: dict, site: Path, executed: Path, assets: Assets, site_href: str) -> tuple[str, int]:
    page = sp.Page(outline["page"], site)
    number = page.number
    heading = f"{number}장. {page.title}" if number else page.title
    sections = [f'<section class="title">\n<p class="course">한국어로 배우는 BERT</p>\n<h1>{heading}</h1>\n'
                f'<p class="who">bertlab 강의 팀 · 강의 슬라이드</p>\n'
                f'<aside class="notes">S 키: 강사 노트 창. 웹사이트의 이 장: {html.escape(page.docname)}</aside>\n</section>']
    sections.append(slide("학습 목표", goals_html(page, outline, assets), cls="goals"))
    for spec in outline["slides"]:
        title, body, notes = section_slide(page, spec, assets, executed)
        sections.append(slide(title, body, notes))
    nums = key_numbers_html(page, outline, executed)
    if nums:
        sections.append(slide("핵심 숫자", nums + '<p class="small">번들 미니 BERT로 웹사이트를 빌드할 때 계산한 값입니다.</p>',
                              "이 숫자는 책 빌드가 실행한 노트북에서 그대로 가져온 것입니다. mBERT로 돌리면 달라집니다."))
    try:
        summary = page.section("요약")
        sections.append(slide("요약", "".join(str(clean(b, page, assets)) for b in _take(section_blocks(summary), "text"))))
    except sp.SiteError:
        pass
    lab = outline.get("lab") or {}
    if lab:
        href = site_href.rstrip("/") + "/" + lab.get("href", "book/lab.html")
        sections.append(slide("실습실에서 해 보기",
                              f'<p>{html.escape(lab.get("text", ""))}</p>'
                              f'<p class="lab"><a href="{html.escape(href)}" target="_blank" rel="noopener">실습실 열기 →</a></p>'
                              '<p class="small">실습실은 브라우저 안에서 번들 미니 BERT를 돌립니다(설치 없음, 인터넷 없이도).</p>'))
    sections.append(slide("토론 질문", discussion_html(page, outline, site, assets), cls="discussion"))
    mathjax_config = page.mathjax_config()
    doc = f"""<!doctype html>
<html lang="ko">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(re.sub(r"<[^>]+>", "", heading))} · 한국어로 배우는 BERT</title>
<link rel="stylesheet" href="{DECK_ASSETS}/reveal/reveal.css">
<link rel="stylesheet" href="{DECK_ASSETS}/reveal/theme/white.css">
<link rel="stylesheet" href="{DECK_ASSETS}/deck.css">
<script>{mathjax_config}</script>
<script defer src="{DECK_ASSETS}/mathjax/tex-mml-chtml.js"></script>
</head>
<body>
<div class="reveal"><div class="slides">
{chr(10).join(sections)}
</div></div>
<script src="{DECK_ASSETS}/reveal/reveal.js"></script>
<script src="{DECK_ASSETS}/reveal/plugin/notes.js"></script>
<script src="{DECK_ASSETS}/deck.js"></script>
</body>
</html>
"""
    return doc, len(sections)


DECK_CSS = """@font-face { font-family: "NanumGothic"; src: url("fonts/NanumGothic.ttf") format("truetype"); font-weight: 400; }
@font-face { font-family: "NanumGothic"; src: url("fonts/NanumGothicBold.ttf") format("truetype"); font-weight: 700; }
:root { --r-main-font: "NanumGothic", sans-serif; --r-heading-font: "NanumGothic", sans-serif;
        --r-main-font-size: 28px; --r-heading-font-weight: 700; --r-heading-text-transform: none;
        --r-heading2-size: 1.45em; --r-heading1-size: 1.9em; --r-code-font: "NanumGothicCoding", monospace; }
.reveal .slides section { text-align: left; }
.reveal .slides section * { box-sizing: border-box; }
.reveal .slides section.title { text-align: center; }
.reveal .title .course { color: #666; font-size: 0.9em; }
.reveal .title .who { color: #666; font-size: 0.7em; margin-top: 2em; }
.reveal h2 { border-bottom: 3px solid #2a76dd; padding-bottom: 0.2em; margin-bottom: 0.5em; }
.reveal p, .reveal li { line-height: 1.45; }
.reveal ul { display: block; margin-left: 1em; }
.reveal li p { margin: 0.15em 0; }
.reveal .body > * { margin-top: 0.35em; margin-bottom: 0.35em; }
.reveal img { max-width: 100%; max-height: 430px; margin: 0.2em auto; display: block; }
.reveal .figure figcaption { font-size: 0.6em; color: #555; text-align: center; }
.reveal .figure figure { margin: 0; }
.reveal pre.code, .reveal pre.output { font-size: 0.52em; line-height: 1.35; width: 100%; box-shadow: none;
  background: #f6f8fa; border-left: 4px solid #2a76dd; padding: 0.4em 0.7em; white-space: pre-wrap; word-break: break-all; }
.reveal pre.output { border-left-color: #aaa; background: #fafafa; }
.reveal pre code { max-height: none; padding: 0; background: none; font-family: monospace; }
.reveal .more { color: #888; }
.reveal .table { font-size: 0.62em; overflow: hidden; }
.reveal .table table, .reveal table.keynums { margin: 0 auto; border-collapse: collapse; }
.reveal table th, .reveal table td { padding: 0.2em 0.6em; border-bottom: 1px solid #ddd; }
.reveal table.keynums { font-size: 0.85em; }
.reveal table.keynums th { text-align: left; font-weight: 400; color: #333; }
.reveal table.keynums td { text-align: right; font-weight: 700; color: #2a76dd; }
.reveal .math { font-size: 0.9em; overflow: hidden; }
.reveal .small { font-size: 0.6em; color: #666; }
.reveal .lab a { font-size: 1.2em; font-weight: 700; }
.reveal code.literal { font-size: 0.9em; color: #b03060; }
.reveal .discussion li, .reveal .goals li { font-size: 0.88em; }
"""

DECK_JS = """// 슬라이드를 1280×720에 맞추고(넘치면 글자를 줄임), 수식이 조판된 뒤 배치를 다시 잡는다.
(function () {
  const W = 1280, H = 720;
  const print = /print-pdf/i.test(window.location.search);
  Reveal.initialize({
    width: W, height: H, margin: 0.04, minScale: 0.2, maxScale: 2.0,
    hash: true, slideNumber: 'c/t', center: true, transition: 'none',
    showNotes: print ? 'separate-page' : false,
    plugins: [RevealNotes],
  });
  function fit() {
    document.querySelectorAll('.reveal .slides > section').forEach(function (s) {
      const display = s.style.display;
      s.style.display = 'block';
      let scale = 1;
      s.style.fontSize = '';
      while ((s.scrollHeight > H - 20 || s.scrollWidth > W) && scale > 0.45) {
        scale -= 0.05;
        s.style.fontSize = Math.round(scale * 100) + '%';
      }
      s.dataset.fit = String(Math.round(scale * 100));
      s.style.display = display;
    });
    Reveal.layout();
    document.body.dataset.deckReady = '1';
  }
  function afterMath() {
    const imgs = Array.from(document.images).map(function (img) {
      return img.complete ? null : new Promise(function (done) { img.onload = img.onerror = done; });
    });
    Promise.all(imgs).then(fit);
  }
  Reveal.on('ready', function () {
    function wait() {
      if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
        MathJax.startup.promise.then(afterMath);
      } else {
        setTimeout(wait, 50);
      }
    }
    wait();
  });
})();
"""


def copy_static(out: Path, reveal: Path, site: Path) -> None:
    base = out / DECK_ASSETS
    for rel in REVEAL_FILES:
        src = reveal / rel
        if not src.exists():
            raise FileNotFoundError(f"reveal.js 파일 {src}이(가) 없습니다. scripts/build-slides.sh가 npm으로 받은 폴더를 --reveal로 주세요.")
        dst = base / "reveal" / Path(rel).relative_to("dist") if rel.startswith("dist/") else base / "reveal" / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dst)
    mathjax = site / "_static" / "mathjax"
    if not (mathjax / "tex-mml-chtml.js").exists():
        raise FileNotFoundError(f"{mathjax}에 MathJax가 없습니다. 먼저 'bash scripts/build-book.sh'로 책을 빌드하세요.")
    shutil.rmtree(base / "mathjax", ignore_errors=True)
    shutil.copytree(mathjax, base / "mathjax")
    import koreanize_matplotlib

    fonts = Path(koreanize_matplotlib.__file__).parent / "fonts"
    (base / "fonts").mkdir(parents=True, exist_ok=True)
    for name in ("NanumGothic.ttf", "NanumGothicBold.ttf"):
        shutil.copy2(fonts / name, base / "fonts" / name)
    (base / "deck.css").write_text(DECK_CSS, encoding="utf-8")
    (base / "deck.js").write_text(DECK_JS, encoding="utf-8")


def build(out: Path, reveal: Path, site: Path = sp.SITE, executed: Path = sp.EXECUTED, only=None,
          site_href: str | None = None, outline_dir: Path = OUTLINES) -> list[Path]:
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    copy_static(out, Path(reveal), Path(site))
    assets = Assets(out)
    if site_href is None:
        site_href = Path(os.path.relpath(Path(site).resolve(), out.resolve())).as_posix()
    written = []
    for path in outlines(outline_dir):
        outline = load_outline(path)
        if only and outline["deck"] not in only and path.stem not in only:
            continue
        doc, n = deck_html(outline, Path(site), Path(executed), assets, site_href)
        target = out / f"{outline['deck']}.html"
        target.write_text(doc, encoding="utf-8")
        written.append(target)
        print(f"  {target.name}: 슬라이드 {n}장")
    if only and len(written) != len(set(only)):
        raise OutlineError(f"개요 파일을 찾지 못한 덱이 있습니다: {sorted(set(only))} (있는 것: {[p.stem for p in outlines(outline_dir)]})")
    (out / "index.html").write_text(index_html(written), encoding="utf-8")
    return written


def index_html(decks: list[Path]) -> str:
    items = "".join(f'<li><a href="{p.name}">{p.stem}</a> (<a href="{p.name}?print-pdf">인쇄용</a>)</li>' for p in decks)
    return ('<!doctype html><html lang="ko"><head><meta charset="utf-8"><title>강의 슬라이드</title></head><body>'
            f"<h1>한국어로 배우는 BERT · 강의 슬라이드</h1><ul>{items}</ul>"
            "<p>슬라이드에서 S 키는 강사 노트 창, F 키는 전체 화면, ESC는 개요 보기입니다.</p></body></html>\n")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="빌드한 웹사이트에서 장마다 reveal.js 강의 슬라이드를 만듭니다.")
    ap.add_argument("out", type=Path)
    ap.add_argument("--reveal", type=Path, required=True, help="npm의 reveal.js 패키지 폴더(package/)")
    ap.add_argument("--site", type=Path, default=sp.SITE)
    ap.add_argument("--executed", type=Path, default=sp.EXECUTED)
    ap.add_argument("--only", nargs="*", help="만들 덱(예: 03_attention)")
    ap.add_argument("--site-url", help="실습실 링크가 가리킬 웹사이트 주소(기본: OUT에서 본 --site의 상대 경로)")
    args = ap.parse_args(argv)
    stale = sp.stale_sources()
    if stale:
        print(f"주의: 빌드한 뒤 고친 장이 있습니다({', '.join(stale)}). 슬라이드는 마지막 빌드의 내용입니다.", file=sys.stderr)
    try:
        decks = build(args.out, args.reveal, args.site, args.executed, args.only, args.site_url)
    except (sp.SiteError, OutlineError, FileNotFoundError) as err:
        print(f"오류: {err}", file=sys.stderr)
        return 1
    print(f"완료: 덱 {len(decks)}개 → {args.out}/index.html")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
