"""Issue 12, points 1, 2 and 10: the SQLite store kept by a process of its own.

The event loop hands its jobs to the child and goes on; the child groups what has arrived into
one transaction and answers each job. Every job gets its own outcome, nothing refused is kept,
and a child that dies makes every write fail clearly instead of hanging or going on unlogged.
(The blocking calls are the store suite's, in tests/server/test_store_suite.py.)
"""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from recordroom.server.store import AppendAction, RoomRecord, SeatRecord, SqliteStore
from recordroom.server.store_process import _CHILD, StoreGone, StoreProcess
from recordroom.server.writer import Writer, commit_job


def room(code: str) -> RoomRecord:
    seats = [SeatRecord(f"P{i}", f"tok-{code}-{i}", bot=False) for i in range(2)]
    return RoomRecord(code, "toy", {}, 7, f"host-{code}", seats=seats)


def log_of(path: Path, code: str) -> list[object]:
    store = SqliteStore(path)
    try:
        (record,) = [r for r in store.load_rooms() if isinstance(r, RoomRecord) and r.code == code]
        return [entry["action"] for entry in record.log]
    finally:
        store.close()


def gone(pid: int) -> bool:
    """Whether process ``pid`` has ended (a zombie not yet waited for counts as ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return True
    return state in ("Z", "X")


def wait_until_gone(pid: int) -> None:
    deadline = time.monotonic() + 10
    while not gone(pid) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert gone(pid)


def test_jobs_from_the_event_loop_each_get_their_own_outcome(tmp_path: Path) -> None:
    path = tmp_path / "rooms.sqlite3"
    store = StoreProcess(path)
    store.create_room(room("ABCD"))

    async def act() -> list[BaseException | None]:
        jobs = [store.write(AppendAction("ABCD", i, i % 2, {"n": i})) for i in range(300)]
        # An index already taken: refused, and only it.
        jobs.insert(150, store.write(AppendAction("ABCD", 5, 0, {"n": "again"})))
        return await asyncio.gather(*jobs, return_exceptions=True)

    outcomes = asyncio.run(act())
    store.close()
    refused = outcomes.pop(150)
    assert isinstance(refused, sqlite3.IntegrityError)
    assert outcomes == [None] * 300
    assert log_of(path, "ABCD") == [{"n": i} for i in range(300)]


def test_the_writer_hands_the_event_loops_jobs_to_the_process_and_not_to_its_thread(
    tmp_path: Path,
) -> None:
    path = tmp_path / "rooms.sqlite3"
    writer = Writer(StoreProcess(path))
    writer.create_room(room("ABCD"))  # a blocking caller: through the writer's thread
    assert writer.groups == 1

    async def act() -> None:
        await asyncio.gather(
            *(commit_job(writer, AppendAction("ABCD", i, 0, {"n": i})) for i in range(20))
        )

    asyncio.run(act())
    assert writer.groups == 1  # the twenty jobs went to the store's process directly
    writer.close()
    assert log_of(path, "ABCD") == [{"n": i} for i in range(20)]


def test_a_store_whose_process_died_refuses_every_write_and_keeps_what_it_said_it_kept(
    tmp_path: Path,
) -> None:
    path = tmp_path / "rooms.sqlite3"
    store = StoreProcess(path)
    gone: list[str] = []
    store.on_gone = gone.append
    store.create_room(room("ABCD"))

    async def act() -> None:
        await store.write(AppendAction("ABCD", 0, 0, {"n": 0}))
        os.kill(store.pid, signal.SIGKILL)
        wait_until_gone(store.pid)
        with pytest.raises(StoreGone):
            await store.write(AppendAction("ABCD", 1, 0, {"n": 1}))
        with pytest.raises(StoreGone):  # and every later one, at once
            await store.write(AppendAction("ABCD", 1, 0, {"n": 1}))

    asyncio.run(asyncio.wait_for(act(), 20))
    with pytest.raises(StoreGone):
        store.code_taken("ABCD")
    store.close()  # does not hang
    assert log_of(path, "ABCD") == [{"n": 0}]
    assert len(gone) == 1 and "the store's process has ended" in gone[0]  # said once


def test_the_store_process_outlives_a_stop_signal_meant_for_the_server(tmp_path: Path) -> None:
    """Ctrl-C and SIGTERM are for the server, which then commits what it still has and closes
    the store: the child must still be there to take it."""
    path = tmp_path / "rooms.sqlite3"
    store = StoreProcess(path)
    store.create_room(room("ABCD"))
    os.kill(store.pid, signal.SIGTERM)
    os.kill(store.pid, signal.SIGINT)

    async def act() -> None:
        await asyncio.gather(*(store.write(AppendAction("ABCD", i, 0, {"n": i})) for i in range(3)))

    asyncio.run(act())
    pid = store.pid
    store.close()
    wait_until_gone(pid)
    assert log_of(path, "ABCD") == [{"n": i} for i in range(3)]


def test_the_store_process_ends_when_its_server_is_gone(tmp_path: Path) -> None:
    """Its sockets end with the server (``kill -9`` included): the child commits what it was
    sent and exits, and nothing is left holding the database."""
    path = tmp_path / "rooms.sqlite3"
    store = StoreProcess(path)
    store.create_room(room("ABCD"))
    store._channel.close()  # what the end of the server does to the child's sockets
    store._loop_socket.close()
    wait_until_gone(store.pid)
    store.close()  # nothing left to ask: it only waits for the child
    again = SqliteStore(path)
    assert [r.code for r in again.load_rooms()] == ["ABCD"]
    again.close()


def test_closing_the_store_on_its_loop_tells_each_job_in_flight_its_true_outcome(
    tmp_path: Path,
) -> None:
    """Jobs handed over when the store is closed are committed by the child before it ends, and
    told so: none is refused that was kept."""
    path = tmp_path / "rooms.sqlite3"
    store = StoreProcess(path)
    gone: list[str] = []
    store.on_gone = gone.append
    store.create_room(room("ABCD"))

    async def act() -> list[BaseException | None]:
        jobs = [
            asyncio.ensure_future(store.write(AppendAction("ABCD", i, 0, {"n": i})))
            for i in range(50)
        ]
        await asyncio.sleep(0)  # each job is handed over, none answered yet
        store.close()
        return await asyncio.gather(*jobs, return_exceptions=True)

    assert asyncio.run(act()) == [None] * 50
    assert log_of(path, "ABCD") == [{"n": i} for i in range(50)]
    assert gone == []  # a close is not a death


def test_the_store_process_loads_the_store_and_not_the_web_app() -> None:
    """The child is a second Python beside every server: it imports what the store needs (a
    fraction of the memory and start-up time of the FastAPI app, its pages and its media)."""
    loaded = subprocess.run(
        [sys.executable, "-c", f"{_CHILD.split(';')[0]}; import sys; print(sorted(sys.modules))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "'recordroom.server.store'" in loaded
    assert "'recordroom.server.app'" not in loaded
    assert "'fastapi'" not in loaded
