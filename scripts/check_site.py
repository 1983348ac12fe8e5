"""빌드한 웹사이트를 정적으로 검사합니다(브라우저 없이, 몇 초).

    .venv/bin/python scripts/check_site.py [_build/html]

- **기계 경로**: 어느 쪽에도 빌드한 컴퓨터의 절대 경로(저장소 위치, 홈 폴더, 가상환경, site-packages)가 없어야 합니다.
- **외부 요청**: 어느 쪽도 다른 호스트에서 스크립트·스타일·글꼴·그림·iframe을 불러오지 않아야 합니다
  (`<script src>`, `<link rel=stylesheet|preload|icon>`, `<img src>`, `<iframe src>`, `<source src>`, CSS의 `url(...)`).
  다른 호스트로 가는 *링크*(`<a href>`, Colab·저장소 버튼)는 요청이 아니므로 괜찮습니다.
- **사라진 그림**: 그림을 그리는 셀(`plt.show()`, `plt.subplots`, `bl.viz`의 그림 함수, `.plot(`)이 실행 결과에 그림
  (image/png·svg)을 남겨야 합니다. `MPLBACKEND=Agg`인 환경에서 커널이 그림을 내보내지 않으면 빌드는 성공해도 그림만
  조용히 빠지는데, 이 검사가 그것을 잡습니다(`_build/jupyter_execute`의 실행한 노트북을 읽음).

- **글**: 쪽의 보이는 글(스크립트·스타일 제외)에
  - 풀이 셀(태그 solution)의 출력이 접힌 풀이(<details>) 밖에 있으면 안 됩니다(답이 문제 아래에 보임);
  - '다의어'는 용어집의 정의 밖에서 쓰지 않습니다(배·눈·말·밤·차·다리는 동음이의어);
  - 작업 일지의 말(이슈 번호, 커밋 해시, '세션 시간')과, 학생이 본 적 없는 「원래 강의」(강사용 쪽 밖에서)가 없어야 합니다;
  - 긴 float 꼬리(0.08900000154…), 진행 막대(`| 32/32 [00:01<00:00, …it/s]`), 링크 글의 TeX 원문(`\\sqrt{`)이 없어야 합니다.

`bash scripts/build-book.sh`가 빌드 끝에 부르고, 브라우저 시험(`tests/browser/`)도 같은 함수를 씁니다.
문제가 있으면 쪽과 내용을 적고 0이 아닌 코드로 끝납니다.
"""

from __future__ import annotations

import re
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parents[1]
LOCAL_HOSTS = {"", "127.0.0.1", "localhost"}
# 요청을 일으키는 태그와 속성. <link>는 rel이 불러오는 종류일 때만.
_FETCHING = {"script": ("src",), "img": ("src", "srcset"), "iframe": ("src",), "source": ("src", "srcset"),
             "audio": ("src",), "video": ("src", "poster"), "embed": ("src",), "object": ("data",)}
_LINK_RELS = {"stylesheet", "preload", "modulepreload", "icon", "shortcut", "apple-touch-icon", "manifest", "prefetch"}
_CSS_URL = re.compile(r"url\(\s*['\"]?([^'\")]+)")


def pages(site: Path) -> list[Path]:
    """사이트의 HTML 쪽(밑줄로 시작하는 폴더 _static, _sources 등은 뺌)."""
    return [p for p in sorted(site.rglob("*.html")) if not any(part.startswith("_") for part in p.relative_to(site).parts[:-1])]


def machine_path_patterns() -> list[str]:
    """이 컴퓨터에서만 뜻이 있는 절대 경로들(긴 것부터)."""
    cands = {str(ROOT), str(Path.home()), sys.prefix, str(Path(sys.prefix).resolve())}
    cands |= {p for p in sys.path if "site-packages" in p}
    return sorted({c.rstrip("/") for c in cands if c and c not in ("/", "")}, key=len, reverse=True) + ["site-packages/"]


def machine_paths(site: Path) -> dict[str, list[str]]:
    """{쪽: [찾은 경로가 든 짧은 조각, ...]}"""
    patterns = machine_path_patterns()
    found: dict[str, list[str]] = {}
    for page in pages(site):
        text = page.read_text(encoding="utf-8", errors="replace")
        for pat in patterns:
            for m in re.finditer(re.escape(pat), text):
                found.setdefault(page.relative_to(site).as_posix(), []).append(text[max(0, m.start() - 40): m.end() + 40])
    return found


def _is_external(url: str) -> bool:
    url = url.strip()
    if url.startswith("//"):
        return True
    u = urlparse(url)
    return u.scheme in ("http", "https", "ws", "wss") and (u.hostname or "") not in LOCAL_HOSTS


class _Fetches(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.urls: list[str] = []
        self._style = False

    def handle_starttag(self, tag, attrs):
        a = {k: (v or "") for k, v in attrs}
        if tag == "link" and set(a.get("rel", "").lower().split()) & _LINK_RELS:
            self.urls.append(a.get("href", ""))
        for attr in _FETCHING.get(tag, ()):
            if attr in a:
                self.urls += [part.strip().split(" ")[0] for part in a[attr].split(",")] if attr == "srcset" else [a[attr]]
        if "style" in a:
            self.urls += _CSS_URL.findall(a["style"])
        self._style = tag == "style"

    def handle_endtag(self, tag):
        if tag == "style":
            self._style = False

    def handle_data(self, data):
        if self._style:
            self.urls += _CSS_URL.findall(data)


def external_requests(site: Path) -> dict[str, list[str]]:
    """{쪽 또는 CSS 파일: [다른 호스트에서 불러오는 주소, ...]}"""
    found: dict[str, list[str]] = {}
    for page in pages(site):
        parser = _Fetches()
        parser.feed(page.read_text(encoding="utf-8", errors="replace"))
        ext = sorted({u for u in parser.urls if _is_external(u)})
        if ext:
            found[page.relative_to(site).as_posix()] = ext
    for css in sorted(site.rglob("*.css")):
        ext = sorted({u for u in _CSS_URL.findall(css.read_text(encoding="utf-8", errors="replace")) if _is_external(u)})
        if ext:
            found[css.relative_to(site).as_posix()] = ext
    return found


_DRAWS = re.compile(r"plt\.show\(|plt\.subplots\(|\bbl\.viz\.(heatmap|head_grid|layer_lines|stat_maps)\(|\.plot\(")


def missing_figures(executed: Path) -> dict[str, list[int]]:
    """{실행한 노트북: [그림을 그리는데 그림 출력이 없는 코드 셀 번호, ...]}"""
    import json

    found: dict[str, list[int]] = {}
    for nb_path in sorted(executed.rglob("*.ipynb")):
        cells = json.loads(nb_path.read_text(encoding="utf-8"))["cells"]
        missing = []
        for i, cell in enumerate(cells):
            src = "".join(cell.get("source", ""))
            if cell.get("cell_type") != "code" or not _DRAWS.search(src):
                continue
            outputs = cell.get("outputs", [])
            if not any(k in o.get("data", {}) for o in outputs for k in ("image/png", "image/svg+xml")):
                missing.append(i)
        no_outputs = not any(c.get("outputs") for c in cells if c.get("cell_type") == "code")
        page = executed.parent / "html" / nb_path.relative_to(executed).with_suffix(".html")
        if missing and no_outputs and page.exists():
            # myst-nb가 실행 결과를 캐시에서 가져온 MyST 쪽은 실행본 사본에 출력을 쓰지 않는 일이 있다(쪽에는 그림이 있음).
            # 그때는 쪽의 셀 출력 그림을 센다: 그림을 그리는 셀 수보다 적으면 사라진 것이다.
            shown = len(re.findall(r'<div class="cell_output[^"]*">(?:(?!<div class="cell[ "]).)*?<img', page.read_text(encoding="utf-8"), re.S))
            missing = missing[shown:]
        if missing:
            found[nb_path.relative_to(executed).as_posix()] = missing
    return found


class _Visible(HTMLParser):
    """보이는 글(스크립트·스타일·수식 원문 제외)과 링크 글."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.links: list[str] = []
        self._skip = 0
        self._link = 0

    def handle_starttag(self, tag, attrs):
        cls = dict(attrs).get("class") or ""
        if tag in ("script", "style") or (tag in ("span", "div") and "math" in cls.split()):
            self._skip += 1
        elif self._skip and tag in ("span", "div"):
            self._skip += 1
        if tag == "a":
            self._link += 1
            self.links.append("")

    def handle_endtag(self, tag):
        if self._skip and tag in ("script", "style", "span", "div"):
            self._skip -= 1
        if tag == "a" and self._link:
            self._link -= 1

    def handle_data(self, data):
        if self._skip:
            return
        self.text.append(data)
        if self._link:
            self.links[-1] += data


INSTRUCTOR_PAGES = {"book/instructor.html", "book/errata.html"}
_WORKLOG = re.compile(r"이슈\s*#?\d+|커밋(?:함|한|해시)?\s*\(?[0-9a-f]{7}|세션 시간|\bissue\s*#?\d+|\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,12}\b")
_FLOAT_RESIDUE = re.compile(r"\d\.\d*?(?:0{5,}|9{5,})\d+")
_PROGRESS = re.compile(r"\d+%\|[^|\n]{0,40}\|\s*\d+/\d+|it/s\]")
_RAW_TEX = re.compile(r"\\(sqrt|frac|mathrm|top|text|boldsymbol)\b|\$[^$]+\$")
_RAW_MD = re.compile(r"`[^`\n<>]{1,80}`")  # 본문에 그대로 보이는 마크다운 코드 표시(glue:text로 넣은 글은 마크다운으로 읽히지 않는다)
_CODE_BLOCKS = re.compile(r"(?s)<(pre|code|script|style|textarea)\b.*?</\1>")


def raw_markdown(html: str) -> list[str]:
    """코드 블록과 코드 조각을 뺀 본문에서 백틱으로 둘러싼 글(마크다운이 렌더되지 않고 보이는 곳)."""
    prose = re.sub(r"<[^>]+>", " ", _CODE_BLOCKS.sub(" ", html))
    return [m.group(0) for m in _RAW_MD.finditer(prose)]


def text_problems(site: Path) -> dict[str, list[str]]:
    """{쪽: [문제 설명, ...]} — 보이는 글의 문제(위 목록)."""
    found: dict[str, list[str]] = {}
    for page in pages(site):
        name = page.relative_to(site).as_posix()
        html = page.read_text(encoding="utf-8", errors="replace")
        parser = _Visible()
        parser.feed(html)
        text = " ".join(parser.text)
        out = []
        for cell in re.split(r'<div class="cell ', html)[1:]:
            if "tag_solution" in cell.split(">", 1)[0] and "cell_output" in cell:
                before = cell[: cell.index("cell_output")]
                if before.count("<details") <= before.count("</details>"):
                    out.append("풀이 셀의 출력이 접힌 풀이 밖에 보입니다")
        if name not in ("book/glossary.html", "genindex.html") and "다의어" in text:  # 색인은 용어집의 항목 이름을 모은다
            out.append(f"'다의어' {text.count('다의어')}번(용어집 밖)")
        if name not in INSTRUCTOR_PAGES:
            out += [f"작업 일지: {m.group(0)!r}" for m in _WORKLOG.finditer(text)][:3]
            if "원래 강의" in text:
                out.append(f"'원래 강의' {text.count('원래 강의')}번(강사용 쪽 밖)")
        out += [f"float 꼬리: {m.group(0)!r}" for m in _FLOAT_RESIDUE.finditer(text)][:3]
        out += [f"진행 막대: {m.group(0)!r}" for m in _PROGRESS.finditer(text)][:2]
        out += [f"링크 글의 TeX: {t.strip()!r}" for t in parser.links if _RAW_TEX.search(t)][:3]
        out += [f"렌더되지 않은 마크다운: {t!r}" for t in raw_markdown(html)][:3]
        if out:
            found[name] = out
    return found


def main(argv: list[str]) -> int:
    site = Path(argv[0]) if argv else ROOT / "_build" / "html"
    if not (site / "index.html").exists():
        print(f"{site}/index.html이 없습니다. 먼저 책을 빌드하세요.", file=sys.stderr)
        return 2
    problems = 0
    for name, snippets in machine_paths(site).items():
        problems += 1
        print(f"기계 경로: {name}: {snippets[0]!r} (모두 {len(snippets)}곳)", file=sys.stderr)
    for name, urls in external_requests(site).items():
        problems += 1
        print(f"외부 요청: {name}: {urls}", file=sys.stderr)
    executed = site.parent / "jupyter_execute"
    for name, cells in missing_figures(executed).items():
        problems += 1
        print(f"사라진 그림: {name}: 그림을 그리는 셀 {cells}에 그림 출력이 없습니다(MPLBACKEND=Agg?)", file=sys.stderr)
    for name, items in text_problems(site).items():
        problems += 1
        print(f"글: {name}: " + "; ".join(items), file=sys.stderr)
    n = len(pages(site))
    if problems:
        print(f"사이트 검사 실패: 쪽 {n}개 중 문제 {problems}곳", file=sys.stderr)
        return 1
    n_nb = len(list(executed.rglob("*.ipynb")))
    print(f"사이트 검사 통과: 쪽 {n}개, 기계 경로 0곳, 외부 요청 0개, 실행한 노트북 {n_nb}개의 그림 셀 모두 그림 있음")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
