"""The WebSocket protocol of ``recordroom serve``: text messages written straight out arrive whole,
whatever their length, and everything else still goes uvicorn's way."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket
from uvicorn._types import ASGISendEvent
from websockets.exceptions import ConnectionClosed
from websockets.server import ServerProtocol
from websockets.sync.client import connect

from recordroom.server.frames import DirectTextFrames, Inbox, text_frame

from .helpers import served, toy_room_served

# Around each of the three ways a frame gives its length (in one byte, two, eight), counted in
# bytes: a text of "é" is twice as long in UTF-8 as in characters.
TEXTS = [
    "",
    "a",
    "a" * 125,
    "a" * 126,
    "é" * 62 + "a",  # 125 bytes
    "é" * 63,  # 126 bytes, 63 characters
    "a" * 65_535,
    "é" * 32_768,  # 65,536 bytes
    '{"type":"state","view":"' + "ü" * 200_000 + '"}',
]


async def talk(websocket: WebSocket) -> None:
    await websocket.accept()
    for text in TEXTS:
        await websocket.send_text(text)
    await websocket.send_bytes(b"\x00\x01binary")
    await websocket.close(code=4001, reason="done")


@pytest.fixture
def port() -> Iterator[int]:
    app = Starlette(routes=[WebSocketRoute("/ws", talk)])
    with served(app, lifespan="off", ws=DirectTextFrames) as port:
        yield port


def test_text_messages_of_every_length_arrive_whole_and_the_rest_as_before(
    port: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    by_the_library: list[str] = []
    library_send_text = ServerProtocol.send_text

    def counted(self: ServerProtocol, data: bytes, fin: bool = True) -> None:
        by_the_library.append(data.decode())
        library_send_text(self, data, fin)

    monkeypatch.setattr(ServerProtocol, "send_text", counted)
    with connect(f"ws://127.0.0.1:{port}/ws", max_size=None) as client:
        received = [client.recv(timeout=10) for _ in TEXTS]
        binary = client.recv(timeout=10)
        with pytest.raises(ConnectionClosed):
            client.recv(timeout=10)
        assert client.close_code == 4001 and client.close_reason == "done"
    assert received == TEXTS
    assert binary == b"\x00\x01binary"
    assert by_the_library == []  # every text took the short way


def test_a_frame_gives_its_length_in_bytes_in_the_shortest_form() -> None:
    assert text_frame(b"") == b"\x81\x00"
    assert text_frame(b"x" * 125)[:2] == b"\x81\x7d"
    assert text_frame(b"x" * 126)[:4] == b"\x81\x7e\x00\x7e"
    assert text_frame(b"x" * 65_536)[:10] == b"\x81\x7f" + (65_536).to_bytes(8, "big")
    assert len(text_frame(b"x" * 65_536)) == 10 + 65_536


# -- the way in ------------------------------------------------------------------------------


async def echo(websocket: WebSocket) -> None:
    """Sends back every message as it came (text as text, bytes as bytes) until the client goes."""
    await websocket.accept()
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        if message.get("text") is not None:
            await websocket.send_text(message["text"])
        else:
            await websocket.send_bytes(message["bytes"])


def masked(payload: bytes, first: int = 0x81, mask: bytes = b"\x12\x34\x56\x78") -> bytes:
    """A client frame (masked, as RFC 6455 has clients send them) of ``payload``."""
    length = len(payload)
    if length < 126:
        head = bytes((first, 0x80 | length))
    elif length < 1 << 16:
        head = bytes((first, 0x80 | 126)) + length.to_bytes(2, "big")
    else:
        head = bytes((first, 0x80 | 127)) + length.to_bytes(8, "big")
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


@pytest.fixture
def library_reads(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """The bytes the server side of the ``websockets`` library was given to parse."""
    given: list[bytes] = []
    receive_data = ServerProtocol.receive_data

    def counted(self: ServerProtocol, data: bytes | bytearray) -> None:
        given.append(bytes(data))
        receive_data(self, data)

    monkeypatch.setattr(ServerProtocol, "receive_data", counted)
    return given


@contextlib.contextmanager
def echoed(**options: object) -> Iterator[int]:
    """The port of :func:`echo` served as ``recordroom serve`` serves WebSockets."""
    app = Starlette(routes=[WebSocketRoute("/ws", echo)])
    with served(app, lifespan="off", ws=DirectTextFrames, **options) as port:
        yield port


@pytest.fixture
def echo_port() -> Iterator[int]:
    with echoed(ws_max_size=100_000) as port:
        yield port


def test_whole_text_frames_are_read_without_the_library(
    echo_port: int, library_reads: list[bytes]
) -> None:
    # Up to a few KB, as a client's messages are: one read of the socket each.
    texts = ["a", "", "é" * 62 + "a", "é" * 63, '{"type":"act","version":3}', "ü" * 1_000]
    with connect(f"ws://127.0.0.1:{echo_port}/ws", max_size=None) as client:
        handshake = len(library_reads)
        for text in texts:
            client.send(text)
            assert client.recv(timeout=10) == text
        # Several frames in one write arrive as as many messages, in order.
        client.socket.sendall(b"".join(masked(f"m{i}".encode()) for i in range(20)))
        assert [client.recv(timeout=10) for _ in range(20)] == [f"m{i}" for i in range(20)]
        assert len(library_reads) == handshake  # nothing after the handshake went the long way


def test_anything_else_goes_to_the_library_from_where_it_starts(
    echo_port: int, library_reads: list[bytes]
) -> None:
    with connect(f"ws://127.0.0.1:{echo_port}/ws", max_size=None) as client:
        handshake = len(library_reads)
        client.send("before")
        assert client.recv(timeout=10) == "before"
        # A text frame, then binary data in the same write: the text is read here, the rest
        # (from the binary frame's first byte) by the library, and so is everything after it.
        client.socket.sendall(masked(b"text") + masked(b"\x00\xff", first=0x82))
        assert client.recv(timeout=10) == "text"
        assert client.recv(timeout=10) == b"\x00\xff"
        assert library_reads[handshake:] == [masked(b"\x00\xff", first=0x82)]
        client.send("after")
        assert client.recv(timeout=10) == "after"
        # A ping from the client gets its pong, as before.
        assert client.ping(b"hi").wait(10)


def test_a_frame_cut_by_the_network_is_put_together_by_the_library(
    echo_port: int, library_reads: list[bytes]
) -> None:
    with connect(f"ws://127.0.0.1:{echo_port}/ws", max_size=None) as client:
        handshake = len(library_reads)
        frame = masked(("x" * 3000).encode())
        client.socket.sendall(masked(b"whole") + frame[:1000])
        assert client.recv(timeout=10) == "whole"
        time.sleep(0.2)  # so that the rest comes in a read of its own
        client.socket.sendall(frame[1000:] + masked(b"next"))
        assert client.recv(timeout=10) == "x" * 3000
        assert client.recv(timeout=10) == "next"
        assert b"".join(library_reads[handshake:]) == frame + masked(b"next")


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        (masked(b"\xff\xfe not UTF-8"), 1007),
        (masked(b"x" * 100_001), 1009),  # over the server's ws_max_size
        (b"\x81\x05hello", 1002),  # a client frame that is not masked
        (masked(b"x", first=0x01), None),  # a fragment: the library waits for the rest
    ],
)
def test_bad_frames_get_the_librarys_answer(echo_port: int, frame: bytes, code: int | None) -> None:
    with connect(f"ws://127.0.0.1:{echo_port}/ws", max_size=None) as client:
        client.send("fine")
        assert client.recv(timeout=10) == "fine"
        client.socket.sendall(frame)
        if code is None:
            client.socket.sendall(masked(b"y", first=0x80))  # the fragment's last part
            assert client.recv(timeout=10) == "xy"
            return
        with pytest.raises(ConnectionClosed):
            client.recv(timeout=10)
        assert client.close_code == code


def test_pongs_to_the_servers_pings_are_read_here_and_keep_the_connection(
    library_reads: list[bytes],
) -> None:
    with (
        echoed(ws_ping_interval=0.2, ws_ping_timeout=0.5) as port,
        connect(f"ws://127.0.0.1:{port}/ws") as client,
    ):
        handshake = len(library_reads)
        deadline = time.monotonic() + 2.0  # ten pings, each to be answered within 0.5 s
        while time.monotonic() < deadline:
            client.send("still here")
            assert client.recv(timeout=10) == "still here"
            time.sleep(0.1)
        assert len(library_reads) == handshake


def test_a_rooms_state_messages_are_written_by_a_plain_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[str] = []
    send = DirectTextFrames.send

    async def recorded(self: DirectTextFrames, message: ASGISendEvent) -> None:
        asked.append(message["type"])
        await send(self, message)

    monkeypatch.setattr(DirectTextFrames, "send", recorded)
    with toy_room_served(tmp_path, ("Ann", "Ben"), ws=DirectTextFrames) as (port, code, tokens):
        url = f"ws://127.0.0.1:{port}/ws/{code}?token="
        with connect(url + tokens[0]) as ann, connect(url + tokens[1]) as ben:
            states = [json.loads(ann.recv(timeout=10)), json.loads(ben.recv(timeout=10))]
            states.append(json.loads(ann.recv(timeout=10)))  # Ben came
            assert [s["type"] for s in states] == ["state"] * 3
            assert [s["seats"][1]["connected"] for s in states] == [False, True, True]
    # The two handshakes went uvicorn's way; every state message took the plain call.
    assert "websocket.send" not in asked and asked.count("websocket.accept") == 2


def test_a_room_socket_reads_its_messages_past_starlettes_checks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    through_starlette: list[str] = []
    receive = WebSocket.receive

    async def counted(self: WebSocket) -> Any:
        message = await receive(self)
        through_starlette.append(message["type"])
        return message

    monkeypatch.setattr(WebSocket, "receive", counted)
    with (
        toy_room_served(tmp_path, ("Ann",), ws=DirectTextFrames) as (port, code, (token,)),
        connect(f"ws://127.0.0.1:{port}/ws/{code}?token={token}") as ann,
    ):
        assert json.loads(ann.recv(timeout=10))["type"] == "state"
        for _ in range(5):
            ann.send('{"type": "ping"}')
            assert json.loads(ann.recv(timeout=10))["type"] == "pong"
    # Only the handshake's message went through Starlette's WebSocket; the five pings, and the
    # client's going, were read with the server's own receive.
    assert through_starlette == ["websocket.connect"]


def test_the_inbox_hands_out_messages_in_order_and_none_to_a_getter_that_gave_up() -> None:
    async def scenario() -> list[Any]:
        inbox = Inbox(asyncio.get_running_loop())
        assert inbox.empty()
        first = asyncio.ensure_future(inbox.get())
        second = asyncio.ensure_future(inbox.get())
        await asyncio.sleep(0)  # both wait
        inbox.put_nowait("a")
        first.cancel()  # woken for "a", but cancelled before it ran: "a" goes to the next
        inbox.put_nowait("b")
        got = [await second]
        inbox.put_nowait("c")
        got.append(await inbox.get())
        got.append(await inbox.get())
        assert inbox.empty() and first.cancelled()
        return got

    assert asyncio.run(scenario()) == ["a", "b", "c"]
