"""빌드한 웹사이트(`_build/html`)의 쪽을 읽는 작은 도구. 강의 슬라이드(`slides`)와 인쇄판 PDF(`printbook`)가 함께 씁니다.

두 도구는 본문을 다시 쓰거나 다시 렌더링하지 않고, 웹사이트 빌드가 만든 HTML 조각을 그대로 옮깁니다. 그래서 붙여 넣은
숫자(glue), 그림, 표, 수식, 참조의 글이 웹사이트와 같습니다. 노트북 셀의 id와 태그는 같은 빌드가 실행한 노트북
(`_build/jupyter_execute`)에서 읽어 HTML의 셀과 짝짓습니다. 장이 바뀌어 가리키던 절이나 셀이 사라지면, 무엇이 없고 무엇이
있는지를 적은 한국어 오류(`SiteError`)로 멈춥니다.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urljoin, urlparse

ROOT = Path(__file__).resolve().parents[2]
BUILD = ROOT / "_build"
SITE = BUILD / "html"
EXECUTED = BUILD / "jupyter_execute"

TEXT_TAGS = {"p", "ul", "ol", "dl", "blockquote"}
_NUMBER = re.compile(r"^\s*[\d.]+\s*")


class SiteError(RuntimeError):
    """빌드한 사이트에서 가리킨 것을 찾지 못함(메시지는 한국어, 무엇을 하면 되는지 포함)."""


@dataclass(frozen=True)
class TocEntry:
    part: str          # 목차의 부 제목(예: "BERT 들여다보기"); 첫 쪽은 ""
    docname: str       # 예: "notebooks/03_attention"
    numbered: bool


def toc_entries(root: Path = ROOT) -> list[TocEntry]:
    """`_toc.yml`의 쪽을 목차 순서대로."""
    import yaml

    toc = yaml.safe_load((root / "_toc.yml").read_text(encoding="utf-8"))
    out = [TocEntry("", re.sub(r"\.(md|ipynb)$", "", toc["root"]), False)]
    for part in toc.get("parts", []):
        for ch in part.get("chapters", []):
            out.append(TocEntry(part.get("caption", ""), re.sub(r"\.(md|ipynb)$", "", ch["file"]), bool(part.get("numbered"))))
    return out


def soup(html: str):
    from bs4 import BeautifulSoup

    return BeautifulSoup(html, "html.parser")


def heading_text(h, number: bool = False) -> str:
    """제목 요소의 글(끝의 '#' 링크를 빼고). `number=True`면 앞의 절 번호('3.4. ')도 남긴다."""
    parts = []
    for node in h.children:
        if getattr(node, "name", None) == "a" and "headerlink" in (node.get("class") or []):
            continue
        if not number and getattr(node, "name", None) == "span" and "section-number" in (node.get("class") or []):
            continue
        parts.append(node.get_text() if hasattr(node, "get_text") else str(node))
    return re.sub(r"\s+", " ", "".join(parts)).strip()


def section_heading(section):
    return section.find(re.compile(r"^h[1-6]$"), recursive=False)


def classes(tag) -> list[str]:
    return list(tag.get("class") or []) if hasattr(tag, "get") else []


def block_kind(tag) -> str:
    """절의 바로 아래 요소 하나의 종류: text, math, figure, table, cell, code, note, dropdown, section, heading, skip, other."""
    name, cls = tag.name, classes(tag)
    if name in ("h1", "h2", "h3", "h4", "h5", "h6"):
        return "heading"
    if name == "section":
        return "section"
    if name in ("span", "a", "script", "style", "link") and not tag.get_text(strip=True):
        return "skip"
    if name in TEXT_TAGS:
        return "text"
    if name == "figure" or (name == "div" and "figure" in cls):
        return "figure"
    if name == "div" and "math" in cls:
        return "math"
    if name == "table" or (name == "div" and ("pst-scrollable-table-container" in cls or "table-wrapper" in cls)):
        return "table"
    if name == "div" and "cell" in cls:
        return "cell"
    if name == "div" and any(c.startswith("highlight-") for c in cls):
        return "code"
    if name == "details" or "sd-dropdown" in cls or "dropdown" in cls:
        return "dropdown"
    if name in ("div", "aside") and "admonition" in cls:
        return "note"
    return "other"


class Page:
    """빌드한 쪽 하나(`docname`은 확장자 없는 원본 경로, 예: notebooks/03_attention)."""

    def __init__(self, docname: str, site: Path = SITE):
        self.docname = docname
        self.site = Path(site)
        self.path = self.site / f"{docname}.html"
        if not self.path.exists():
            raise SiteError(f"{self.path}이(가) 없습니다. 먼저 'bash scripts/build-book.sh'로 책을 빌드하세요"
                            f" ({docname}이(가) _toc.yml에 있는지도 확인하세요).")
        self.html = self.path.read_text(encoding="utf-8")
        self.soup = soup(self.html)
        self.article = self.soup.select_one("article.bd-article") or self.soup.select_one("article")
        if self.article is None:
            raise SiteError(f"{self.path}에서 본문(<article>)을 찾지 못했습니다.")
        self.top = self.article.find("section") or self.article

    # --- 제목과 절
    @property
    def h1(self):
        return self.article.find("h1")

    @property
    def title(self) -> str:
        return heading_text(self.h1) if self.h1 else self.docname

    @property
    def number(self) -> str:
        """목차가 매긴 장 번호('3'), 번호가 없는 쪽은 ''."""
        span = self.h1.find("span", class_="section-number") if self.h1 else None
        return span.get_text().strip().rstrip(".").strip() if span else ""

    def sections(self) -> list:
        return [s for s in self.article.find_all("section") if section_heading(s) is not None]

    def section_titles(self) -> list[str]:
        return [f"{s.get('id')}: {heading_text(section_heading(s))}" for s in self.sections()]

    def section(self, key: str):
        """라벨(절의 id, 또는 절 첫머리의 <span id>)이나 제목 글(번호 없이; 같거나 그것으로 시작)로 절을 찾는다."""
        key = str(key).strip()
        el = self.article.find(id=key)
        if el is not None:
            sec = el if el.name == "section" else el.find_parent("section")
            if sec is not None:
                return sec
        secs = self.sections()
        norm = lambda s: re.sub(r"\s+", " ", s).strip()  # noqa: E731
        for match in (lambda t: t == norm(key), lambda t: t.startswith(norm(key))):
            found = [s for s in secs if match(heading_text(section_heading(s)))]
            if found:
                return found[0]
        raise SiteError(f"{self.docname}: 절 '{key}'을(를) 찾지 못했습니다. 장이 바뀌었으면 개요 파일을 고치세요. "
                        f"지금 있는 절: {self.section_titles()}")

    def intro(self):
        """제목과 첫 절 사이의 요소들(쪽의 여는 글)."""
        out = []
        for child in self.top.children:
            if not getattr(child, "name", None):
                continue
            if child.name == "section":
                break
            out.append(child)
        return out

    # --- 셀
    def cells(self) -> list:
        return self.article.select("div.cell")

    def cell_by_id(self, cell_id: str, executed: Path = EXECUTED):
        """실행한 노트북의 셀 id로 HTML의 셀을 찾는다(지워진 셀 remove-cell은 HTML에 없음)."""
        nb_path = executed / f"{self.docname}.ipynb"
        if not nb_path.exists():
            raise SiteError(f"{nb_path}이(가) 없습니다: 셀 id를 쓰려면 실행한 노트북이 필요합니다(bash scripts/build-book.sh).")
        nb = json.loads(nb_path.read_text(encoding="utf-8"))
        code = [c for c in nb["cells"] if c["cell_type"] == "code"
                and not {"remove-cell", "remove_cell"} & set(c.get("metadata", {}).get("tags", []))]
        html_cells = self.cells()
        if len(code) != len(html_cells):
            raise SiteError(f"{self.docname}: 실행한 노트북의 보이는 코드 셀({len(code)}개)과 HTML의 셀({len(html_cells)}개)의 "
                            "수가 다릅니다. 빌드가 섞였으면 책을 다시 빌드하세요.")
        for c, tag in zip(code, html_cells):
            if c.get("id") == cell_id:
                return tag
        every = [c.get("id") for c in nb["cells"]]
        where = "지워진 셀(remove-cell)이라 웹사이트에 없습니다" if cell_id in every else "실행한 노트북에 없습니다"
        raise SiteError(f"{self.docname}: 셀 id '{cell_id}'이(가) {where}. 장이 바뀌었으면 개요 파일을 고치세요 "
                        f"(있는 코드 셀 id: {[c.get('id') for c in code][:40]}).")

    # --- 주소
    def url(self, base: str, href: str = "") -> str:
        """이 쪽에서 본 상대 주소 `href`를 `base`(웹사이트 주소) 아래의 절대 주소로."""
        return urljoin(urljoin(base, f"{self.docname}.html"), href)

    def mathjax_config(self) -> str:
        m = re.search(r"<script>\s*(window\.MathJax\s*=\s*\{.*?\})\s*</script>", self.html, re.S)
        return m.group(1) if m else "window.MathJax = {}"


def is_external(href: str) -> bool:
    u = urlparse(href)
    return bool(u.scheme) or href.startswith("//")


def glue_values(docname: str, executed: Path = EXECUTED) -> dict[str, str]:
    """같은 빌드가 저장한 glue 값(text/plain). 없으면 빈 dict."""
    path = executed / f"{docname}.glue.json"
    if not path.exists():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return {k: v.get("data", {}).get("text/plain", "") for k, v in data.items()}


def format_glue(value: str, fmt: str = "") -> str:
    from myst_nb.core.variables import format_plain_text

    return format_plain_text(value, fmt)


def stale_sources(root: Path = ROOT, executed: Path = EXECUTED) -> list[str]:
    """작업 트리의 장 노트북 가운데 마지막 빌드 뒤에 고친 것(빌드한 것이 낡았을 수 있음)."""
    out = []
    for nb in sorted((root / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        built = executed / "notebooks" / nb.name
        if built.exists() and nb.stat().st_mtime > built.stat().st_mtime:
            out.append(nb.name)
    return out
