"""Fixtures for the browser tests: a real ``recordroom serve`` and the system's Chromium.

The server runs as a subprocess on a free port of 127.0.0.1 with a temporary data folder and bots
that move at once; it is stopped by its pid. Chromium is the one the system package installs
(``make system-deps``); Playwright never downloads a browser here. ``pages`` opens a test's
browser contexts (a phone at 360x640 with a seat's token, say) and fails the test on any error a
page raises.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, sync_playwright

CHROMIUM = os.environ.get("RECORDROOM_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    # The table plays the song without a click in the tests (a person clicks Start anyway).
    "--autoplay-policy=no-user-gesture-required",
]


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


class Server:
    """``recordroom serve`` in a subprocess."""

    def __init__(self, data_dir: Path) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = data_dir / "server.log"
        command = [
            sys.executable, "-m", "recordroom", "serve",
            "--host", "127.0.0.1", "--port", str(self.port),
            "--data-dir", str(data_dir), "--bot-delay", "0", "--no-qr", "--log-level", "warning",
        ]  # fmt: skip
        with self.log.open("wb") as out:
            self.process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
        self._wait_up()

    def _wait_up(self) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server stopped: {self.log.read_text()[-2000:]}")
            try:
                with urllib.request.urlopen(f"{self.base}/api/health", timeout=2):
                    return
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError("the server did not answer within 60 s")

    def call(self, method: str, path: str, body: object = None, token: str = "") -> Any:
        """One HTTP call to the server (``token``: a bearer token); the answer's JSON."""
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(
            f"{self.base}{path}", data=data, headers=headers, method=method
        )
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.loads(answer.read() or b"null")

    def stop(self) -> None:
        """Stops the process by its pid: terminate, wait, kill if it hangs."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A served Record Room for the tests of one module."""
    running = Server(tmp_path_factory.mktemp("web-server"))
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    """Playwright's driver."""
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    """The system Chromium, headless."""
    if not Path(CHROMIUM).exists() and not shutil.which(CHROMIUM):
        pytest.fail(f"Chromium not found at {CHROMIUM}: run `make system-deps` (apt chromium)")
    launched = playwright.chromium.launch(
        executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
    )
    try:
        yield launched
    finally:
        launched.close()


@pytest.fixture
def screenshots() -> Path | None:
    """Where to save screenshots (``RECORDROOM_SCREENSHOTS``), or None to take none."""
    folder = os.environ.get("RECORDROOM_SCREENSHOTS")
    if not folder:
        return None
    path = Path(folder)
    path.mkdir(parents=True, exist_ok=True)
    return path


class Pages:
    """Browser contexts for one test, and every page error they raise."""

    def __init__(self, browser: Browser, server: Server) -> None:
        self.browser = browser
        self.base = server.base
        self.contexts: list[BrowserContext] = []
        self.errors: list[str] = []

    def open(self, viewport: dict[str, int], label: str) -> Page:
        touch = viewport["width"] < 500
        context = self.browser.new_context(viewport=viewport, has_touch=touch, is_mobile=touch)
        self.contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.on("pageerror", lambda error: self.errors.append(f"{label}: {error}"))
        return page

    def seat_phone(self, code: str, token: str, label: str) -> Page:
        """A phone that holds the seat `token` of room `code` (as after joining)."""
        phone = self.open({"width": 360, "height": 640}, label)
        phone.goto(f"{self.base}/join")
        phone.evaluate("([c, t]) => localStorage.setItem(`recordroom.seat.${c}`, t)", [code, token])
        phone.goto(f"{self.base}/join/{code}")
        return phone

    def host_table(self, code: str, host: str, query: str = "") -> Page:
        """The host's Disc Cover table of room `code` at 1280x720 (its token kept as after
        opening the room); `query` is added to its address ("&hold=4000")."""
        table = self.open({"width": 1280, "height": 720}, "table")
        table.goto(f"{self.base}/table")
        table.evaluate("([c, t]) => localStorage.setItem(`recordroom.host.${c}`, t)", [code, host])
        table.goto(f"{self.base}/table?room={code}{query}")
        return table


@pytest.fixture
def pages(browser: Browser, server: Server) -> Iterator[Pages]:
    """The test's browser contexts, closed after it; the test fails on any page error."""
    opened = Pages(browser, server)
    yield opened
    for context in opened.contexts:
        context.close()
    assert not opened.errors, opened.errors
