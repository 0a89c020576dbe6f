"""Issue 12, point 7: a damaged database does not stop the night."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from recordroom.server.app import DB_NAME
from recordroom.server.hub import Hub
from recordroom.server.store import SqliteStore

from .helpers import TOY_NAME, load_game


def fill(path: Path, rooms: int) -> list[str]:
    """Stores ``rooms`` started toy rooms, each with two actions; returns their codes."""

    async def night() -> list[str]:
        hub = Hub(SqliteStore(path), (TOY_NAME,), load_game)
        codes = []
        for _ in range(rooms):
            room = await hub.create(TOY_NAME, {})
            await room.join("Ann"), await room.join("Bob")
            await room.start()
            await room.act(0, room.seat_view(0)[1][0], 0)
            await room.act(1, room.seat_view(1)[1][0], 1)
            codes.append(room.code)
        await hub.stop_writer()
        hub.store.store.close()  # type: ignore[attr-defined]
        return codes

    return asyncio.run(night())


def restore(path: Path) -> Hub:
    hub = Hub(SqliteStore(path), (TOY_NAME,), load_game)
    hub.restore()
    asyncio.run(hub.stop_writer())
    return hub


def test_one_bad_json_row_sets_that_room_aside_and_serves_the_others(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / DB_NAME
    codes = fill(path, 4)
    with sqlite3.connect(path) as db:
        db.execute(
            "UPDATE actions SET action = '{not json' WHERE code = ? AND idx = 1", (codes[2],)
        )
    with caplog.at_level(logging.ERROR, logger="recordroom.server"):
        hub = restore(path)
    assert set(hub.rooms) == {codes[0], codes[1], codes[3]}
    assert list(hub.set_aside) == [codes[2]]
    assert any(codes[2] in r.getMessage() and "set aside" in r.getMessage() for r in caplog.records)


def test_a_log_that_no_longer_replays_sets_the_room_aside(tmp_path: Path) -> None:
    path = tmp_path / DB_NAME
    codes = fill(path, 3)
    with sqlite3.connect(path) as db:
        db.execute(
            'UPDATE actions SET action = \'{"type": "bid", "card": 1}\' WHERE code = ?',
            (codes[0],),
        )
    hub = restore(path)
    assert set(hub.rooms) == set(codes[1:])
    assert "replayed" in hub.set_aside[codes[0]]


def test_a_truncated_database_is_moved_aside_and_a_fresh_one_started(
    make_client: Any, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / DB_NAME
    fill(path, 30)
    data = path.read_bytes()
    path.write_bytes(data[: 4096 + 100])  # the header page and a sliver of the next
    with caplog.at_level(logging.CRITICAL, logger="recordroom.server"):
        client = make_client(tmp_path)
        assert client.get("/api/health").json()["ok"] is True
    aside = [p for p in tmp_path.iterdir() if ".damaged-" in p.name]
    assert aside, list(tmp_path.iterdir())
    assert any("CANNOT BE READ" in r.getMessage() for r in caplog.records)
    assert client.post("/api/rooms", json={"game": TOY_NAME}).status_code == 201


def test_garbage_in_a_used_page_stops_nothing(make_client: Any, tmp_path: Path) -> None:
    path = tmp_path / DB_NAME
    codes = fill(path, 40)
    with sqlite3.connect(path) as db:
        pages = db.execute("PRAGMA page_count").fetchone()[0]
        size = db.execute("PRAGMA page_size").fetchone()[0]
    data = bytearray(path.read_bytes())
    page = pages - 2  # a page of the log, well inside the file
    data[page * size + 8 : page * size + 8 + 512] = b"\xa5" * 512
    path.write_bytes(bytes(data))
    client = make_client(tmp_path)
    assert client.get("/api/health").json()["ok"] is True
    hub = client.app.state.hub  # type: ignore[attr-defined]
    served, aside = set(hub.rooms), set(hub.set_aside)
    # Either the damaged rooms are set aside and the rest served, or the whole file was moved
    # aside; in both cases the server answers and each room it serves replays.
    assert served | aside <= set(codes)
    assert served or any(".damaged-" in p.name for p in tmp_path.iterdir())
    for code in served:
        assert client.get(f"/api/rooms/{code}").json()["version"] == 2
