"""The WebSocket protocol of ``recordroom serve``: text messages written straight out arrive whole,
whatever their length, and everything else still goes uvicorn's way."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket
from websockets.exceptions import ConnectionClosed
from websockets.server import ServerProtocol
from websockets.sync.client import connect

from recordroom.server.frames import DirectTextFrames, text_frame

from .helpers import served

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
