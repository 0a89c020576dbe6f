"""The server's own refusal (a stable code, a message, an HTTP status) and its close codes."""

from __future__ import annotations

import re
from collections.abc import Iterable
from enum import IntEnum

from recordroom.engine.errors import Code

MAX_ERROR_TEXT = 200
"""Error messages are cut to this many characters."""

_QUOTED = re.compile(
    r"""(?<!\w)'(?:[^'\\\n]|\\.)*'(?!\w)|(?<!\w)"(?:[^"\\\n]|\\.)*"(?!\w)|\{[^{}]*\}|\[[^\[\]]*\]"""
)
"""A value as Python's ``repr`` writes it into a message: a quoted string (not an apostrophe
inside a word), or a dict or list with no other inside it."""

_OURS: set[str] = set()
"""Words a message may quote because they are the server's own (see :func:`ours`)."""


def ours(words: Iterable[str]) -> None:
    """Marks words as the server's own (game names, option values, sources, message types):
    a message may quote them, as in "variant must be 'cooperative' or 'competitive'"."""
    _OURS.update(words)


def spoken(message: str) -> str:
    """An error message as a client may read it: never what was sent, never over 200 characters.

    The server and the rules write a value into a message as ``repr`` does (``got 'X'``,
    ``action {...}``); every such value is left out (``…``) unless it is a word of the server's own,
    so a refusal never repeats a payload, a field a client made up or a code it tried.
    """
    for _ in range(8):  # the innermost brackets first, then those around them
        shorter = _QUOTED.sub(_unless_ours, message)
        if shorter == message:
            break
        message = shorter
    return message if len(message) <= MAX_ERROR_TEXT else message[: MAX_ERROR_TEXT - 1] + "…"


def _unless_ours(found: re.Match[str]) -> str:
    text = found[0]
    return text if text[0] in "'\"" and text[1:-1] in _OURS else "…"


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
