"""Issue 12, point 4: an HTTP request's head (target and headers) is capped, like its body."""

from __future__ import annotations

import contextlib
import json
import socket
from collections.abc import Iterator

import pytest

from recordroom.server.guard import MAX_HEAD_BYTES

from .helpers import guarded_hello


@pytest.fixture
def port() -> Iterator[int]:
    """A tiny app behind the guarded protocol on a free 127.0.0.1 port."""
    with guarded_hello() as free:
        yield free


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


def test_the_431_speaks_the_language_the_request_asked_for(port: int) -> None:
    pad = b"".join(
        b"X-Pad-%d: %s\r\n" % (i, b"x" * 1000) for i in range(MAX_HEAD_BYTES // 1000 + 8)
    )
    for asked in (
        b"GET /?lang=zh-CN HTTP/1.1\r\n",
        b"GET / HTTP/1.1\r\nAccept-Language: zh-CN\r\n",
    ):
        received = answer(port, asked + b"Host: x\r\n" + pad + b"\r\n")
        head, _, body = received.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 431")
        assert json.loads(body) == {"code": "request/too_large", "message": "请求太大了。"}
    english = answer(port, b"GET / HTTP/1.1\r\nHost: x\r\n" + pad + b"\r\n")
    assert b"request headers are limited to" in english
