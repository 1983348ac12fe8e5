"""빌드한 웹사이트(_build/html)를 진짜 브라우저(헤드리스 Chromium)로 열어 보는 시험.

``bash scripts/browser-test.sh`` 로 돌린다(그 스크립트가 데비안 ``chromium``, ``fonts-nanum`` 과
``requirements-browser.txt`` 의 websocket-client를 없으면 설치하고 ``BERTLAB_BROWSER=1`` 을 켠다).

- 사이트를 127.0.0.1의 빈 포트에서 ``python -m http.server`` 로 연다.
- Chromium을 Chrome DevTools Protocol(CDP)로 직접 움직인다. 브라우저를 내려받지 않는다.
- 모든 쪽: 콘솔 오류·잡히지 않은 예외·이 사이트 안의 실패한 요청(4xx/5xx 포함)이 없어야 하고,
  모든 ``<img>`` 의 ``naturalWidth`` 가 0보다 커야 한다.
- 한국어 제목 하나를 실제로 그린 글꼴(CSS.getPlatformFontsForNode)이 이 컴퓨터에 설치된
  한국어 글꼴(``fc-list :lang=ko``, 곧 fonts-nanum)이고, 한글 글자를 그 글꼴로 그렸으며 글의 폭이 0보다 크다.
- 검색 쪽(``search.html?q=문장``)이 결과를 하나 이상 낸다(book/_ext의 한국어 검색 확장).
- 첫 쪽과 한 장의 화면을 ``_build/screenshots/home.png``, ``chapter.png`` 로 저장하고,
  요약을 ``_build/screenshots/browser-report.txt`` 에 쓴다.

외부 호스트에 대한 요청은 브라우저에서 막고(``--host-resolver-rules="MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"``,
인터넷이 있는 곳에서도 같은 결과), **막힌 요청이 하나라도 있으면 실패**한다: 인터넷 없는 강의실에서도 사이트가 온전해야 하기
때문이다. 쪽에 아이콘 링크가 없을 때 브라우저가 스스로 찾는 ``/favicon.ico`` 의 404만 보고서에 적고 넘어간다.

오프라인에서 책다운지도 본다: 어텐션 장의 수식이 MathJax로 조판되었는지(``mjx-container``), 모든 장이 첫 코드 셀보다
제목을 먼저 보이는지, 어느 쪽에도 빌드한 컴퓨터의 경로가 없는지(``scripts/check_site.py`` 와 같은 검사).
"""
from __future__ import annotations

import base64
import contextlib
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote, urlparse

import pytest

ROOT = Path(__file__).resolve().parents[2]
SITE = Path(os.environ.get("BERTLAB_SITE", ROOT / "_build" / "html"))
SHOTS = Path(os.environ.get("BERTLAB_SCREENSHOTS", ROOT / "_build" / "screenshots"))
LOCAL_HOSTS = {"127.0.0.1", "localhost"}
HANGUL = re.compile(r"[\uac00-\ud7a3]")
sys.path.insert(0, str(ROOT / "scripts"))
import check_site  # noqa: E402  (scripts/ 는 패키지가 아니다)

REPORT: dict = {"pages": {}, "external_ignored": set(), "font": {}, "search": {}, "screenshots": [], "math": {}}


PAGES = [p.relative_to(SITE).as_posix() for p in check_site.pages(SITE)] if SITE.is_dir() else []


def _is_implicit_favicon(url: str) -> bool:
    """쪽에 아이콘 링크가 없으면 브라우저가 스스로 /favicon.ico 를 찾는다. 사이트에 없으면 404는 당연하므로 무시한다."""
    u = urlparse(url)
    return (u.hostname or "") in LOCAL_HOSTS and u.path == "/favicon.ico" and not (SITE / "favicon.ico").exists()


# --- Chrome DevTools Protocol: 인쇄판·슬라이드와 같은 도우미(bertlab.course.chromium)를 쓴다 ------------------

from bertlab.course import chromium as cr  # noqa: E402


class CDP(cr.CDP):
    """한 탭의 CDP 연결. 쪽을 열 때 index.html의 즉시 넘겨주기까지 끝나기를 기다린다."""

    def load(self, url: str, timeout: float = 60) -> None:
        super().load(url, timeout=timeout)
        for _ in range(20):
            try:
                if self.evaluate("document.readyState", timeout=10) == "complete":
                    break
            except RuntimeError:  # 넘어가는 중이라 문맥이 사라짐
                pass
            time.sleep(0.25)


def _problems(events: list[dict]) -> tuple[list[str], set[str]]:
    """이벤트에서 (오류 목록, 무시한 외부 요청 주소)를 뽑는다."""
    errors, external = [], set()
    urls: dict[str, str] = {}

    def add(url: str, text: str):
        if url and _is_implicit_favicon(url):
            external.add(f"{url} (쪽이 요청하지 않았는데 브라우저가 스스로 찾는 아이콘)")
        else:
            errors.append(text)

    for ev in events:
        method, p = ev["method"], ev.get("params", {})
        if method == "Network.requestWillBeSent":
            urls[p["requestId"]] = p["request"]["url"]
        elif method == "Network.loadingFailed" and not p.get("canceled"):
            url = urls.get(p["requestId"], "")
            add(url, f"요청 실패 {url}: {p.get('errorText')}")
        elif method == "Network.responseReceived" and p["response"]["status"] >= 400:
            url = p["response"]["url"]
            add(url, f"HTTP {p['response']['status']} {url}")
        elif method == "Runtime.exceptionThrown":
            d = p["exceptionDetails"]
            add(d.get("url", ""), f"예외: {(d.get('exception') or {}).get('description') or d.get('text')} ({d.get('url', '')}:{d.get('lineNumber')})")
        elif method == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            frames = (p.get("stackTrace") or {}).get("callFrames") or [{}]
            text = " ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", []))
            add(frames[0].get("url", ""), f"console.{p['type']}: {text}")
        elif method == "Log.entryAdded" and p["entry"].get("level") == "error":
            e = p["entry"]
            add(e.get("url", ""), f"로그 오류({e.get('source')}): {e.get('text')} {e.get('url', '')}")
    # 한 요청이 Network와 Log 양쪽에서 보고되어도 한 번만 적는다
    return list(dict.fromkeys(errors)), external


# --- 준비물: 사이트 서버와 브라우저 --------------------------------------------------------

@contextlib.contextmanager
def local_server(directory: Path):
    """``directory`` 를 127.0.0.1의 빈 포트에서 내보내는 http.server. 주소(끝에 /)를 내준다."""
    proc = subprocess.Popen(
        [sys.executable, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", str(directory)],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )
    try:
        line = proc.stdout.readline()  # "Serving HTTP on 127.0.0.1 port 40123 (http://127.0.0.1:40123/) ..."
        m = re.search(r"port (\d+)", line)
        assert m, f"http.server가 포트를 알려 주지 않았습니다: {line!r}"
        yield f"http://127.0.0.1:{m.group(1)}/"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


@contextlib.contextmanager
def chromium_session(domains=("Page", "Runtime", "Log", "Network", "DOM")):
    """헤드리스 Chromium을 새 프로필로 띄우고 첫 탭의 DevTools 연결(`CDP`)을 내준다. 끝나면 그 Chromium만 끈다.
    file:// 쪽이 다른 파일을 fetch로 읽는 것은 독자의 브라우저처럼 막힌 채로 둔다."""
    pytest.importorskip("websocket", reason="websocket-client가 없습니다: pip install -r requirements-browser.txt")
    if cr.chromium_path() is None:
        pytest.skip("Chromium이 없습니다. 데비안/우분투에서는 'apt-get install chromium fonts-nanum' 으로 설치하세요 (scripts/browser-test.sh 가 시도합니다).")
    with cr.session(domains, width=1280, height=900) as cdp:
        cdp.__class__ = CDP
        yield cdp


@pytest.fixture(scope="module")
def base_url():
    if not (SITE / "index.html").exists():
        pytest.skip(f"{SITE}/index.html 이 없습니다. 먼저 'bash scripts/build-book.sh' 로 책을 빌드하세요.")
    with local_server(SITE) as url:
        yield url


@pytest.fixture(scope="module")
def page(base_url):
    with chromium_session(("Page", "Runtime", "Log", "Network", "DOM", "CSS")) as cdp:
        cdp.send("Emulation.setDeviceMetricsOverride", width=1280, height=900, deviceScaleFactor=1, mobile=False)
        cdp.version = cdp.send("Browser.getVersion").get("product", "?")
        yield cdp


@pytest.fixture(scope="module", autouse=True)
def report():
    """모듈이 끝나면 요약을 _build/screenshots/browser-report.txt 에 쓴다."""
    yield REPORT
    if not REPORT["pages"]:
        return
    SHOTS.mkdir(parents=True, exist_ok=True)
    lines = [f"브라우저 시험 요약 ({REPORT.get('browser', '?')})", f"사이트: {SITE}"]
    ok = sum(1 for r in REPORT["pages"].values() if not r["errors"] and not r["broken_images"])
    lines.append(f"쪽: {len(REPORT['pages'])}개 중 {ok}개 깨끗함 (그림 {sum(r['images'] for r in REPORT['pages'].values())}개 확인)")
    for name, r in REPORT["pages"].items():
        if r["errors"] or r["broken_images"]:
            lines.append(f"  ✗ {name}: 오류 {r['errors'][:5]} 깨진 그림 {r['broken_images'][:5]}")
    ext = sorted(REPORT["external_ignored"])
    lines.append(f"무시한 요청(브라우저가 스스로 찾는 favicon만): {len(ext)}개 " + (", ".join(ext) if ext else ""))
    if REPORT["math"]:
        lines.append(f"수식: {REPORT['math']}")
    if REPORT["font"]:
        f = REPORT["font"]
        lines.append(f"한국어 글꼴: '{f.get('text')}' ({f.get('page')}) → {f.get('platform')} / CSS font-family: {f.get('css')}")
    if REPORT["search"]:
        s = REPORT["search"]
        lines.append(f"검색 '{s.get('query')}': 결과 {s.get('count')}개, 예: {s.get('titles', [])[:5]}")
    for shot in REPORT["screenshots"]:
        lines.append(f"화면: {shot}")
    text = "\n".join(lines) + "\n"
    (SHOTS / "browser-report.txt").write_text(text, encoding="utf-8")


# --- 시험 -----------------------------------------------------------------------------

IMAGES_JS = """(async () => {
  const imgs = Array.from(document.images);
  for (const img of imgs) img.loading = 'eager';
  await Promise.all(imgs.map(img => img.complete ? null : new Promise(done => {
    img.addEventListener('load', done, {once: true});
    img.addEventListener('error', done, {once: true});
    setTimeout(done, 10000);
  })));
  return imgs.map(img => ({src: img.currentSrc || img.src, w: img.naturalWidth}));
})()"""


def test_site_has_pages():
    assert PAGES, f"{SITE}에 HTML 쪽이 없습니다. 먼저 'bash scripts/build-book.sh' 로 책을 빌드하세요."


@pytest.mark.parametrize("name", PAGES)
def test_page_loads_cleanly(page, base_url, name):
    REPORT["browser"] = page.version
    page.load(base_url + quote(name))
    images = page.evaluate(IMAGES_JS)
    page.pump(quiet=0.3, limit=3)
    errors, external = _problems(page.events)
    broken = [i["src"] for i in images if i["w"] <= 0]
    REPORT["external_ignored"] |= external
    REPORT["pages"][name] = {"errors": errors, "broken_images": broken, "images": len(images)}
    assert not errors, f"{name}: 콘솔 오류나 실패한 요청이 있습니다: {errors}"
    assert not broken, f"{name}: 그려지지 않은 그림이 있습니다(naturalWidth 0): {broken}"


def _korean_families() -> set[str]:
    try:
        out = subprocess.run(["fc-list", ":lang=ko", "family"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return set()
    return {name.strip() for line in out.splitlines() for name in line.split(",") if name.strip()}


def _chapter_page() -> str | None:
    chapters = [p for p in PAGES if p.startswith("notebooks/")]
    preferred = [p for p in chapters if p.startswith("notebooks/01_")]
    return (preferred or chapters or [None])[0]


def _root_page() -> str:
    import yaml

    root = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))["root"]
    return re.sub(r"\.(md|ipynb)$", "", root) + ".html"


def test_korean_heading_uses_installed_korean_font(page, base_url):
    families = _korean_families()
    assert families, "이 컴퓨터에 한국어 글꼴이 없습니다(fc-list :lang=ko 가 비었음): apt-get install fonts-nanum"
    name = _chapter_page() or _root_page()
    page.load(base_url + name)
    info = page.evaluate("""(async () => {
      await document.fonts.ready;
      const hangul = /[\\uac00-\\ud7a3]/;
      const visible = e => e.getClientRects().length > 0 && e.getBoundingClientRect().width > 0;
      const el = Array.from(document.querySelectorAll('main h1, article h1, h1, main h2, h2'))
        .find(e => visible(e) && Array.from(e.childNodes).some(n => n.nodeType === 3 && hangul.test(n.textContent)));
      if (!el) return null;
      el.setAttribute('data-bertlab-ko', '1');
      const node = Array.from(el.childNodes).find(n => n.nodeType === 3 && hangul.test(n.textContent));
      const range = document.createRange();
      range.selectNodeContents(node);
      return {text: node.textContent.trim(), width: range.getBoundingClientRect().width,
              css: getComputedStyle(el).fontFamily, fontsStatus: document.fonts.status};
    })()""")
    assert info, f"{name}: 한글이 든 제목을 찾지 못했습니다"
    root = page.send("DOM.getDocument", depth=0)["root"]["nodeId"]
    node = page.send("DOM.querySelector", nodeId=root, selector="[data-bertlab-ko]")["nodeId"]
    fonts = page.send("CSS.getPlatformFontsForNode", nodeId=node)["fonts"]
    used = {f["familyName"]: f["glyphCount"] for f in fonts}
    korean = {fam: n for fam, n in used.items() if fam in families}
    hangul_count = len(HANGUL.findall(info["text"]))
    REPORT["font"] = {"page": name, "text": info["text"], "platform": used, "css": info["css"]}
    assert info["width"] > 0, f"제목 '{info['text']}'의 폭이 0입니다"
    assert korean, f"제목 '{info['text']}'을(를) 한국어 글꼴로 그리지 않았습니다: {used} (설치된 한국어 글꼴: {sorted(families)})"
    assert sum(korean.values()) >= hangul_count, f"한글 {hangul_count}자 가운데 일부만 한국어 글꼴로 그렸습니다: {used}"


def test_search_finds_korean_word(page, base_url):
    query = "문장"
    page.load(base_url + "search.html?q=" + quote(query))
    result = None
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:  # Sphinx의 검색은 searchindex.js를 읽은 뒤 결과를 조금씩 붙인다
        result = page.evaluate("""(() => {
          const items = Array.from(document.querySelectorAll('#search-results li'));
          const summary = document.querySelector('#search-results .search-summary, #search-results p');
          return {count: items.length, titles: items.map(li => (li.querySelector('a') || li).textContent.trim()),
                  summary: summary ? summary.textContent.trim() : ''};
        })()""")
        if result["count"] and result["summary"]:
            break
        time.sleep(0.5)
    REPORT["search"] = {"query": query, **(result or {})}
    assert result and result["count"] > 0, f"search.html?q={query} 가 아무것도 찾지 못했습니다: {result}"
    errors, external = _problems(page.events)
    REPORT["external_ignored"] |= external
    assert not errors, errors


def _screenshot(page, base_url, name: str, target: Path) -> None:
    page.load(base_url + name)
    page.evaluate("document.fonts.ready.then(() => true)")
    data = page.send("Page.captureScreenshot", format="png")["data"]
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(base64.b64decode(data))
    REPORT["screenshots"].append(f"{target} ({name})")


def test_screenshots(page, base_url):
    home, chapter = SHOTS / "home.png", SHOTS / "chapter.png"
    _screenshot(page, base_url, _root_page(), home)
    name = _chapter_page()
    assert name, "장 쪽(notebooks/*.html)이 없습니다"
    _screenshot(page, base_url, name, chapter)
    for shot in (home, chapter):
        head = shot.read_bytes()[:24]
        assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{shot}: PNG가 아닙니다"
        width, height = int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
        assert (width, height) == (1280, 900), f"{shot}: 크기 {width}×{height}"
        assert shot.stat().st_size > 20_000, f"{shot}: 화면이 거의 비어 있습니다"


# --- 오프라인에서 책다운지 -------------------------------------------------------------------

CHAPTERS = [p for p in PAGES if re.match(r"notebooks/\d\d_", p)]
ATTENTION = next((p for p in CHAPTERS if "attention" in p), None)


def test_attention_chapter_typesets_formulas_offline(page, base_url):
    """MathJax를 사이트에서 내보내므로, 외부 호스트가 막혀 있어도 어텐션 장의 수식이 조판된다."""
    assert ATTENTION, "어텐션 장(notebooks/03_attention.html)이 없습니다"
    page.load(base_url + ATTENTION)
    info = page.evaluate("""(async () => {
      for (let i = 0; i < 100 && !(window.MathJax && MathJax.startup && MathJax.startup.promise); i++)
        await new Promise(r => setTimeout(r, 100));
      if (!(window.MathJax && MathJax.startup)) return {loaded: false};
      await MathJax.startup.promise;
      const raw = Array.from(document.querySelectorAll('main .math, article .math'))
        .filter(e => !e.querySelector('mjx-container') && e.textContent.includes('\\\\'));  // 조판되지 않은 TeX(역빗금이 남음)
      return {loaded: true, version: MathJax.version, containers: document.querySelectorAll('mjx-container').length,
              raw: raw.length, src: Array.from(document.scripts).map(s => s.src).filter(s => /mathjax/i.test(s))};
    })()""")
    errors, _ = _problems(page.events)
    REPORT["math"] = {"page": ATTENTION, **info}
    assert info["loaded"], f"MathJax가 불러와지지 않았습니다: {errors}"
    assert all(urlparse(s).hostname in LOCAL_HOSTS for s in info["src"]), f"MathJax를 다른 호스트에서 불러옵니다: {info['src']}"
    assert info["containers"] >= 10, f"조판된 수식(mjx-container)이 {info['containers']}개뿐입니다"
    assert info["raw"] == 0, f"조판되지 않은 TeX가 {info['raw']}곳 남았습니다"
    assert not errors, errors
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("(() => { const e = Array.from(document.querySelectorAll('mjx-container[display=true]'))[0]; if (e) e.scrollIntoView({block: 'center'}); })()")
    shot = SHOTS / "attention-math.png"
    shot.write_bytes(base64.b64decode(page.send("Page.captureScreenshot", format="png")["data"]))
    REPORT["screenshots"].append(str(shot))


@pytest.mark.parametrize("name", CHAPTERS)
def test_chapter_opens_with_its_title(page, base_url, name):
    """장의 제목(h1)이 첫 코드 셀보다 먼저 나온다. 준비 셀은 그 뒤에 접혀 있다."""
    page.load(base_url + quote(name))
    order = page.evaluate("""(() => {
      const root = document.querySelector('main article, main, article') || document.body;
      const h1 = root.querySelector('h1');
      const cell = root.querySelector('div.cell');
      if (!h1) return {h1: false};
      return {h1: true, title: h1.textContent.trim(), cell: !!cell,
              titleFirst: !cell || !!(h1.compareDocumentPosition(cell) & Node.DOCUMENT_POSITION_FOLLOWING),
              firstCellHidden: !!cell && (cell.classList.contains('tag_hide-input') || cell.classList.contains('tag_hide-cell'))};
    })()""")
    assert order["h1"], f"{name}: 제목(h1)이 없습니다"
    assert order["titleFirst"], f"{name}: 첫 코드 셀이 제목 '{order['title']}'보다 먼저 나옵니다"
    assert order["firstCellHidden"], f"{name}: 첫 코드 셀(준비 셀)이 접혀 있지 않습니다"


def test_no_machine_path_on_any_page():
    """어느 쪽에도 빌드한 컴퓨터의 절대 경로가 없다(scripts/check_site.py의 검사)."""
    assert PAGES, "빌드한 쪽이 없습니다"
    found = check_site.machine_paths(SITE)
    assert not found, f"기계 경로가 든 쪽: {found}"
    assert not check_site.external_requests(SITE), check_site.external_requests(SITE)
