"""Rooms: creating one, looking it up, starting it, playing again, its log, replay and QR code."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response

from recordroom.engine.playout import replay
from recordroom.server.deps import (
    ERRORS,
    JOINS,
    LOOKUPS,
    MAX_MUSIC_BYTES,
    MAX_OPTIONS_BYTES,
    HostToken,
    HubDep,
    ServicesDep,
    cap,
)
from recordroom.server.errors import ServerError
from recordroom.server.protocol import (
    AgainOut,
    CreateRoom,
    ErrorCode,
    GameLog,
    RoomCreated,
    RoomInfo,
    StartRoom,
    TimerSettings,
)
from recordroom.server.qr import qr_svg
from recordroom.server.room import Room

router = APIRouter()


def join_url(request: Request, room: Room) -> str:
    """The address a phone opens to join the room."""
    public_url: str | None = request.app.state.services.settings.public_url
    base = public_url or str(request.base_url)
    return f"{base.rstrip('/')}/join/{room.code}"


def room_info(room: Room, request: Request) -> RoomInfo:
    """What anyone with the code may know about a room."""
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


@router.get("/api/health")
async def health(hub: HubDep) -> dict[str, Any]:
    """Whether the server is up, and how many rooms it holds."""
    return {"ok": True, "rooms": len(hub.rooms)}


@router.post("/api/rooms", status_code=201, responses=ERRORS, dependencies=[JOINS])
async def create_room(body: CreateRoom, hub: HubDep) -> RoomCreated:
    """Opens a room for a game; the answer holds the host's token."""
    cap("options", body.options, MAX_OPTIONS_BYTES)
    if body.music is not None:
        cap("music", body.music.model_dump(), MAX_MUSIC_BYTES)
    room = await hub.create(body.game, body.options, body.music, {"timer": body.timer})
    return RoomCreated(code=room.code, host_token=room.host_token)


@router.get("/api/rooms/{code}", responses=ERRORS, dependencies=[LOOKUPS])
async def get_room(code: str, hub: HubDep, request: Request) -> RoomInfo:
    """What anyone with the code may know about a room."""
    return room_info(await hub.room(code), request)


@router.post("/api/rooms/{code}/start", responses=ERRORS, dependencies=[LOOKUPS])
async def start_room(
    code: str, hub: HubDep, token: HostToken, request: Request, body: StartRoom | None = None
) -> RoomInfo:
    """(host) Starts the game with the seats taken, and the first Leader if one is chosen."""
    room = await hub.hosted_room(code, token)
    await room.start(None if body is None else body.leader)
    return room_info(room, request)


@router.post("/api/rooms/{code}/again", responses=ERRORS, dependencies=[LOOKUPS])
async def play_again(code: str, hub: HubDep, token: HostToken) -> AgainOut:
    """(host) Once the game is over: a new game with the same players, in a new room.

    The seats, their tokens, the host token, the options and the music carry over; every
    client of the old room is sent ``{"type": "again", "code": NEW}``. Asked again for the same
    room, it answers the same new room.
    """
    room = await hub.hosted_room(code, token)
    return AgainOut(code=(await hub.again(room)).code)


@router.post("/api/rooms/{code}/timer", responses=ERRORS, dependencies=[LOOKUPS])
async def set_timer(code: str, body: TimerSettings, hub: HubDep, token: HostToken) -> TimerSettings:
    """(host) The decision timer: when it runs out, each undecided seat's bot decides."""
    room = await hub.hosted_room(code, token)
    await room.set_timer(body.seconds)
    return body


@router.get("/api/rooms/{code}/qr.svg", responses=ERRORS, dependencies=[LOOKUPS])
async def room_qr(code: str, hub: HubDep, request: Request) -> Response:
    """The QR code of the room's join address, as an SVG picture."""
    url = join_url(request, await hub.room(code))
    return Response(qr_svg(url), media_type="image/svg+xml")


@router.get("/api/rooms/{code}/log", responses=ERRORS, dependencies=[LOOKUPS])
async def game_log(code: str, hub: HubDep) -> GameLog:
    """The action log of a finished game: with seed and options, a replay."""
    room = await hub.room(code)
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


@router.get("/api/rooms/{code}/replay/{step}", responses=ERRORS, dependencies=[LOOKUPS])
async def replay_step(code: str, step: int, hub: HubDep, services: ServicesDep) -> dict[str, Any]:
    """A finished game's public view after its first ``step`` actions (never a seat's view)."""
    room = await hub.room(code)
    if room.status != "over":
        raise ServerError(ErrorCode.ROOM_NOT_OVER, "the replay is shown once the game is over")
    steps = len(room.log)
    if not 0 <= step <= steps:
        raise ServerError(ErrorCode.REQUEST_INVALID, f"step must be 0 to {steps}, got {step}", 422)
    prefix = room.log[:step]
    game, players, seed, options = room.game, len(room.seats), room.seed, room.options
    view = await services.pages.get(
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
