"""The WebSocket protocol ``recordroom serve`` gives uvicorn: text messages take a short way out.

Every change of a room sends a state message of a few KB to each of its sockets, so the way a
text message goes from the application to the socket is the server's busiest path. uvicorn's
WebSocket protocol hands each message to the ``websockets`` library, which builds a frame object,
checks it, serialises it into a list of chunks and joins them: several layers of Python for what
is, from a server, a two- to ten-byte header in front of the UTF-8 text (RFC 6455, section 5.2:
server frames are not masked).

:class:`DirectTextFrames` writes that header and the text to the transport itself when the
connection is plainly open and writable; anything else (the handshake, a close, binary data, a
paused or closing connection) takes uvicorn's own way, unchanged.

It reads the state uvicorn's protocol keeps on itself (``handshake_complete``, ``close_sent``,
``disconnected``, ``writable``, ``conn``, ``transport``): requirements.lock pins uvicorn, and
tests/server/test_frames.py is what tells whether a new uvicorn still keeps it so.
"""

from __future__ import annotations

import struct

from uvicorn._types import ASGISendEvent
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import State

_FINAL_TEXT = 0x81
"""The first byte of an unfragmented text frame: FIN set, opcode 1 (text)."""


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


class DirectTextFrames(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, writing an open connection's text messages straight out."""

    async def send(self, message: ASGISendEvent) -> None:
        """Sends an ASGI message: a text message of an open connection as one frame at once,
        everything else as uvicorn does."""
        if (
            message["type"] == "websocket.send"
            and message.get("bytes") is None
            and self.handshake_complete
            and not self.close_sent
            and not self.disconnected
            and self.initial_response is None
            and self.writable.is_set()
            and self.conn.state is State.OPEN
            and not self.transport.is_closing()
        ):
            text = message.get("text")
            if text is not None:
                self.transport.write(text_frame(text.encode()))
                return
        await super().send(message)
