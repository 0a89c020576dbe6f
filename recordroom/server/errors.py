"""The server's own refusal (a stable code, a message, an HTTP status) and its close codes."""

from __future__ import annotations

from enum import IntEnum

from recordroom.engine.errors import Code


class CloseCode(IntEnum):
    """Why the server closes a WebSocket (4000-4999 are the application's own; docs/protocol.md)."""

    KICKED = 4000
    """The host removed this seat or gave it to someone else (sent with ``seat/kicked``)."""
    BAD_TOKEN = 4403
    """The token holds nothing in this room (sent with ``auth/bad_token``)."""
    NOT_FOUND = 4404
    """No room with that code (sent with ``room/not_found``)."""
    RATE_LIMITED = 4429
    """Too many connects from this client (sent with ``rate/limited``)."""
    SLOW_READER = 1008
    """The client let too much pile up unread; nothing more is sent (the standard policy code)."""


class ServerError(ValueError):
    """A refused request: a stable code, a message, and the HTTP status it maps to."""

    def __init__(self, code: Code, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
