"""강의 슬라이드(reveal.js 덱 9개)를 헤드리스 Chromium으로 `file://`에서 열어 보는 시험(bash scripts/browser-test.sh).

덱은 `bash scripts/build-slides.sh _build/slides`로 만든다(이 시험은 `_build/slides`에 덱이 없으면 그 명령을 부른다).
덱마다:
- 다른 호스트로 가는 요청이 0개이고(브라우저가 외부 이름 풀이를 막지만, 요청 시도 자체를 센다), 실패한 파일 요청·예외가 없다.
- 수식이 MathJax로 조판되었다(`mjx-container`가 있고 `mjx-merror`는 없음). 수식이 없는 덱은 조판할 것도 없어야 한다.
- 어느 슬라이드도 1280×720 틀을 넘지 않는다(슬라이드마다 scrollHeight ≤ 720, scrollWidth ≤ 1280).
- 보이는 글에 MyST 표시(`{glue:…}`, `{ref}`, `:::`, 백틱 세 개)나 조판되지 않은 TeX(`\\(`, `$$`)가 없다.
- `?print-pdf`로 열면 reveal.js의 인쇄 보기(.pdf-page)가 슬라이드 수만큼 생긴다.
세 슬라이드의 화면을 `_build/screenshots/slides-*.png`로 남긴다.
"""
from __future__ import annotations

import os
import re
import subprocess
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DECKS_DIR = Path(os.environ.get("BERTLAB_SLIDES", ROOT / "_build" / "slides"))
SHOTS = Path(os.environ.get("BERTLAB_SCREENSHOTS", ROOT / "_build" / "screenshots"))
OUTLINES = sorted((ROOT / "book" / "slides").glob("*.yml"))
SCREENSHOTS = {"03_attention": [4, 9], "00_transformer": [5]}
MYST = re.compile(r"\{(glue|ref|term|doc|eq|cite|numref)[:}]|^:::|```|\\\(|\\\[|\$\$", re.M)


@pytest.fixture(scope="module")
def decks():
    if not (ROOT / "_build" / "html" / "index.html").exists():
        pytest.skip("빌드한 웹사이트가 없습니다(bash scripts/build-book.sh)")
    want = [p.stem for p in OUTLINES]
    if not all((DECKS_DIR / f"{n}.html").exists() for n in want):
        subprocess.run(["bash", str(ROOT / "scripts" / "build-slides.sh"), str(DECKS_DIR)], check=True, cwd=ROOT)
    return {n: DECKS_DIR / f"{n}.html" for n in want}


@pytest.fixture(scope="module")
def browser():
    from bertlab.course import chromium as cr

    try:
        with cr.session(("Page", "Runtime", "Network", "Log"), width=1280, height=720) as cdp:
            yield cdp
    except cr.BrowserError as err:
        pytest.skip(str(err))


def _open(cdp, path: Path, query: str = ""):
    cdp.load(path.resolve().as_uri() + query)
    deadline = time.monotonic() + 60
    while cdp.evaluate("document.body.dataset.deckReady === '1'") is not True:
        assert time.monotonic() < deadline, f"{path.name}: 60초 안에 준비되지 않았습니다(MathJax나 reveal.js가 멈춤)"
        time.sleep(0.2)
    cdp.pump(quiet=0.3, limit=3)


SLIDES_JS = """(() => {
  const out = [];
  const ss = Array.from(document.querySelectorAll('.reveal .slides > section'));
  ss.forEach((s, i) => {
    Reveal.slide(i);
    out.push({i, h: s.scrollHeight, w: s.scrollWidth, title: (s.querySelector('h1, h2') || {}).textContent || ''});
  });
  Reveal.slide(0);
  return {slides: out, math: document.querySelectorAll('mjx-container').length,
          merror: document.querySelectorAll('mjx-merror').length,
          text: document.querySelector('.reveal .slides').innerText,
          tex: /\\\\\\(|\\\\\\[|\\$\\$/.test(document.querySelector('.reveal .slides').innerHTML.replace(/<mjx-container[\\s\\S]*?<\\/mjx-container>/g, ''))};
})()"""


@pytest.mark.parametrize("name", [p.stem for p in OUTLINES])
def test_deck(browser, decks, name):
    from bertlab.course import chromium as cr

    path = decks[name]
    _open(browser, path)
    info = browser.evaluate(SLIDES_JS)
    external = cr.requests_to_other_hosts(browser.events)
    failed = [e["params"].get("errorText") for e in browser.events if e["method"] == "Network.loadingFailed"]
    errors = [e["params"]["exceptionDetails"].get("text") for e in browser.events if e["method"] == "Runtime.exceptionThrown"]
    assert external == [], f"{name}: 다른 호스트로 가는 요청 {external}"
    assert failed == [] and errors == [], f"{name}: 실패한 요청 {failed}, 예외 {errors}"
    n = len(info["slides"])
    assert 15 <= n <= 30, f"{name}: 슬라이드 {n}장"
    html = path.read_text(encoding="utf-8")
    has_math = 'class="math' in html
    if has_math:
        assert info["math"] > 0, f"{name}: 수식이 조판되지 않았습니다"
    assert info["merror"] == 0, f"{name}: MathJax 오류 {info['merror']}개"
    assert not info["tex"], f"{name}: 조판되지 않은 TeX가 남았습니다"
    assert not MYST.search(info["text"]), f"{name}: MyST 표시가 보입니다: {MYST.findall(info['text'])[:5]}"
    over = [s for s in info["slides"] if s["h"] > 720 or s["w"] > 1280]
    assert not over, f"{name}: 1280×720을 넘는 슬라이드 {over}"
    for i in SCREENSHOTS.get(name, []):
        browser.evaluate(f"Reveal.slide({i})")
        time.sleep(0.4)
        browser.screenshot(SHOTS / f"slides-{name}-{i + 1:02d}.png")


def test_print_view(browser, decks):
    path = decks["03_attention"]
    _open(browser, path, "?print-pdf")
    pages = browser.evaluate("document.querySelectorAll('.pdf-page').length")
    slides = path.read_text(encoding="utf-8").count('<section class="')
    assert pages >= slides, f"?print-pdf: 인쇄 쪽 {pages}개, 슬라이드 {slides}장"
