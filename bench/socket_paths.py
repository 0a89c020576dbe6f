"""What a room socket's message costs on its way out and a client's on its way in, in-process.

Usage::

    python bench/socket_paths.py [--messages 100000] [--rounds 3]

One WebSocket connection is opened (a real handshake) on each of two server protocols, over a
transport that keeps nothing, in one event loop: ``recordroom serve``'s own
(:class:`~recordroom.server.frames.DirectTextFrames`) and uvicorn's, which it replaces. On each:

* **out**: a state message of 2,700 characters sent ``--messages`` times by a room's
  :class:`~recordroom.server.sockets.Connection`, as a change of a room sends it;
* **in**: a client's action (a masked text frame) given ``--messages`` times to the protocol as
  the socket's data, each taken by the application (one turn of the loop each).

It prints the CPU time of each per message, and the ratio of the two protocols, round by round:
the machine's speed drifts, and both protocols are measured in each round.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import os
import time
from typing import Any

from uvicorn.config import Config
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState

from recordroom.server.frames import DirectTextFrames
from recordroom.server.sockets import RAW_SEND, Connection

STATE = "x" * 2700
ACTION = b'{"type":"act","action":{"type":"vote","card":3},"version":17}'


class Nowhere(asyncio.Transport):
    """A transport that takes every write and keeps nothing."""

    def write(self, data: bytes | bytearray | memoryview) -> None:
        pass

    def is_closing(self) -> bool:
        return False

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"sockname": ("127.0.0.1", 8000), "peername": ("127.0.0.1", 50000)}.get(
            name, default
        )

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass

    def close(self) -> None:
        pass


class Socket:
    """A server protocol with one accepted connection, and what its application was given."""

    def __init__(self, kind: type[WebSocketsSansIOProtocol]) -> None:
        self.kind = kind
        self.receive: Any = None
        self.send: Any = None
        self.received = 0
        self.accepted: asyncio.Future[None] | None = None

    async def app(self, scope: Any, receive: Any, send: Any) -> None:
        self.receive, self.send = receive, send
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        assert self.accepted is not None
        self.accepted.set_result(None)
        while (await receive())["type"] == "websocket.receive":
            self.received += 1

    async def open(self) -> WebSocketsSansIOProtocol:
        loop = asyncio.get_running_loop()
        self.accepted = loop.create_future()
        config = Config(
            app=self.app,
            ws=self.kind,
            ws_per_message_deflate=False,
            ws_ping_interval=None,
            log_level="warning",
            lifespan="off",
            interface="asgi3",
        )
        config.load()
        protocol = self.kind(config=config, server_state=ServerState(), app_state={}, _loop=loop)
        protocol.connection_made(Nowhere())
        key = base64.b64encode(os.urandom(16)).decode()
        protocol.data_received(
            f"GET /ws/BENCH HTTP/1.1\r\nHost: bench\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            f"Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        await self.accepted
        return protocol


def masked(payload: bytes) -> bytes:
    mask = os.urandom(4)
    return (
        bytes((0x81, 0x80 | len(payload)))
        + mask
        + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    )


class _Scoped:
    def __init__(self, send: Any) -> None:
        self.scope = {RAW_SEND: send}


async def measure(kind: type[WebSocketsSansIOProtocol], messages: int) -> tuple[float, float]:
    """CPU microseconds per message out and per message in."""
    socket = Socket(kind)
    protocol = await socket.open()
    connection = Connection(_Scoped(socket.send), "seat", 0)  # type: ignore[arg-type]
    started = time.process_time()
    for _ in range(messages):
        connection.send_text(STATE)
    out = time.process_time() - started
    frame = masked(ACTION)
    started = time.process_time()
    for _ in range(messages):
        protocol.data_received(frame)
        await asyncio.sleep(0)
    while socket.received < messages:
        await asyncio.sleep(0)
    into = time.process_time() - started
    protocol.connection_lost(None)  # the application's loop ends
    await asyncio.sleep(0)
    return out / messages * 1e6, into / messages * 1e6


async def main(messages: int, rounds: int) -> None:
    for number in range(1, rounds + 1):
        ours = await measure(DirectTextFrames, messages)
        theirs = await measure(WebSocketsSansIOProtocol, messages)
        print(
            f"round {number}: out {ours[0]:.2f} us a message (uvicorn's protocol "
            f"{theirs[0]:.2f} us, {theirs[0] / ours[0]:.1f} x), in {ours[1]:.2f} us "
            f"(uvicorn's {theirs[1]:.2f} us, {theirs[1] / ours[1]:.1f} x)"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=100_000, help="messages each way")
    parser.add_argument("--rounds", type=int, default=3, help="rounds (both protocols in each)")
    args = parser.parse_args()
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    asyncio.run(main(args.messages, args.rounds))
