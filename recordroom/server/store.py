"""Where rooms live between restarts: a small interface and its SQLite implementation.

The hub talks to a :class:`Store` only, so another backend (Redis, for running several server
processes) can be added without touching rooms. Two rules every store keeps:

* :meth:`Store.append_action` returns only once the action is durable (committed): the server
  tells clients about an action only after that.
* :meth:`Store.load_rooms` gives back every room with its seats and its whole action log, in the
  order the actions were accepted, so the room can be rebuilt by replaying the log.

:class:`SqliteStore` keeps everything in one file in the data folder, in WAL mode with
``synchronous=FULL``: one short transaction per action, so a ``kill -9`` (or a power cut) after the
commit keeps the action.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from recordroom.engine.game import Action, JSONDict, Seat


@dataclass
class SeatRecord:
    """One seat as stored: who holds it and whether a bot plays it."""

    name: str
    token: str | None
    bot: bool
    level: str | None = None
    """The bot level the seat plays at when a bot plays it (None: the game's default bot)."""


@dataclass
class RoomRecord:
    """One room as stored (``players`` is set when the game starts)."""

    code: str
    game: str
    options: JSONDict
    seed: int
    host_token: str
    status: str = "lobby"
    seats: list[SeatRecord] = field(default_factory=list)
    log: list[dict[str, Any]] = field(default_factory=list)
    result: JSONDict | None = None
    music: JSONDict | None = None
    """The room's music settings and skips, for a game with music."""
    settings: JSONDict = field(default_factory=dict)
    """Room-level settings (such as the vote timer); empty when none were set."""


class Store(Protocol):
    """What the server needs from a place that keeps rooms."""

    def create_room(self, room: RoomRecord) -> None:
        """Stores a new room (its code must be unused)."""
        ...

    def code_taken(self, code: str) -> bool:
        """Whether a room with that code exists."""
        ...

    def save_seats(self, code: str, seats: list[SeatRecord]) -> None:
        """Replaces the room's seats."""
        ...

    def set_status(self, code: str, status: str, result: JSONDict | None = None) -> None:
        """Records that the room's game started ("playing") or ended ("over", with its result)."""
        ...

    def append_action(self, code: str, index: int, seat: Seat, action: Action) -> None:
        """Appends the ``index``-th accepted action; durable when this returns."""
        ...

    def set_music(self, code: str, music: JSONDict | None) -> None:
        """Replaces the room's music settings and skips."""
        ...

    def set_settings(self, code: str, settings: JSONDict) -> None:
        """Replaces the room's room-level settings."""
        ...

    def load_rooms(self) -> Iterator[RoomRecord]:
        """Every stored room, with seats and log."""
        ...

    def close(self) -> None:
        """Releases the store."""
        ...


_SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    seed INTEGER NOT NULL,
    host_token TEXT NOT NULL,
    status TEXT NOT NULL,
    result TEXT,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    code TEXT NOT NULL REFERENCES rooms(code),
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    token TEXT,
    bot INTEGER NOT NULL,
    PRIMARY KEY (code, seat)
);
CREATE TABLE IF NOT EXISTS actions (
    code TEXT NOT NULL REFERENCES rooms(code),
    idx INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (code, idx)
);
"""


class SqliteStore:
    """A :class:`Store` in one SQLite file (WAL, one transaction per write)."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        # The app runs on one event loop, but test clients drive it from another thread.
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(_SCHEMA)
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(rooms)")}
        if "music" not in columns:  # a data folder from before rooms had music
            self._db.execute("ALTER TABLE rooms ADD COLUMN music TEXT")
        if "settings" not in columns:  # a data folder from before rooms had settings
            self._db.execute("ALTER TABLE rooms ADD COLUMN settings TEXT")
        seat_columns = {row[1] for row in self._db.execute("PRAGMA table_info(seats)")}
        if "level" not in seat_columns:  # a data folder from before bot levels were kept
            self._db.execute("ALTER TABLE seats ADD COLUMN level TEXT")

    def _write(self, sql: str, *rows: tuple[Any, ...]) -> None:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            for row in rows:
                self._db.execute(sql, row)
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def create_room(self, room: RoomRecord) -> None:
        """Stores a new room."""
        self._write(
            "INSERT INTO rooms (code, game, options, seed, host_token, status, result, created, "
            "music, settings) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                room.code,
                room.game,
                json.dumps(room.options),
                room.seed,
                room.host_token,
                room.status,
                None,
                time.time(),
                None if room.music is None else json.dumps(room.music),
                json.dumps(room.settings) if room.settings else None,
            ),
        )

    def code_taken(self, code: str) -> bool:
        """Whether a room with that code exists."""
        row = self._db.execute("SELECT 1 FROM rooms WHERE code = ?", (code,)).fetchone()
        return row is not None

    def save_seats(self, code: str, seats: list[SeatRecord]) -> None:
        """Replaces the room's seats in one transaction."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            self._db.execute("DELETE FROM seats WHERE code = ?", (code,))
            self._db.executemany(
                "INSERT INTO seats (code, seat, name, token, bot, level) VALUES (?, ?, ?, ?, ?, ?)",
                [(code, i, s.name, s.token, int(s.bot), s.level) for i, s in enumerate(seats)],
            )
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def set_status(self, code: str, status: str, result: JSONDict | None = None) -> None:
        """Records the room's status (and result, once over)."""
        self._write(
            "UPDATE rooms SET status = ?, result = ? WHERE code = ?",
            (status, None if result is None else json.dumps(result), code),
        )

    def append_action(self, code: str, index: int, seat: Seat, action: Action) -> None:
        """Appends one accepted action, committed before returning."""
        self._write(
            "INSERT INTO actions VALUES (?, ?, ?, ?, ?)",
            (code, index, seat, json.dumps(action), time.time()),
        )

    def set_music(self, code: str, music: JSONDict | None) -> None:
        """Replaces the room's music settings and skips."""
        self._write(
            "UPDATE rooms SET music = ? WHERE code = ?",
            (None if music is None else json.dumps(music), code),
        )

    def set_settings(self, code: str, settings: JSONDict) -> None:
        """Replaces the room's room-level settings."""
        self._write(
            "UPDATE rooms SET settings = ? WHERE code = ?",
            (json.dumps(settings) if settings else None, code),
        )

    def load_rooms(self) -> Iterator[RoomRecord]:
        """Every room, oldest first, with seats and its log in order."""
        rooms = self._db.execute(
            "SELECT code, game, options, seed, host_token, status, result, music, settings "
            "FROM rooms ORDER BY created"
        ).fetchall()
        for code, game, options, seed, host_token, status, result, music, settings in rooms:
            seats = [
                SeatRecord(name, token, bool(bot), level)
                for name, token, bot, level in self._db.execute(
                    "SELECT name, token, bot, level FROM seats WHERE code = ? ORDER BY seat",
                    (code,),
                )
            ]
            log = [
                {"seat": seat, "action": json.loads(action)}
                for seat, action in self._db.execute(
                    "SELECT seat, action FROM actions WHERE code = ? ORDER BY idx", (code,)
                )
            ]
            yield RoomRecord(
                code=code,
                game=game,
                options=json.loads(options),
                seed=seed,
                host_token=host_token,
                status=status,
                seats=seats,
                log=log,
                result=None if result is None else json.loads(result),
                music=None if music is None else json.loads(music),
                settings={} if settings is None else json.loads(settings),
            )

    def close(self) -> None:
        """Closes the database file."""
        self._db.close()
