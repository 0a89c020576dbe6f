"""Two processes offered the same action index of a room at the same moment: one wins, each time."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

from recordroom.server.redis_store import RedisStore
from recordroom.server.store import RoomRecord, SeatRecord

from .redis_tools import RedisServer, redis_server

__all__ = ["redis_server"]

pytestmark = pytest.mark.slow

ROUNDS = 20

# Each process waits for the go of round i (a Redis list the test pushes to), then offers action
# i of the room, and prints what happened to each of its offers.
OFFER = """
import json, sys
from recordroom.server.redis_store import RedisStore
from recordroom.server.store import AppendAction
url, name, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
store = RedisStore.from_url(url)
print("ready", flush=True)
outcomes = []
for i in range(rounds):
    store.client.blpop([f"go:{i}"], timeout=120)
    (error,) = store.commit([[AppendAction("RACE", i, 0, {"by": name})]])
    outcomes.append("won" if error is None else f"lost: {error}")
store.close()
print(json.dumps(outcomes), flush=True)
"""


def test_a_racing_pair_of_processes_accepts_each_index_once(redis_server: RedisServer) -> None:
    redis_server.flush()
    store = RedisStore.from_url(redis_server.url)
    store.create_room(RoomRecord("RACE", "toy", {}, 1, "h", seats=[SeatRecord("A", "t", False)]))
    racers = {
        name: subprocess.Popen(
            [sys.executable, "-c", OFFER, redis_server.url, name, str(ROUNDS)],
            stdout=subprocess.PIPE,
            text=True,
        )
        for name in ("a", "b")
    }
    try:
        for racer in racers.values():
            assert racer.stdout is not None and racer.stdout.readline().strip() == "ready"
        for i in range(ROUNDS):
            store.client.rpush(f"go:{i}", "a", "b")  # both offers leave at once
            deadline = time.monotonic() + 60
            while len(store.read_log("RACE")) < i + 1:
                assert time.monotonic() < deadline
                time.sleep(0.005)
        outcomes = {}
        for name, racer in racers.items():
            out, _ = racer.communicate(timeout=60)
            assert racer.returncode == 0
            outcomes[name] = json.loads(out.strip().splitlines()[-1])
    finally:
        for racer in racers.values():
            if racer.poll() is None:
                racer.kill()
                racer.wait()
    log = store.read_log("RACE")
    store.close()
    assert len(log) == ROUNDS
    for i in range(ROUNDS):
        winners = [name for name in ("a", "b") if outcomes[name][i] == "won"]
        assert len(winners) == 1, (i, outcomes["a"][i], outcomes["b"][i])
        loser = "b" if winners[0] == "a" else "a"
        assert outcomes[loser][i].startswith(f"lost: action {i} of room RACE is already stored")
        assert log[i] == {"seat": 0, "action": {"by": winners[0]}}
