"""Issue 12, point 2: no change of a room waits on the disk from the event loop.

Every lobby and seat change (joining, a bot, kicking, handing a seat to a bot and back, the timer,
the start) hands its write to the writer and awaits it. With a disk that takes 800 ms a commit,
another room is served within a few milliseconds while the change commits, the room itself does
not show the change before it is stored, and a change the disk refuses changes nothing.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from recordroom.server.errors import ServerError
from recordroom.server.hub import Hub
from recordroom.server.room import Room

from .helpers import TOY_NAME, load_game
from .test_one_writer import FlakyStore, Told

SLOW = 0.8
"""Seconds the slow disk takes per commit."""


async def served_while(
    change: Awaitable[Any], room: Room, other: Room
) -> tuple[Any, float, float, bool]:
    """Runs ``change``; returns its result, the longest loop gap, the time another room took to
    serve a new spectator meanwhile, and whether ``room`` looked unchanged during the commit."""
    before = ([s.record() for s in room.seats], room.status, dict(room.settings))
    gaps: list[float] = []
    running = asyncio.ensure_future(change)

    async def ticker() -> None:
        last = time.monotonic()
        while not running.done():
            await asyncio.sleep(0.005)
            now = time.monotonic()
            gaps.append(now - last)
            last = now

    ticking = asyncio.create_task(ticker())
    await asyncio.sleep(SLOW / 3)  # the change is committing now
    assert not running.done()
    unchanged = before == ([s.record() for s in room.seats], room.status, dict(room.settings))
    start = time.monotonic()
    spectator = Told()
    spectator.version = -1
    other.connect(spectator)  # served at once: the spectator gets the state
    served = time.monotonic() - start
    assert spectator.version == other.version
    other.disconnect(spectator)
    result = await running
    await ticking
    return result, max(gaps), served, unchanged


def test_lobby_and_seat_changes_await_the_writer_and_the_loop_serves_others(
    tmp_path: Path,
) -> None:
    path = tmp_path / "rooms.sqlite3"

    async def night() -> tuple[list[tuple[str, float, float, bool]], Room]:
        store = FlakyStore(path, every=0)
        hub = Hub(store, (TOY_NAME,), load_game, bot_delay=3600.0)
        room = await hub.create(TOY_NAME, {})
        other = await hub.create(TOY_NAME, {})
        watcher = Told()
        room.connect(watcher)
        store.delay = SLOW
        changes: list[tuple[str, Callable[[], Awaitable[Any]]]] = [
            ("join", lambda: room.join("Ann")),
            ("join", lambda: room.join("Bob")),
            ("add_bot", lambda: room.add_bot("random")),
            ("kick", lambda: room.kick(2)),
            ("join", lambda: room.join("Cy")),
            ("set_timer", lambda: room.set_timer(30)),
            ("start", lambda: room.start()),
            ("hand_to_bot", lambda: room.hand_to_bot(1, "highest")),
            ("take_back", lambda: room.take_back(1, "Dee")),
        ]
        figures = []
        for name, change in changes:
            _, gap, served, unchanged = await served_while(change(), room, other)
            figures.append((name, gap, served, unchanged))
        await hub.stop()
        await hub.stop_writer()
        store.close()
        return figures, room

    figures, room = asyncio.run(night())
    for name, gap, served, unchanged in figures:
        assert gap < SLOW / 2, (name, gap)  # never stuck behind a commit
        assert served < SLOW / 4, (name, served)
        assert unchanged, name  # nothing shows before it is stored
    assert [(s.name, s.bot, s.level) for s in room.seats] == [
        ("Ann", False, None),
        ("Dee", False, "highest"),  # the level is kept for the next hand-over
        ("Cy", False, None),
    ]
    assert room.status == "playing" and room.settings == {"timer": 30}
    with sqlite3.connect(path) as db:
        stored = db.execute(
            "SELECT name, token FROM seats WHERE code = ? ORDER BY seat", (room.code,)
        ).fetchall()
        (status,) = db.execute("SELECT status FROM rooms WHERE code = ?", (room.code,)).fetchone()
    assert stored == [(s.name, s.token) for s in room.seats] and status == "playing"


def test_a_change_the_disk_refuses_changes_nothing_and_tells_no_one(tmp_path: Path) -> None:
    async def night() -> tuple[list[str], Room, Told]:
        store = FlakyStore(tmp_path / "rooms.sqlite3", every=0)
        hub = Hub(store, (TOY_NAME,), load_game, bot_delay=3600.0)
        room = await hub.create(TOY_NAME, {})
        await room.join("Ann")
        await room.join("Bob")
        watcher = Told()
        room.connect(watcher)
        watcher.version = -1
        store.every = 1  # every commit fails from now on
        codes = []
        for change in (
            lambda: room.join("Cy"),
            lambda: room.add_bot(),
            lambda: room.kick(0),
            lambda: room.set_timer(10),
            lambda: room.hand_to_bot(0),
            lambda: room.start(),
        ):
            try:
                await change()
            except ServerError as error:
                codes.append(error.code)
        await hub.stop()
        await hub.stop_writer()
        store.close()
        return codes, room, watcher

    codes, room, watcher = asyncio.run(night())
    assert codes == ["server/store"] * 6
    assert [(s.name, s.bot) for s in room.seats] == [("Ann", False), ("Bob", False)]
    assert room.status == "lobby" and room.settings == {}
    assert watcher.version == -1  # nobody was told of a change that did not happen


def test_a_join_whose_caller_goes_away_mid_commit_still_lands(tmp_path: Path) -> None:
    async def night() -> tuple[int, list[str]]:
        store = FlakyStore(tmp_path / "rooms.sqlite3", every=0)
        hub = Hub(store, (TOY_NAME,), load_game)
        room = await hub.create(TOY_NAME, {})
        store.delay = 0.1
        joining = asyncio.create_task(room.join("Ann"))
        await asyncio.sleep(0.02)
        joining.cancel()
        await room.join("Bob")  # waits for Ann's join: the seats never interleave
        await hub.stop_writer()
        store.close()
        return len(room.seats), [s.name for s in room.seats]

    count, names = asyncio.run(night())
    assert (count, names) == (2, ["Ann", "Bob"])
