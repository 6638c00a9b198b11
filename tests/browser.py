"""A real headless Chromium for the tests, driven over its DevTools pipe (no library, no network).

`Browser()` starts /usr/bin/chromium (or $CHROMIUM) with `--remote-debugging-pipe`: DevTools
Protocol messages are JSON, each ended by a NUL byte, read by the browser on its fd 3 and written on
its fd 4. `open(url)` loads a page and waits for its load event; `js(expr)` evaluates in it and returns
the value; `key(name)` presses a key as a user does (keyDown, keyUp); `screenshot()` gives the PNG the
browser renders. `chromium()` is the browser's path, or None where there is none (the tests then skip,
saying so); `.ci/run` installs Debian's chromium where it can.
"""
from __future__ import annotations

import base64
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from typing import Any, Optional

KEYS = {"ArrowRight": 39, "ArrowLeft": 37, "ArrowUp": 38, "ArrowDown": 40, "Home": 36, "End": 35,
        "PageUp": 33, "PageDown": 34}
TIMEOUT_S = 60.0


def chromium() -> Optional[str]:
    for c in (os.environ.get("CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium"),
              shutil.which("chromium-browser")):
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    return None


class Browser:
    def __init__(self, width: int = 1400, height: int = 900):
        exe = chromium()
        if exe is None:
            raise RuntimeError("no chromium")
        self._profile = tempfile.TemporaryDirectory(prefix="hexforge-chromium-")
        to_browser, self._w = os.pipe()
        self._r, from_browser = os.pipe()

        def fds() -> None:                  # the child's fd 3 reads what we write, its fd 4 writes to us
            a, b = os.dup(to_browser), os.dup(from_browser)
            os.dup2(a, 3)
            os.dup2(b, 4)
        self._proc = subprocess.Popen(
            [exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
             "--disable-extensions", "--no-first-run", "--hide-scrollbars", "--remote-debugging-pipe",
             f"--user-data-dir={self._profile.name}", f"--window-size={width},{height}", "about:blank"],
            close_fds=False, preexec_fn=fds, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        os.close(to_browser)
        os.close(from_browser)
        self._buf, self._id, self._events = b"", 0, []
        page = next(t for t in self._send("Target.getTargets")["targetInfos"] if t["type"] == "page")
        self._session = self._send("Target.attachToTarget", {"targetId": page["targetId"], "flatten": True})["sessionId"]
        self._send("Page.enable", session=True)
        self._send("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1,
                                                          "mobile": False}, session=True)

    def _read(self) -> dict:
        deadline = time.monotonic() + TIMEOUT_S
        while b"\0" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._r], [], [], left)[0]:
                raise TimeoutError("chromium did not answer")
            chunk = os.read(self._r, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed its pipe")
            self._buf += chunk
        raw, self._buf = self._buf.split(b"\0", 1)
        return json.loads(raw)

    def _send(self, method: str, params: Optional[dict] = None, session: bool = False) -> dict:
        self._id += 1
        msg: dict = {"id": self._id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = self._session
        os.write(self._w, json.dumps(msg).encode() + b"\0")
        while True:
            m = self._read()
            if m.get("id") == self._id:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error']}")
                return m.get("result", {})
            self._events.append(m)

    def _wait_event(self, method: str) -> None:
        while True:
            for i, e in enumerate(self._events):
                if e.get("method") == method:
                    del self._events[i]
                    return
            self._events.append(self._read())

    def open(self, url: str) -> None:
        """Load the page afresh (through about:blank: a change of #fragment alone would load nothing)."""
        for target in ("about:blank", url):
            self._events.clear()
            self._send("Page.navigate", {"url": target}, session=True)
            self._wait_event("Page.loadEventFired")

    def js(self, expression: str) -> Any:
        r = self._send("Runtime.evaluate", {"expression": expression, "returnByValue": True}, session=True)
        if "exceptionDetails" in r:
            raise RuntimeError(f"{expression[:80]}: {r['exceptionDetails']}")
        return r["result"].get("value")

    def key(self, name: str) -> None:
        for kind in ("keyDown", "keyUp"):
            self._send("Input.dispatchKeyEvent", {"type": kind, "key": name, "code": name,
                                                  "windowsVirtualKeyCode": KEYS[name]}, session=True)

    def screenshot(self) -> bytes:
        return base64.b64decode(self._send("Page.captureScreenshot", {"format": "png"}, session=True)["data"])

    def close(self) -> None:
        try:
            self._send("Browser.close")
        except (RuntimeError, OSError, TimeoutError):
            pass
        try:
            self._proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        for fd in (self._r, self._w):
            try:
                os.close(fd)
            except OSError:
                pass
        self._profile.cleanup()

    def __enter__(self) -> "Browser":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
