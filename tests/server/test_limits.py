"""Issue 12, points 4 and 5: bounded queues, bounded bodies, and no walking of room codes."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

from recordroom.server.app import MAX_QUEUED_BYTES, Connection

from .helpers import TOY_NAME, Socket, TestClient, host, new_room


def test_a_body_over_64_kib_is_refused_before_it_is_read(client: TestClient) -> None:
    rooms = client.get("/api/health").json()["rooms"]
    big = {"game": TOY_NAME, "options": {"pad": "x" * 70_000}}
    answer = client.post("/api/rooms", json=big)
    assert answer.status_code == 413
    assert answer.json()["code"] == "request/too_large"
    # Also to a room that does not exist, and without a declared length (sent in chunks).
    answer = client.post("/api/rooms/ZZZZ/seats", content=b"{" + b" " * 200_000 + b"}")
    assert (answer.status_code, answer.json()["code"]) == (413, "request/too_large")

    def chunks() -> Iterator[bytes]:
        for _ in range(100):
            yield b" " * 1024

    answer = client.post(
        "/api/rooms", content=chunks(), headers={"content-type": "application/json"}
    )
    assert (answer.status_code, answer.json()["code"]) == (413, "request/too_large")
    assert client.get("/api/health").json()["rooms"] == rooms


def test_options_and_music_have_their_own_caps(client: TestClient) -> None:
    answer = client.post("/api/rooms", json={"game": TOY_NAME, "options": {"pad": "x" * 9000}})
    assert answer.status_code == 413
    assert answer.json()["code"] == "request/too_large"
    assert "options" in answer.json()["message"]
    assert client.get("/api/health").json()["rooms"] == 0


def test_error_replies_never_echo_the_payload(client: TestClient) -> None:
    code, _, _ = new_room(client, TOY_NAME, 2)
    with client.websocket_connect(f"/ws/{code}") as ws:
        socket = Socket(ws)
        socket.recv_state()
        for bad in (
            {"type": "Z" * 60_000},
            {"type": "act", "version": 0, "action": {"Z" * 60_000: 1}},
            {"type": "ping", "Z" * 60_000: 1},
        ):
            socket.send(bad)
            error = socket.recv()
            assert error["type"] == "error"
            assert len(error["message"]) <= 200 and "ZZZZ" not in error["message"]


def test_a_client_that_does_not_read_is_dropped_with_1008() -> None:
    class Stuck:
        """A socket whose sends never finish (its reader never reads)."""

        def __init__(self) -> None:
            self.closed: int | None = None
            self.sent = 0

        async def send_text(self, text: str) -> None:
            self.sent += 1
            await asyncio.Event().wait()

        async def close(self, code: int) -> None:
            self.closed = code

    async def flood() -> tuple[Stuck, Connection, int]:
        stuck = Stuck()
        connection = Connection(stuck, "spectator", None)  # type: ignore[arg-type]
        pump = asyncio.create_task(connection.pump())
        message: dict[str, Any] = {"type": "state", "view": "v" * 10_000}
        most = 0
        for _ in range(1000):  # 10 MB offered
            connection.send(message)
            most = max(most, connection.queued_bytes)
            await asyncio.sleep(0)
        pump.cancel()
        return stuck, connection, most

    stuck, connection, most = asyncio.run(flood())
    assert connection.dropped
    assert most <= MAX_QUEUED_BYTES
    assert connection.queue.qsize() <= 1  # only the close is left
    assert stuck.sent == 1


def test_a_slow_reader_over_a_real_socket_is_closed_and_others_go_on(client: TestClient) -> None:
    code, host_token, tokens = new_room(client, TOY_NAME, 2)
    client.post(f"/api/rooms/{code}/start", headers=host(host_token))
    with client.websocket_connect(f"/ws/{code}?token={tokens[0]}") as ws:
        seat = Socket(ws)
        seat.recv_state()
        # Ten MB of refusals, none read: the refusals are short, so the queue stays small.
        for _ in range(200):
            seat.send(json.dumps({"type": "cheat", "pad": "p" * 50_000}))
        seat.send({"type": "ping"})
        while (message := seat.recv())["type"] != "pong":
            assert message["code"] in ("message/unknown_type", "message/malformed")


def test_host_only_calls_answer_the_same_for_any_code(client: TestClient) -> None:
    code, _, _ = new_room(client, TOY_NAME, 2)
    for path in ("start", "again", "bots", "music/skip"):
        real = client.post(f"/api/rooms/{code}/{path}", headers=host("wrong"))
        missing = client.post(f"/api/rooms/ZZZZ/{path}", headers=host("wrong"))
        assert (real.status_code, real.json()) == (missing.status_code, missing.json()), path
        assert real.status_code == 403
    real = client.delete(f"/api/rooms/{code}/seats/0")
    missing = client.delete("/api/rooms/ZZZZ/seats/0")
    assert (real.status_code, real.json()) == (missing.status_code, missing.json())


def test_every_route_with_a_room_code_counts_against_the_look_up_limit(make_client: Any) -> None:
    client = make_client(lookup_limit=(3, 60.0))
    paths = [
        ("get", "/api/rooms/ZZZZ/replay/0"),
        ("get", "/api/rooms/ZZZZ/mosaic.png"),
        ("post", "/api/rooms/ZZZZ/start"),
    ]
    for method, path in paths:
        assert getattr(client, method)(path).status_code in (403, 404)
    for method, path in [*paths, ("post", "/api/rooms/ZZZZ/again")]:
        answer = getattr(client, method)(path)
        assert (answer.status_code, answer.json()["code"]) == (429, "rate/limited"), path


def test_a_message_with_few_brackets_is_not_walked_for_its_depth(
    client: TestClient, monkeypatch: Any
) -> None:
    from recordroom.server import sockets

    walked: list[int] = []
    too_deep = sockets._too_deep

    def counted(value: Any, limit: int) -> bool:
        walked.append(limit)
        return too_deep(value, limit)

    monkeypatch.setattr(sockets, "_too_deep", counted)
    code, host_token, tokens = new_room(client, TOY_NAME, 2)
    client.post(f"/api/rooms/{code}/start", headers=host(host_token))
    with client.websocket_connect(f"/ws/{code}?token={tokens[0]}") as ws:
        seat = Socket(ws)
        seat.recv_state()
        seat.send({"type": "act", "version": 0, "action": seat.state["legal_actions"][0]})
        assert seat.recv_state()["version"] == 1
        assert walked == []  # an ordinary action is not walked
        deep: Any = 1
        for _ in range(20):
            deep = [deep]
        seat.send({"type": "act", "version": 1, "action": {"a": deep}})
        error = seat.recv()
        assert (error["type"], error["code"]) == ("error", "message/malformed")
        assert walked == [16]  # one with many brackets is, and refused
