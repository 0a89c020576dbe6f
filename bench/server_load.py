"""Load on the real server, side by side with a bare Starlette fan-out of the same shape.

Usage::

    python bench/server_load.py [--rooms 100] [--seconds 15] [--open-rooms 400 --every 2.0]
                                [--workers 2] [--connections N] [--game records] [--rounds 3]

It starts, one after the other, two servers on 127.0.0.1:

* ``recordroom serve`` (a real process, a fresh data folder, so every action is committed to
  SQLite with ``synchronous=FULL`` before it is broadcast), and
* a bare uvicorn + Starlette server (``--bare``, this file) that keeps rooms of WebSocket
  clients in memory and, for each message of a seat, sends a new version of a room state of the
  same size to every socket of the room, without checking or storing anything.

The real server's rooms play Disc Cover (``--game records``: Draft & Write Records, whose
state messages are about five times longer). Each room is 5 seats and the table (6 sockets).
Each room's sockets connect from their own loopback address (127.0.1.2 and up), so the server's
per-address limits apply per room as they would per phone. Two scenarios are run against each
server:

* **closed loop**: in every room, one seat that may act sends an action as soon as all six
  sockets have seen the previous one (saturation: events/s is what the server can take);
* **open loop** (``--open-rooms``): every room acts about every ``--every``/5 seconds
  (5 players each acting about every ``--every`` seconds), and the latency is what a player feels.

With ``--workers N``, a third server runs after them: ``recordroom serve --workers N`` on a Redis
store (a ``redis-server`` started here, ``appendfsync always``), whose CPU counts its workers and
its Redis; the closed loop's events/s are then compared with the one SQLite process's.

For each it prints events/s, the p50/p99 latency from sending an action to every socket of the
room holding the new version, the server's CPU time per event (from /proc) and the load
generator's own CPU time per event (on a machine of few cores, it competes with the server).

With ``--rounds N``, the whole sequence (each server in turn) runs N times, and the closed loop's
ratio of each round is printed, then their median: the machine's speed drifts by a quarter from
minute to minute, and alternating the two servers gives each the same share of the drift.

With ``--connections N``, neither scenario runs: each server gets N sockets opened one after the
other on one room (a spectator, on the real server), each closed once it has its first message,
and the server's CPU per connection is printed (every finished game costs six of them).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import gc
import json
import os
import random
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import ClientConnection, connect

SEATS = 5
STATS: collections.Counter[str] = collections.Counter()
"""Actions not counted: refused by the server, timed out, or no seat could act."""
GAME = "disc-cover"
"""The real server's game unless ``--game`` says otherwise."""
STATE_BYTES = 2700
"""About the length of the real server's Disc Cover state message here; the bare server's are
made as long."""
RECEIVED: collections.Counter[str] = collections.Counter()
"""Messages and bytes the load generator received, by kind."""
ENDED: collections.Counter[str] = collections.Counter()
"""Games the load generator saw end (and started again), counted once per room."""


# -- the bare server ------------------------------------------------------------------------


def bare_app() -> Any:
    """A Starlette app: rooms of sockets, each seat message fans a new state out to the room."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse
    from starlette.routing import Route, WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    rooms: dict[str, dict[str, Any]] = {}
    # A state message as long as the real server's average in this bench (its "B per message"
    # is printed for both servers): the kernel and the clients handle the same bytes.
    pad = "x" * (STATE_BYTES - 50)

    async def create(request: Request) -> JSONResponse:
        code = f"R{len(rooms)}"
        rooms[code] = {"version": 0, "sockets": []}
        return JSONResponse({"code": code})

    async def health(request: Request) -> JSONResponse:
        return JSONResponse({"ok": True})

    async def room_socket(websocket: WebSocket) -> None:
        await websocket.accept()
        room = rooms[websocket.path_params["code"]]
        room["sockets"].append(websocket)
        await websocket.send_text(json.dumps({"type": "state", "version": room["version"]}))
        try:
            while True:
                json.loads(await websocket.receive_text())
                room["version"] += 1
                for other in list(room["sockets"]):
                    message = {"type": "state", "version": room["version"], "view": pad}
                    await other.send_text(json.dumps(message))
        except WebSocketDisconnect:
            room["sockets"].remove(websocket)

    return Starlette(
        routes=[
            Route("/rooms", create, methods=["POST"]),
            Route("/health", health),
            WebSocketRoute("/ws/{code}", room_socket),
        ]
    )


# -- servers under test ---------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


class Process:
    """A server process on a free port; its CPU time is read from /proc."""

    def __init__(
        self, command: list[str], port: int, health: str, also: tuple[int, ...] = ()
    ) -> None:
        self.port = port
        self.also = also
        """Other processes whose CPU counts as the server's (its Redis)."""
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"http://127.0.0.1:{port}{health}", timeout=1).is_success:
                    return
            except httpx.TransportError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"{command} did not come up")

    def settle(self, most: float = 90.0) -> None:
        """Waits until the server is idle (its background warm-up done), at most ``most`` s."""
        deadline = time.monotonic() + most
        before = self.cpu()
        while time.monotonic() < deadline:
            time.sleep(1.0)
            now = self.cpu()
            if now - before < 0.05:
                return
            before = now

    def cpu(self) -> float:
        """CPU seconds of the server and of every process under it (``--workers``), and of the
        Redis server it uses, if any."""
        return sum(_cpu_of(pid) for pid in [*_tree(self.process.pid), *self.also])

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def _stat(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def _cpu_of(pid: int) -> float:
    try:
        fields = _stat(pid)
    except OSError:
        return 0.0  # gone
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _tree(root: int) -> list[int]:
    """``root`` and every living process under it."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                children.setdefault(int(_stat(int(entry.name))[1]), []).append(int(entry.name))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


class Redis:
    """A redis-server for ``--workers``: on a free port, its files in a temporary folder, every
    write fsynced before it is answered (``appendfsync always``, as durable as SQLite's FULL)."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        binary = shutil.which("redis-server")
        if binary is None:
            raise SystemExit("--workers needs redis-server (make test installs it)")
        command = [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(folder)]
        command += ["--appendonly", "yes", "--appendfsync", "always", "--save", ""]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.port), timeout=1) as probe,
            ):
                probe.sendall(b"PING\r\n")
                if probe.recv(16).startswith(b"+PONG"):
                    return
            time.sleep(0.1)
        self.stop()
        raise SystemExit("redis-server did not start")

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(10)


def source(room: int) -> str:
    """The loopback address a room's sockets come from (127.0.1.2 and up)."""
    return f"127.0.{1 + room // 250}.{2 + room % 250}"


# -- clients --------------------------------------------------------------------------------


STATE_HEAD = re.compile(r'\{"type": ?"state", ?"version": ?(-?\d+)(?:, ?"status": ?"(\w+)")?')
"""The head of a state message (both servers put ``type`` and ``version`` first, the real one
``status`` next): what the generator reads of every message without parsing it whole."""
LEGAL_ACTIONS = '"legal_actions":'


@dataclass
class Room:
    """One room's six sockets, as seen by the load generator.

    Of each state message it keeps the text, and reads only its head (version, status) at once,
    and of a seat's message only its legal actions when the seat may act. Parsing (and later
    freeing) six nested messages of 2.7 KB per event cost the generator a fifth of its CPU, on the
    cores the server under test needs too.
    """

    number: int
    code: str
    host_token: str
    tokens: list[str]
    sockets: list[ClientConnection] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    versions: list[int] = field(default_factory=list)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    readers: list[asyncio.Task[None]] = field(default_factory=list)
    over: bool = False
    refusals: int = 0

    def lowest_version(self) -> int:
        return min(self.versions)

    def legal(self, i: int) -> list[Any]:
        """The legal actions in socket ``i``'s last state message.

        Only that list is parsed: its key is looked for from the end (the view before it is the
        long part; a key in quotes cannot occur inside a string), and it ends where ``seats``
        begins, as the real server lays its messages out; otherwise the message is read whole.
        """
        text = self.texts[i]
        start = text.rfind(LEGAL_ACTIONS)
        if start < 0:
            return []
        start += len(LEGAL_ACTIONS)
        if text.startswith("[]", start):
            return []
        end = text.find(',"seats":', start)
        with contextlib.suppress(orjson.JSONDecodeError):
            if end > start:
                actions: list[Any] = orjson.loads(text[start:end])
                return actions
        return list(orjson.loads(text)["legal_actions"])

    def take(self, i: int, text: str) -> None:
        """A message on socket ``i``."""
        RECEIVED["bytes"] += len(text)
        head = STATE_HEAD.match(text)
        if head is not None:
            kind, version, status = "state", int(head[1]), head[2]
        else:  # another message, or a state message of another layout: read whole
            message = orjson.loads(text)
            kind = str(message.get("type"))
            version, status = int(message.get("version", -1)), message.get("status")
        RECEIVED[kind] += 1
        if kind == "state":
            self.texts[i] = text
            self.versions[i] = version
            self.over = self.over or status == "over"
            self.changed.set()
        elif kind == "error":
            self.refusals += 1
            self.changed.set()
        elif kind == "again":
            self.changed.set()

    async def read(self, i: int) -> None:
        async for text in self.sockets[i]:
            self.take(i, str(text))


async def post(
    port: int, address: str, path: str, body: Any = None, token: str = ""
) -> tuple[int, Any]:
    """One HTTP POST from ``address`` on a fresh connection: its status and its JSON answer.

    The load generator's requests, kept cheap: a finished game's "play again" is one of them
    every 65 events or so, and an HTTP client library's request cost the generator about 2 ms of
    CPU, taken from the cores the server under test needs. A fresh connection per request: the
    server closes idle ones on its own schedule, and a request sent as it does so would be lost.
    """
    content = b"" if body is None else orjson.dumps(body)
    head = [
        f"POST {path} HTTP/1.1",
        f"Host: 127.0.0.1:{port}",
        "Connection: close",
        "Content-Type: application/json",
        f"Content-Length: {len(content)}",
    ]
    if token:
        head.append(f"Authorization: Bearer {token}")
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
    try:
        writer.write("\r\n".join(head).encode() + b"\r\n\r\n" + content)
        answer = await reader.read()  # to the end: the server closes the connection
    finally:
        writer.close()
    header, _, payload = answer.partition(b"\r\n\r\n")
    status = int(header.split(b" ", 2)[1])
    if b"transfer-encoding: chunked" in header.lower():
        raise RuntimeError(f"POST {path}: a chunked answer, not read here")
    return status, orjson.loads(payload) if payload else None


class Target:
    """How the load generator speaks to a server (the real one, or the bare one)."""

    def __init__(self, port: int, bare: bool, game: str = GAME) -> None:
        self.port = port
        self.bare = bare
        self.game = game

    async def post(
        self, number: int, path: str, body: Any = None, token: str = ""
    ) -> dict[str, Any]:
        """A POST from room ``number``'s address; its JSON answer, which must be a success."""
        status, answer = await post(self.port, source(number), path, body, token)
        assert 200 <= status < 300, (path, status, answer)
        reply: dict[str, Any] = answer
        return reply

    async def new_room(self, number: int) -> Room:
        if self.bare:
            code = (await self.post(number, "/rooms"))["code"]
            room = Room(number, code, "", [""] * SEATS)
        else:
            created = await self.post(number, "/api/rooms", {"game": self.game})
            code, host = created["code"], created["host_token"]
            tokens = []
            for i in range(SEATS):
                joined = await self.post(number, f"/api/rooms/{code}/seats", {"name": f"P{i}"})
                tokens.append(joined["token"])
            await self.post(number, f"/api/rooms/{code}/start", token=host)
            room = Room(number, code, host, tokens)
        await self.connect(room)
        return room

    async def connect(self, room: Room) -> None:
        for task in room.readers:
            task.cancel()
        for ws in room.sockets:
            await ws.close()
        room.sockets, room.texts, room.versions = [], [], []
        room.readers, room.over = [], False
        for token in [*room.tokens, room.host_token]:
            query = f"?token={token}" if token else ""
            ws = await connect(
                f"ws://127.0.0.1:{self.port}/ws/{room.code}{query}",
                local_addr=(source(room.number), 0),
                max_size=None,
                compression=None,
                proxy=None,  # loopback: no proxy (looking one up costs every connection)
            )
            room.sockets.append(ws)
            room.texts.append("")
            room.versions.append(-1)
            room.take(len(room.sockets) - 1, str(await ws.recv()))
        room.readers = [asyncio.create_task(room.read(i)) for i in range(len(room.sockets))]

    async def again(self, room: Room) -> None:
        """A finished game: the same players in a new room."""
        ENDED["games"] += 1
        answer = await self.post(
            room.number, f"/api/rooms/{room.code}/again", token=room.host_token
        )
        room.code = answer["code"]
        await self.connect(room)

    def mover(self, room: Room, rng: random.Random) -> tuple[int, dict[str, Any]] | None:
        """A seat that may act now and its action (the bare server takes anything)."""
        if self.bare:
            return rng.randrange(SEATS), {"type": "act", "version": 0, "action": {}}
        movers = [(i, legal) for i in range(SEATS) if (legal := room.legal(i))]
        if not movers:
            return None
        seat, legal = rng.choice(movers)
        action = rng.choice(legal)
        return seat, {"type": "act", "version": room.versions[seat], "action": action}

    async def act_once(self, room: Room, rng: random.Random, latencies: list[float]) -> bool:
        """One action, waited for on every socket; False when there was nothing to do."""
        if room.over and not self.bare:
            await self.again(room)
        move = self.mover(room, rng)
        if move is None:
            STATS["nothing to do"] += 1
            room.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(room.changed.wait(), 1.0)
            return False
        seat, message = move
        before = room.lowest_version() if self.bare else int(message["version"])
        refusals = room.refusals
        sent = time.perf_counter()
        await room.sockets[seat].send(orjson.dumps(message).decode())
        deadline = sent + 10
        while room.lowest_version() <= before and room.refusals == refusals:
            room.changed.clear()
            if room.lowest_version() > before:
                break
            try:
                await asyncio.wait_for(room.changed.wait(), deadline - time.perf_counter())
            except TimeoutError:
                break
        if room.lowest_version() > before:
            latencies.append(time.perf_counter() - sent)
            return True
        STATS["refused" if room.refusals != refusals else "timed out"] += 1
        return False  # refused (stale, listening) or lost: not counted


@contextlib.contextmanager
def no_collector_pauses() -> Any:
    """The load generator's own garbage collector paused while a scenario is measured: a full
    collection of its many states would stall its event loop, and the stall would be counted
    as the server's latency."""
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.unfreeze()


async def closed_loop(target: Target, rooms: list[Room], seconds: float) -> list[float]:
    latencies: list[float] = []
    stop = time.monotonic() + seconds

    async def drive(room: Room) -> None:
        rng = random.Random(room.number)
        while time.monotonic() < stop:
            await target.act_once(room, rng, latencies)

    await asyncio.gather(*(drive(room) for room in rooms))
    return latencies


async def open_loop(target: Target, rooms: list[Room], seconds: float, every: float) -> list[float]:
    latencies: list[float] = []
    stop = time.monotonic() + seconds

    async def drive(room: Room) -> None:
        rng = random.Random(room.number)
        await asyncio.sleep(rng.uniform(0, every / SEATS))
        while time.monotonic() < stop:
            started = time.monotonic()
            await target.act_once(room, rng, latencies)
            gap = rng.expovariate(SEATS / every)
            await asyncio.sleep(max(0.0, gap - (time.monotonic() - started)))

    await asyncio.gather(*(drive(room) for room in rooms))
    return latencies


def report(
    name: str, latencies: list[float], seconds: float, cpu: float, client_cpu: float
) -> dict[str, float]:
    events = len(latencies)
    ordered = sorted(latencies) or [float("nan")]
    figures = {
        "events_per_s": events / seconds,
        "p50_ms": 1000 * statistics.median(ordered),
        "p99_ms": 1000 * ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))],
        "cpu_ms_per_event": 1000 * cpu / events if events else float("nan"),
        "client_cpu_ms_per_event": 1000 * client_cpu / events if events else float("nan"),
    }
    skipped = ", ".join(f"{k}: {v}" for k, v in sorted(STATS.items())) or "none"
    STATS.clear()
    messages = sum(v for k, v in RECEIVED.items() if k != "bytes")
    figures["messages_per_event"] = messages / events if events else float("nan")
    figures["bytes_per_message"] = RECEIVED["bytes"] / messages if messages else float("nan")
    games = ENDED["games"]
    RECEIVED.clear()
    ENDED.clear()
    print(
        f"{name:<34} {figures['events_per_s']:8.0f} ev/s   p50 {figures['p50_ms']:6.1f} ms"
        f"   p99 {figures['p99_ms']:6.1f} ms   server CPU {figures['cpu_ms_per_event']:.3f} ms/ev"
        f"   load generator CPU {figures['client_cpu_ms_per_event']:.3f} ms/ev"
        f"   {figures['messages_per_event']:.1f} messages/ev of"
        f" {figures['bytes_per_message']:.0f} B, {games} games ended"
        f"   (not counted: {skipped})",
        flush=True,
    )
    return figures


async def connections(target: Target, server: Process, count: int) -> dict[str, float]:
    """``count`` sockets opened one after the other on one room, each closed once it has its
    first message (a spectator of the real server): the server's CPU per connection."""
    code = (await target.post(0, "/rooms" if target.bare else "/api/rooms", {"game": target.game}))[
        "code"
    ]
    cpu = server.cpu()
    start = time.perf_counter()
    for i in range(count):
        async with connect(
            f"ws://127.0.0.1:{target.port}/ws/{code}",
            local_addr=(source(i % 1000), 0),  # the per-address limits apply per connection
            compression=None,
            proxy=None,
        ) as ws:
            await ws.recv()
    await asyncio.sleep(0.5)  # the closes
    used, seconds = server.cpu() - cpu, time.perf_counter() - start
    label = "bare" if target.bare else "real"
    print(
        f"{label} connections: {count} opened and closed in {seconds:.1f} s, "
        f"server CPU {1000 * used / count:.3f} ms each",
        flush=True,
    )
    return {"cpu_ms_per_connection": 1000 * used / count}


async def run_one(
    label: str, server: Process, target: Target, args: argparse.Namespace
) -> dict[str, dict[str, float]]:
    results = {}
    rooms = [await target.new_room(i) for i in range(args.rooms)]
    cpu, own = server.cpu(), time.process_time()
    RECEIVED.clear()
    ENDED.clear()
    with no_collector_pauses():
        lat = await closed_loop(target, rooms, args.seconds)
    results["closed"] = report(
        f"{label} closed loop, {args.rooms} rooms",
        lat,
        args.seconds,
        server.cpu() - cpu,
        time.process_time() - own,
    )
    if args.open_rooms:
        more = [await target.new_room(i) for i in range(args.rooms, args.open_rooms)]
        every = rooms + more
        cpu, own = server.cpu(), time.process_time()
        RECEIVED.clear()
        ENDED.clear()
        with no_collector_pauses():
            lat = await open_loop(target, every[: args.open_rooms], args.seconds, args.every)
        results["open"] = report(
            f"{label} open loop, {args.open_rooms} rooms",
            lat,
            args.seconds,
            server.cpu() - cpu,
            time.process_time() - own,
        )
        rooms = every
    for room in rooms:
        for task in room.readers:
            task.cancel()
        for ws in room.sockets:
            await ws.close()
    return results


def one_round(args: argparse.Namespace, data: Path) -> dict[str, dict[str, dict[str, float]]]:
    """Each server of the command in turn, its scenarios run: the figures by server."""
    results: dict[str, dict[str, dict[str, float]]] = {}
    data.mkdir(parents=True)
    labels = [label for label in ("bare", "real") if not args.only or args.only == label]
    if args.workers:
        labels.append("workers")
    for label in labels:
        port = free_port()
        redis: Redis | None = None
        if label == "bare":
            command = [sys.executable, __file__, "--bare", "--port", str(port)]
            health = "/health"
        else:
            command = [sys.executable, "-m", "recordroom", "serve", "--host", "127.0.0.1"]
            command += ["--port", str(port), "--data-dir", str(data / label), "--no-qr"]
            command += ["--bot-delay", "0", "--open-after", "0", "--log-level", "warning"]
            health = "/api/health"
            if label == "workers":
                (data / "redis").mkdir()
                redis = Redis(data / "redis")
                command += ["--store", f"redis://127.0.0.1:{redis.port}/0"]
                command += ["--workers", str(args.workers)]
        also = () if redis is None else (redis.process.pid,)
        try:
            server = Process(command, port, health, also)
            server.settle()
            try:
                target = Target(port, bare=label == "bare", game=args.game)
                name = label if redis is None else f"{args.workers} workers on Redis"
                if args.connections:
                    results[label] = {
                        "connections": asyncio.run(connections(target, server, args.connections))
                    }
                    continue
                results[label] = asyncio.run(run_one(name, server, target, args))
            finally:
                server.stop()
        finally:
            if redis is not None:
                redis.stop()
    return results


def print_ratios(args: argparse.Namespace, results: dict[str, dict[str, dict[str, float]]]) -> None:
    """The ratios of one round's servers."""
    if args.connections:
        if "bare" in results and "real" in results:
            bare = results["bare"]["connections"]["cpu_ms_per_connection"]
            real = results["real"]["connections"]["cpu_ms_per_connection"]
            print(f"connections: server CPU per connection, real / bare = {real / bare:.2f}")
        return
    if "real" in results and "workers" in results:
        ratio = (
            results["workers"]["closed"]["events_per_s"] / results["real"]["closed"]["events_per_s"]
        )
        print(
            f"closed loop: {args.workers} workers on Redis do {ratio:.2f} x the events/s of one "
            "SQLite process"
        )
    if "bare" in results and "real" in results:
        ratio = (
            results["real"]["closed"]["events_per_s"] / results["bare"]["closed"]["events_per_s"]
        )
        print(f"closed loop: the real server does {ratio:.2f} x the bare server's events/s")
        cpu = results["bare"]["closed"]["cpu_ms_per_event"] / max(
            results["real"]["closed"]["cpu_ms_per_event"], 1e-9
        )
        # The figure a loaded machine disturbs least: where the server's CPU is what limits it,
        # the events/s ratio tends to this one.
        print(f"closed loop: server CPU per event, bare / real = {cpu:.2f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=100, help="rooms in the closed loop")
    parser.add_argument("--seconds", type=float, default=15.0, help="length of each scenario")
    parser.add_argument("--open-rooms", type=int, default=0, help="rooms in the open loop")
    parser.add_argument("--every", type=float, default=2.0, help="seconds between a player's acts")
    parser.add_argument("--bare", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--only", choices=["real", "bare"], help="run one server only")
    parser.add_argument(
        "--game",
        choices=["disc-cover", "records"],
        default=GAME,
        help="the real server's game (default disc-cover)",
    )
    parser.add_argument(
        "--connections",
        type=int,
        default=0,
        help="instead of the scenarios: open and close N sockets one after the other on one "
        "room and print each server's CPU per connection",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=0,
        help="also run `recordroom serve --workers N` on a Redis store (started here, "
        "appendfsync always) after the others, and compare it with the one SQLite process",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="run the servers in turn this many times (the machine's speed drifts from minute "
        "to minute): each round's closed-loop ratio is printed, then their median",
    )
    args = parser.parse_args()
    if args.bare:
        import uvicorn

        uvicorn.run(bare_app(), host="127.0.0.1", port=args.port, log_level="warning")
        return 0
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    rounds: list[dict[str, dict[str, dict[str, float]]]] = []
    data = Path(tempfile.mkdtemp(prefix="recordroom-load-"))
    try:
        for number in range(args.rounds):
            if args.rounds > 1:
                print(f"round {number + 1} of {args.rounds}")
            rounds.append(one_round(args, data / f"round-{number + 1}"))
            print_ratios(args, rounds[-1])
    finally:
        shutil.rmtree(data, ignore_errors=True)
    if len(rounds) > 1 and all("bare" in r and "real" in r for r in rounds):
        ratios = [
            r["real"]["closed"]["events_per_s"] / r["bare"]["closed"]["events_per_s"]
            for r in rounds
        ]
        each = ", ".join(f"{ratio:.2f}" for ratio in ratios)
        print(
            f"closed loop over {len(rounds)} rounds: the real server does {each} x the bare "
            f"server's events/s, median {statistics.median(ratios):.2f} x"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
