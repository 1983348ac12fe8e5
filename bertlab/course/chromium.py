"""헤드리스 Chromium을 DevTools 프로토콜(CDP)로 움직이는 작은 도우미: 인쇄판 PDF(`printbook`)와 슬라이드 시험이 씁니다.

브라우저를 내려받지 않고 데비안 패키지 `chromium`을 씁니다(`scripts/browser-test.sh`가 설치하는 것과 같음). 다른 호스트의
이름 풀이는 막으므로(`--host-resolver-rules`) 쪽이 인터넷에 기대면 그 요청은 실패로 드러납니다. 연결에는
`websocket-client`(requirements-browser.txt)를 씁니다. 브라우저 시험(`tests/browser/test_site.py`)의 도우미와 같은 방식이지만
pytest에 기대지 않습니다.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
    "--no-default-browser-check", "--disable-extensions", "--disable-dev-shm-usage",
    "--hide-scrollbars", "--mute-audio", "--lang=ko-KR",
    "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
]


class BrowserError(RuntimeError):
    pass


def chromium_path() -> str | None:
    for name in ("chromium", "chromium-browser"):
        if path := shutil.which(name):
            return path
    return "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None


class CDP:
    """한 탭에 붙은 CDP 연결. 응답을 기다리는 동안 온 이벤트는 `events`에 모은다."""

    def __init__(self, ws_url: str):
        import websocket

        self._ws_mod = websocket
        # Chromium은 Origin 머리글이 붙은 디버깅 연결을 거절하므로 보내지 않는다.
        self.ws = websocket.create_connection(ws_url, timeout=60, suppress_origin=True)
        self.events: list[dict] = []
        self._id = 0

    def _recv(self, timeout: float) -> dict | None:
        self.ws.settimeout(max(timeout, 0.01))
        try:
            msg = json.loads(self.ws.recv())
        except self._ws_mod.WebSocketTimeoutException:
            return None
        if "method" in msg:
            self.events.append(msg)
        return msg

    def send(self, method: str, timeout: float = 60, **params) -> dict:
        self._id += 1
        mid = self._id
        self.ws.send(json.dumps({"id": mid, "method": method, "params": params}))
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            msg = self._recv(deadline - time.monotonic())
            if msg and msg.get("id") == mid:
                if "error" in msg:
                    raise BrowserError(f"{method}: {msg['error']}")
                return msg.get("result", {})
        raise TimeoutError(f"{method}: {timeout}초 안에 응답이 없습니다")

    def wait_event(self, name: str, timeout: float = 60) -> dict:
        deadline = time.monotonic() + timeout
        seen = 0
        while True:
            for ev in self.events[seen:]:
                if ev["method"] == name:
                    return ev
            seen = len(self.events)
            if time.monotonic() >= deadline:
                raise TimeoutError(f"{name} 이벤트가 {timeout}초 안에 오지 않았습니다")
            self._recv(deadline - time.monotonic())

    def pump(self, quiet: float = 0.5, limit: float = 5) -> None:
        end = time.monotonic() + limit
        while time.monotonic() < end:
            if self._recv(min(quiet, end - time.monotonic())) is None:
                return

    def evaluate(self, expression: str, timeout: float = 60):
        res = self.send("Runtime.evaluate", timeout=timeout, expression=expression, awaitPromise=True, returnByValue=True)
        if "exceptionDetails" in res:
            d = res["exceptionDetails"]
            raise BrowserError(f"자바스크립트 오류: {(d.get('exception') or {}).get('description') or d.get('text')}")
        return res["result"].get("value")

    def load(self, url: str, timeout: float = 120) -> None:
        self.events.clear()
        self.send("Page.navigate", url=url)
        self.wait_event("Page.loadEventFired", timeout=timeout)
        self.pump()

    def print_pdf(self, target: Path, timeout: float = 600, **options) -> Path:
        """지금 쪽을 PDF로(스트림으로 받아 큰 책도 한 번에 메모리에 올리지 않음)."""
        res = self.send("Page.printToPDF", timeout=timeout, transferMode="ReturnAsStream", **options)
        handle = res["stream"]
        target = Path(target)
        target.parent.mkdir(parents=True, exist_ok=True)
        with target.open("wb") as fh:
            while True:
                chunk = self.send("IO.read", handle=handle, size=4 << 20)
                data = chunk.get("data", "")
                fh.write(base64.b64decode(data) if chunk.get("base64Encoded") else data.encode("latin-1"))
                if chunk.get("eof"):
                    break
        self.send("IO.close", handle=handle)
        return target

    def screenshot(self, target: Path, **options) -> Path:
        data = self.send("Page.captureScreenshot", format="png", **options)["data"]
        target = Path(target)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(base64.b64decode(data))
        return target

    def close(self):
        with contextlib.suppress(Exception):
            self.ws.close()


def requests_to_other_hosts(events: list[dict], local=("127.0.0.1", "localhost")) -> list[str]:
    """이벤트 기록에서 file:// 이나 로컬이 아닌 곳으로 간 요청의 주소."""
    from urllib.parse import urlparse

    out = []
    for ev in events:
        if ev["method"] == "Network.requestWillBeSent":
            url = ev["params"]["request"]["url"]
            u = urlparse(url)
            if u.scheme in ("file", "data", "blob", "about", "chrome", "devtools"):
                continue
            if (u.hostname or "") not in local:
                out.append(url)
    return list(dict.fromkeys(out))


@contextlib.contextmanager
def session(domains=("Page", "Runtime", "Network"), width: int = 1280, height: int = 900, extra_flags=(),
            allow_file_access: bool = False):
    """새 프로필로 띄운 헤드리스 Chromium의 첫 탭(CDP). 끝나면 이 함수가 띄운 Chromium만 끈다.

    ``allow_file_access=True``는 file:// 쪽이 다른 로컬 파일을 fetch로 읽게 합니다(인쇄판을 모을 때만). 독자의 브라우저는
    그렇게 하지 않으므로, 사이트와 덱을 시험할 때는 끈 채로 둡니다."""
    exe = chromium_path()
    if exe is None:
        raise BrowserError("Chromium이 없습니다. 데비안/우분투에서는 'apt-get install chromium fonts-nanum'으로 설치하세요.")
    try:
        import websocket  # noqa: F401
    except ImportError as err:
        raise BrowserError("websocket-client가 없습니다: .venv/bin/pip install -r requirements-browser.txt") from err
    profile = tempfile.mkdtemp(prefix="bertlab-chromium-")
    proc = subprocess.Popen([exe, *FLAGS, *(["--allow-file-access-from-files"] if allow_file_access else []), *extra_flags, f"--window-size={width},{height}", f"--user-data-dir={profile}",
                             "about:blank"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    cdp = None
    try:
        port_file = Path(profile) / "DevToolsActivePort"
        deadline = time.monotonic() + 90
        while not (port_file.exists() and port_file.read_text().strip()):
            if proc.poll() is not None or time.monotonic() > deadline:
                raise BrowserError(f"Chromium이 시작하지 않았습니다 (종료 코드 {proc.poll()})")
            time.sleep(0.2)
        port = port_file.read_text().split()[0]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10) as r:
            targets = [t for t in json.load(r) if t.get("type") == "page"]
        cdp = CDP(targets[0]["webSocketDebuggerUrl"])
        for domain in domains:
            cdp.send(f"{domain}.enable")
        cdp.send("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=False)
        yield cdp
    finally:
        if cdp:
            cdp.close()
        try:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=10)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
        shutil.rmtree(profile, ignore_errors=True)
