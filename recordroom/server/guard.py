"""What ``recordroom serve`` adds to uvicorn: slow senders are cut off, tokens never logged.

* :class:`GuardedHttp` is uvicorn's HTTP protocol with one more clock: a request (its headers and
  its body) must be complete ``REQUEST_TIMEOUT`` seconds after the connection opened or the
  request began, otherwise the connection is closed. uvicorn's own ``timeout_keep_alive`` closes
  idle keep-alive connections; nothing in it closes a connection that opens and then sends a byte
  now and then (slowloris), which this does. It also caps a request's head (target and headers
  together, ``MAX_HEAD_BYTES``): beyond it the answer is 431 ``request/too_large`` and the
  connection ends, where uvicorn would keep every header in memory.
* :class:`RedactTokens` is a logging filter for uvicorn's loggers: seat and host tokens travel in
  the WebSocket address (``?token=...``), and the access log would print them. Every query string
  in a log line is cut off.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from typing import Any
from urllib.parse import parse_qs, urlsplit

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from recordroom import i18n
from recordroom.server.protocol import ErrorCode

REQUEST_TIMEOUT = 10.0
"""Seconds a client has to send a whole request (headers and body)."""
KEEP_ALIVE_TIMEOUT = 5
"""Seconds an idle keep-alive connection stays open."""
MAX_HEAD_BYTES = 32 * 1024
"""Bytes of a request's target and headers together, at most (431 ``request/too_large`` beyond)."""


_KEPT = 2048
"""Bytes of the target and of ``Accept-Language`` kept to choose the 431's language."""


class _HeadTooLarge(Exception):
    """Raised inside the parser's callback to stop reading a request whose head is too large."""


class GuardedHttp(HttpToolsProtocol):
    """uvicorn's HTTP protocol, closing connections whose request does not arrive in time."""

    request_timeout = REQUEST_TIMEOUT
    max_head_bytes = MAX_HEAD_BYTES
    _deadline: asyncio.TimerHandle | None = None
    _head_bytes = 0
    _refused = False
    _target = b""
    """The request target as far as it came (the 431's language may be asked there)."""
    _accept_language = b""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Starts the clock as soon as the connection opens."""
        super().connection_made(transport)
        self._arm()

    def on_message_begin(self) -> None:
        """Starts the clock for each request of a keep-alive connection."""
        super().on_message_begin()
        self._head_bytes = 0
        self._target = self._accept_language = b""
        self._arm()

    def on_url(self, url: bytes) -> None:
        """Counts the request target against the head's cap."""
        if len(self._target) < _KEPT:
            self._target += url[: _KEPT - len(self._target)]
        self._count(len(url))
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        """Counts each header against the head's cap."""
        if name.lower() == b"accept-language":
            self._accept_language = value[:_KEPT]
        self._count(len(name) + len(value))
        super().on_header(name, value)

    def _count(self, size: int) -> None:
        """A head over ``max_head_bytes`` gets 431 ``request/too_large`` and the connection ends.

        uvicorn would otherwise keep every header of a request in memory, however many arrive.
        """
        self._head_bytes += size
        if self._head_bytes <= self.max_head_bytes:
            return
        if not self._refused:
            self._refused = True
            self._disarm()
            said = {"code": ErrorCode.REQUEST_TOO_LARGE, "message": self._said()}
            body = json.dumps(said).encode()
            self.transport.write(
                b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
                b"content-type: application/json\r\n"
                b"content-length: " + str(len(body)).encode() + b"\r\n"
                b"connection: close\r\n\r\n" + body
            )
            self.transport.close()
        raise _HeadTooLarge  # the parser stops here; nothing more of the request is kept

    def _said(self) -> str:
        """The 431's message, in the language the request asked for (``?lang=`` of its target,
        else its ``Accept-Language``, as far as either came before the cap)."""
        query = parse_qs(urlsplit(self._target.decode("latin-1")).query)
        accept = self._accept_language.decode("latin-1")
        lang = i18n.chosen((query.get("lang") or [""])[0], accept)
        english = f"request headers are limited to {self.max_head_bytes} bytes"
        return i18n.error_message(lang, ErrorCode.REQUEST_TOO_LARGE, english)

    def send_400_response(self, msg: str) -> None:
        """uvicorn's answer to a request it cannot parse (not sent after a 431)."""
        if not self._refused:
            super().send_400_response(msg)

    def data_received(self, data: bytes) -> None:
        """Reads nothing more of a connection that was refused."""
        if not self._refused:
            super().data_received(data)

    def on_message_complete(self) -> None:
        """The whole request is here: no more clock."""
        self._disarm()
        super().on_message_complete()

    def handle_websocket_upgrade(self) -> None:
        """A WebSocket takes over the connection (it has its own pings).

        The parser goes with this protocol: it holds the protocol's callbacks, and the protocol
        holds it, so the two would wait for the garbage collector once the socket is over; a
        game's end upgrades six connections at once, and collecting them paused every room.
        """
        self._disarm()
        super().handle_websocket_upgrade()
        self.parser = None  # type: ignore[assignment]

    def connection_lost(self, exc: Exception | None) -> None:
        """Stops the clock."""
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.request_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()


_QUERY = re.compile(r"\?[^\s\"']*")


def redact(text: str) -> str:
    """The text with every query string (``?token=...``) cut to ``?…``."""
    return _QUERY.sub("?…", text)


class RedactTokens(logging.Filter):
    """Cuts query strings out of a log record's message and arguments (see the module page)."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrites the record in place; never drops it."""
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_redact_arg(a) for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: _redact_arg(v) for k, v in record.args.items()}
        return True


def _redact_arg(value: Any) -> Any:
    return redact(value) if isinstance(value, str) else value


def quiet_logs() -> None:
    """Installs :class:`RedactTokens` on every uvicorn logger (after uvicorn set them up)."""
    for name in ("uvicorn", "uvicorn.access", "uvicorn.error"):
        logging.getLogger(name).addFilter(RedactTokens())
