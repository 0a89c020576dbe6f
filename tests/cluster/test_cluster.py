"""Two ``recordroom serve --cluster`` processes on one real Redis, both serving the same room.

The table is on process A and the phones on process B: every action a phone makes on B reaches
the table on A. A is killed with SIGKILL the moment a phone was told of an action, halfway
through a Disc Cover game and a Records game; the table reconnects to B, the game finishes there,
and the log in Redis holds every acknowledged action exactly once and nothing else. Then the
bots: the process holding a room's driver lease is killed, and the other takes the lease and the
bots go on.
"""

from __future__ import annotations

import contextlib
import json
import random
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from recordroom import games
from recordroom.engine.playout import random_playout, replay
from recordroom.server.redis_store import RedisStore

from .redis_tools import RedisServer, redis_server
from .test_failover import START, WAIT, Player, Server, choose, play_one

__all__ = ["redis_server"]

pytestmark = pytest.mark.slow


def until_playing(player: Player) -> dict[str, Any]:
    """Reads until the game shows as started. B may hear of the start a moment after A: a phone
    on B may first be told of the lobby, then of the game at the same version (the start adds no
    action), so this reads message by message rather than waiting for a later version."""
    while player.state.get("status") != "playing":
        player.read_next()
    return player.state


@pytest.mark.parametrize("name", ["disc-cover", "records"])
def test_table_on_a_phones_on_b_a_killed_the_table_moves_to_b_and_the_game_ends(
    redis_server: RedisServer, tmp_path: Path, name: str
) -> None:
    redis_server.flush()
    a = Server(redis_server.url, tmp_path, "a", "--cluster")
    b = Server(redis_server.url, tmp_path, "b", "--cluster")
    a.start()
    b.start()  # both serve the store at once
    players: list[Player] = []
    on_a = httpx.Client(base_url=a.url, timeout=START)  # a first room may wait for the demo music
    on_b = httpx.Client(base_url=b.url, timeout=START)
    try:
        game = games.load(name)
        options = dict(game.info.option_sets[0])
        count = min(game.info.max_players, max(game.info.min_players, 3))
        room = on_a.post("/api/rooms", json={"game": name, "options": options}).json()
        code, host_token = room["code"], room["host_token"]
        tokens = [  # the phones join on B a room made on A
            on_b.post(f"/api/rooms/{code}/seats", json={"name": f"P{i}"}).json()["token"]
            for i in range(count)
        ]
        host = {"Authorization": f"Bearer {host_token}"}
        assert on_a.post(f"/api/rooms/{code}/start", headers=host).is_success

        table = Player(a, code, host_token)
        seats = [Player(b, code, t) for t in tokens]
        players += [table, *seats]
        for player in players:
            until_playing(player)
        assert table.state["role"] == "host"
        rng = random.Random(11)
        log: list[dict[str, Any]] = []
        lengths = [len(random_playout(game, count, s, options)[1]) for s in range(3)]
        while len(log) < max(2, min(lengths) // 2):
            play_one(seats, log, rng)
            assert table.read_until(len(log))["version"] == len(log)  # made on B, shown on A
        # One more action; SIGKILL A the moment the phone (on B) was told.
        seat, action = choose(seats, rng)
        seats[seat].ws.send(_act(len(log), action))
        seats[seat].read_until(len(log) + 1)
        a.kill()
        log.append({"seat": seat, "action": action})

        table.close()
        players.remove(table)
        table = Player(b, code, host_token)  # the table reconnects, to B
        players.append(table)
        state = table.read_until(len(log))
        assert state["role"] == "host" and state["version"] == len(log)
        while seats[0].state["status"] != "over":
            assert len(log) < game.max_decisions(count, options)
            play_one(seats, log, rng)
        assert table.read_until(len(log))["status"] == "over"

        stored = on_b.get(f"/api/rooms/{code}/log").json()
        assert stored["log"] == log
        final = replay(game, count, stored["seed"], stored["options"], stored["log"])
        assert stored["result"] == game.result(final)
        assert all(not p.errors for p in players), [p.errors for p in players]
        probe = RedisStore.from_url(redis_server.url)
        assert probe.read_log(code) == log  # each acknowledged action once, nothing else
        probe.close()
    finally:
        for player in players:
            player.close()
        on_a.close()
        on_b.close()
        a.stop()
        b.stop()


def test_the_driver_of_a_rooms_bots_is_killed_and_the_other_process_drives_them(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    redis_server.flush()
    servers = [Server(redis_server.url, tmp_path, n, "--cluster") for n in ("a", "b")]
    for server in servers:
        server.start()
    phone: Player | None = None
    api = httpx.Client(base_url=servers[0].url, timeout=START)
    probe = RedisStore.from_url(redis_server.url)
    try:
        room = api.post("/api/rooms", json={"game": "records"}).json()
        code, host = room["code"], {"Authorization": f"Bearer {room['host_token']}"}
        token = api.post(f"/api/rooms/{code}/seats", json={"name": "me"}).json()["token"]
        assert api.post(f"/api/rooms/{code}/bots", headers=host).is_success
        assert api.post(f"/api/rooms/{code}/start", headers=host).is_success
        deadline = time.monotonic() + WAIT
        while (holder := probe.client.get(f"rr:driver:{code}")) is None:
            assert time.monotonic() < deadline, "no process took the room's lease"
            time.sleep(0.05)
        text = holder.decode() if isinstance(holder, bytes) else str(holder)
        pid = int(text.split(":")[1])  # the holder's id: host, pid, a random part
        driver = next(s for s in servers if s.process is not None and s.process.pid == pid)
        other = next(s for s in servers if s is not driver)

        phone = Player(other, code, token)  # the person is on the process that does not drive
        until_playing(phone)
        sent, killed_at = 0, None
        deadline = time.monotonic() + 4 * WAIT
        while phone.state["status"] != "over":
            assert time.monotonic() < deadline, "the game did not end"
            state = phone.state
            if state["legal_actions"]:
                phone.ws.send(_act(state["version"], state["legal_actions"][0]))
                sent += 1
            phone.read_until(state["version"] + 1)
            if killed_at is None and state["version"] >= 6:
                driver.kill()  # no lease released: it runs out, and the other process takes it
                killed_at = len(probe.read_log(code))
        with contextlib.suppress(TimeoutError):  # the answer to a last bid, if one is on its way
            while True:
                phone.errors.append(json.loads(phone.ws.recv(timeout=1.0)))
        log = probe.read_log(code)
        assert killed_at is not None and killed_at < len(log)
        assert any(entry["seat"] == 1 for entry in log[killed_at:])  # the bot went on
        refused = [error for error in phone.errors if error["type"] == "error"]
        assert all(error["code"] == "action/stale" for error in refused), refused
        assert sum(entry["seat"] == 0 for entry in log) == sent - len(refused)
        game = games.load("records")
        stored = httpx.get(f"{other.url}/api/rooms/{code}/log", timeout=WAIT).json()
        final = replay(game, 2, stored["seed"], stored["options"], log)
        assert stored["log"] == log and stored["result"] == game.result(final)
    finally:
        if phone is not None:
            phone.close()
        api.close()
        probe.close()
        for server in servers:
            server.stop()


def _act(version: int, action: Any) -> str:
    return json.dumps({"type": "act", "version": version, "action": action})
