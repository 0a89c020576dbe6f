"""Issue 12, point 6: expensive pages are made once, on a pool the bots do not use."""

from __future__ import annotations

import threading
from typing import Any

from recordroom.server.pages import THREAD_NAME
from recordroom.server.routes import media as media_routes

from .helpers import TestClient


def test_the_booklet_pdf_is_made_once_on_its_own_pool(client: TestClient, monkeypatch: Any) -> None:
    made: list[str] = []

    def render(sleeves: Any) -> bytes:
        made.append(threading.current_thread().name)
        return b"%PDF-1.4 booklet"

    monkeypatch.setattr(media_routes, "render_booklet_pdf", render)
    for _ in range(5):
        answer = client.get("/booklet.pdf")
        assert answer.status_code == 200 and answer.content == b"%PDF-1.4 booklet"
    assert len(made) == 1
    assert made[0].startswith(THREAD_NAME)


def test_a_page_that_failed_is_made_again(client: TestClient, monkeypatch: Any) -> None:
    calls: list[int] = []

    def render(sleeves: Any) -> str:
        calls.append(1)
        if len(calls) == 1:
            raise OSError("font missing")
        return "<html>booklet</html>"

    monkeypatch.setattr(media_routes, "render_booklet_html", render)
    client_no_raise = TestClient(client.app, raise_server_exceptions=False)
    assert client_no_raise.get("/booklet").status_code == 500
    assert client.get("/booklet").text == "<html>booklet</html>"
    assert client.get("/booklet").text == "<html>booklet</html>"
    assert len(calls) == 2
