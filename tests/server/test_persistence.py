"""Point 4: every accepted action is committed before anyone is told; restarts lose nothing."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from recordroom.engine.playout import replay
from recordroom.server.app import DB_NAME
from recordroom.server.room import Room
from recordroom.server.store import AppendAction, SqliteStore, Write

from .helpers import TOY, TOY_NAME, Socket, TestClient, host, new_room


def stored_actions(data_dir: Path, code: str) -> int:
    """Counts the room's actions through a connection of its own, as another process would."""
    with sqlite3.connect(data_dir / DB_NAME) as db:
        (count,) = db.execute("SELECT COUNT(*) FROM actions WHERE code = ?", (code,)).fetchone()
    return int(count)


def play(sockets: list[Socket], steps: int, data_dir: Path, code: str) -> None:
    """Each step the lowest active seat bids its first card; checks the store after every tell."""
    for _ in range(steps):
        state = sockets[0].state
        if state["status"] == "over":
            return
        seat = next(i for i, s in enumerate(sockets) if s.state["legal_actions"])
        mine = sockets[seat].state
        sockets[seat].send(
            {"type": "act", "version": mine["version"], "action": mine["legal_actions"][0]}
        )
        for socket in sockets:
            told = socket.recv_state()
            assert stored_actions(data_dir, code) >= told["version"]


def test_rooms_come_back_after_a_restart_with_every_seat_and_view(
    make_client: Any, tmp_path: Path
) -> None:
    first = make_client()
    code, host_token, tokens = new_room(first, TOY_NAME, 3)
    first.post(f"/api/rooms/{code}/start", headers=host(host_token))
    contexts = [first.websocket_connect(f"/ws/{code}?token={t}") for t in tokens]
    sockets = [Socket(c.__enter__()) for c in contexts]
    for i, socket in enumerate(sockets):
        for _ in range(len(sockets) - i):
            socket.recv_state()
    play(sockets, 5, tmp_path, code)
    before = [s.state for s in sockets]
    for c in contexts:
        c.__exit__(None, None, None)
    first.__exit__(None, None, None)

    second = make_client()
    info = second.get(f"/api/rooms/{code}").json()
    assert info["status"] == "playing"
    assert info["version"] == 5
    assert [s["connected"] for s in info["seats"]] == [False, False, False]
    contexts = [second.websocket_connect(f"/ws/{code}?token={t}") for t in tokens]
    sockets = [Socket(c.__enter__()) for c in contexts]
    for i, socket in enumerate(sockets):
        for _ in range(len(sockets) - i):
            socket.recv_state()
    for old, new in zip(before, sockets, strict=True):
        assert new.state["seat"] == old["seat"]
        assert new.state["view"] == old["view"]
        assert new.state["legal_actions"] == old["legal_actions"]
    play(sockets, 100, tmp_path, code)
    assert sockets[0].state["status"] == "over"
    result = sockets[0].state["result"]
    for c in contexts:
        c.__exit__(None, None, None)

    third = make_client()
    log = third.get(f"/api/rooms/{code}/log").json()
    assert log["result"] == result
    final = replay(TOY, 3, log["seed"], log["options"], log["log"])
    assert TOY.result(final) == result
    assert third.get(f"/api/rooms/{code}").json()["status"] == "over"


class FailingStore(SqliteStore):
    """A store whose disk fails on every group that holds an action."""

    def commit(self, jobs: Sequence[Sequence[Write]]) -> list[Exception | None]:
        if any(isinstance(write, AppendAction) for job in jobs for write in job):
            raise OSError("disk full")
        return super().commit(jobs)


def test_an_action_the_store_refused_is_told_to_no_one(make_client: Any, tmp_path: Path) -> None:
    store = FailingStore(tmp_path / "failing.sqlite3")
    client: TestClient = make_client(store=store)
    code, host_token, tokens = new_room(client, TOY_NAME, 2)
    client.post(f"/api/rooms/{code}/start", headers=host(host_token))
    with (
        client.websocket_connect(f"/ws/{code}?token={tokens[0]}") as a,
        client.websocket_connect(f"/ws/{code}?token={tokens[1]}") as b,
    ):
        first, second = Socket(a), Socket(b)
        first.recv_state(), first.recv_state(), second.recv_state()
        first.send({"type": "act", "version": 0, "action": first.state["legal_actions"][0]})
        assert first.recv()["code"] == "server/store"
        second.send({"type": "ping"})
        assert second.recv() == {"type": "pong"}  # no state message came before it
    assert client.get(f"/api/rooms/{code}").json()["version"] == 0
    store.close()


def test_store_round_trip(tmp_path: Path) -> None:
    from recordroom.server.store import RoomRecord, SeatRecord

    store = SqliteStore(tmp_path / "rooms.sqlite3")
    assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    store.create_room(RoomRecord("ACDE", TOY_NAME, {"rounds": 2}, 7, "host"))
    store.save_seats("ACDE", [SeatRecord("Ann", "t0", False), SeatRecord("Bot 2", None, True)])
    store.set_status("ACDE", "playing")
    store.append_action("ACDE", 0, 1, {"type": "bid", "card": 1001})
    assert store.code_taken("ACDE") and not store.code_taken("ZZZZ")
    store.close()
    (room,) = SqliteStore(tmp_path / "rooms.sqlite3").load_rooms()
    assert room.options == {"rounds": 2}
    assert room.seats[1] == SeatRecord("Bot 2", None, True)
    assert room.log == [{"seat": 1, "action": {"type": "bid", "card": 1001}}]
    assert room.status == "playing"


def test_seat_levels_and_room_settings_round_trip(tmp_path: Path) -> None:
    from recordroom.server.store import RoomRecord, SeatRecord

    store = SqliteStore(tmp_path / "rooms.sqlite3")
    store.create_room(RoomRecord("ACDE", TOY_NAME, {}, 7, "host", settings={"vote_timer": 30}))
    store.create_room(RoomRecord("BCDE", TOY_NAME, {}, 8, "host"))
    store.save_seats(
        "ACDE", [SeatRecord("Ann", "t0", False), SeatRecord("Bot", None, True, "hard")]
    )
    store.set_settings("BCDE", {"vote_timer": 10})
    store.close()
    rooms = {r.code: r for r in SqliteStore(tmp_path / "rooms.sqlite3").load_rooms()}
    first, second = rooms["ACDE"], rooms["BCDE"]
    assert first.seats == [
        SeatRecord("Ann", "t0", False, None),
        SeatRecord("Bot", None, True, "hard"),
    ]
    assert first.settings == {"vote_timer": 30}
    assert second.settings == {"vote_timer": 10}
    # The room in memory carries both through, back to the record it would store.
    room = Room.from_record(first, TOY, store)
    assert room.seats[1].level == "hard" and room.settings == {"vote_timer": 30}
    assert room.record().seats == first.seats and room.record().settings == first.settings


def test_a_database_from_before_levels_and_settings_gains_the_columns(tmp_path: Path) -> None:
    path = tmp_path / "rooms.sqlite3"
    with sqlite3.connect(path) as db:
        db.executescript(
            "CREATE TABLE rooms (code TEXT PRIMARY KEY, game TEXT NOT NULL, options TEXT NOT NULL,"
            " seed INTEGER NOT NULL, host_token TEXT NOT NULL, status TEXT NOT NULL, result TEXT,"
            " created REAL NOT NULL, music TEXT);"
            "CREATE TABLE seats (code TEXT NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL,"
            " token TEXT, bot INTEGER NOT NULL, PRIMARY KEY (code, seat));"
            f"INSERT INTO rooms VALUES ('ACDE', '{TOY_NAME}', '{{}}', 7, 'h', 'lobby', NULL, 1,"
            " NULL);"
            "INSERT INTO seats VALUES ('ACDE', 0, 'Ann', 't0', 0);"
        )
    (room,) = SqliteStore(path).load_rooms()
    assert room.settings == {}
    assert room.seats[0].level is None
