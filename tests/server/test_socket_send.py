"""State messages go out at once through the server's own send, in order even when it waits."""

from __future__ import annotations

import asyncio
from typing import Any

from recordroom.server.sockets import RAW_SEND, Connection


class Wire:
    """A server send whose socket buffer can fill up (then a send waits until it drains)."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.writable = asyncio.Event()
        self.writable.set()

    async def send(self, message: dict[str, Any]) -> None:
        await self.writable.wait()
        self.sent.append(message["text"])


class Socket:
    """The few parts of a Starlette WebSocket a Connection uses."""

    def __init__(self, wire: Wire) -> None:
        self.scope = {RAW_SEND: wire.send}
        self.closed: int | None = None

    async def close(self, code: int) -> None:
        self.closed = code


def test_a_message_goes_out_on_the_callers_turn_when_the_socket_takes_it() -> None:
    async def run() -> list[str]:
        wire = Wire()
        connection = Connection(Socket(wire), "seat", 0)  # type: ignore[arg-type]
        pump = asyncio.create_task(connection.pump())
        connection.send_text("one")
        connection.send_text("two")
        seen = list(wire.sent)  # before the loop ran anything else
        pump.cancel()
        return seen

    assert asyncio.run(run()) == ["one", "two"]


def test_messages_keep_their_order_behind_a_send_that_waits() -> None:
    async def run() -> tuple[list[str], list[str], int | None]:
        wire = Wire()
        socket = Socket(wire)
        connection = Connection(socket, "seat", 0)  # type: ignore[arg-type]
        pump = asyncio.create_task(connection.pump())
        connection.send_text("1")
        wire.writable.clear()  # the reader fell behind: the socket's buffer is full
        for text in ("2", "3", "4"):
            connection.send_text(text)
            await asyncio.sleep(0)
        while_full = list(wire.sent)
        wire.writable.set()
        for _ in range(20):
            await asyncio.sleep(0)
        connection.send_text("5")
        for _ in range(5):
            await asyncio.sleep(0)
        connection.close("room/closed", "the room is gone")
        await asyncio.wait_for(pump, 5)
        return while_full, wire.sent, socket.closed

    while_full, sent, closed = asyncio.run(run())
    assert while_full == ["1"]
    assert sent[:5] == ["1", "2", "3", "4", "5"]
    assert '"code":"room/closed"' in sent[5].replace(" ", "") and len(sent) == 6
    assert closed is not None
