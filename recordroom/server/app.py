"""The FastAPI application: the HTTP API, the WebSocket endpoint and the lobby page.

Every handler is ``async`` so that all room changes run on the one event loop, one at a time.
The HTTP API and the WebSocket messages are described in docs/protocol.md; the OpenAPI page is
served at ``/docs``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Annotated, Any

from fastapi import Body, Depends, FastAPI, Request, WebSocket
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import TypeAdapter, ValidationError
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocketDisconnect

from recordroom import games, i18n
from recordroom.engine.game import Game, JSONDict, Seat
from recordroom.engine.playout import replay
from recordroom.media.booklet import render_booklet_html, render_booklet_pdf
from recordroom.media.mosaic import MosaicError, evening_of, render_mosaic_png
from recordroom.media.packs import load_sleeve_set
from recordroom.server.codes import normalise_code
from recordroom.server.docs_page import DOCS_HTML
from recordroom.server.errors import CloseCode, ServerError
from recordroom.server.hub import Hub, game_summary
from recordroom.server.music import Jukebox, Senses
from recordroom.server.pages import Pages
from recordroom.server.protocol import (
    CLIENT_TYPES,
    ActMessage,
    AddBot,
    AgainOut,
    ClientMessage,
    CreateRoom,
    ErrorCode,
    ErrorMessage,
    ErrorOut,
    GameLog,
    GameOut,
    HoldMessage,
    Joined,
    JoinRoom,
    MusicSettings,
    PingMessage,
    PlayingMessage,
    PongMessage,
    RoomCreated,
    RoomInfo,
    SeatHandedBack,
    SeatOut,
    StartRoom,
    TakeBack,
    TakeBackMessage,
    TimerSettings,
)
from recordroom.server.qr import qr_svg
from recordroom.server.ratelimit import SlidingWindow
from recordroom.server.room import Role, Room
from recordroom.server.store import SqliteStore, Store

log = logging.getLogger("recordroom.server")
WEB_DIR = Path(__file__).resolve().parent.parent / "web"


def default_cache_dir() -> Path:
    """The user's cache folder for Record Room (the demo playlist lives there)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "recordroom"


DB_NAME = "recordroom.sqlite3"


@dataclass
class Settings:
    """How a server is set up; every field has the default ``recordroom serve`` uses."""

    data_dir: Path = Path("data")
    bot_delay: float = 0.8
    max_message_bytes: int = 64 * 1024
    join_limit: tuple[int, float] = (30, 60.0)
    """Room creations and joins per client: (count, seconds)."""
    lookup_limit: tuple[int, float] = (240, 60.0)
    """Room look-ups (info, log, WebSocket connects) per client: (count, seconds)."""
    game_names: tuple[str, ...] | None = None
    """The games served (default: every registered game)."""
    load_game: Callable[[str], Game] = games.load
    store: Store | None = None
    """A store to use instead of SQLite in ``data_dir`` (the caller closes it)."""
    music_dirs: tuple[Path, ...] = ()
    """Music folders (``--music DIR``), scanned on first use."""
    cache_dir: Path | None = None
    """Where the demo playlist is cached (default: the user's cache folder)."""
    sleeves_dir: Path | None = None
    """A custom sleeve pack (``--sleeves DIR``) that joins or replaces the built-in sleeves."""
    public_url: str | None = None
    """The address phones open (default: the address the request came to)."""
    open_after: float = 20.0
    """Seconds after a turn of a game with music began when it opens without the table (0: at
    once, the vote never waits for the song)."""
    max_rooms: int = 10_000
    """Rooms served at most; creating one more answers ``room/limit`` (503)."""
    lobby_idle: float = 24 * 3600.0
    """Seconds after which a lobby nobody touched is deleted."""
    finished_age: float = 30 * 24 * 3600.0
    """Seconds after which a finished game is deleted (``--keep-days``)."""


_client_message: TypeAdapter[ActMessage | Any] = TypeAdapter(ClientMessage)

MAX_QUEUED_BYTES = 2 * 1024 * 1024
"""Unsent bytes a client may have waiting before it is dropped."""
MAX_QUEUED_MESSAGES = 500
"""Unsent messages a client may have waiting before it is dropped."""
MAX_BODY_BYTES = 64 * 1024
"""HTTP request bodies over this are refused with 413 ``request/too_large``."""
MAX_OPTIONS_BYTES = 8 * 1024
"""A room's ``options`` (as compact JSON) may take at most this much."""
MAX_MUSIC_BYTES = 8 * 1024
"""A room's ``music`` settings (as compact JSON) may take at most this much."""
MAX_ERROR_TEXT = 200
"""Error messages are cut to this many characters: they never echo what was sent."""
MAX_JSON_DEPTH = 16
"""Client messages nested deeper than this are ``message/malformed``."""
"""Error messages are cut to this many characters: they never echo what was sent."""


def _error_response(code: str, message: str, status: int, lang: str = i18n.DEFAULT) -> JSONResponse:
    text = i18n.error_message(lang, code, message)
    return JSONResponse(ErrorOut(code=code, message=text).model_dump(), status_code=status)


def _lang_of(request: Request | WebSocket) -> str:
    """The receiver's language: ``?lang=`` if it names one of ours, else ``Accept-Language``."""
    asked = i18n.supported(request.query_params.get("lang"))
    return asked or i18n.negotiate(request.headers.get("accept-language"))


def _client_id(host: Any) -> str:
    return str(host.host) if host is not None else "unknown"


def hub_of(request: Request) -> Hub:
    """The hub of the app serving the request."""
    hub: Hub = request.app.state.hub
    return hub


def limit(window: SlidingWindow) -> Callable[[Request], None]:
    """A dependency that counts the request against a rate limit."""

    def check(request: Request) -> None:
        if not window.allow(_client_id(request.client)):
            raise ServerError(ErrorCode.RATE_LIMITED, "too many requests; wait a minute", 429)

    return check


def host_token(request: Request) -> str | None:
    """The bearer token of a request, if any."""
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else None


HubDep = Annotated[Hub, Depends(hub_of)]
HostToken = Annotated[str | None, Depends(host_token)]


class Connection:
    """One WebSocket client of a room; messages go out through a bounded queue, in order.

    A message is serialised once, when it is queued. A client that lets more than
    ``MAX_QUEUED_BYTES`` (or ``MAX_QUEUED_MESSAGES``) pile up unread is dropped with close code
    1008 (``CloseCode.SLOW_READER``): what is queued is thrown away, so it costs the server no more.
    """

    def __init__(self, websocket: WebSocket, role: Role, seat: Seat | None) -> None:
        self.websocket = websocket
        self.role = role
        self.seat = seat
        self.queue: asyncio.Queue[tuple[str | None, int | None]] = asyncio.Queue()
        self.queued_bytes = 0
        self.dropped = False
        self.lang = i18n.DEFAULT
        """The language this client reads its error messages in (``?lang=`` of the socket)."""

    def send(self, message: JSONDict) -> None:
        """Queues a message (dropped clients get nothing more)."""
        self.send_text(json.dumps(message, separators=(",", ":")))

    def send_text(self, text: str) -> None:
        """Queues an already serialised message; drops the client when it is too far behind."""
        if self.dropped:
            return
        if (
            self.queued_bytes + len(text) > MAX_QUEUED_BYTES
            or self.queue.qsize() >= MAX_QUEUED_MESSAGES
        ):
            self.drop()
            return
        self.queued_bytes += len(text)
        self.queue.put_nowait((text, None))

    def drop(self) -> None:
        """Forgets what is queued and ends the connection with 1008: it did not read."""
        self.dropped = True
        while not self.queue.empty():
            self.queue.get_nowait()
        self.queued_bytes = 0
        self.queue.put_nowait((None, CloseCode.SLOW_READER))

    def close(self, code: str, message: str) -> None:
        """Queues an error, then the end of the connection."""
        text = i18n.error_message(self.lang, code, message)
        self.send(ErrorMessage(code=code, message=text).model_dump())
        if not self.dropped:
            self.dropped = True
            self.queue.put_nowait((None, CloseCode.KICKED))

    async def pump(self) -> None:
        """Sends queued messages until the connection ends.

        Through the server's own ``send`` when :class:`RawSend` kept it (one call a message, not
        Starlette's layers of checks and wrappers), else through the WebSocket object.
        """
        raw: Send | None = getattr(self.websocket, "scope", {}).get(RAW_SEND)
        while True:
            text, close_code = await self.queue.get()
            if text is None:
                if close_code is not None:
                    await self.websocket.close(code=close_code)
                return
            self.queued_bytes -= len(text)
            if raw is not None:
                await raw({"type": "websocket.send", "text": text})
            else:
                await self.websocket.send_text(text)


RAW_SEND = "recordroom.send"
"""Where :class:`RawSend` keeps a WebSocket's ``send`` in its scope."""


class RawSend:
    """ASGI middleware: keeps the server's ``send`` of each WebSocket in its scope, so that state
    messages (already serialised, sent in order by :meth:`Connection.pump`) go straight to it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            scope[RAW_SEND] = send
        await self.app(scope, receive, send)


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
            await self._refuse(send)
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
                await self._refuse(send)
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

    async def _refuse(self, send: Send) -> None:
        body = json.dumps(
            {
                "code": ErrorCode.REQUEST_TOO_LARGE,
                "message": f"bodies are limited to {self.limit} bytes",
            }
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [(b"content-type", b"application/json"), (b"connection", b"close")],
            }
        )
        await send({"type": "http.response.body", "body": body})


def create_app(settings: Settings | None = None) -> FastAPI:
    """The server application (see the module docstring)."""
    settings = settings or Settings()
    joins = SlidingWindow(*settings.join_limit)
    lookups = SlidingWindow(*settings.lookup_limit)
    names = settings.game_names if settings.game_names is not None else games.names()

    jukebox = Jukebox(settings.cache_dir or default_cache_dir(), settings.music_dirs)
    sleeve_set = load_sleeve_set(settings.sleeves_dir)
    if sleeve_set.pack is not None:
        for problem in sleeve_set.pack.problems:
            log.warning("sleeve pack: skipped %s", problem)
    default_options: dict[str, JSONDict] = {}
    if settings.sleeves_dir is not None:
        default_options["disc-cover"] = {"sleeves": list(sleeve_set.ids())}

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = settings.store or SqliteStore(settings.data_dir / DB_NAME)
        loop = asyncio.get_running_loop()
        warming = loop.run_in_executor(None, jukebox.warm)  # the demo is made on first run
        senses = Senses(jukebox, sleeve_set)
        looking = loop.run_in_executor(None, senses.warm)  # listening bots see the sleeves
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
            pages.close()
            with suppress(Exception):
                await warming
            senses.stop()
            with suppress(Exception):
                await looking
            if settings.store is None:
                store.close()

    app = FastAPI(
        title="Record Room",
        summary="Rooms, seats and live game state for Disc Cover and Draft & Write Records.",
        lifespan=lifespan,
        docs_url=None,  # FastAPI's pages load from a CDN; ours works offline
        redoc_url=None,
    )

    @app.get("/docs", include_in_schema=False)
    async def api_docs() -> HTMLResponse:
        return HTMLResponse(DOCS_HTML)

    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES)
    app.add_middleware(RawSend)
    pages = Pages()
    app.state.pages = pages

    @app.exception_handler(ServerError)
    async def server_error(request: Request, error: ServerError) -> JSONResponse:
        return _error_response(error.code, error.message, error.status, _lang_of(request))

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, error: RequestValidationError) -> JSONResponse:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in error.errors()
        )
        return _error_response(ErrorCode.REQUEST_INVALID, problems, 422, _lang_of(request))

    @app.exception_handler(HTTPException)
    async def unparsed_body(request: Request, error: HTTPException) -> Response:
        # FastAPI answers 400 {"detail": ...} for a body it cannot even parse (JSON nested past
        # the decoder's depth): that is a malformed body like any other.
        if error.status_code == 400:
            message = f"body: {error.detail}"
            return _error_response(ErrorCode.REQUEST_INVALID, message, 422, _lang_of(request))
        return await http_exception_handler(request, error)

    errors: dict[int | str, dict[str, Any]] = {
        status: {"model": ErrorOut} for status in (403, 404, 409, 413, 422, 429, 503)
    }

    def join_url(request: Request, room: Room) -> str:
        base = settings.public_url or str(request.base_url)
        return f"{base.rstrip('/')}/join/{room.code}"

    def room_info(room: Room, request: Request) -> RoomInfo:
        info = room.game.info
        return RoomInfo(
            code=room.code,
            game=room.game_name,
            title=info.title,
            status=room.status,
            options=room.options,
            min_players=info.min_players,
            max_players=info.max_players,
            version=room.version,
            seats=room.seats_out(),
            result=room.result,
            join_url=join_url(request, room),
            music=room.music.settings if room.music else None,
        )

    @app.get("/api/health")
    async def health(hub: HubDep) -> dict[str, Any]:
        """Whether the server is up, and how many rooms it holds."""
        return {"ok": True, "rooms": len(hub.rooms)}

    @app.get("/api/games")
    async def list_games(hub: HubDep) -> list[GameOut]:
        """The games this server hosts."""
        return [GameOut(**game_summary(hub.game(name))) for name in hub.game_names]

    @app.post("/api/rooms", status_code=201, responses=errors, dependencies=[Depends(limit(joins))])
    async def create_room(body: CreateRoom, hub: HubDep) -> RoomCreated:
        """Opens a room for a game; the answer holds the host's token."""
        _cap("options", body.options, MAX_OPTIONS_BYTES)
        if body.music is not None:
            _cap("music", body.music.model_dump(), MAX_MUSIC_BYTES)
        room = await hub.create(body.game, body.options, body.music, {"timer": body.timer})
        return RoomCreated(code=room.code, host_token=room.host_token)

    @app.get("/api/rooms/{code}", responses=errors, dependencies=[Depends(limit(lookups))])
    async def get_room(code: str, hub: HubDep, request: Request) -> RoomInfo:
        """What anyone with the code may know about a room."""
        return room_info(hub.get(code), request)

    @app.post(
        "/api/rooms/{code}/seats",
        responses=errors,
        dependencies=[Depends(limit(lookups)), Depends(limit(joins))],
    )
    async def join_room(code: str, body: JoinRoom, hub: HubDep) -> Joined:
        """Takes the next free seat; keep the token to reconnect."""
        seat, token = await hub.get(code).join(body.name)
        return Joined(seat=seat, token=token)

    @app.post("/api/rooms/{code}/bots", responses=errors, dependencies=[Depends(limit(lookups))])
    async def add_bot(
        code: str,
        hub: HubDep,
        token: HostToken,
        body: Annotated[AddBot | None, Body()] = None,
    ) -> SeatOut:
        """(host) Adds a bot seat before the start, at a level if the game has levels."""
        room = hub.host_room(code, token)
        level = body.level if body is not None else None
        hub.check_level(room, level)
        seat = await room.add_bot(level)
        return room.seats_out()[seat]

    @app.post("/api/rooms/{code}/start", responses=errors, dependencies=[Depends(limit(lookups))])
    async def start_room(
        code: str, hub: HubDep, token: HostToken, request: Request, body: StartRoom | None = None
    ) -> RoomInfo:
        """(host) Starts the game with the seats taken, and the first Leader if one is chosen."""
        room = hub.host_room(code, token)
        await room.start(None if body is None else body.leader)
        return room_info(room, request)

    @app.post("/api/rooms/{code}/again", responses=errors, dependencies=[Depends(limit(lookups))])
    async def play_again(code: str, hub: HubDep, token: HostToken) -> AgainOut:
        """(host) Once the game is over: a new game with the same players, in a new room.

        The seats, their tokens, the host token, the options and the music carry over; every
        client of the old room is sent ``{"type": "again", "code": NEW}``.
        """
        room = hub.host_room(code, token)
        return AgainOut(code=(await hub.again(room)).code)

    @app.post(
        "/api/rooms/{code}/music/skip", responses=errors, dependencies=[Depends(limit(lookups))]
    )
    async def skip_track(code: str, hub: HubDep, token: HostToken) -> dict[str, Any]:
        """(host) Plays another track for the current turn."""
        room = hub.host_room(code, token)
        await room.skip_track()
        view = room.game.view(room.state, None) if room.state is not None else None
        return room.music_message(view) or {}

    @app.get("/api/rooms/{code}/qr.svg", responses=errors, dependencies=[Depends(limit(lookups))])
    async def room_qr(code: str, hub: HubDep, request: Request) -> Response:
        """The QR code of the room's join address, as an SVG picture."""
        url = join_url(request, hub.get(code))
        return Response(qr_svg(url), media_type="image/svg+xml")

    @app.get(
        "/api/rooms/{code}/mosaic.png", responses=errors, dependencies=[Depends(limit(lookups))]
    )
    async def room_mosaic(code: str, hub: HubDep, request: Request) -> Response:
        """The 3 x 3 mosaic of a finished Disc Cover game: the sleeves with their points, then the
        score and tier (or the ranking), the players' names and the date."""
        room = hub.get(code)
        if room.status != "over" or not isinstance(room.result, dict):
            raise ServerError(ErrorCode.ROOM_NOT_OVER, "the mosaic is ready once the game is over")
        entries = room.result.get("mosaic")
        if not isinstance(entries, list):
            raise ServerError(ErrorCode.ROOM_NOT_OVER, f"{room.game.info.title} has no mosaic")
        try:
            lang = _lang_of(request)
            evening = evening_of(room.result, [s.name for s in room.seats], date.today(), lang)
        except MosaicError as error:
            raise ServerError(ErrorCode.ROOM_NOT_OVER, f"no mosaic to draw: {error}") from error
        png = await pages.get(
            ("mosaic", room.code, date.today(), lang),
            lambda: render_mosaic_png(entries, sleeve_set, None, None, evening),
        )
        headers = {"Content-Disposition": f'attachment; filename="mosaic-{room.code}.png"'}
        return Response(png, media_type="image/png", headers=headers)

    @app.get("/api/music")
    async def music_catalogue() -> dict[str, Any]:
        """The music the table can choose from: each source with its themes, and the playlists."""
        return await asyncio.to_thread(jukebox.catalogue)

    @app.post("/api/music/check", responses=errors)
    async def music_check(body: MusicSettings) -> dict[str, Any]:
        """Checks music settings as room creation would; says how many tracks and if they repeat."""
        return await asyncio.to_thread(jukebox.check, body)

    @app.get("/api/music/tracks/{track_id}", responses=errors)
    async def stream_track(track_id: str) -> FileResponse:
        """A track's audio, by id (HTTP Range requests are answered with 206)."""
        path = await asyncio.to_thread(jukebox.path_of, track_id)
        track = jukebox.track(track_id)
        return FileResponse(path, media_type=track.media_type, content_disposition_type="inline")

    @app.get("/api/sleeves")
    async def list_sleeves() -> list[dict[str, Any]]:
        """Every sleeve of this server's deck with its title, artist, family and mood."""
        return [
            {"id": s.id, "title": s.title, "artist": s.artist, "family": s.family, "mood": s.mood}
            for s in sleeve_set.sleeves
        ]

    @app.get("/api/sleeves/{sleeve_id}", responses=errors)
    async def sleeve_image(sleeve_id: int) -> Response:
        """A sleeve's picture (SVG for a built-in sleeve, PNG for a pack's)."""
        try:
            image = sleeve_set.image(sleeve_id)
        except KeyError:
            raise ServerError(ErrorCode.SLEEVE_NOT_FOUND, f"no sleeve {sleeve_id}", 404) from None
        headers = {"Cache-Control": "public, max-age=86400"}
        return Response(image.data, media_type=image.content_type, headers=headers)

    @app.get("/booklet", include_in_schema=False)
    async def booklet(request: Request) -> Response:
        """The Artists Booklet: every sleeve with its title, artist, family and mood."""
        lang = _lang_of(request)
        # English is the booklet's default: its call stays the plain one.
        make = (
            (lambda: render_booklet_html(sleeve_set))
            if lang == i18n.DEFAULT
            else (lambda: render_booklet_html(sleeve_set, lang=lang))
        )
        html = await pages.get(("booklet.html", lang), make)
        return Response(html, media_type="text/html")

    @app.get("/booklet.pdf", include_in_schema=False)
    async def booklet_pdf(request: Request) -> Response:
        """The Artists Booklet, printable."""
        lang = _lang_of(request)
        make = (
            (lambda: render_booklet_pdf(sleeve_set))
            if lang == i18n.DEFAULT
            else (lambda: render_booklet_pdf(sleeve_set, lang))
        )
        pdf = await pages.get(("booklet.pdf", lang), make)
        return Response(pdf, media_type="application/pdf")

    @app.post(
        "/api/rooms/{code}/seats/{seat}/bot",
        responses=errors,
        dependencies=[Depends(limit(lookups))],
    )
    async def hand_to_bot(
        code: str,
        seat: int,
        hub: HubDep,
        token: HostToken,
        body: Annotated[AddBot | None, Body()] = None,
    ) -> SeatOut:
        """(host) A bot plays this seat from now on, at a level if given (any seat, any time)."""
        room = hub.host_room(code, token)
        level = body.level if body is not None else None
        hub.check_level(room, level)
        await room.hand_to_bot(seat, level)
        return room.seats_out()[seat]

    @app.post("/api/rooms/{code}/timer", responses=errors, dependencies=[Depends(limit(lookups))])
    async def set_timer(
        code: str, body: TimerSettings, hub: HubDep, token: HostToken
    ) -> TimerSettings:
        """(host) The decision timer: when it runs out, each undecided seat's bot decides."""
        room = hub.host_room(code, token)
        await room.set_timer(body.seconds)
        return body

    @app.delete(
        "/api/rooms/{code}/seats/{seat}/bot",
        responses=errors,
        dependencies=[Depends(limit(lookups))],
    )
    async def take_back(
        code: str,
        seat: int,
        hub: HubDep,
        token: HostToken,
        body: Annotated[TakeBack | None, Body()] = None,
    ) -> SeatHandedBack:
        """(host) A person plays the seat again; with a name, a new person (and a new token)."""
        room = hub.host_room(code, token)
        new_token = await room.take_back(seat, body.name if body else None)
        return SeatHandedBack(seat=seat, token=new_token)

    @app.delete(
        "/api/rooms/{code}/seats/{seat}",
        status_code=204,
        responses=errors,
        dependencies=[Depends(limit(lookups))],
    )
    async def kick(code: str, seat: int, hub: HubDep, token: HostToken) -> Response:
        """(host) Removes a seat before the start; later seats move up."""
        room = hub.host_room(code, token)
        await room.kick(seat)
        return Response(status_code=204)

    @app.get("/api/rooms/{code}/log", responses=errors, dependencies=[Depends(limit(lookups))])
    async def game_log(code: str, hub: HubDep) -> GameLog:
        """The action log of a finished game: with seed and options, a replay."""
        room = hub.get(code)
        if room.status != "over":
            raise ServerError(ErrorCode.ROOM_NOT_OVER, "the log is shown once the game is over")
        return GameLog(
            code=room.code,
            game=room.game_name,
            players=len(room.seats),
            seed=room.seed,
            options=room.options,
            log=room.log,  # type: ignore[arg-type]
            result=room.result,
        )

    @app.get("/api/games/records/edition", responses=errors)
    async def records_edition(edition: str = "standard") -> dict[str, Any]:
        """The board layout, cards and goals of a Records edition, for drawing the sheet."""
        from recordroom.games.records.edition import EditionError
        from recordroom.server.records_edition import records_edition as document

        try:
            return document(edition)
        except EditionError as error:
            raise ServerError(ErrorCode.GAME_UNKNOWN, str(error), 404) from None

    @app.get(
        "/api/rooms/{code}/replay/{step}", responses=errors, dependencies=[Depends(limit(lookups))]
    )
    async def replay_step(code: str, step: int, hub: HubDep) -> dict[str, Any]:
        """A finished game's public view after its first ``step`` actions (never a seat's view)."""
        room = hub.get(code)
        if room.status != "over":
            raise ServerError(ErrorCode.ROOM_NOT_OVER, "the replay is shown once the game is over")
        steps = len(room.log)
        if not 0 <= step <= steps:
            raise ServerError(
                ErrorCode.REQUEST_INVALID, f"step must be 0 to {steps}, got {step}", 422
            )
        prefix = room.log[:step]
        game, players, seed, options = room.game, len(room.seats), room.seed, room.options
        view = await pages.get(
            ("replay", room.code, step),
            lambda: game.view(replay(game, players, seed, options, prefix), None),
        )
        return {
            "code": room.code,
            "game": room.game_name,
            "step": step,
            "steps": steps,
            "entry": room.log[step - 1] if step else None,
            "view": view,
        }

    @app.websocket("/ws/{code}")
    async def room_socket(websocket: WebSocket, code: str, token: str | None = None) -> None:
        """One client of a room: state messages out, actions in (see docs/protocol.md)."""
        await websocket.accept()
        hub: Hub = websocket.app.state.hub
        lang = _lang_of(websocket)

        async def refuse(code: str, message: str, close_code: int) -> None:
            text = i18n.error_message(lang, code, message)
            await websocket.send_text(ErrorMessage(code=code, message=text).model_dump_json())
            await websocket.close(code=close_code)

        if not lookups.allow(_client_id(websocket.client)):
            await refuse(
                ErrorCode.RATE_LIMITED, "too many requests; wait a minute", CloseCode.RATE_LIMITED
            )
            return
        try:
            room = hub.get(code)
            role, seat = room.role_of(token)
        except ServerError as error:
            close = CloseCode.NOT_FOUND if error.status == 404 else CloseCode.BAD_TOKEN
            await refuse(error.code, error.message, close)
            return
        connection = Connection(websocket, role, seat)
        connection.lang = lang
        pump = asyncio.create_task(connection.pump())
        room.connect(connection)
        try:
            while not pump.done():
                try:
                    text = await websocket.receive_text()
                except (WebSocketDisconnect, RuntimeError, KeyError):
                    break
                await _handle(room, connection, text, settings.max_message_bytes)
        finally:
            room.disconnect(connection)
            connection.queue.put_nowait((None, None))
            with suppress(Exception):
                await pump

    if WEB_DIR.is_dir():
        app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")

    @app.get("/", include_in_schema=False)
    async def lobby() -> FileResponse:
        return FileResponse(WEB_DIR / "lobby" / "index.html")

    def page_of(code: str | None, page: str) -> FileResponse:
        """The page of the room's game (Disc Cover's for no room or an unknown one)."""
        folder = "disc-cover"
        room = app.state.hub.rooms.get(normalise_code(code or ""))
        if room is not None and room.game_name == "records":
            folder = "records"
        return FileResponse(WEB_DIR / folder / page)

    @app.get("/i18n/{lang}.json", include_in_schema=False)
    async def catalogue(lang: str) -> JSONResponse:
        if lang not in i18n.LANGUAGES:
            raise ServerError(ErrorCode.REQUEST_INVALID, "no catalogue for that language", 404)
        return JSONResponse(i18n.catalogue(lang), headers={"Cache-Control": "no-cache"})

    @app.get("/how-to-play/{game}", include_in_schema=False)
    async def how_to_play(game: str) -> FileResponse:
        if game not in ("disc-cover", "records"):
            raise ServerError(ErrorCode.GAME_UNKNOWN, "no such game", 404)
        return FileResponse(WEB_DIR / "rules" / f"{game}.html")

    @app.get("/table", include_in_schema=False)
    async def table_page(room: str | None = None) -> FileResponse:
        return page_of(room, "table.html")

    @app.get("/records", include_in_schema=False)
    @app.get("/records/table", include_in_schema=False)
    async def records_table_page() -> FileResponse:
        return FileResponse(WEB_DIR / "records" / "table.html")

    @app.get("/join", include_in_schema=False)
    @app.get("/join/{code}", include_in_schema=False)
    async def phone_page(code: str = "") -> FileResponse:
        return page_of(code, "phone.html")

    return app


_TOO_DEEP = object()


def _field_name(part: Any) -> str:
    """A field name of an error location, as long as it is one a client may know (no echo)."""
    if isinstance(part, int) or (isinstance(part, str) and part.isidentifier() and len(part) < 13):
        return str(part)
    return "?"


def _cap(field: str, value: Any, limit: int) -> None:
    """Refuses a request field whose compact JSON is over ``limit`` bytes (413)."""
    size = len(json.dumps(value, separators=(",", ":")).encode())
    if size > limit:
        raise ServerError(
            ErrorCode.REQUEST_TOO_LARGE, f"{field} are limited to {limit} bytes (got {size})", 413
        )


def _too_deep(value: Any, limit: int) -> bool:
    """Whether a decoded JSON value nests lists and objects more than ``limit`` levels deep."""
    level: list[tuple[Any, int]] = [(value, 1)]
    while level:
        item, depth = level.pop()
        if isinstance(item, dict | list):
            if depth > limit:
                return True
            children = item.values() if isinstance(item, dict) else item
            level.extend((child, depth + 1) for child in children)
    return False


async def _handle(room: Room, connection: Connection, text: str, max_bytes: int) -> None:
    """Handles one client message; every refusal is an error message and changes nothing."""

    def refuse(code: str, message: str) -> None:
        # Never more than a short sentence back, whatever was sent (a reader that does not read
        # must not be able to make its own error replies pile up).
        message = i18n.error_message(connection.lang, code, message)
        short = message if len(message) <= MAX_ERROR_TEXT else message[: MAX_ERROR_TEXT - 1] + "…"
        connection.send(ErrorMessage(code=code, message=short).model_dump())

    if len(text) > max_bytes or len(text.encode()) > max_bytes:
        refuse(ErrorCode.MESSAGE_TOO_LARGE, f"messages are limited to {max_bytes} bytes")
        return
    try:
        raw = json.loads(text)
    except ValueError as error:
        refuse(ErrorCode.MESSAGE_MALFORMED, f"not JSON: {error}")
        return
    except RecursionError:
        raw = _TOO_DEEP  # nested beyond what the decoder can follow
    # A text with no more opening brackets than the limit cannot nest deeper: most messages
    # are not walked at all.
    brackets = text.count("{") + text.count("[")
    if raw is _TOO_DEEP or (brackets > MAX_JSON_DEPTH and _too_deep(raw, MAX_JSON_DEPTH)):
        refuse(ErrorCode.MESSAGE_MALFORMED, f"JSON nested deeper than {MAX_JSON_DEPTH} levels")
        return
    if not isinstance(raw, dict) or not isinstance(raw.get("type"), str):
        refuse(ErrorCode.MESSAGE_MALFORMED, 'a message is a JSON object with a "type"')
        return
    if raw["type"] not in CLIENT_TYPES:
        known = ", ".join(sorted(CLIENT_TYPES))
        refuse(ErrorCode.MESSAGE_UNKNOWN_TYPE, f"unknown message type; known: {known}")
        return
    try:
        message = _client_message.validate_python(raw)
    except ValidationError as error:
        problems = "; ".join(
            f"{'.'.join(_field_name(p) for p in e['loc'][1:]) or 'message'}: {e['msg']}"
            for e in error.errors()
        )
        refuse(ErrorCode.MESSAGE_MALFORMED, problems)
        return
    if isinstance(message, PingMessage):
        connection.send(PongMessage().model_dump())
        return
    try:
        if isinstance(message, PlayingMessage | HoldMessage):
            if connection.role != "host":
                raise ServerError(
                    ErrorCode.MESSAGE_INVALID, f"only the table sends {message.type!r}", 403
                )
            if isinstance(message, PlayingMessage):
                room.open_turn(message.turn)
            else:
                room.hold_turn(message.turn)
            return
    except ServerError as error:
        refuse(error.code, error.message)
        return
    if connection.role != "seat" or connection.seat is None:
        refuse(ErrorCode.SEAT_NOT_HELD, "this connection holds no seat; join with a seat token")
        return
    try:
        if isinstance(message, TakeBackMessage):
            await room.reclaim(connection.seat)
        else:
            await room.act(connection.seat, message.action, message.version)
    except ServerError as error:
        refuse(error.code, error.message)
