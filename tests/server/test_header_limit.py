"""Issue 12, point 4: an HTTP request's head (target and headers) is capped, like its body."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterator

import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from recordroom.server.guard import MAX_HEAD_BYTES, GuardedHttp


@pytest.fixture
def port() -> Iterator[int]:
    """A tiny app behind the guarded protocol on a free 127.0.0.1 port."""

    async def hello(request: object) -> PlainTextResponse:
        return PlainTextResponse("hello")

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        free: int = probe.getsockname()[1]
    config = uvicorn.Config(
        Starlette(routes=[Route("/", hello)]),
        host="127.0.0.1",
        port=free,
        http=GuardedHttp,
        log_config=None,
        lifespan="off",
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    yield free
    server.should_exit = True
    thread.join(10)


def answer(port: int, request: bytes) -> bytes:
    """Everything the server sends back before it closes the connection."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as client:
        # Refused while still sending: the answer is already on its way.
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            client.sendall(request)
        received = b""
        with contextlib.suppress(ConnectionResetError):
            while chunk := client.recv(65536):
                received += chunk
    return received


def test_headers_over_the_cap_get_431_and_a_documented_code(port: int) -> None:
    pad = b"x" * 1000
    headers = b"".join(b"X-Pad-%d: %s\r\n" % (i, pad) for i in range(MAX_HEAD_BYTES // 1000 + 8))
    received = answer(port, b"GET / HTTP/1.1\r\nHost: x\r\n" + headers + b"\r\n")
    head, _, body = received.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 431")
    assert json.loads(body)["code"] == "request/too_large"


def test_a_target_over_the_cap_is_refused_too(port: int) -> None:
    target = b"/?" + b"q" * (MAX_HEAD_BYTES + 10)
    received = answer(port, b"GET " + target + b" HTTP/1.1\r\nHost: x\r\n\r\n")
    assert received.startswith(b"HTTP/1.1 431")


def test_a_request_with_ordinary_headers_is_answered(port: int) -> None:
    headers = b"".join(b"X-Pad-%d: %s\r\n" % (i, b"y" * 500) for i in range(20))  # 10 KB
    received = answer(
        port, b"GET / HTTP/1.1\r\nHost: x\r\n" + headers + b"Connection: close\r\n\r\n"
    )
    assert received.startswith(b"HTTP/1.1 200") and received.endswith(b"hello")
