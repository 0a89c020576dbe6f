"""What ``recordroom serve`` adds to uvicorn: slow senders are cut off, tokens never logged.

* :class:`GuardedHttp` is uvicorn's HTTP protocol with one more clock: a request (its headers and
  its body) must be complete ``REQUEST_TIMEOUT`` seconds after the connection opened or the
  request began, otherwise the connection is closed. uvicorn's own ``timeout_keep_alive`` closes
  idle keep-alive connections; nothing in it closes a connection that opens and then sends a byte
  now and then (slowloris), which this does.
* :class:`RedactTokens` is a logging filter for uvicorn's loggers: seat and host tokens travel in
  the WebSocket address (``?token=...``), and the access log would print them. Every query string
  in a log line is cut off.
"""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

REQUEST_TIMEOUT = 10.0
"""Seconds a client has to send a whole request (headers and body)."""
KEEP_ALIVE_TIMEOUT = 5
"""Seconds an idle keep-alive connection stays open."""


class GuardedHttp(HttpToolsProtocol):
    """uvicorn's HTTP protocol, closing connections whose request does not arrive in time."""

    request_timeout = REQUEST_TIMEOUT
    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Starts the clock as soon as the connection opens."""
        super().connection_made(transport)
        self._arm()

    def on_message_begin(self) -> None:
        """Starts the clock for each request of a keep-alive connection."""
        super().on_message_begin()
        self._arm()

    def on_message_complete(self) -> None:
        """The whole request is here: no more clock."""
        self._disarm()
        super().on_message_complete()

    def handle_websocket_upgrade(self) -> None:
        """A WebSocket takes over the connection (it has its own pings)."""
        self._disarm()
        super().handle_websocket_upgrade()

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
