"""The server's own refusal: a stable code, a message for people, and an HTTP status."""

from __future__ import annotations


class ServerError(ValueError):
    """A refused request: a stable code, a message, and the HTTP status it maps to."""

    def __init__(self, code: str, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
