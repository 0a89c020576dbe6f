"""The HTTP body limit: an ASGI middleware in front of every route."""

from __future__ import annotations

import json

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from recordroom import i18n
from recordroom.server.protocol import ErrorCode

MAX_BODY_BYTES = 64 * 1024
"""HTTP request bodies over this are refused with 413 ``request/too_large``."""


class BodyLimit:
    """ASGI middleware: an HTTP request body over ``limit`` bytes gets 413 ``request/too_large``.

    The declared ``Content-Length`` is refused before anything is read; a body sent without one
    (chunked) is read here up to the limit, and refused as soon as it goes past it.
    """

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await self._refuse(scope, send)
            return
        if declared is not None:
            await self.app(scope, receive, send)  # the server reads no more than declared
            return
        # No declared length (chunked): read up to the limit here, then hand the body over.
        parts: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            parts.append(message.get("body", b""))
            size += len(parts[-1])
            if size > self.limit:
                await self._refuse(scope, send)
                return
            if not message.get("more_body", False):
                break
        body = b"".join(parts)
        handed = False

        async def replay() -> Message:
            nonlocal handed
            if handed:
                return await receive()
            handed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, send: Send) -> None:
        # In the receiver's language, as every refusal (?lang=, else Accept-Language).
        request = Request(scope)
        lang = i18n.chosen(request.query_params.get("lang"), request.headers.get("accept-language"))
        code = ErrorCode.REQUEST_TOO_LARGE
        message = i18n.error_message(lang, code, f"bodies are limited to {self.limit} bytes")
        body = json.dumps({"code": code, "message": message}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [(b"content-type", b"application/json"), (b"connection", b"close")],
            }
        )
        await send({"type": "http.response.body", "body": body})
