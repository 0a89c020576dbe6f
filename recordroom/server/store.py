"""Where rooms live between restarts: a small interface and its SQLite implementation.

The hub talks to a :class:`Store` only, so another backend (Redis, for running several server
processes) can be added without touching rooms. Every write is a :data:`Write` (a new room, the
seats, the status, one action, the music, the settings, a deletion); writes are handed to a store
in *jobs* (a job is a few writes that stand or fall together) and *groups* of jobs, through
:meth:`Store.commit`. The rules every store keeps:

* :meth:`Store.commit` returns only once every job it reports as done is durable; a job it
  refuses leaves nothing behind, and does not take the other jobs of its group down with it.
* :meth:`Store.load_rooms` gives back every room with its seats and its whole action log, in the
  order the actions were accepted, so the room can be rebuilt by replaying the log.

Nothing else writes: the server runs every write through one
:class:`~recordroom.server.writer.Writer` (one thread), which commits the jobs that arrived while
the previous commit ran as one group.

:class:`SqliteStore` keeps everything in one file in the data folder, in WAL mode with
``synchronous=FULL``: one transaction (one fsync) per group, each job all or nothing (a run of
actions is one statement, any other job has a savepoint of its own), so a ``kill -9`` (or a power
cut) after the commit keeps every action of the group.
"""

from __future__ import annotations

import functools
import json
import logging
import sqlite3
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, cast

from recordroom.engine.game import Action, JSONDict, Seat

log = logging.getLogger("recordroom.server")


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
    touched: float | None = None
    """When (``time.time()``) the room was last written to (created, an action, its seats, its
    status, music or settings), as loaded: what expiry counts from."""
    revision: int = 0
    """How many changes other than actions a store shared by several processes has taken for
    the room (see :class:`CheckRevision`); 0 for a store that does not count them."""


@dataclass(frozen=True)
class NewRoom:
    """A new room with its seats (its code must be unused).

    With a ``limit``, the room is kept only while the store holds fewer rooms than that
    (:class:`RoomLimit` otherwise): checked and written in one step, so processes that share a
    store cannot together go past their cap."""

    room: RoomRecord
    limit: int | None = None


@dataclass(frozen=True)
class SaveSeats:
    """Replaces the room's seats."""

    code: str
    seats: list[SeatRecord]


@dataclass(frozen=True)
class SetStatus:
    """The room's game started ("playing") or ended ("over", with its result)."""

    code: str
    status: str
    result: JSONDict | None = None


@dataclass(frozen=True)
class AppendAction:
    """The ``index``-th accepted action of the room (the index must be the next one)."""

    code: str
    index: int
    seat: Seat
    action: Action


@dataclass(frozen=True)
class SetMusic:
    """Replaces the room's music settings and skips."""

    code: str
    music: JSONDict | None


@dataclass(frozen=True)
class SetSettings:
    """Replaces the room's room-level settings."""

    code: str
    settings: JSONDict


@dataclass(frozen=True)
class DeleteRoom:
    """Forgets a room: its seats, its log and the room itself."""

    code: str


@dataclass(frozen=True)
class CheckRevision:
    """The job is kept only if the room took exactly ``revision`` changes other than actions
    so far; then it counts one more.

    Several processes serving one room each check their seats, settings and status against
    what they hold; this makes the store refuse (:class:`Conflict`) a change made on a room
    another process changed meanwhile. A store served by one process only (SQLite) keeps the
    job as if the check passed: nothing else changes its rooms.
    """

    code: str
    revision: int


Write = (
    NewRoom
    | SaveSeats
    | SetStatus
    | AppendAction
    | SetMusic
    | SetSettings
    | DeleteRoom
    | CheckRevision
)
"""One change to the stored rooms."""


@dataclass(frozen=True)
class DamagedRoom:
    """A stored room that cannot be read back: its code and why (it is set aside, not served)."""

    code: str
    why: str


class StoreRefused(Exception):
    """A job the store refused (the message says why); nothing of the job was kept."""


class RoomLimit(StoreRefused):
    """A new room refused: the store already holds the :class:`NewRoom`'s limit of rooms."""


class Conflict(StoreRefused):
    """Another process changed the room first: its action index was taken, its revision moved
    on, or its new code was given to another room. Catch up with the store and check again."""


class Store(Protocol):
    """What the server needs from a place that keeps rooms.

    ``commit`` is the only way to change what is stored; the one-write methods below are
    shorthands for a group of one job of one write (and raise the job's error).
    """

    def commit(self, jobs: Sequence[Sequence[Write]]) -> list[Exception | None]:
        """Makes the jobs durable; per job, ``None`` or the error that refused it.

        Each job is all-or-nothing. An error of the whole group (the disk, the connection) is
        raised instead, and then nothing of the group was kept.
        """
        ...

    def code_taken(self, code: str) -> bool:
        """Whether a room with that code exists."""
        ...

    def load_rooms(self) -> Iterator[RoomRecord | DamagedRoom]:
        """Every stored room, with seats and log; a room that cannot be read is a DamagedRoom."""
        ...

    def create_room(self, room: RoomRecord) -> None:
        """Stores a new room (its code must be unused)."""
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

    def close(self) -> None:
        """Releases the store."""
        ...


class OneWriteShorthands:
    """The one-write methods of :class:`Store`, each a group of one job through ``commit``."""

    def commit(self, jobs: Sequence[Sequence[Write]]) -> list[Exception | None]:
        """See :meth:`Store.commit`."""
        raise NotImplementedError

    def _one(self, write: Write) -> None:
        (error,) = self.commit([[write]])
        if error is not None:
            raise error

    def create_room(self, room: RoomRecord) -> None:
        """Stores a new room with its seats."""
        self._one(NewRoom(room))

    def save_seats(self, code: str, seats: list[SeatRecord]) -> None:
        """Replaces the room's seats."""
        self._one(SaveSeats(code, list(seats)))

    def set_status(self, code: str, status: str, result: JSONDict | None = None) -> None:
        """Records the room's status (and result, once over)."""
        self._one(SetStatus(code, status, result))

    def append_action(self, code: str, index: int, seat: Seat, action: Action) -> None:
        """Appends one accepted action, committed before returning."""
        self._one(AppendAction(code, index, seat, action))

    def set_music(self, code: str, music: JSONDict | None) -> None:
        """Replaces the room's music settings and skips."""
        self._one(SetMusic(code, music))

    def set_settings(self, code: str, settings: JSONDict) -> None:
        """Replaces the room's room-level settings."""
        self._one(SetSettings(code, dict(settings)))


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


MAX_GROUP = 512
"""At most this many jobs are committed in one group (one transaction), whoever groups them."""

_ROWS_PER_INSERT = 200
"""Rows of one multi-row insert (5 values each: well under SQLite's limit of variables)."""


def _action_rows(
    jobs: Sequence[Sequence[Write]],
) -> list[tuple[str, int, int, str, float]] | None:
    """The rows of a group whose every job is one action, or None (another kind of group)."""
    rows = []
    now = time.time()
    for job in jobs:
        if not _one_action(job):
            return None
        write = cast(AppendAction, job[0])
        try:
            action = json.dumps(write.action)
        except (TypeError, ValueError):
            return None  # refused job by job below, with its own error
        rows.append((write.code, write.index, write.seat, action, now))
    return rows


def _one_action(job: Sequence[Write]) -> bool:
    """Whether a job is one action and nothing else."""
    return len(job) == 1 and isinstance(job[0], AppendAction)


def _runs(jobs: Sequence[Sequence[Write]]) -> Iterator[Sequence[Sequence[Write]]]:
    """The group's jobs in order, cut into runs: consecutive jobs that are one action each (at
    most ``_ROWS_PER_INSERT`` to a run), and every other job alone."""
    run: list[Sequence[Write]] = []
    for job in jobs:
        if _one_action(job):
            run.append(job)
            if len(run) == _ROWS_PER_INSERT:
                yield run
                run = []
            continue
        if run:
            yield run
            run = []
        yield [job]
    if run:
        yield run


@functools.cache
def _insert_sql(rows: int) -> str:
    """The statement that inserts ``rows`` actions."""
    return "INSERT INTO actions VALUES " + ", ".join(["(?, ?, ?, ?, ?)"] * rows)


class SqliteStore(OneWriteShorthands):
    """A :class:`Store` in one SQLite file (WAL, one transaction per group of jobs)."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.moved_aside: Path | None = None
        """Where a database SQLite could not open was moved (a fresh one took its place)."""
        try:
            self._open()
        except sqlite3.DatabaseError as error:
            # Moved while the failed connection still holds the files: closing it first would let
            # SQLite delete the -wal, part of what was damaged.
            self.moved_aside = self._move_aside(error)
            failed: sqlite3.Connection | None = getattr(self, "_db", None)
            if failed is not None:
                failed.close()
            self._open()

    def _move_aside(self, error: sqlite3.DatabaseError) -> Path:
        """Moves a database SQLite cannot read (and its WAL) aside, with a timestamp."""
        with_time = f"{self.path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}"
        aside = self.path.with_name(with_time)
        for suffix in ("", "-wal", "-shm"):
            part = self.path.with_name(self.path.name + suffix)
            if part.exists():
                part.replace(aside.with_name(aside.name + suffix))
        log.critical(
            "THE ROOMS DATABASE %s CANNOT BE READ (%s): moved to %s, starting with no rooms",
            self.path,
            error,
            aside,
        )
        return aside

    def _open(self) -> None:
        # Every write comes from the writer's thread; reads at start come from the caller's.
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._prepare()  # a DatabaseError leaves the connection open (see __init__)

    def _prepare(self) -> None:
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(_SCHEMA)
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(rooms)")}
        if "music" not in columns:  # a data folder from before rooms had music
            self._db.execute("ALTER TABLE rooms ADD COLUMN music TEXT")
        if "settings" not in columns:  # a data folder from before rooms had settings
            self._db.execute("ALTER TABLE rooms ADD COLUMN settings TEXT")
        if "touched" not in columns:  # a data folder from before changes other than actions
            self._db.execute("ALTER TABLE rooms ADD COLUMN touched REAL")  # were dated
        seat_columns = {row[1] for row in self._db.execute("PRAGMA table_info(seats)")}
        if "level" not in seat_columns:  # a data folder from before bot levels were kept
            self._db.execute("ALTER TABLE seats ADD COLUMN level TEXT")
        # Reading the list of rooms must work: without it, nothing can be served.
        self._db.execute("SELECT code, game, options, seed, status FROM rooms").fetchall()

    def commit(self, jobs: Sequence[Sequence[Write]]) -> list[Exception | None]:
        """One transaction for the group, each job all or nothing (see :meth:`Store.commit`).

        Every call into SQLite lets go of the interpreter's lock, and the writer's thread must
        win it back from the busy event loop, which waits while it runs: a commit makes as few
        calls as it can. A group made of actions only (what a busy night is made of), up to
        ``_ROWS_PER_INSERT`` of them, is one multi-row insert, a transaction of its own. In any
        other group, each run of jobs that are one action each is one insert too, and every
        other job gets a savepoint of its own. An insert that is refused (an index already taken,
        a room gone) keeps nothing, and its run is tried again in halves (:meth:`_write_run`),
        so each job gets its own outcome.
        """
        rows = (
            _action_rows(jobs)
            if len(jobs) <= _ROWS_PER_INSERT and all(map(_one_action, jobs))
            else None
        )
        if rows is not None:
            try:
                self._insert_rows(rows)
            except sqlite3.IntegrityError:
                pass  # some job is refused: find out which, in the group's transaction below
            else:
                return [None] * len(jobs)
        errors: list[Exception | None] = []
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            for run in _runs(jobs):
                errors.extend(self._write_run(run))
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        return errors

    def _write_run(self, run: Sequence[Sequence[Write]]) -> list[Exception | None]:
        """Writes a run of jobs inside the group's transaction; each job's outcome.

        A run of actions is one insert. When that insert is refused it kept nothing, and each
        half of the run is tried again the same way, down to the refused job alone: one refused
        action among many costs a few more statements, not one per job.
        """
        rows = _action_rows(run)
        if rows is None:
            return [self._apply_job(job) for job in run]
        try:
            self._insert_rows(rows)
        except sqlite3.IntegrityError as error:
            if len(run) == 1:
                return [error]
            half = len(run) // 2
            return self._write_run(run[:half]) + self._write_run(run[half:])
        return [None] * len(run)

    def _apply_job(self, job: Sequence[Write]) -> Exception | None:
        """Writes one job of a group in a savepoint: all of it, or nothing and its error."""
        db = self._db
        db.execute("SAVEPOINT job")
        try:
            for write in job:
                self._apply(write)
        except (sqlite3.IntegrityError, StoreRefused, ValueError, TypeError) as error:
            db.execute("ROLLBACK TO job")
            db.execute("RELEASE job")
            return error
        db.execute("RELEASE job")
        return None

    def _insert_rows(self, rows: list[tuple[str, int, int, str, float]]) -> None:
        """Appends up to ``_ROWS_PER_INSERT`` actions in one statement (all of them, or none)."""
        if rows:
            self._db.execute(_insert_sql(len(rows)), [v for row in rows for v in row])

    def _apply(self, write: Write) -> None:
        db = self._db
        if isinstance(write, AppendAction):
            db.execute(
                "INSERT INTO actions VALUES (?, ?, ?, ?, ?)",
                (write.code, write.index, write.seat, json.dumps(write.action), time.time()),
            )
        elif isinstance(write, NewRoom):
            room = write.room
            if write.limit is not None:
                (held,) = db.execute("SELECT COUNT(*) FROM rooms").fetchone()
                if held >= write.limit:
                    raise RoomLimit(f"the store holds its limit of {write.limit} rooms")
            db.execute(
                "INSERT INTO rooms (code, game, options, seed, host_token, status, result, "
                "created, music, settings) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    room.code,
                    room.game,
                    json.dumps(room.options),
                    room.seed,
                    room.host_token,
                    room.status,
                    None if room.result is None else json.dumps(room.result),
                    time.time(),
                    None if room.music is None else json.dumps(room.music),
                    json.dumps(room.settings) if room.settings else None,
                ),
            )
            self._insert_seats(room.code, room.seats)
        elif isinstance(write, SaveSeats):
            self._update(write.code)  # refuses a room that is not stored; dates the change
            db.execute("DELETE FROM seats WHERE code = ?", (write.code,))
            self._insert_seats(write.code, write.seats)
        elif isinstance(write, SetStatus):
            result = None if write.result is None else json.dumps(write.result)
            self._update(write.code, status=write.status, result=result)
        elif isinstance(write, SetMusic):
            music = None if write.music is None else json.dumps(write.music)
            self._update(write.code, music=music)
        elif isinstance(write, SetSettings):
            settings = json.dumps(write.settings) if write.settings else None
            self._update(write.code, settings=settings)
        elif isinstance(write, CheckRevision):
            self._require_room(write.code)  # one process: nobody else changed the room
        else:
            for table in ("actions", "seats", "rooms"):
                db.execute(f"DELETE FROM {table} WHERE code = ?", (write.code,))

    def _insert_seats(self, code: str, seats: Sequence[SeatRecord]) -> None:
        self._db.executemany(
            "INSERT INTO seats (code, seat, name, token, bot, level) VALUES (?, ?, ?, ?, ?, ?)",
            [(code, i, s.name, s.token, int(s.bot), s.level) for i, s in enumerate(seats)],
        )

    def _require_room(self, code: str) -> None:
        if not self.code_taken(code):
            raise StoreRefused(f"no room {code} is stored")

    def _update(self, code: str, **columns: Any) -> None:
        """Changes the room's row; every change moves ``touched`` (what expiry counts from)."""
        columns["touched"] = time.time()
        assignments = ", ".join(f"{name} = ?" for name in columns)  # our own column names
        cursor = self._db.execute(
            f"UPDATE rooms SET {assignments} WHERE code = ?",
            (*columns.values(), code),
        )
        if cursor.rowcount != 1:
            raise StoreRefused(f"no room {code} is stored")

    def code_taken(self, code: str) -> bool:
        """Whether a room with that code exists."""
        row = self._db.execute("SELECT 1 FROM rooms WHERE code = ?", (code,)).fetchone()
        return row is not None

    def load_rooms(self) -> Iterator[RoomRecord | DamagedRoom]:
        """Every room, oldest first, with seats and its log in order.

        A room whose row, seats or log cannot be read (a damaged page, a row that is not JSON)
        comes back as a :class:`DamagedRoom`, and the others are read all the same.
        """
        codes = [
            code for (code,) in self._db.execute("SELECT code FROM rooms ORDER BY created, code")
        ]
        for code in codes:
            try:
                yield self._load_room(code)
            except (sqlite3.DatabaseError, ValueError, TypeError, KeyError) as error:
                yield DamagedRoom(code, f"{type(error).__name__}: {error}")

    def _load_room(self, code: str) -> RoomRecord:
        row = self._db.execute(
            "SELECT game, options, seed, host_token, status, result, music, settings, "
            "MAX(created, COALESCE(touched, 0), "
            "COALESCE((SELECT MAX(at) FROM actions a WHERE a.code = rooms.code), 0)) "
            "FROM rooms WHERE code = ?",
            (code,),
        ).fetchone()
        game, options, seed, host_token, status, result, music, settings, touched = row
        seats = [
            SeatRecord(name, token, bool(bot), level)
            for name, token, bot, level in self._db.execute(
                "SELECT name, token, bot, level FROM seats WHERE code = ? ORDER BY seat", (code,)
            )
        ]
        log = []
        for index, (idx, seat, action) in enumerate(
            self._db.execute(
                "SELECT idx, seat, action FROM actions WHERE code = ? ORDER BY idx", (code,)
            )
        ):
            if idx != index:
                raise ValueError(f"the log skips from action {index - 1} to {idx}")
            log.append({"seat": seat, "action": json.loads(action)})
        return RoomRecord(
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
            touched=touched,
        )

    def close(self) -> None:
        """Closes the database file."""
        self._db.close()
