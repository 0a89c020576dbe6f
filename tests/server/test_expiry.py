"""Issue 12, point 8: rooms do not live forever, and a server holds a bounded number of them."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from recordroom.server import hub as hub_module
from recordroom.server.errors import ServerError
from recordroom.server.hub import Hub
from recordroom.server.store import SqliteStore

from .helpers import TOY_NAME, load_game

DAY = 24 * 3600.0


def stored_codes(path: Path) -> set[str]:
    with sqlite3.connect(path) as db:
        return {code for (code,) in db.execute("SELECT code FROM rooms")}


def test_idle_lobbies_and_old_finished_games_are_deleted(tmp_path: Path) -> None:
    path = tmp_path / "rooms.sqlite3"

    async def night() -> tuple[list[str], dict[str, str]]:
        hub = Hub(SqliteStore(path), (TOY_NAME,), load_game)
        old_lobby = await hub.create(TOY_NAME, {})
        new_lobby = await hub.create(TOY_NAME, {})
        old_game = await hub.create(TOY_NAME, {"rounds": 1})
        recent_game = await hub.create(TOY_NAME, {"rounds": 1})
        watched = await hub.create(TOY_NAME, {})
        watched_elsewhere = await hub.create(TOY_NAME, {})
        await watched_elsewhere.join("Cy")
        for room in (old_game, recent_game):
            await room.join("Ann"), await room.join("Bob")
            await room.start()
            await room.act(0, room.seat_view(0)[1][0], 0)
            await room.act(1, room.seat_view(1)[1][0], 1)
            assert room.status == "over"
        now = old_lobby.touched
        old_lobby.touched = now - 2 * DAY
        watched.touched = now - 2 * DAY
        watched.clients.append(object())  # type: ignore[arg-type]  # someone is looking at it
        # A phone on another process sharing the store (as its presence messages tell).
        watched_elsewhere.touched = now - 2 * DAY
        watched_elsewhere.seats[0].elsewhere = 1
        old_game.touched = now - 31 * DAY
        recent_game.touched = now - 29 * DAY
        deleted = await hub.sweep(now)
        names = {
            "old_lobby": old_lobby.code,
            "new_lobby": new_lobby.code,
            "old_game": old_game.code,
            "recent_game": recent_game.code,
            "watched": watched.code,
            "watched_elsewhere": watched_elsewhere.code,
        }
        await hub.stop_writer()
        return deleted, names

    deleted, names = asyncio.run(night())
    assert sorted(deleted) == sorted([names["old_lobby"], names["old_game"]])
    kept = {"new_lobby", "recent_game", "watched", "watched_elsewhere"}
    assert stored_codes(path) == {names[k] for k in kept}


def test_the_room_cap_answers_room_limit_and_stores_nothing(make_client: Any) -> None:
    client = make_client(max_rooms=2)
    for _ in range(2):
        assert client.post("/api/rooms", json={"game": TOY_NAME}).status_code == 201
    answer = client.post("/api/rooms", json={"game": TOY_NAME})
    assert (answer.status_code, answer.json()["code"]) == (503, "room/limit")
    assert client.get("/api/health").json()["rooms"] == 2


def test_room_creation_gives_up_when_no_code_is_free(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def night() -> str:
        hub = Hub(SqliteStore(tmp_path / "rooms.sqlite3"), (TOY_NAME,), load_game)
        monkeypatch.setattr(hub_module, "new_code", lambda: "ABCD")
        await hub.create(TOY_NAME, {})
        try:
            await hub.create(TOY_NAME, {})
        except ServerError as error:
            return error.code
        finally:
            await hub.stop_writer()
        return "created"

    assert asyncio.run(asyncio.wait_for(night(), 10)) == "room/limit"


def test_a_lobby_filled_recently_outlives_a_restart_however_old_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A lobby made two days ago whose seats were taken an hour ago is not idle: the sweep
    after a restart keeps it, as the running server would have. One left alone goes."""
    path = tmp_path / "rooms.sqlite3"
    now = 10 * DAY
    clock = [now - 2 * DAY]
    monkeypatch.setattr(hub_module.time, "time", lambda: clock[0])

    async def before_the_restart() -> tuple[str, str]:
        hub = Hub(SqliteStore(path), (TOY_NAME,), load_game)
        filled = await hub.create(TOY_NAME, {})
        forgotten = await hub.create(TOY_NAME, {})
        clock[0] = now - 3600
        await filled.join("Ann")
        await hub.stop_writer()
        return filled.code, forgotten.code

    async def after_the_restart() -> list[str]:
        hub = Hub(SqliteStore(path), (TOY_NAME,), load_game)
        hub.restore()
        clock[0] = now
        deleted = await hub.sweep(now)
        await hub.stop_writer()
        return deleted

    filled, forgotten = asyncio.run(before_the_restart())
    assert asyncio.run(after_the_restart()) == [forgotten]
    assert stored_codes(path) == {filled}
