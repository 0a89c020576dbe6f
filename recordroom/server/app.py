"""The FastAPI application: the app, its middleware, its start and stop, and its routers.

Every handler is ``async`` so that all room changes run on the one event loop, one at a time.
The routes live in :mod:`recordroom.server.routes` (one router per concern) and the room socket
in :mod:`recordroom.server.sockets`; what they share, in :mod:`recordroom.server.deps`. The HTTP
API and the WebSocket messages are described in docs/protocol.md; the OpenAPI page is served at
``/docs``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocket

from recordroom import games
from recordroom.engine.game import JSONDict
from recordroom.media.packs import load_sleeve_set
from recordroom.server.deps import (
    WEB_DIR,
    HostToken,
    HubDep,
    Services,
    error_response,
    host_token,
    hub_of,
    lang_of,
    limit,
)
from recordroom.server.errors import ServerError, ours
from recordroom.server.hub import LEVELS, Hub
from recordroom.server.middleware import MAX_BODY_BYTES, BodyLimit
from recordroom.server.music import SOURCES, Jukebox, Senses
from recordroom.server.pages import Pages
from recordroom.server.protocol import CLIENT_TYPES, ErrorCode, field_path
from recordroom.server.ratelimit import window_for
from recordroom.server.routes import games as games_routes
from recordroom.server.routes import media, music, pages, rooms, seats
from recordroom.server.settings import DB_NAME, Settings, default_cache_dir
from recordroom.server.sockets import (
    MAX_QUEUED_BYTES,
    MAX_QUEUED_MESSAGES,
    RAW_SEND,
    Connection,
    room_socket,
)
from recordroom.server.store import SqliteStore

__all__ = [
    "DB_NAME",
    "MAX_BODY_BYTES",
    "MAX_QUEUED_BYTES",
    "MAX_QUEUED_MESSAGES",
    "RAW_SEND",
    "WEB_DIR",
    "BodyLimit",
    "Connection",
    "HostToken",
    "HubDep",
    "Settings",
    "create_app",
    "default_cache_dir",
    "host_token",
    "hub_of",
    "limit",
]

log = logging.getLogger("recordroom.server")


_OVER_CAP = frozenset({"string_too_long", "too_long"})
"""Pydantic's errors of a value longer than its field takes: ``request/too_large`` (413)."""


class RecordRoom(FastAPI):
    """The FastAPI application, with the room socket served in front of its layers.

    A room's phones and table connect again after every game, and every change of a room
    goes out on their sockets. None of the HTTP layers (the body limit, the error pages, the
    dependency stack, the router's walk over the routes) has anything to do with them, yet each
    held a waiting coroutine for as long as the socket lived: a room socket (``/ws/{code}``)
    goes straight to :func:`~recordroom.server.sockets.room_socket`. Everything else, other
    WebSocket addresses included, takes the application's usual way.
    """

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            path: str = scope["path"]
            code = path[4:]
            if path.startswith("/ws/") and code and "/" not in code:
                scope["app"] = self
                scope["path_params"] = {"code": code}
                scope[RAW_SEND] = send
                try:
                    await room_socket(WebSocket(scope, receive, send), receive)
                finally:
                    # The server's protocol holds the scope, and the send is the protocol's:
                    # left there, the two would wait for the garbage collector.
                    del scope[RAW_SEND]
                return
        await super().__call__(scope, receive, send)


def create_app(settings: Settings | None = None) -> FastAPI:
    """The server application (see the module docstring)."""
    settings = settings or Settings()
    names = settings.game_names if settings.game_names is not None else games.names()
    served = {name: settings.load_game(name) for name in names}
    # The words a refusal may quote (see errors.spoken): everything else quoted is left out.
    ours([*served, *SOURCES, *CLIENT_TYPES, *LEVELS, "standard"])
    ours(
        str(value)
        for game in served.values()
        for options in game.info.option_sets
        for value in options.values()
        if isinstance(value, str)
    )

    songs = max((g.info.songs for g in served.values() if g.info.music), default=0)
    jukebox = Jukebox(settings.cache_dir or default_cache_dir(), settings.music_dirs, songs)
    sleeve_set = load_sleeve_set(settings.sleeves_dir)
    if sleeve_set.pack is not None:
        for problem in sleeve_set.pack.problems:
            log.warning("sleeve pack: skipped %s", problem)
    default_options: dict[str, JSONDict] = {}
    if settings.sleeves_dir is not None:
        # The server's own sleeve set is the deck of every game that deals sleeves.
        for name, game in served.items():
            if game.info.deck_option is not None:
                default_options[name] = {game.info.deck_option: list(sleeve_set.ids())}
    # Processes sharing a Redis store count the limits together (ratelimit.SharedWindow).
    shared = settings.store if getattr(settings.store, "shared", False) else None
    counted_in = getattr(shared, "client", None)
    prefix = getattr(shared, "prefix", "")
    services = Services(
        settings=settings,
        joins=window_for(*settings.join_limit, counted_in, f"{prefix}limit:joins"),
        lookups=window_for(*settings.lookup_limit, counted_in, f"{prefix}limit:lookups"),
        jukebox=jukebox,
        sleeve_set=sleeve_set,
        pages=Pages(),
        games=served,
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = settings.store or SqliteStore(settings.data_dir / DB_NAME)
        loop = asyncio.get_running_loop()
        warming = loop.run_in_executor(None, jukebox.warm)  # the demo is made on first run
        senses = Senses(jukebox, sleeve_set)  # measures a sleeve when a bot first looks at it
        hub = Hub(
            store,
            names,
            settings.load_game,
            settings.bot_delay,
            jukebox,
            default_options,
            senses,
            settings.open_after,
        )
        hub.max_rooms = settings.max_rooms
        hub.lobby_idle = settings.lobby_idle
        hub.finished_age = settings.finished_age
        hub.restore()
        hub.attach(loop)
        app.state.hub = hub
        app.state.warming = warming
        try:
            yield
        finally:
            jukebox.stop()  # a demo still being made stops after its current track
            await hub.stop()
            await hub.stop_writer()
            services.pages.close()
            with suppress(Exception):
                await warming
            services.joins.close()
            services.lookups.close()
            if settings.store is None:
                store.close()

    app = RecordRoom(
        title="Record Room",
        summary="Rooms, seats and live game state for Disc Cover and Draft & Write Records.",
        lifespan=lifespan,
        docs_url=None,  # FastAPI's pages load from a CDN; ours works offline
        redoc_url=None,
    )
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES)
    app.state.services = services
    app.state.pages = services.pages

    @app.exception_handler(ServerError)
    async def server_error(request: Request, error: ServerError) -> JSONResponse:
        return error_response(error.code, error.message, error.status, lang_of(request))

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, error: RequestValidationError) -> JSONResponse:
        errors = error.errors()
        problems = "; ".join(f"{field_path(e['loc'])}: {e['msg']}" for e in errors)
        if all(e["type"] in _OVER_CAP for e in errors):  # a field over its own cap (a name)
            return error_response(ErrorCode.REQUEST_TOO_LARGE, problems, 413, lang_of(request))
        return error_response(ErrorCode.REQUEST_INVALID, problems, 422, lang_of(request))

    @app.exception_handler(HTTPException)
    async def unparsed_body(request: Request, error: HTTPException) -> Response:
        # FastAPI answers 400 {"detail": ...} for a body it cannot even parse (JSON nested past
        # the decoder's depth): that is a malformed body like any other.
        if error.status_code == 400:
            message = f"body: {error.detail}"
            return error_response(ErrorCode.REQUEST_INVALID, message, 422, lang_of(request))
        # No route for the address or its method: a refusal with a code like every other.
        if error.status_code == 404:
            if request.url.path.startswith("/api/music/tracks/"):  # a path, not an id
                message = "no track with that id"
                return error_response(ErrorCode.MUSIC_NOT_FOUND, message, 404, lang_of(request))
            message = "nothing is served at that address"
            return error_response(ErrorCode.REQUEST_NOT_FOUND, message, 404, lang_of(request))
        if error.status_code == 405:
            message = "that address does not take this method"
            answer = error_response(ErrorCode.REQUEST_METHOD, message, 405, lang_of(request))
            answer.headers.update(error.headers or {})  # Allow: what it does take
            return answer
        return await http_exception_handler(request, error)

    # The room socket is not among them: RecordRoom.__call__ serves it ahead of every layer.
    for router in (
        rooms.router,
        seats.router,
        music.router,
        media.router,
        games_routes.router,
    ):
        app.include_router(router)
    if WEB_DIR.is_dir():
        app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")
    app.include_router(pages.router)
    app.include_router(pages.extra_pages(served))
    return app
