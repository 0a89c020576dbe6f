"""Issue 12, points 4 and 9: slow senders are cut off, and no token reaches a log line."""

from __future__ import annotations

import logging
import re
import socket
import time
from collections.abc import Iterator

import pytest

from recordroom.server.guard import GuardedHttp, RedactTokens

from .helpers import TestClient, guarded_hello


class QuickGuard(GuardedHttp):
    request_timeout = 0.5


@pytest.fixture
def guarded() -> Iterator[int]:
    """A tiny app behind a guard with a short request timeout, on a free 127.0.0.1 port."""
    with guarded_hello(QuickGuard) as port:
        yield port


def test_a_request_that_never_completes_is_closed(guarded: int) -> None:
    with socket.create_connection(("127.0.0.1", guarded), timeout=5) as slow:
        slow.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # and never the end of the headers
        # Closed by the server (before the socket's own 5 s timeout, which would raise instead).
        assert slow.recv(1024) == b""
    with socket.create_connection(("127.0.0.1", guarded), timeout=5) as silent:
        assert silent.recv(1024) == b""  # a connection that sends nothing at all


def test_a_quick_request_is_answered(guarded: int) -> None:
    with socket.create_connection(("127.0.0.1", guarded), timeout=5) as quick:
        quick.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        answer = quick.recv(4096)
        assert answer.startswith(b"HTTP/1.1 200") and answer.endswith(b"hello")
        time.sleep(0.8)  # idle after a complete request: the keep-alive rule applies, not this one
        quick.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        assert quick.recv(4096).startswith(b"HTTP/1.1 200")


def test_tokens_never_reach_a_log_line(caplog: pytest.LogCaptureFixture) -> None:
    access = logging.getLogger("test.uvicorn.access")
    access.addFilter(RedactTokens())
    with caplog.at_level(logging.INFO, logger="test.uvicorn.access"):
        # The shapes of uvicorn's access line and of its WebSocket line.
        access.info(
            '%s - "%s %s HTTP/%s" %d', "127.0.0.1:5", "GET", "/ws/ABCD?token=s3cret", "1.1", 101
        )
        access.info('%s - "WebSocket %s" [accepted]', "127.0.0.1:5", "/ws/ABCD?token=s3cret&x=1")
        access.info("GET /join/ABCD?token=s3cret")
    assert len(caplog.records) == 3
    for record in caplog.records:
        assert "s3cret" not in record.getMessage()
        assert "/ws/ABCD" in record.getMessage() or "/join/ABCD" in record.getMessage()


def test_the_docs_page_needs_no_internet(client: TestClient) -> None:
    page = client.get("/docs")
    assert page.status_code == 200
    assert "openapi.json" in page.text
    # Nothing is loaded from another host: no absolute address in any src or href.
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page.text)
    assert "cdn" not in page.text.lower()
    assert client.get("/openapi.json").json()["paths"]["/api/rooms"]
