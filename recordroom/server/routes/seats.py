"""Seats: taking one, bots in seats, handing a seat back to a person, kicking a seat."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Response

from recordroom.server.deps import ERRORS, JOINS, LOOKUPS, HostToken, HubDep
from recordroom.server.protocol import AddBot, Joined, JoinRoom, SeatHandedBack, SeatOut, TakeBack

router = APIRouter()


@router.post("/api/rooms/{code}/seats", responses=ERRORS, dependencies=[LOOKUPS, JOINS])
async def join_room(code: str, body: JoinRoom, hub: HubDep) -> Joined:
    """Takes the next free seat; keep the token to reconnect."""
    seat, token = await (await hub.room(code)).join(body.name)
    return Joined(seat=seat, token=token)


@router.post("/api/rooms/{code}/bots", responses=ERRORS, dependencies=[LOOKUPS])
async def add_bot(
    code: str,
    hub: HubDep,
    token: HostToken,
    body: Annotated[AddBot | None, Body()] = None,
) -> SeatOut:
    """(host) Adds a bot seat before the start, at a level if the game has levels."""
    room = await hub.hosted_room(code, token)
    level = body.level if body is not None else None
    hub.check_level(room, level)
    seat = await room.add_bot(level)
    return room.seats_out()[seat]


@router.post("/api/rooms/{code}/seats/{seat}/bot", responses=ERRORS, dependencies=[LOOKUPS])
async def hand_to_bot(
    code: str,
    seat: int,
    hub: HubDep,
    token: HostToken,
    body: Annotated[AddBot | None, Body()] = None,
) -> SeatOut:
    """(host) A bot plays this seat from now on, at a level if given (any seat, any time)."""
    room = await hub.hosted_room(code, token)
    level = body.level if body is not None else None
    hub.check_level(room, level)
    await room.hand_to_bot(seat, level)
    return room.seats_out()[seat]


@router.delete("/api/rooms/{code}/seats/{seat}/bot", responses=ERRORS, dependencies=[LOOKUPS])
async def take_back(
    code: str,
    seat: int,
    hub: HubDep,
    token: HostToken,
    body: Annotated[TakeBack | None, Body()] = None,
) -> SeatHandedBack:
    """(host) A person plays the seat again; with a name, a new person (and a new token)."""
    room = await hub.hosted_room(code, token)
    new_token = await room.take_back(seat, body.name if body else None)
    return SeatHandedBack(seat=seat, token=new_token)


@router.delete(
    "/api/rooms/{code}/seats/{seat}", status_code=204, responses=ERRORS, dependencies=[LOOKUPS]
)
async def kick(code: str, seat: int, hub: HubDep, token: HostToken) -> Response:
    """(host) Removes a seat before the start; later seats move up."""
    room = await hub.hosted_room(code, token)
    await room.kick(seat)
    return Response(status_code=204)
