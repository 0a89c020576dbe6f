"""Two ``recordroom serve`` processes on one real Redis: one serves, the other takes over.

Process A holds the store's lease; B, started beside it, stops at once (exit code 3, who holds
it). A is killed with SIGKILL the moment a client was told of an action, halfway through a Disc
Cover game and a Records game; B then takes the lease (within ``--lease`` seconds), every client
is back in its seat on B, the game finishes, and the log in Redis holds every acknowledged action
exactly once and nothing else.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from recordroom import games
from recordroom.engine.playout import random_playout, replay
from recordroom.server.redis_store import RedisStore

from .redis_tools import RedisServer, free_port, redis_server

__all__ = ["redis_server"]

pytestmark = pytest.mark.slow

WAIT = 60.0
START = 90.0
"""Seconds a server may take to start (a loaded machine takes half a minute)."""
LEASE = 2.0


class Server:
    """``recordroom serve --store redis://...`` as a child process on a free 127.0.0.1 port."""

    def __init__(self, store: str, folder: Path, name: str, *extra: str) -> None:
        self.store = store
        self.extra = extra
        """More options (``--cluster``)."""
        self.folder = folder
        self.port = free_port()
        self.output = folder / f"{name}.out"
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def launch(self) -> subprocess.Popen[bytes]:
        command = [sys.executable, "-m", "recordroom", "serve", "--host", "127.0.0.1"]
        command += ["--port", str(self.port), "--store", self.store, "--lease", str(LEASE)]
        command += ["--data-dir", str(self.folder), "--bot-delay", "0", "--no-qr"]
        command += ["--log-level", "warning", "--open-after", "0", *self.extra]
        with self.output.open("ab") as out:
            self.process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
        return self.process

    def start(self) -> None:
        """Starts and waits until it answers; fails if it exits."""
        process = self.launch()
        deadline = time.monotonic() + START
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise RuntimeError(f"server exited: {self.output.read_text()}")
            try:
                if httpx.get(f"{self.url}/api/health", timeout=1.0).is_success:
                    return
            except httpx.TransportError:
                time.sleep(0.05)
        self.stop()  # no process is left behind
        raise RuntimeError(f"server did not come up: {self.output.read_text()}")

    def kill(self) -> None:
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=WAIT)

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)


class Player:
    """One seat's WebSocket client, keeping the last state it was sent."""

    def __init__(self, server: Server, code: str, token: str) -> None:
        url = f"ws://127.0.0.1:{server.port}/ws/{code}?token={token}"
        self.ws: ClientConnection = connect(url).__enter__()
        self.state: dict[str, Any] = {}
        self.errors: list[dict[str, Any]] = []

    def read_until(self, version: int) -> dict[str, Any]:
        while not self.state or self.state["version"] < version:
            self.read_next()
        return self.state

    def read_next(self) -> None:
        """Reads one message: a state is kept, anything else is noted as an error."""
        message = json.loads(self.ws.recv(timeout=WAIT))
        if message["type"] == "state":
            self.state = message
        else:
            self.errors.append(message)

    def close(self) -> None:
        self.ws.__exit__(None, None, None)


def choose(seats: list[Player], rng: random.Random) -> tuple[int, Any]:
    movers = [i for i, p in enumerate(seats) if p.state["legal_actions"]]
    seat = movers[rng.randrange(len(movers))]
    legal = seats[seat].state["legal_actions"]
    return seat, legal[rng.randrange(len(legal))]


def play_one(seats: list[Player], log: list[dict[str, Any]], rng: random.Random) -> None:
    seat, action = choose(seats, rng)
    seats[seat].ws.send(json.dumps({"type": "act", "version": len(log), "action": action}))
    log.append({"seat": seat, "action": action})
    for p in seats:
        p.read_until(len(log))


@pytest.mark.parametrize("name", ["disc-cover", "records"])
def test_sigkill_the_serving_process_and_the_other_takes_over_losing_nothing(
    redis_server: RedisServer, tmp_path: Path, name: str
) -> None:
    redis_server.flush()
    a = Server(redis_server.url, tmp_path, "a")
    b = Server(redis_server.url, tmp_path, "b")
    a.start()
    seats: list[Player] = []
    api = httpx.Client(base_url=a.url, timeout=START)  # a first room may wait for the demo music
    try:
        refused = b.launch()
        assert refused.wait(timeout=START) == 3
        said = b.output.read_text()
        assert "another server process" in said and "--store redis://127.0.0.1" in said

        game = games.load(name)
        options = dict(game.info.option_sets[0])
        players = min(game.info.max_players, max(game.info.min_players, 3))
        room = api.post("/api/rooms", json={"game": name, "options": options}).json()
        code, host = room["code"], {"Authorization": f"Bearer {room['host_token']}"}
        tokens = [
            api.post(f"/api/rooms/{code}/seats", json={"name": f"P{i}"}).json()["token"]
            for i in range(players)
        ]
        assert api.post(f"/api/rooms/{code}/start", headers=host).is_success
        seats = [Player(a, code, t) for t in tokens]
        rng = random.Random(5)
        log: list[dict[str, Any]] = []
        lengths = [len(random_playout(game, players, s, options)[1]) for s in range(3)]
        for p in seats:
            p.read_until(0)
        while len(log) < max(2, min(lengths) // 2):
            play_one(seats, log, rng)
        # One more action; SIGKILL A the moment its sender was told.
        seat, action = choose(seats, rng)
        seats[seat].ws.send(json.dumps({"type": "act", "version": len(log), "action": action}))
        seats[seat].read_until(len(log) + 1)
        a.kill()
        killed = time.monotonic()
        log.append({"seat": seat, "action": action})
        for p in seats:
            p.close()

        probe = RedisStore.from_url(redis_server.url)
        while probe.client.get("rr:server") is not None:  # A's lease, no longer renewed
            assert time.monotonic() - killed < LEASE + 1.0
            time.sleep(0.05)
        b.start()
        api.close()
        api = httpx.Client(base_url=b.url, timeout=WAIT)
        assert api.get(f"/api/rooms/{code}").json()["version"] == len(log)
        seats = [Player(b, code, t) for t in tokens]
        for i, p in enumerate(seats):
            assert p.read_until(len(log))["seat"] == i
        while seats[0].state["status"] != "over":
            assert len(log) < game.max_decisions(players, options)
            play_one(seats, log, rng)
        stored = api.get(f"/api/rooms/{code}/log").json()
        assert stored["log"] == log
        final = replay(game, players, stored["seed"], stored["options"], stored["log"])
        assert stored["result"] == game.result(final)
        assert all(not p.errors for p in seats), [p.errors for p in seats]
        assert probe.read_log(code) == log  # each acknowledged action once, nothing else
        probe.close()
    finally:
        for p in seats:
            p.close()
        api.close()
        a.stop()
        b.stop()


def test_a_process_whose_store_was_taken_over_stops_serving(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    redis_server.flush()
    a = Server(redis_server.url, tmp_path, "a")
    a.start()
    try:
        probe = RedisStore.from_url(redis_server.url)
        assert probe.client.get("rr:server") is not None
        # As if A had been cut off from Redis past its lease and another process took over.
        probe.client.set("rr:server", "elsewhere:1:x", px=60_000)
        assert a.process is not None
        assert a.process.wait(timeout=LEASE + WAIT) == 3
        said = a.output.read_text()
        assert "another process (elsewhere:1:x) took the store over; stopped serving" in said
        assert probe.client.get("rr:server") == b"elsewhere:1:x"  # A did not release it
        probe.close()
    finally:
        a.stop()


def test_a_redis_that_lost_acknowledged_actions_makes_the_server_restart_from_it(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    redis_server.flush()
    a = Server(redis_server.url, tmp_path, "a")
    a.start()
    seats: list[Player] = []
    api = httpx.Client(base_url=a.url, timeout=START)  # a first room may wait for the demo music
    try:
        room = api.post("/api/rooms", json={"game": "records"}).json()
        code, host = room["code"], {"Authorization": f"Bearer {room['host_token']}"}
        tokens = [
            api.post(f"/api/rooms/{code}/seats", json={"name": f"P{i}"}).json()["token"]
            for i in range(2)
        ]
        assert api.post(f"/api/rooms/{code}/start", headers=host).is_success
        seats = [Player(a, code, t) for t in tokens]
        rng = random.Random(3)
        log: list[dict[str, Any]] = []
        for p in seats:
            p.read_until(0)
        for _ in range(3):
            play_one(seats, log, rng)
        # Redis comes back without the last acknowledged action (everysec and a power cut).
        probe = RedisStore.from_url(redis_server.url)
        probe.client.rpop(f"rr:log:{code}")
        seat, action = choose(seats, rng)
        seats[seat].ws.send(json.dumps({"type": "act", "version": len(log), "action": action}))
        refused = json.loads(seats[seat].ws.recv(timeout=WAIT))
        assert refused["type"] == "error" and refused["code"] == "server/store", refused
        assert a.process is not None and a.process.wait(timeout=WAIT) == 3
        said = a.output.read_text()
        assert "Redis lost acknowledged actions" in said and "would skip actions" in said
        for p in seats:
            p.close()
        seats = []

        b = Server(redis_server.url, tmp_path, "b")
        b.start()
        try:
            assert httpx.get(f"{b.url}/api/rooms/{code}", timeout=WAIT).json()["version"] == 2
            assert probe.read_log(code) == log[:2]
        finally:
            b.stop()
        probe.close()
    finally:
        for p in seats:
            p.close()
        api.close()
        a.stop()
