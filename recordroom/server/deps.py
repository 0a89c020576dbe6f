"""What every router of the server shares: the app's services, rate limits, tokens and errors.

:func:`recordroom.server.app.create_app` keeps one :class:`Services` in ``app.state.services``
and the hub (made when the app starts) in ``app.state.hub``; the routers under
:mod:`recordroom.server.routes` reach them through the dependencies below, never through a
closure, so that each router is a plain module.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, Request, WebSocket
from fastapi.responses import JSONResponse

from recordroom import i18n
from recordroom.engine.game import Game
from recordroom.media.packs import SleeveSet
from recordroom.server.errors import ServerError
from recordroom.server.hub import Hub
from recordroom.server.music import Jukebox
from recordroom.server.pages import Pages
from recordroom.server.protocol import ErrorCode, ErrorOut
from recordroom.server.ratelimit import SlidingWindow
from recordroom.server.settings import Settings

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
"""The browser pages: the lobby, ``common/``, and each game's folder (``GameInfo.pages``)."""


@dataclass
class Services:
    """What the routes of one app share (made by ``create_app``, before the app starts)."""

    settings: Settings
    joins: SlidingWindow
    """Room creations and joins per client."""
    lookups: SlidingWindow
    """Room look-ups (info, log, WebSocket connects) and host calls per client."""
    jukebox: Jukebox
    sleeve_set: SleeveSet
    pages: Pages
    games: dict[str, Game]
    """Every game served, by name, loaded once."""


ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorOut} for status in (403, 404, 409, 413, 422, 429, 503)
}
"""The error answers of the API routes, for the OpenAPI page."""


def error_response(code: str, message: str, status: int, lang: str = i18n.DEFAULT) -> JSONResponse:
    """An error answer: ``{"code", "message"}`` in the receiver's language."""
    text = i18n.error_message(lang, code, message)
    return JSONResponse(ErrorOut(code=code, message=text).model_dump(), status_code=status)


def lang_of(request: Request | WebSocket) -> str:
    """The receiver's language: ``?lang=`` if it names one of ours, else ``Accept-Language``."""
    return i18n.chosen(request.query_params.get("lang"), request.headers.get("accept-language"))


def client_id(host: Any) -> str:
    """The address a rate limit counts a client by."""
    return str(host.host) if host is not None else "unknown"


def hub_of(request: Request) -> Hub:
    """The hub of the app serving the request."""
    hub: Hub = request.app.state.hub
    return hub


def services_of(request: Request) -> Services:
    """The services of the app serving the request."""
    services: Services = request.app.state.services
    return services


def limit(window: SlidingWindow) -> Callable[[Request], None]:
    """A dependency that counts the request against a rate limit."""

    def check(request: Request) -> None:
        if not window.allow(client_id(request.client)):
            raise ServerError(ErrorCode.RATE_LIMITED, "too many requests; wait a minute", 429)

    return check


def count_join(request: Request) -> None:
    """Counts the request against the app's limit of room creations and joins."""
    limit(services_of(request).joins)(request)


def count_lookup(request: Request) -> None:
    """Counts the request against the app's limit of room look-ups."""
    limit(services_of(request).lookups)(request)


def host_token(request: Request) -> str | None:
    """The bearer token of a request, if any."""
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else None


# The dependencies of the routes are coroutines, though nothing in them waits: FastAPI runs a
# plain function dependency in the thread pool, a hand-off that cost the event loop about a
# millisecond a request under load and made a request wait for a free thread while bots and
# pages filled the pool. Each of these runs on the event loop, at once.


async def _hub(request: Request) -> Hub:
    return hub_of(request)


async def _host_token(request: Request) -> str | None:
    return host_token(request)


async def _services(request: Request) -> Services:
    return services_of(request)


async def _count_join(request: Request) -> None:
    count_join(request)


async def _count_lookup(request: Request) -> None:
    count_lookup(request)


HubDep = Annotated[Hub, Depends(_hub)]
HostToken = Annotated[str | None, Depends(_host_token)]
ServicesDep = Annotated[Services, Depends(_services)]
JOINS = Depends(_count_join)
LOOKUPS = Depends(_count_lookup)

MAX_OPTIONS_BYTES = 8 * 1024
"""A room's ``options`` (as compact JSON) may take at most this much."""
MAX_MUSIC_BYTES = 8 * 1024
"""A room's ``music`` settings (as compact JSON) may take at most this much."""


def cap(field: str, value: Any, limit: int) -> None:
    """Refuses a request field whose compact JSON is over ``limit`` bytes (413)."""
    size = len(json.dumps(value, separators=(",", ":")).encode())
    if size > limit:
        raise ServerError(
            ErrorCode.REQUEST_TOO_LARGE, f"{field} are limited to {limit} bytes (got {size})", 413
        )
