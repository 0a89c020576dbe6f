"""The WebSocket protocol ``recordroom serve`` gives uvicorn: text messages take a short way out,
and a client's text frames a short way in.

Every change of a room sends a state message of a few KB to each of its sockets, so the way a
text message goes from the application to the socket is the server's busiest path. uvicorn's
WebSocket protocol hands each message to the ``websockets`` library, which builds a frame object,
checks it, serialises it into a list of chunks and joins them: several layers of Python for what
is, from a server, a two- to ten-byte header in front of the UTF-8 text (RFC 6455, section 5.2:
server frames are not masked).

:class:`DirectTextFrames` writes that header and the text to the transport itself when the
connection is plainly open and writable (:meth:`~DirectTextFrames.write_text`, which a room's
socket calls directly); anything else (the handshake, a close, binary data, a paused or closing
connection) takes uvicorn's own way, unchanged.

The way in is the mirror image: once the handshake is done and the library's parser waits for the
first byte of a frame, a chunk of whole, masked, unfragmented text frames (and the pongs that
answer the server's pings) is read here, each message handed to the application as uvicorn would.
At the first byte of anything else (a ping, a close, binary data, a fragment, a frame cut by the
network, a frame of 64 KiB or more or over ``ws_max_size``, text that is not UTF-8), the rest of
the stream, from the start of that frame, goes to the library for good, which answers it as it
always did. What the application is handed waits in an :class:`Inbox`, a queue with only what
uvicorn asks of one.

It reads the state uvicorn's protocol keeps on itself (``handshake_complete``, ``close_sent``,
``disconnected``, ``initial_response``, ``writable``, ``read_paused``, ``queue``, ``config``,
``conn``, ``transport``), calls its ``handle_pong``, and looks at where the library's parser
stands: requirements.lock pins uvicorn and websockets, and tests/server/test_frames.py is what
tells whether new ones still keep them so.
"""

from __future__ import annotations

import asyncio
import contextlib
import struct
from collections import deque
from typing import Any

from uvicorn._types import ASGISendEvent
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import Frame, Opcode
from websockets.protocol import State
from websockets.streams import StreamReader

try:
    from websockets.speedups import apply_mask
except ImportError:  # the library installed without its C extension
    from websockets.utils import apply_mask

_FINAL_TEXT = 0x81
"""The first byte of an unfragmented text frame: FIN set, opcode 1 (text)."""
_PONG = 0x8A
"""The first byte of a pong: FIN set, opcode 10."""
_MASKED = 0x80
"""The bit of a frame's second byte that says its payload is masked (every client frame is)."""


def text_frame(payload: bytes) -> bytes:
    """An unmasked, unfragmented text frame of ``payload`` (already UTF-8)."""
    length = len(payload)
    if length < 126:
        head = bytes((_FINAL_TEXT, length))
    elif length < 1 << 16:
        head = struct.pack("!BBH", _FINAL_TEXT, 126, length)
    else:
        head = struct.pack("!BBQ", _FINAL_TEXT, 127, length)
    return head + payload


class Inbox:
    """What uvicorn's protocol holds for the application to receive: the three methods of an
    ``asyncio.Queue`` it calls (``put_nowait``, ``get``, ``empty``), without the queue's count of
    unfinished tasks and the event that goes with it, or a look-up of the running loop for
    every message."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._messages: deque[Any] = deque()
        self._getters: deque[asyncio.Future[None]] = deque()

    def put_nowait(self, message: Any) -> None:
        """Adds a message, and wakes the first getter still waiting."""
        self._messages.append(message)
        self._wake_one()

    async def get(self) -> Any:
        """The next message, once there is one (first come, first served)."""
        while not self._messages:
            getter = self._loop.create_future()
            self._getters.append(getter)
            try:
                await getter
            except BaseException:
                getter.cancel()
                with contextlib.suppress(ValueError):
                    self._getters.remove(getter)
                if self._messages and not getter.cancelled():
                    self._wake_one()  # the message it was woken for is another's now
                raise
        return self._messages.popleft()

    def empty(self) -> bool:
        """Whether no message waits."""
        return not self._messages

    def _wake_one(self) -> None:
        while self._getters:
            getter = self._getters.popleft()
            if not getter.done():
                getter.set_result(None)
                return


def _waits_for_a_frame(parser: Any) -> bool:
    """Whether the library's parser (a generator) waits for the first byte of a frame: the
    innermost generator it is suspended in is the reader's ``at_eof``."""
    while getattr(parser, "gi_yieldfrom", None) is not None:
        parser = parser.gi_yieldfrom
    return getattr(parser, "gi_code", None) is StreamReader.at_eof.__code__


class DirectTextFrames(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, with an open connection's text frames written and read
    here (see the module docstring)."""

    reading_frames = False
    """Whether incoming data is read here: from the handshake's end until anything else comes."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.queue: Inbox = Inbox(self.loop)  # type: ignore[assignment]

    def write_text(self, text: str) -> bool:
        """Writes a text message as one frame at once if the connection is plainly open and
        writable; False, with nothing written, otherwise (:meth:`send` then knows what to do)."""
        if (
            self.handshake_complete
            and not self.close_sent
            and not self.disconnected
            and self.initial_response is None
            and self.writable.is_set()
            and self.conn.state is State.OPEN
            and not self.transport.is_closing()
        ):
            self.transport.write(text_frame(text.encode()))
            return True
        return False

    async def send(self, message: ASGISendEvent) -> None:
        """Sends an ASGI message: a text message of an open connection as one frame at once,
        everything else as uvicorn does."""
        if message["type"] == "websocket.send" and message.get("bytes") is None:
            text = message.get("text")
            if text is not None and self.write_text(text):
                return
        await super().send(message)
        if (
            message["type"] == "websocket.accept"
            and self.handshake_complete
            and self.conn.state is State.OPEN
            and not self.conn.reader.buffer
            and not self.conn.events
            and _waits_for_a_frame(self.conn.parser)
        ):
            self.reading_frames = True

    def data_received(self, data: bytes) -> None:
        """Reads whole text frames (and pongs) here while :attr:`reading_frames`; the rest of the
        stream, from the first frame of any other kind, goes to the library."""
        if self.reading_frames:
            taken = self._take_frames(data)
            if taken == len(data):
                return
            self.reading_frames = False
            data = data[taken:]
        super().data_received(data)

    def _take_frames(self, data: bytes) -> int:
        """Hands the application each whole text frame at the start of ``data`` and answers its
        pongs; returns how many bytes that took, up to the first frame left to the library."""
        end = len(data)
        start = 0
        while end - start >= 6:  # the shortest masked frame: 2 bytes of header, 4 of mask
            first, second = data[start], data[start + 1]
            length = second & 0x7F
            if not second & _MASKED or length == 127:
                break
            mask_at = start + 2
            if length == 126:
                if end - start < 8:
                    break
                length = int.from_bytes(data[mask_at : mask_at + 2], "big")
                mask_at += 2
            payload_at = mask_at + 4
            stop = payload_at + length
            if stop > end:
                break  # cut in two by the network: the library puts it together
            is_text = (
                first == _FINAL_TEXT and length <= self.config.ws_max_size and not self.close_sent
            )
            if not is_text and (first != _PONG or length >= 126):  # left to the library
                break
            payload = apply_mask(data[payload_at:stop], data[mask_at:payload_at])
            if is_text:
                try:
                    message = payload.decode()
                except UnicodeDecodeError:
                    break
                self.queue.put_nowait({"type": "websocket.receive", "text": message})
                if not self.read_paused:
                    self.read_paused = True
                    self.transport.pause_reading()
            else:
                self.handle_pong(Frame(Opcode.PONG, payload))
            start = stop
        return start
