"""``recordroom serve --workers 2``: two processes on one port, one killed and started again.

A room is made and played through the one port while both workers serve it (connections land
on either); one worker is killed with SIGKILL, the supervisor starts another, and the game goes
on; SIGTERM to the supervisor stops every worker. Without a Redis store ``--workers`` is refused.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from recordroom.server import serve

from .redis_tools import RedisServer, free_port, redis_server

__all__ = ["redis_server"]

pytestmark = pytest.mark.slow

START = 90.0


def children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if int(stat.rpartition(")")[2].split()[1]) == pid:
            found.add(int(entry.name))
    return found


def test_two_workers_on_one_port_one_killed_and_started_again(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    redis_server.flush()
    port = free_port()
    command = [sys.executable, "-m", "recordroom", "serve", "--host", "127.0.0.1"]
    command += ["--port", str(port), "--store", redis_server.url, "--workers", "2"]
    command += ["--data-dir", str(tmp_path), "--bot-delay", "0", "--open-after", "0"]
    command += ["--no-qr", "--log-level", "warning", "--lease", "2"]
    output = tmp_path / "out.txt"
    with output.open("wb") as out:
        supervisor = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    api = httpx.Client(base_url=url, timeout=START)
    try:
        deadline = time.monotonic() + START
        while len(children(supervisor.pid)) < 2 or not _healthy(url):
            assert supervisor.poll() is None, output.read_text()
            assert time.monotonic() < deadline, output.read_text()
            time.sleep(0.1)
        workers = children(supervisor.pid)
        assert len(workers) == 2
        assert "(2 worker processes on port" in output.read_text()

        made = api.post("/api/rooms", json={"game": "records"}).json()
        code = made["code"]
        token = api.post(f"/api/rooms/{code}/seats", json={"name": "me"}).json()["token"]
        host = {"Authorization": f"Bearer {made['host_token']}"}
        assert api.post(f"/api/rooms/{code}/start", headers=host).is_success

        acted = 0
        for round_ in range(2):
            # A fresh connection each action: they land on either worker.
            for _ in range(3):
                with connect(f"ws://127.0.0.1:{port}/ws/{code}?token={token}") as ws:
                    state = _playing(ws, acted)
                    assert state["version"] == acted
                    action = state["legal_actions"][0]
                    ws.send(json.dumps({"type": "act", "version": acted, "action": action}))
                    while (told := json.loads(ws.recv(timeout=30))).get("version") == acted:
                        pass
                    assert told["type"] == "state"
                    acted += 1
            if round_ == 0:
                victim = min(workers)
                os.kill(victim, signal.SIGKILL)
                deadline = time.monotonic() + START
                while len(children(supervisor.pid) - {victim}) < 2 or not _healthy(url):
                    assert time.monotonic() < deadline, output.read_text()
                    time.sleep(0.1)
        assert api.get(f"/api/rooms/{code}").json()["version"] == acted
        supervisor.send_signal(signal.SIGTERM)
        assert supervisor.wait(timeout=60) == 0
        assert not children(supervisor.pid)
    finally:
        api.close()
        if supervisor.poll() is None:
            supervisor.kill()
            supervisor.wait()
        for pid in children(supervisor.pid):
            os.kill(pid, signal.SIGKILL)


def _healthy(url: str) -> bool:
    try:
        return httpx.get(f"{url}/api/health", timeout=1.0).is_success
    except httpx.TransportError:
        return False


def _playing(ws: object, version: int) -> dict[str, object]:
    """The first state of the game at ``version`` (a worker that has not heard of the last
    action yet sends the one before first, then catches up)."""
    while True:
        message = json.loads(ws.recv(timeout=30))  # type: ignore[attr-defined]
        state = message["type"] == "state" and message["status"] == "playing"
        if state and message["version"] >= version:
            return message  # type: ignore[no-any-return]


@pytest.mark.parametrize("store", [None, "sqlite:rooms.sqlite3"])
def test_workers_need_a_redis_store(store: str | None, capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser()
    serve.register(parser.add_subparsers())
    argv = ["serve", "--no-qr", "--workers", "2", *(["--store", store] if store else [])]
    assert serve.run(parser.parse_args(argv)) == 2
    assert "--workers needs --store redis://HOST:PORT/DB" in capsys.readouterr().err
