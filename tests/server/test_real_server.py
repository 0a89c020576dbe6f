"""Point 8: the real thing. ``recordroom serve`` in a subprocess, one WebSocket client per seat,
``kill -9`` halfway through a game, a restart on the same data folder, and every client back in
its seat; the game finishes with no accepted action lost and the result its log replays to.
"""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from recordroom import games
from recordroom.engine.playout import random_playout, replay

pytestmark = pytest.mark.slow

WAIT = 20.0
START_WAIT = 90.0
"""Seconds a server may take to come up (a machine shared with other work can be that slow)."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


class Server:
    """``recordroom serve`` as a child process on a free 127.0.0.1 port."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.output = data_dir / "server.out"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        command = [sys.executable, "-m", "recordroom", "serve", "--host", "127.0.0.1"]
        command += ["--port", str(self.port), "--data-dir", str(self.data_dir)]
        command += ["--bot-delay", "0", "--no-qr", "--log-level", "warning"]
        # Disc Cover's turns open at once: these players have no table to hear the songs.
        command += ["--open-after", "0"]
        with self.output.open("ab") as out:
            self.process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + START_WAIT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited: {self.output.read_text()}")
            try:
                if httpx.get(f"{self.url}/api/health", timeout=1.0).is_success:
                    return
            except httpx.TransportError:
                time.sleep(0.05)
        self.stop()  # never leave a server running behind a failed start
        raise RuntimeError(f"server did not come up: {self.output.read_text()}")

    def kill(self) -> None:
        """``kill -9``: no shutdown code of the server runs."""
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


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path)
    running.start()
    try:
        yield running
    finally:
        running.stop()


class Player:
    """One seat's WebSocket client, keeping the last state it was sent."""

    def __init__(self, server: Server, code: str, token: str) -> None:
        url = f"ws://127.0.0.1:{server.port}/ws/{code}?token={token}"
        self.ws: ClientConnection = connect(url).__enter__()
        self.state: dict[str, Any] = {}
        self.errors: list[dict[str, Any]] = []

    def read_until(self, version: int) -> dict[str, Any]:
        """Reads messages until a state of at least ``version`` arrives."""
        while not self.state or self.state["version"] < version:
            message = json.loads(self.ws.recv(timeout=WAIT))
            if message["type"] == "state":
                self.state = message
            else:
                self.errors.append(message)
        return self.state

    def close(self) -> None:
        self.ws.__exit__(None, None, None)


def started_room(
    api: httpx.Client, name: str, players: int, options: dict[str, Any] | None = None
) -> tuple[str, list[str]]:
    """A room of ``name`` with ``players`` seats taken, started: its code and the seat tokens."""
    body: dict[str, Any] = {"game": name} if options is None else {"game": name, "options": options}
    room = api.post("/api/rooms", json=body).json()
    code, host = room["code"], {"Authorization": f"Bearer {room['host_token']}"}
    tokens = [
        api.post(f"/api/rooms/{code}/seats", json={"name": f"P{i}"}).json()["token"]
        for i in range(players)
    ]
    assert api.post(f"/api/rooms/{code}/start", headers=host).is_success
    return code, tokens


def players_for(name: str) -> int:
    info = games.load(name).info
    return min(info.max_players, max(info.min_players, 3))


def halfway(name: str, players: int, options: dict[str, Any]) -> int:
    """Half the length of a typical game (random playouts)."""
    game = games.load(name)
    lengths = [len(random_playout(game, players, s, options)[1]) for s in range(3)]
    return max(2, min(lengths) // 2)


@pytest.mark.parametrize("name", games.names())
def test_kill_9_halfway_loses_nothing(server: Server, name: str) -> None:
    game = games.load(name)
    options = dict(game.info.option_sets[0])
    players = players_for(name)
    api = httpx.Client(base_url=server.url, timeout=WAIT)
    code, tokens = started_room(api, name, players, options)
    seats = [Player(server, code, t) for t in tokens]
    rng = random.Random(11)
    log: list[dict[str, Any]] = []
    kill_at = halfway(name, players, options)
    try:
        for p in seats:
            p.read_until(0)
        while len(log) < kill_at:
            assert seats[0].state["status"] == "playing"
            play_one(seats, log, rng)
        # Act once more and kill the server the moment one client has been told.
        seat, action = choose(seats, rng)
        seats[seat].ws.send(json.dumps({"type": "act", "version": len(log), "action": action}))
        seats[seat].read_until(len(log) + 1)
        server.kill()
        log.append({"seat": seat, "action": action})
        before = {i: p.state for i, p in enumerate(seats)}
        for p in seats:
            p.close()

        server.start()
        info = api.get(f"/api/rooms/{code}").json()
        assert info["version"] == len(log), "an action a client was told about was lost"
        seats = [Player(server, code, t) for t in tokens]
        for i, p in enumerate(seats):
            state = p.read_until(len(log))
            assert state["seat"] == i
            if before[i]["version"] == len(log):
                assert state["view"] == before[i]["view"]
                assert state["legal_actions"] == before[i]["legal_actions"]
        limit = game.max_decisions(players, options)
        while seats[0].state["status"] != "over":
            assert len(log) < limit
            play_one(seats, log, rng)
        stored = api.get(f"/api/rooms/{code}/log").json()
        assert stored["log"] == log
        final = replay(game, players, stored["seed"], stored["options"], stored["log"])
        assert stored["result"] == game.result(final)
        assert all(p.state["result"] == stored["result"] for p in seats)
        assert all(not p.errors for p in seats), [p.errors for p in seats]
    finally:
        for p in seats:
            p.close()
        api.close()


def choose(seats: list[Player], rng: random.Random) -> tuple[int, dict[str, Any]]:
    """A random seat with something to do, and one of its legal actions."""
    movers = [i for i, p in enumerate(seats) if p.state["legal_actions"]]
    seat = movers[rng.randrange(len(movers))]
    legal = seats[seat].state["legal_actions"]
    return seat, legal[rng.randrange(len(legal))]


def play_one(seats: list[Player], log: list[dict[str, Any]], rng: random.Random) -> None:
    """One action through its seat's socket; every client must be told."""
    seat, action = choose(seats, rng)
    seats[seat].ws.send(json.dumps({"type": "act", "version": len(log), "action": action}))
    log.append({"seat": seat, "action": action})
    for p in seats:
        p.read_until(len(log))


def test_state_messages_go_out_uncompressed_through_the_servers_own_send(server: Server) -> None:
    # The first room may wait for the server's warm-up (the demo music made in the background).
    created = httpx.post(f"{server.url}/api/rooms", json={"game": "disc-cover"}, timeout=START_WAIT)
    code, host_token = created.json()["code"], created.json()["host_token"]
    for name in ("Ann", "Bob", "Cy"):
        httpx.post(f"{server.url}/api/rooms/{code}/seats", json={"name": name}, timeout=WAIT)
    # The client offers per-message deflate (as browsers do); the server declines it.
    with connect(f"ws://127.0.0.1:{server.port}/ws/{code}?token={host_token}") as table:
        assert table.response is not None
        assert "sec-websocket-extensions" not in table.response.headers
        first = json.loads(table.recv(timeout=WAIT))
        started = httpx.post(
            f"{server.url}/api/rooms/{code}/start",
            headers={"Authorization": f"Bearer {host_token}"},
            timeout=WAIT,
        )
        assert started.is_success
        second = json.loads(table.recv(timeout=WAIT))
    assert (first["status"], second["status"]) == ("lobby", "playing")


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue  # gone meanwhile
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def _holds(pid: int, path: Path) -> bool:
    """Whether process ``pid`` has the file at ``path`` open."""
    folder = Path(f"/proc/{pid}/fd")
    held = set()
    for fd in folder.iterdir():
        try:
            held.add(os.readlink(fd))
        except OSError:
            continue
    return str(path.resolve()) in held


def _keepers(server: Server) -> list[int]:
    """The server's child processes that hold its database open."""
    assert server.process is not None
    database = server.data_dir / "recordroom.sqlite3"
    return [child for child in _children(server.process.pid) if _holds(child, database)]


def _ended(pid: int) -> bool:
    """Whether process ``pid`` is gone, waiting for it up to ``WAIT`` seconds."""
    deadline = time.monotonic() + WAIT
    while Path(f"/proc/{pid}").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    return not Path(f"/proc/{pid}").exists()


def test_the_database_is_kept_by_a_process_of_the_servers_own_that_ends_with_it(
    server: Server,
) -> None:
    """SQLite runs in a child of the server, not in the process of its event loop; killed with
    the server, the child ends too, and a restart serves what it stored."""
    assert server.process is not None
    database = server.data_dir / "recordroom.sqlite3"
    created = httpx.post(f"{server.url}/api/rooms", json={"game": "disc-cover"}, timeout=START_WAIT)
    code = created.json()["code"]
    assert httpx.post(f"{server.url}/api/rooms/{code}/seats", json={"name": "Ann"}).is_success
    keepers = _keepers(server)
    assert len(keepers) == 1
    assert not _holds(server.process.pid, database)
    server.kill()
    assert _ended(keepers[0])
    server.start()
    room = httpx.get(f"{server.url}/api/rooms/{code}", timeout=WAIT).json()
    assert [seat["name"] for seat in room["seats"]] == ["Ann"]


def test_an_action_the_store_can_no_longer_keep_is_refused_and_changes_nothing(
    server: Server,
) -> None:
    """The store's process is killed during a game: the next action is refused with
    ``server/store`` (not applied, not told as done), the server stops by itself (exit code 3,
    saying why), and a restart serves what was stored before."""
    assert server.process is not None
    api = httpx.Client(base_url=server.url, timeout=START_WAIT)
    code, tokens = started_room(api, "disc-cover", 3)
    seats = [Player(server, code, t) for t in tokens]
    try:
        log: list[dict[str, Any]] = []
        for p in seats:
            p.read_until(0)
        play_one(seats, log, random.Random(5))
        (keeper,) = _keepers(server)
        os.kill(keeper, signal.SIGKILL)
        seat, action = choose(seats, random.Random(6))
        seats[seat].ws.send(json.dumps({"type": "act", "version": len(log), "action": action}))
        refusal = json.loads(seats[seat].ws.recv(timeout=WAIT))
        assert refusal["type"] == "error" and refusal["code"] == "server/store"
    finally:
        for p in seats:
            p.close()
        api.close()
    assert server.process.wait(timeout=WAIT) == 3
    said = server.output.read_text()
    assert "every write is refused until the server is restarted" in said
    assert "restart to serve what it kept; stopped serving" in said
    server.start()
    info = httpx.get(f"{server.url}/api/rooms/{code}", timeout=WAIT).json()
    assert info["version"] == len(log) == 1  # the action stored before, and not the refused one


def test_a_damaged_database_does_not_stop_the_server_nor_its_store_process(
    server: Server,
) -> None:
    """Point 7 through ``recordroom serve``, whose store is a process of its own: a room whose
    row is not JSON is set aside and said so, the others are served; a file SQLite cannot open
    is moved aside, loudly, and a fresh one started."""
    codes = []
    for name in ("Ann", "Bob", "Cy"):
        created = httpx.post(
            f"{server.url}/api/rooms", json={"game": "disc-cover"}, timeout=START_WAIT
        )
        code = created.json()["code"]
        httpx.post(f"{server.url}/api/rooms/{code}/seats", json={"name": name}, timeout=WAIT)
        codes.append(code)
    server.stop()
    database = server.data_dir / "recordroom.sqlite3"
    with sqlite3.connect(database) as db:
        db.execute("UPDATE rooms SET options = '{not json' WHERE code = ?", (codes[0],))
    server.start()
    assert httpx.get(f"{server.url}/api/rooms/{codes[0]}", timeout=WAIT).status_code == 404
    for code in codes[1:]:
        assert httpx.get(f"{server.url}/api/rooms/{code}", timeout=WAIT).is_success
    said = server.output.read_text()
    assert f"room {codes[0]} set aside" in said
    server.stop()
    database.write_bytes(b"not a database, at all" + database.read_bytes()[22:])
    server.start()
    assert "CANNOT BE READ" in server.output.read_text()
    assert any(".damaged-" in p.name for p in server.data_dir.iterdir())
    created = httpx.post(f"{server.url}/api/rooms", json={"game": "disc-cover"}, timeout=WAIT)
    assert created.status_code == 201


def test_ctrl_c_stops_the_server_and_its_store_process_without_a_traceback(
    server: Server,
) -> None:
    assert server.process is not None
    created = httpx.post(f"{server.url}/api/rooms", json={"game": "disc-cover"}, timeout=START_WAIT)
    assert created.status_code == 201
    (keeper,) = _keepers(server)
    os.kill(server.process.pid, signal.SIGINT)
    assert server.process.wait(timeout=WAIT) == 0
    said = server.output.read_text()
    assert "Traceback" not in said and "KeyboardInterrupt" not in said
    assert _ended(keeper)
    server.start()
    code = created.json()["code"]
    assert httpx.get(f"{server.url}/api/rooms/{code}", timeout=WAIT).is_success
