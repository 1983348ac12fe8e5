#!/usr/bin/env python3
"""실습실(book/lab.html) 성능 재기: 쪽이 준비되기까지의 시간, 문장 하나의 시간, 실습실 파일 크기.

    .venv/bin/python scripts/bench-lab.py            # 빌드한 _build/html 로 (먼저 bash scripts/build-book.sh)
    BERTLAB_SITE=/다른/html .venv/bin/python scripts/bench-lab.py

헤드리스 Chromium(데비안 chromium)을 CDP로 움직인다(tests/browser/test_site.py의 도우미를 씀, websocket-client 필요).
시험이 아니라 숫자를 찍는 스크립트다. 목표: 준비 < 3초, 문장 하나 < 100 ms(입력부터 모든 그림이 그려질 때까지), 파일 ≤ 8 MB,
어절 채우기 ≤ 1.5초(입력부터 어절 후보가 그려질 때까지).

- 준비: 쪽을 새로 열 때마다(캐시 끔) 탐색 시작부터 첫 결과(기본 문장의 모든 그림)가 나올 때까지. file:// 와 http 각각.
- 문장 하나: 번들 데이터의 문장과 [MASK] 문장들을 차례로 넣어, 계산(토큰화 → 순전파 → MLM → 네 그림 → 결과 기록)을
  시작한 때부터 브라우저가 그 화면을 그린 직후(requestAnimationFrame 안의 setTimeout)까지. 배치(layout)까지의 시간도 따로
  찍는다(다음 화면 갱신 주기를 기다리는 시간이 빠진 값). [MASK]가 하나인 문장은 어절 채우기까지 그려지므로 따로 센다.
- 어절 채우기: 수용 세트(bertlab/assets/text/fillmask_acceptance_ko.tsv)의 문장을 넣어, 입력부터 어절 후보까지 그린 직후까지
  (실습실은 다른 그림을 먼저 그리고 어절 채우기를 그 뒤에 계산한다). 그 가운데 어절 채우기의 계산(모델 27번)만의 시간도 찍는다.
  BERTLAB_BENCH_WORDS=40 처럼 주면 앞의 그 수만큼만.
"""
from __future__ import annotations

import csv
import json
import os
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))
from test_site import SITE, chromium_session, local_server  # noqa: E402

PAGE = "book/lab.html"
LIMIT_BYTES = 8_000_000


def sentences(n: int = 40) -> list[str]:
    out = []
    for path, col in [(ROOT / "bertlab/assets/sentiment/test.tsv", "text"), (ROOT / "bertlab/assets/text/senses_ko.tsv", "sentence")]:
        if path.exists():
            with open(path, encoding="utf-8", newline="") as fh:
                out += [r[col] for r in csv.DictReader(fh, delimiter="\t") if r.get(col)]
    picked = out[:: max(1, len(out) // (n - 4))][: n - 4]
    masked = [re.sub(r"^(\S+)", "[MASK]", s) for s in picked[:4]]
    return picked + masked


def acceptance_sentences() -> list[str]:
    path = ROOT / "bertlab/assets/text/fillmask_acceptance_ko.tsv"
    with open(path, encoding="utf-8", newline="") as fh:
        rows = [r["sentence"] for r in csv.DictReader(fh, delimiter="\t") if r.get("sentence")]
    n = int(os.environ.get("BERTLAB_BENCH_WORDS", len(rows)))
    return rows[:n]


def ready_time(cdp, url: str) -> dict:
    """탐색 시작부터 첫 결과까지(ms). lab-result의 ready_ms는 performance.now() 기준(탐색 시작 = 0)."""
    cdp.send("Page.navigate", url=url)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            text = cdp.evaluate("(() => { const n = document.getElementById('lab-result'); return n && n.textContent; })()")
        except RuntimeError:
            text = None
        if text:
            r = json.loads(text)
            nav = cdp.evaluate("JSON.stringify(performance.getEntriesByType('navigation')[0] || {})")
            nav = json.loads(nav)
            return {"ready": r["ready_ms"], "load": r["load_ms"], "first_total": r["total_ms"],
                    "dcl": nav.get("domContentLoadedEventEnd", 0)}
        time.sleep(0.05)
    raise TimeoutError(url)


def sentence_times(cdp, texts: list[str]) -> list[dict]:
    out = []
    for t in texts:
        r = cdp.evaluate("""(async (text) => {
          const t0 = performance.now();
          const r = BertLab.lab.compute(text);
          const words = r.fill_word_status === "pending";   // 그림을 기다리는 동안 어절 채우기가 끝나 "done"이 되므로 지금 읽는다
          void document.body.offsetHeight;             // 배치(layout)를 지금 계산하게 해서 그 시간도 센다
          const laid = performance.now() - t0;
          // 다음 그리기가 끝날 때까지: rAF는 그리기 직전에, 그 안의 setTimeout은 그린 직후에 돈다
          await new Promise(ok => requestAnimationFrame(() => setTimeout(ok, 0)));
          return {painted: performance.now() - t0, laid, total: r.total_ms, forward: r.ms, n: r.input_ids.length, error: r.error, words};
        })(%s)""" % json.dumps(t))
        out.append(r)
    return out


def word_times(cdp, texts: list[str]) -> list[dict]:
    """입력부터 어절 후보가 그려질 때까지(ms), 그 가운데 어절 채우기 계산만의 시간."""
    out = []
    for t in texts:
        r = cdp.evaluate("""(async (text) => {
          const t0 = performance.now();
          BertLab.lab.compute(text);
          const r = await BertLab.lab.settled();
          await new Promise(ok => requestAnimationFrame(() => setTimeout(ok, 0)));
          return {painted: performance.now() - t0, words: r.fill_word_ms, status: r.fill_word_status, n: r.input_ids.length};
        })(%s)""" % json.dumps(t), timeout=60)
        out.append(r)
    return out


def summary(values: list[float]) -> str:
    values = sorted(values)
    p90 = values[min(len(values) - 1, int(round(0.9 * (len(values) - 1))))]
    return f"중앙값 {statistics.median(values):6.1f} ms, 90% {p90:6.1f} ms, 최대 {values[-1]:6.1f} ms"


def main() -> None:
    page = SITE / PAGE
    lab_dir = SITE / "_static" / "lab"
    if not page.exists() or not (lab_dir / "model-weights.js").exists():
        sys.exit(f"{page} 또는 {lab_dir}/model-weights.js 가 없습니다: 먼저 bash scripts/build-book.sh")
    files = sorted(p for p in lab_dir.iterdir() if p.is_file())
    total = sum(p.stat().st_size for p in files)
    print(f"실습실 파일: {total / 1e6:.2f} MB ({total:,} 바이트, 한도 {LIMIT_BYTES / 1e6:.0f} MB)"
          f" {'OK' if total <= LIMIT_BYTES else '넘음!'}")
    for p in files:
        print(f"  {p.name:22s} {p.stat().st_size / 1e3:9.1f} kB")
    cores = os.cpu_count()
    with local_server(SITE) as base, chromium_session(("Page", "Runtime", "Network")) as cdp:
        cdp.send("Network.setCacheDisabled", cacheDisabled=True)
        cdp.send("Emulation.setDeviceMetricsOverride", width=1280, height=900, deviceScaleFactor=1, mobile=False)
        print(f"\nChromium {cdp.send('Browser.getVersion').get('product', '?')}, CPU {cores}개")
        for mode, url in [("file://", page.resolve().as_uri()), ("http", base + PAGE)]:
            runs = [ready_time(cdp, url) for _ in range(3)]
            ready = [r["ready"] for r in runs]
            print(f"쪽 준비({mode}): 탐색 시작부터 첫 결과까지 {summary(ready)} "
                  f"(가중치 풀기 {statistics.median(r['load'] for r in runs):.0f} ms, 첫 문장 {statistics.median(r['first_total'] for r in runs):.0f} ms)"
                  f" {'OK' if max(ready) < 3000 else '3초 넘음!'}")
        texts = sentences()
        times = sentence_times(cdp, texts)
        times = [t for t in times if not t["error"]]
        with_words = [t for t in times if t["words"]]
        times = [t for t in times if not t["words"]]
        painted = [t["painted"] for t in times]
        print(f"\n문장 하나({len(times)}개, 토큰 {min(t['n'] for t in times)}~{max(t['n'] for t in times)}개, "
              f"평균 {statistics.mean(t['n'] for t in times):.1f}개):")
        print(f"  입력 → 모든 그림이 화면에 그려질 때까지: {summary(painted)} {'OK' if statistics.median(painted) < 100 else '100 ms 넘음!'}")
        print(f"  입력 → 배치까지 (다음 화면 갱신을 기다리기 전): {summary([t['laid'] for t in times])}")
        print(f"  그 가운데 계산(순전파 + MLM):            {summary([t['forward'] for t in times])}")
        print(f"  계산 + 그림 만들기(결과 기록까지):       {summary([t['total'] for t in times])}")
        long = [t for t in times if t["n"] >= 20]
        if long:
            print(f"  토큰 20개 이상인 문장만({len(long)}개):    {summary([t['painted'] for t in long])}")
        worst = max(times, key=lambda t: t["painted"])
        print(f"  가장 느린 문장: 토큰 {worst['n']}개, {worst['painted']:.1f} ms")
        if with_words:
            print(f"  [MASK]가 하나인 문장({len(with_words)}개, 어절 채우기까지 그림): {summary([t['painted'] for t in with_words])}")
        words = word_times(cdp, acceptance_sentences())
        done = [w for w in words if w["status"] == "done"]
        print(f"\n어절 채우기(수용 세트 {len(words)}문장 중 {len(done)}개, 토큰 {min(w['n'] for w in done)}~{max(w['n'] for w in done)}개):")
        print(f"  입력 → 어절 후보가 화면에 그려질 때까지: {summary([w['painted'] for w in done])} "
              f"{'OK' if max(w['painted'] for w in done) <= 1500 else '1.5초 넘는 문장 있음!'}")
        print(f"  그 가운데 어절 채우기 계산(모델 27번):  {summary([w['words'] for w in done])}")

if __name__ == "__main__":
    main()
