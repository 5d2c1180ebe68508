"""Headless Chromium for the tests that look at HTML pages: a small Chrome DevTools Protocol client.

:class:`Browser` starts ``chromium --headless=new --remote-debugging-port=0``
with a throwaway profile in its own process group, reads the port Chromium
chose from ``DevToolsActivePort`` in that profile, and talks the DevTools
Protocol (JSON over a websocket, package ``websocket-client``) to its page.
:meth:`Browser.visit` opens a file, waits for its load event and returns a
:class:`Visit`: the console errors and exceptions, every network request, the
page's visible text, the bounding boxes of its ``svg``/``img`` elements and a
full-page PNG screenshot (decoded with Pillow). Leaving the ``with`` block
kills the whole process group and removes the profile, also after a failure.

The Debian package ``chromium`` provides the binary (``bash dev.sh setup``
installs it). :func:`require_chromium` skips a test without it, with that
hint, except under CI, where a missing browser fails.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

NAMES = ("chromium", "chromium-browser")
INSTALL_HINT = "headless Chromium not found: install it with 'bash dev.sh setup' (Debian package chromium: apt-get install chromium)"
#: Seconds to wait for the browser to start and for a page to load.
TIMEOUT = 60.0
WIDTH, HEIGHT = 1200, 900


def find_chromium() -> str | None:
    """The path of a chromium (or chromium-browser) binary on PATH, or None."""
    for name in NAMES:
        path = shutil.which(name)
        if path:
            return path
    return None


def require_chromium() -> str:
    """The Chromium binary; skip the test without one (fail under CI, where it must be installed)."""
    path = find_chromium()
    if path is None:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):  # as tests/helpers.py's IN_CI, read now
            pytest.fail(INSTALL_HINT)
        pytest.skip(INSTALL_HINT)
    return path


@dataclass
class Visit:
    """What a page did and showed: see :meth:`Browser.visit`."""

    url: str
    errors: list[str]
    requests: list[str]
    text: str
    boxes: list[tuple[float, float, float, float]]
    png: bytes
    image: Any = field(repr=False)  # a Pillow RGB image of the whole page

    def region_colours(self, box: tuple[float, float, float, float]) -> int:
        """The number of distinct colours of the screenshot inside ``box`` (x, y, width, height in CSS pixels)."""
        x, y, width, height = box
        region = self.image.crop((int(x), int(y), int(x + width), int(y + height)))
        return len(region.getcolors(maxcolors=1 << 20) or [])


class Browser:
    """A headless Chromium, its process group killed and its profile removed on exit."""

    def __init__(self, binary: str) -> None:
        self.binary = binary
        self.profile = Path(tempfile.mkdtemp(prefix="rulemodels-chromium-"))
        self.process: subprocess.Popen[bytes] | None = None
        self.group = 0  # the browser's process group (its own session: the group of every helper it starts)
        self.socket: Any = None
        self.next_id = 0
        self.events: list[dict[str, Any]] = []

    def __enter__(self) -> Browser:
        try:
            self._start()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _start(self) -> None:
        import websocket

        arguments = [
            self.binary, "--headless=new", "--remote-debugging-port=0", f"--user-data-dir={self.profile}",
            "--no-first-run", "--no-default-browser-check", "--disable-gpu", "--hide-scrollbars",
            "--disable-extensions", "--disable-background-networking", "--disable-sync", "--mute-audio",
            f"--window-size={WIDTH},{HEIGHT}", "about:blank",
        ]
        if hasattr(os, "geteuid") and os.geteuid() == 0:  # Chromium refuses to sandbox as root
            arguments.insert(1, "--no-sandbox")
        log = open(self.profile / "stderr.log", "wb")  # the wrapper's and Chromium's chatter
        self.process = subprocess.Popen(arguments, stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True)
        log.close()
        self.group = self.process.pid
        port_file = self.profile / "DevToolsActivePort"
        deadline = time.monotonic() + TIMEOUT
        while not (port_file.exists() and port_file.read_text().count("\n") >= 1):
            if self.process.poll() is not None or time.monotonic() > deadline:
                chatter = (self.profile / "stderr.log").read_text(errors="replace")[-2000:]
                raise RuntimeError(f"Chromium did not start (exit status {self.process.poll()}): {chatter}")
            time.sleep(0.1)
        port = int(port_file.read_text().splitlines()[0])
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=TIMEOUT) as response:
            targets = json.load(response)
        page = next(t for t in targets if t.get("type") == "page")
        self.socket = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=TIMEOUT, suppress_origin=True)
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(f"{domain}.enable")
        self.call("Emulation.setDeviceMetricsOverride", width=WIDTH, height=HEIGHT, deviceScaleFactor=1, mobile=False)

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        """Send one DevTools command and return its result; events that arrive meanwhile are kept in ``events``."""
        self.next_id += 1
        number = self.next_id
        self.socket.send(json.dumps({"id": number, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == number:
                if "error" in message:
                    raise RuntimeError(f"{method} failed: {message['error']}")
                return message.get("result", {})
            if "method" in message:
                self.events.append(message)

    def wait_for(self, event: str) -> dict[str, Any]:
        """The next event named ``event`` (one already received counts)."""
        for message in self.events:
            if message["method"] == event and not message.get("seen"):
                message["seen"] = True
                return message
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            message = json.loads(self.socket.recv())
            if "method" in message:
                self.events.append(message)
                if message["method"] == event:
                    message["seen"] = True
                    return message
        raise TimeoutError(f"no {event} within {TIMEOUT:g} s")

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (the test's probe; the page itself runs none)."""
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"evaluating {expression!r} failed: {result['exceptionDetails']}")
        return result["result"].get("value")

    def visit(self, path: str | os.PathLike[str]) -> Visit:
        """Open the file, wait for its load event, and collect what it did and showed."""
        from PIL import Image

        url = Path(path).resolve().as_uri()
        self.events.clear()
        self.call("Page.navigate", url=url)
        self.wait_for("Page.loadEventFired")
        text = self.evaluate("document.body.innerText")
        boxes = json.loads(self.evaluate(
            "JSON.stringify(Array.from(document.querySelectorAll('svg, img')).map(e => {"
            "const r = e.getBoundingClientRect(); return [r.x + window.scrollX, r.y + window.scrollY, r.width, r.height];}))"
        ))
        size = self.call("Page.getLayoutMetrics")["cssContentSize"]
        width, height = max(1, int(size["width"])), max(1, int(size["height"]))
        shot = self.call("Page.captureScreenshot", format="png", captureBeyondViewport=True,
                         clip={"x": 0, "y": 0, "width": width, "height": height, "scale": 1})
        import base64

        png = base64.b64decode(shot["data"])
        image = Image.open(io.BytesIO(png)).convert("RGB")
        errors, requests = [], []
        for message in self.events:
            method, params = message["method"], message.get("params", {})
            if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                errors.append("console: " + " ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", [])))
            elif method == "Runtime.exceptionThrown":
                details = params.get("exceptionDetails", {})
                errors.append(f"exception: {details.get('text', '')} {details.get('exception', {}).get('description', '')}")
            elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
                errors.append(f"log: {params['entry'].get('text', '')} {params['entry'].get('url', '')}")
            elif method == "Network.requestWillBeSent":
                requests.append(params.get("request", {}).get("url", ""))
        return Visit(url, errors, requests, text, [tuple(b) for b in boxes], png, image)

    def close(self) -> None:
        """Close the connection, kill the browser's process group (no orphans) and remove the profile."""
        if self.socket is not None:
            with contextlib.suppress(Exception):
                self.socket.close()
            self.socket = None
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:  # helpers that outlive the main process get SIGKILL until none is left
                try:
                    os.killpg(self.group, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    break
                time.sleep(0.05)
            self.process = None
        shutil.rmtree(self.profile, ignore_errors=True)
