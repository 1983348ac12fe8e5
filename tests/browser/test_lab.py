"""실습실(book/lab.html)을 헤드리스 Chromium으로 연다: ``file://`` 과 로컬 http 서버 양쪽에서.

- ``?text=`` 로 받은 '배' 문장(가운데 [MASK] 하나)의 ``input_ids`` 와 가린 단어 맞히기 상위 5개가 파이썬
  (transformers ``BertForPreTraining``, eager 어텐션)과 같다.
- 다른 호스트로 가는 요청이 하나라도 있으면 실패한다(외부 이름 풀이는 test_site.py의 브라우저 설정대로 막혀 있지만,
  요청을 보내려 한 것 자체를 센다). 콘솔 오류, 잡히지 않은 예외, 실패한 로컬 요청도 실패.
- 글로 넣은 HTML(``<img src=x onerror=alert(1)>``, ``</script><script>alert(1)</script>``)은 토큰으로만 보이고,
  대화 상자가 열리지 않으며 새 요소(img, script)가 생기지 않는다.
- 키보드 조작(토큰 가리기), 층·헤드·어절 보기, 그림 내보내기(SVG, PNG), 빈 문장과 너무 긴 문장의 한국어 안내, 어두운 테마.
- 어절 채우기: [MASK] 하나가 어절 하나를 가린 문장에서 후보 5개가 bl.fill_word와 같고, 거절하는 문장의 안내가 파이썬과 같다.
- 화면: ``_build/screenshots/lab-desktop.png`` (1280 px, 첫 화면), ``lab-phone.png`` (390 px), ``lab-attention.png``,
  ``lab-fill.png``, ``lab-similarity.png`` (첫 화면에 없는 그림들), ``lab-dark.png``, ``lab-full.png`` (쪽 전체).

``bash scripts/browser-test.sh`` 가 ``BERTLAB_BROWSER=1`` 을 켜고 돌린다.
"""
from __future__ import annotations

import base64
import json
import os
import time
from pathlib import Path
from urllib.parse import quote, urlparse

import numpy as np
import pytest

from test_site import LOCAL_HOSTS, SHOTS, SITE, _problems, chromium_session, local_server  # 같은 폴더의 브라우저 도우미를 그대로 쓴다

ROOT = Path(__file__).resolve().parents[2]
MODEL_DIR = ROOT / "bertlab" / "assets" / "mini-bert"
PAGE = "book/lab.html"
BAE_MASK = "배 타고 배 먹으니 [MASK] 부르다."
XSS = ["<img src=x onerror=alert(1)>", "</script><script>alert(1)</script>"]
LONG = " ".join(["배 타고 배 먹으니 배 부르다."] * 15)


# --- 준비물 -----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def site():
    if not (SITE / PAGE).exists():
        pytest.skip(f"{SITE / PAGE} 가 없습니다. 먼저 'bash scripts/build-book.sh' 로 책을 빌드하세요.")
    if not (SITE / "_static" / "lab" / "model-weights.js").exists():
        pytest.fail("_static/lab/model-weights.js 가 없습니다: book/_ext/lab_assets.py 가 빌드에서 돌지 않았습니다.")
    return SITE


@pytest.fixture(scope="module")
def http_base(site):
    with local_server(site) as url:
        yield url


@pytest.fixture(scope="module")
def browser(site):
    with chromium_session() as cdp:
        desktop(cdp)
        yield cdp


@pytest.fixture(scope="module")
def python_ref():
    """파이썬(transformers)의 답: 토큰 id와 [MASK] 자리마다 상위 5개 토큰."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import torch
    import transformers

    tok = transformers.AutoTokenizer.from_pretrained(MODEL_DIR)
    model = transformers.BertForPreTraining.from_pretrained(MODEL_DIR, attn_implementation="eager").eval()

    cont = torch.tensor([t.startswith("##") and len(t) > 2 for t in tok.convert_ids_to_tokens(list(range(len(tok))))])

    def ref(text: str) -> dict:
        enc = tok(text, return_tensors="pt")
        ids = enc["input_ids"][0].tolist()
        out = {"input_ids": ids, "tokens": tok.convert_ids_to_tokens(ids), "fill": [], "score": [], "cont": []}
        if len(ids) > model.config.max_position_embeddings:
            return out
        with torch.no_grad():
            o = model(**enc, output_attentions=True, output_hidden_states=True)
        for p in [i for i, t in enumerate(ids) if t == tok.mask_token_id]:
            logits = o.prediction_logits[0, p]
            top = logits.topk(5)
            out["fill"].append(tok.convert_ids_to_tokens(top.indices.tolist()))
            best = logits.topk(50)   # 자바스크립트의 후보가 파이썬에서 몇 점인지 보려고
            out["score"].append(dict(zip(tok.convert_ids_to_tokens(best.indices.tolist()), best.values.tolist())))
            out["cont"].append(float(logits.softmax(-1)[cont].sum()))   # ## 조각에 간 확률의 합
        return out

    ref.max_length = model.config.max_position_embeddings
    return ref


# --- 도우미 -----------------------------------------------------------------------------------

def desktop(cdp):
    cdp.send("Emulation.setDeviceMetricsOverride", width=1280, height=900, deviceScaleFactor=1, mobile=False)


def phone(cdp):
    cdp.send("Emulation.setDeviceMetricsOverride", width=390, height=844, deviceScaleFactor=2, mobile=True)


def file_url(query: str = "") -> str:
    return (SITE / PAGE).resolve().as_uri() + query


def lab_url(base: str | None, text: str | None = None) -> str:
    query = "" if text is None else "?text=" + quote(text, safe="")
    return (base + PAGE + query) if base else file_url(query)


def open_lab(cdp, url: str, timeout: float = 60) -> dict:
    """쪽을 열고 실습실이 첫 결과를 쓸 때까지 기다린다. lab-result의 JSON을 돌려준다."""
    cdp.load(url)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        _fail_on_dialog(cdp)
        text = cdp.evaluate("(() => { const n = document.getElementById('lab-result'); return n ? n.textContent : null; })()")
        if text:
            return json.loads(text)
        time.sleep(0.2)
    raise TimeoutError(f"{url}: 실습실이 {timeout}초 안에 결과를 쓰지 않았습니다")


def result(cdp) -> dict:
    return json.loads(cdp.evaluate("document.getElementById('lab-result').textContent"))


def _fail_on_dialog(cdp):
    for ev in cdp.events:
        if ev["method"] == "Page.javascriptDialogOpening":
            try:
                cdp.send("Page.handleJavaScriptDialog", accept=True)
            finally:
                pytest.fail(f"대화 상자가 열렸습니다(입력이 코드로 실행됨): {ev['params'].get('message')!r}")


def problems(events: list[dict], mode: str) -> tuple[list[str], list[str]]:
    """(다른 호스트로 간 요청, 그 밖의 오류). file:// 에서는 http(s) 요청이 모두 외부 요청이다.

    오류는 사이트 시험과 같은 규칙(`test_site._problems`)으로 모으고, 대화 상자가 열린 것도 오류로 센다."""
    external = []
    for ev in events:
        if ev["method"] == "Network.requestWillBeSent":
            url = ev["params"]["request"]["url"]
            u = urlparse(url)
            if u.scheme in ("http", "https", "ws", "wss", "ftp") and (mode == "file" or (u.hostname or "") not in LOCAL_HOSTS):
                external.append(url)
    errors = _problems(events)[0]
    errors += [f"대화 상자: {ev['params'].get('message')}" for ev in events if ev["method"] == "Page.javascriptDialogOpening"]
    return external, errors


def screenshot(cdp, target: Path, clip: dict | None = None) -> Path:
    """화면(또는 clip: 문서 좌표의 사각형)을 PNG로. clip이 화면 밖이면 보기 창을 문서 높이만큼 늘려 찍고 되돌린다."""
    params = {"format": "png"}
    metrics = None
    if clip:
        metrics = cdp.evaluate("({w: window.innerWidth, h: window.innerHeight, doc: document.documentElement.scrollHeight,"
                               " mobile: matchMedia('(pointer: coarse)').matches, dpr: window.devicePixelRatio})")
        cdp.send("Emulation.setDeviceMetricsOverride", width=metrics["w"], height=int(metrics["doc"]) + 10,
                 deviceScaleFactor=metrics["dpr"], mobile=metrics["mobile"])
        cdp.evaluate("window.scrollTo(0, 0)")
        time.sleep(0.3)
        params["clip"] = {**clip, "scale": 1}
    try:
        data = cdp.send("Page.captureScreenshot", timeout=60, **params)["data"]
    finally:
        if metrics:
            cdp.send("Emulation.setDeviceMetricsOverride", width=metrics["w"], height=metrics["h"],
                     deviceScaleFactor=metrics["dpr"], mobile=metrics["mobile"])
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(base64.b64decode(data))
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    return target


def full_clip(cdp) -> dict:
    return cdp.evaluate("({x: 0, y: 0, width: document.documentElement.clientWidth, height: document.documentElement.scrollHeight})")


def section_clip(cdp, heading_id: str, panel_id: str) -> dict:
    """제목(앵커 id)부터 그림 묶음 끝까지의 문서 좌표."""
    return cdp.evaluate(f"""(() => {{
      const top = document.getElementById({json.dumps(heading_id)}) || document.getElementById({json.dumps(panel_id)});
      const panel = document.getElementById({json.dumps(panel_id)});
      const a = top.getBoundingClientRect(), b = panel.getBoundingClientRect();
      const x = Math.max(0, Math.min(a.left, b.left) - 12);
      return {{x, y: a.top + window.scrollY - 8, width: Math.max(a.right, b.right) - x + 12,
               height: b.bottom - a.top + 16}};
    }})()""")


LOGIT_TOL = 0.06   # 가중치 형식이 내는 MLM 점수 오차의 상한 (tests/test_lab.py 의 LOGIT_TOL과 같음)


def assert_same_fill(got: list[list[str]], ref: dict):
    """상위 5개가 파이썬과 같아야 한다. 다만 파이썬에서 점수 차가 LOGIT_TOL보다 작은 '동점' 후보끼리는 순서가 바뀌어도
    된다: 자바스크립트의 k위 토큰의 파이썬 점수가 파이썬 k위 점수와 LOGIT_TOL 안에 있어야 한다."""
    assert len(got) == len(ref["fill"])
    for g, want, score in zip(got, ref["fill"], ref["score"]):
        wanted = [score[t] for t in want]
        assert len(set(g) & set(want)) >= 4, (g, want)
        for k in range(5):
            assert g[k] == want[k] or abs(score[g[k]] - wanted[k]) < LOGIT_TOL, (k, g, want, wanted)


# --- 시험 ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("mode", ["file", "http"])
def test_lab_matches_python(browser, http_base, python_ref, mode):
    base = http_base if mode == "http" else None
    got = open_lab(browser, lab_url(base, BAE_MASK))
    browser.pump(quiet=0.5, limit=3)
    external, errors = problems(browser.events, mode)
    want = python_ref(BAE_MASK)
    assert got["error"] is None, got
    assert got["input_ids"] == want["input_ids"]
    assert got["tokens"] == want["tokens"]
    assert_same_fill(got["fill"], want)
    np.testing.assert_allclose(got["fill_cont"], want["cont"], atol=0.01)
    shown = browser.evaluate("document.querySelector('#lab-fill-figure svg').getAttribute('aria-label')")
    assert "## 조각(앞말에 붙는 조각)에 간 확률" in shown, shown
    assert got["ms"] > 0
    assert not external, f"다른 호스트로 간 요청: {external}"
    assert not errors, errors
    dup = browser.evaluate("""(() => { const seen = {}, dup = [];
      document.querySelectorAll('[id]').forEach(e => { if (seen[e.id]) dup.push(e.id); seen[e.id] = 1; }); return dup; })()""")
    assert not dup, f"같은 id가 두 번 있습니다(장 앵커와 실습실 요소가 겹침?): {dup}"
    heads = browser.evaluate("Array.from(document.querySelectorAll('main h2, article h2')).map(h => h.textContent.replace('#', '').trim())")
    assert {"토큰", "어텐션", "가린 단어 맞히기"} <= set(heads), heads
    # 쪽에 보이는 토큰도 같은 순서로
    shown = browser.evaluate("Array.from(document.querySelectorAll('#lab-token-view .lab-token-text')).map(e => e.textContent)")
    assert shown == want["tokens"]


@pytest.mark.parametrize("payload", XSS)
@pytest.mark.parametrize("mode", ["file", "http"])
def test_text_from_url_is_only_text(browser, http_base, python_ref, payload, mode):
    base = http_base if mode == "http" else None
    open_lab(browser, lab_url(base, "배"))
    baseline = browser.evaluate("({img: document.images.length, script: document.scripts.length, iframe: document.querySelectorAll('iframe').length})")
    got = open_lab(browser, lab_url(base, payload))
    browser.pump(quiet=0.5, limit=3)
    _fail_on_dialog(browser)
    after = browser.evaluate("({img: document.images.length, script: document.scripts.length, iframe: document.querySelectorAll('iframe').length})")
    assert after == baseline, f"글에서 새 요소가 생겼습니다: {baseline} → {after}"
    want = python_ref(payload)
    assert got["input_ids"] == want["input_ids"]
    assert browser.evaluate("document.getElementById('lab-text').value") == payload
    shown = browser.evaluate("Array.from(document.querySelectorAll('#lab-token-view .lab-token-text')).map(e => e.textContent)")
    assert shown == want["tokens"]          # '<', '>' 는 어휘에 없어 [UNK]: 단어 '<img' 등이 [UNK] 칸의 풀이에 글자로 보인다
    titles = browser.evaluate("Array.from(document.querySelectorAll('#lab-token-view .lab-token-unk')).map(e => e.getAttribute('title'))")
    assert any("<" in t for t in titles), titles
    assert browser.evaluate("document.querySelectorAll('#lab-token-view *:not(ol):not(li):not(span):not(button):not(p)').length") == 0
    external, errors = problems(browser.events, mode)
    assert not external and not errors, (external, errors)
    assert not any(ev["method"] == "Network.requestWillBeSent" and ev["params"]["request"]["url"].rstrip("/").endswith("/x")
                   for ev in browser.events), "img src=x 가 요청되었습니다"


def test_keyboard_mask_views_and_export(browser, http_base, python_ref):
    got = open_lab(browser, lab_url(http_base, "배 타고 배 먹으니 배 부르다."))
    assert got["fill"] == []
    # 키보드: 토큰 단추에 초점을 두고 Enter → 그 토큰을 [MASK]로 가리고 다시 계산
    idx = browser.evaluate("""(() => { const b = Array.from(document.querySelectorAll('#lab-token-view button.lab-token'))[4];
      b.focus(); return document.activeElement === b; })()""")
    assert idx
    for kind in ("keyDown", "keyUp"):
        browser.send("Input.dispatchKeyEvent", type=kind, key="Enter", code="Enter", windowsVirtualKeyCode=13,
                     **({"text": "\r"} if kind == "keyDown" else {}))
    time.sleep(0.3)
    r = result(browser)
    assert r["masked"] == [5], r["masked"]     # [CLS]는 단추가 아니므로 다섯 번째 단추는 토큰 5
    assert len(r["fill"]) == 1 and len(r["fill"][0]) == 5
    assert browser.evaluate("document.activeElement.getAttribute('aria-pressed')") == "true"
    # 층·헤드를 바꾸면 큰 그림의 제목이 바뀐다
    browser.evaluate("""(() => { const l = document.getElementById('lab-layer'); l.value = '2'; l.dispatchEvent(new Event('change'));
      const h = document.getElementById('lab-head'); h.value = '1'; h.dispatchEvent(new Event('change')); })()""")
    title = browser.evaluate("document.querySelector('#lab-attention-figure svg title').textContent")
    assert title.startswith("3층 · 헤드 1"), title  # 층은 1부터(용어집), 헤드는 0부터
    # 어절 보기: ## 조각이 합쳐져 칸 수가 줄고, 행의 합은 1
    before = browser.evaluate("document.querySelectorAll('#lab-attention-figure .lab-cells rect').length")
    browser.evaluate("(() => { const r = document.querySelector('input[name=lab-unit][value=words]'); r.checked = true; r.dispatchEvent(new Event('change')); })()")
    after = browser.evaluate("document.querySelectorAll('#lab-attention-figure .lab-cells rect').length")
    assert after < before
    browser.evaluate("(() => { const d = document.getElementById('lab-attention-details'); d.open = true; d.dispatchEvent(new Event('toggle')); })()")
    rows = browser.evaluate("""Array.from(document.querySelectorAll('#lab-attention-table tbody tr'))
      .map(tr => Array.from(tr.querySelectorAll('td')).reduce((s, td) => s + Number(td.textContent), 0))""")
    assert rows and all(abs(s - 1) < 0.01 * len(rows) for s in rows), rows
    labels = browser.evaluate("Array.from(document.querySelectorAll('#lab-attention-table thead th')).map(t => t.textContent)")
    assert "부르다" in labels, labels
    # 내보내기: 그림마다 SVG와 PNG
    for key in ("attention", "grid", "fill", "similarity"):
        info = browser.evaluate(f"""BertLab.lab.figureBlob({json.dumps(key)}, 'png').then(async b => {{
            const head = new Uint8Array(await b.slice(0, 8).arrayBuffer());
            const svg = await BertLab.lab.figureBlob({json.dumps(key)}, 'svg');
            const text = await svg.text();
            return {{png: b.size, magic: Array.from(head), svg: svg.size, svgOk: text.startsWith('<svg') && text.includes('</svg>')}}; }})""")
        assert info["png"] > 1000 and info["magic"][:4] == [0x89, 0x50, 0x4E, 0x47], (key, info)
        assert info["svgOk"] and info["svg"] > 500, (key, info)
    external, errors = problems(browser.events, "http")
    assert not external and not errors, (external, errors)


def test_similarity_of_repeated_word(browser, http_base):
    r = open_lab(browser, lab_url(http_base, "배 타고 배 먹으니 배 부르다."))
    pairs = r["similarity"]
    assert [(p["a"], p["b"]) for p in pairs] == [(1, 3), (1, 5), (3, 5)]
    layers = browser.evaluate("BertLab.lab.model.numLayers")
    assert all(len(p["cosine"]) == layers + 1 and all(-1 <= c <= 1 for c in p["cosine"]) for p in pairs)


WORD_TEXT = "비가 와서 [MASK] 쓰고 나갔다."


@pytest.fixture(scope="module")
def python_words():
    """파이썬의 어절 채우기(bl.fill_word)의 후보 전체와 거절 메시지."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import transformers

    from bertlab.models import fill_word

    tok = transformers.AutoTokenizer.from_pretrained(MODEL_DIR)
    mlm = transformers.BertForMaskedLM.from_pretrained(MODEL_DIR, attn_implementation="eager").eval()

    def ref(text: str):
        try:
            return fill_word(mlm, tok, text, k=50)
        except ValueError as err:
            return err

    return ref


def settled(cdp) -> dict:
    return cdp.evaluate("BertLab.lab.settled()", timeout=60)


def test_whole_word_filling(browser, http_base, python_words):
    """[MASK] 하나가 어절 하나를 가린 문장: 한 토큰 예측 옆에 어절 채우기 상위 5개가 나오고 bl.fill_word와 같다
    (점수는 LOGIT_TOL, 순서가 다르면 거의 동점일 때만). 조사가 붙거나 [MASK]가 둘이면 파이썬과 같은 한국어 안내."""
    first = open_lab(browser, lab_url(http_base, WORD_TEXT))
    assert first["fill_word_status"] in ("pending", "done")
    got = settled(browser)
    assert got["fill_word_status"] == "done", got
    want = python_words(WORD_TEXT)
    scores = dict(want)
    assert len(got["fill_word"]) == 5
    for k, (word, score, pieces) in enumerate(got["fill_word"]):
        assert word == want[k][0] or abs(score - want[k][1]) < LOGIT_TOL, (k, got["fill_word"], want[:5])
        if word in scores:
            assert abs(score - scores[word]) < LOGIT_TOL
    assert 0 < got["fill_word_ms"] < 30_000
    label = browser.evaluate("document.querySelector('#lab-fill-figure svg').getAttribute('aria-label')")
    assert "어절 채우기: " + got["fill_word"][0][0] in label, label
    assert browser.evaluate("document.querySelectorAll('#lab-fill-figure .lab-fill-words rect').length") >= 10
    for text in ("냉장고에 [MASK]가 없다.", "[MASK] [MASK] 먹었다."):
        open_lab(browser, lab_url(http_base, text))
        r = settled(browser)
        py = python_words(text)
        assert isinstance(py, ValueError) and r["fill_word_status"] == "error"
        assert r["fill_word_message"] == str(py).replace("fill_word는", "어절 채우기는")
        note = browser.evaluate("document.querySelector('#lab-fill-figure .lab-words-note').textContent")
        assert r["fill_word_message"] in note, note
    external, errors = problems(browser.events, "http")
    assert not external and not errors, (external, errors)


def test_empty_and_too_long_messages(browser, http_base, python_ref):
    for text in ("", "   "):
        r = open_lab(browser, lab_url(http_base, text))
        assert r["error"] == "empty"
        msg = browser.evaluate("document.getElementById('lab-status').textContent")
        assert msg.startswith("문장을 입력하세요"), msg
        assert browser.evaluate("document.getElementById('lab-attention-panel').hidden")
    r = open_lab(browser, lab_url(http_base, LONG))
    n = len(python_ref(LONG)["input_ids"])
    assert r["error"] == "too-long" and len(r["input_ids"]) == n
    msg = browser.evaluate("document.getElementById('lab-status').textContent")
    assert msg.startswith(f"문장이 너무 깁니다: 토큰 {n}개, 이 모델은 최대 {python_ref.max_length}개까지 받습니다."), msg
    assert browser.evaluate("document.getElementById('lab-status').getAttribute('role')") == "alert"
    external, errors = problems(browser.events, "http")
    assert not external and not errors, (external, errors)


def test_screenshots_desktop_phone_dark(browser, http_base):
    desktop(browser)
    shots = []
    url = lab_url(http_base, "배 타고 배 먹으니 [MASK] 부르다.")
    open_lab(browser, url)
    browser.evaluate("document.fonts.ready.then(() => true)")
    shots.append(screenshot(browser, SHOTS / "lab-desktop.png"))
    for name, section, panel in [("attention", "lab-attention", "lab-attention-panel"), ("fill", "lab-fill", "lab-fill-panel")]:
        shots.append(screenshot(browser, SHOTS / f"lab-{name}.png", clip=section_clip(browser, section, panel)))
    shots.append(screenshot(browser, SHOTS / "lab-full.png", clip=full_clip(browser)))
    open_lab(browser, lab_url(http_base, "배 타고 배 먹으니 배 부르다."))   # '배' 세 번: 문맥 유사도 그림
    shots.append(screenshot(browser, SHOTS / "lab-similarity.png", clip=section_clip(browser, "lab-similarity", "lab-sim-panel")))
    open_lab(browser, url)
    # 어두운 테마: 그림도 테마의 배경색으로 다시 칠한다
    browser.evaluate("document.documentElement.setAttribute('data-theme', 'dark')")
    time.sleep(0.3)
    bg = browser.evaluate("document.querySelector('#lab-attention-figure svg > rect').getAttribute('fill')")
    want = browser.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--lab-bg').trim()")
    assert bg == want and bg.lower() != "#ffffff", (bg, want)
    shots.append(screenshot(browser, SHOTS / "lab-dark.png"))
    browser.evaluate("document.documentElement.setAttribute('data-theme', 'light')")
    # 휴대전화 폭: 실습실의 어떤 요소도 화면 밖으로 삐져나가지 않는다
    phone(browser)
    try:
        open_lab(browser, url)
        browser.evaluate("document.fonts.ready.then(() => true)")
        overflow = browser.evaluate("""(() => {
          const w = document.documentElement.clientWidth, bad = [];
          document.querySelectorAll('.bertlab-lab, .bertlab-lab *').forEach(e => {
            if (e.closest('.lab-table-wrap, .lab-figure')) return;   // 표와 그림 틀은 스스로 가로 스크롤한다
            const r = e.getBoundingClientRect();
            if (r.width && r.right > w + 1) bad.push((e.id || e.className || e.tagName) + ':' + Math.round(r.right));
          });
          document.querySelectorAll('.lab-figure > svg').forEach(s => { const r = s.getBoundingClientRect(); if (r.right > w + 1) bad.push('svg:' + Math.round(r.right)); });
          return bad; })()""")
        assert not overflow, f"390 px 화면 밖으로 나간 요소: {overflow[:10]}"
        shots.append(screenshot(browser, SHOTS / "lab-phone.png"))
        shots.append(screenshot(browser, SHOTS / "lab-phone-full.png", clip=full_clip(browser)))
    finally:
        desktop(browser)
    for shot in shots:
        assert shot.stat().st_size > 10_000, f"{shot}: 화면이 거의 비어 있습니다"
    print("\n" + "\n".join(str(s) for s in shots))
