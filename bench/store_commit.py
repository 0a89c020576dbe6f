"""How fast the stores keep actions: SQLite against Redis, through the server's one writer.

``python bench/store_commit.py --rooms 100 --seconds 5`` makes ``--rooms`` rooms, then keeps one
action of every room in flight at once for ``--seconds`` (each room appends its next action as
soon as the previous one is kept, as a busy room does), through the :class:`Writer` the server
uses, on: a SQLite file in a temporary folder (``synchronous=FULL``), and a ``redis-server``
started on a free loopback port with ``appendfsync always`` and then ``everysec``. It prints the
actions kept per second, the mean group size and the latency of one action (p50 and p99).
"""

from __future__ import annotations

import argparse
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import Future
from pathlib import Path

import redis

from recordroom.server.redis_store import RedisStore
from recordroom.server.store import AppendAction, RoomRecord, SeatRecord, SqliteStore, Store
from recordroom.server.writer import Writer, WriterClosed


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def measure(store: Store, rooms: int, seconds: float) -> dict[str, float]:
    codes = [f"R{n:05d}" for n in range(rooms)]
    for code in codes:
        store.create_room(
            RoomRecord(code, "bench", {}, 1, "h", seats=[SeatRecord("A", "t", bot=False)])
        )
    writer = Writer(store)
    latencies: list[float] = []
    lock = threading.Lock()
    done = threading.Event()
    counts = dict.fromkeys(codes, 0)
    refused: list[BaseException] = []
    groups_before = writer.groups

    def submit(code: str) -> None:
        started = time.perf_counter()
        try:
            future = writer.submit(AppendAction(code, counts[code], 0, {"vote": counts[code] % 5}))
        except WriterClosed:
            return

        def kept(result: Future[None]) -> None:
            error = result.exception()
            if error is not None:
                refused.append(error)
                return
            with lock:
                latencies.append(time.perf_counter() - started)
            counts[code] += 1
            if not done.is_set():
                submit(code)

        future.add_done_callback(kept)

    began = time.perf_counter()
    for code in codes:
        submit(code)
    time.sleep(seconds)
    done.set()
    elapsed = time.perf_counter() - began
    writer.stop()
    if refused:
        raise SystemExit(f"the store refused an action: {refused[0]}")
    with lock:
        kept = sorted(latencies)
    actions = len(kept)
    return {
        "actions/s": actions / elapsed,
        "group": actions / max(1, writer.groups - groups_before),
        "p50 ms": 1000 * statistics.median(kept),
        "p99 ms": 1000 * kept[int(0.99 * (len(kept) - 1))],
    }


def redis_run(fsync: str, rooms: int, seconds: float) -> dict[str, float]:
    binary = shutil.which("redis-server")
    if binary is None:
        raise SystemExit("redis-server is not installed")
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        process = subprocess.Popen(
            [
                *(binary, "--port", str(port), "--bind", "127.0.0.1", "--save", ""),
                *("--appendonly", "yes", "--appendfsync", fsync, "--dir", folder),
            ],
            stdout=subprocess.DEVNULL,
        )
        try:
            client = redis.Redis(port=port)
            for _ in range(200):
                try:
                    client.ping()
                    break
                except redis.ConnectionError:
                    time.sleep(0.05)
            client.close()
            store = RedisStore.from_url(f"redis://127.0.0.1:{port}/0")
            try:
                return measure(store, rooms, seconds)
            finally:
                store.close()
        finally:
            process.terminate()
            process.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rooms", type=int, default=100, help="rooms acting at once")
    parser.add_argument("--seconds", type=float, default=5.0, help="length of each run")
    args = parser.parse_args()
    rows: list[tuple[str, dict[str, float]]] = []
    with tempfile.TemporaryDirectory() as folder:
        store = SqliteStore(Path(folder) / "bench.sqlite3")
        rows.append(("SQLite, synchronous=FULL", measure(store, args.rooms, args.seconds)))
        store.close()
    for fsync in ("always", "everysec"):
        rows.append((f"Redis, appendfsync {fsync}", redis_run(fsync, args.rooms, args.seconds)))
    out = sys.stdout
    out.write(f"{args.rooms} rooms, one action each in flight, {args.seconds:g} s a store\n")
    out.write(f"{'store':<30} {'actions/s':>10} {'group':>7} {'p50 ms':>8} {'p99 ms':>8}\n")
    for name, row in rows:
        out.write(
            f"{name:<30} {row['actions/s']:>10,.0f} {row['group']:>7.1f} "
            f"{row['p50 ms']:>8.1f} {row['p99 ms']:>8.1f}\n"
        )


if __name__ == "__main__":
    main()
