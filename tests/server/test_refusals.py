"""Every refusal has a code, says what there is and never what was sent (docs/protocol.md)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from recordroom.server.store import SqliteStore

from .helpers import TOY_NAME, Socket, TestClient, host, new_room

MARK = "ZQXMARKERqq"
"""What a client made up: no reply may repeat it."""


def said(answer: Any) -> str:
    """The message of an HTTP refusal, checked for its shape."""
    body = answer.json()
    assert set(body) == {"code", "message"}, body
    assert len(body["message"]) <= 200, body["message"]
    return str(body["message"])


def test_no_http_refusal_repeats_what_was_sent(client: TestClient) -> None:
    refused = [
        client.post("/api/rooms", json={"game": MARK}),
        client.post("/api/rooms", json={"game": TOY_NAME, MARK: 1}),
        client.post("/api/rooms", json={"game": "disc-cover", "options": {"variant": MARK}}),
        client.post("/api/rooms", json={"game": "records", "options": {MARK: 1}}),
        client.post("/api/rooms", json={"game": "records", "options": {"edition": MARK}}),
        client.post("/api/rooms", json={"game": "disc-cover", "music": {"source": MARK}}),
        client.post("/api/music/check", json={"source": "library", "themes": [MARK]}),
        client.post("/api/music/check", json={"source": "playlist", "playlist": MARK}),
        client.get(f"/api/music/tracks/{MARK}"),
        client.get(f"/api/games/{MARK}/edition"),
        client.get(f"/api/games/records/edition?edition={MARK}"),
        client.get(f"/api/rooms/{MARK}"),
    ]
    for answer in refused:
        assert answer.status_code >= 400, answer.text
        assert MARK not in said(answer), answer.text
    # What there is is still said: the games, the option's allowed values.
    assert "records" in said(refused[0])
    assert "'cooperative'" in said(refused[2])
    # Thirty made-up fields: one short message, none of them named.
    many = {"game": TOY_NAME, **{f"{MARK}{i}": i for i in range(30)}}
    assert MARK not in said(client.post("/api/rooms", json=many))


def test_no_socket_refusal_repeats_what_was_sent(client: TestClient) -> None:
    code, host_token, (token,) = new_room(client, "records", 1)
    started = client.post(f"/api/rooms/{code}/start", headers=host(host_token))
    assert started.status_code == 200, started.text
    with client.websocket_connect(f"/ws/{code}?token={token}") as ws:
        seat = Socket(ws)
        version = seat.recv_state()["version"]
        for message in (
            {"type": "act", "version": version, "action": {"type": "pick"}, MARK: 1},
            {"type": "act", "version": version, "action": {"type": "pick", "card": MARK}},
            {"type": "act", "version": version, "action": {"type": MARK}},
            {"type": "act", "version": version, "action": [MARK, {MARK: [MARK]}]},
        ):
            seat.send(message)
            refusal = seat.recv()
            assert refusal["type"] == "error", refusal
            assert MARK not in refusal["message"] and len(refusal["message"]) <= 200, refusal
        seat.send({"type": "ping"})
        assert seat.recv()["type"] == "pong"  # the socket is still open
    with client.websocket_connect(f"/ws/{'Q' * 300}{MARK}") as ws:
        refusal = json.loads(ws.receive_text())
        assert refusal["code"] == "room/not_found" and MARK not in refusal["message"]


def test_a_binary_frame_is_malformed_and_the_socket_stays(client: TestClient) -> None:
    code, _, (token,) = new_room(client, TOY_NAME, 1)
    with client.websocket_connect(f"/ws/{code}?token={token}") as ws:
        seat = Socket(ws)
        seat.recv_state()
        ws.send_bytes(b'{"type":"ping"}')
        refusal = seat.recv()
        assert (refusal["type"], refusal["code"]) == ("error", "message/malformed")
        seat.send({"type": "ping"})
        assert seat.recv()["type"] == "pong"


def test_no_route_and_no_method_answer_with_a_code(client: TestClient) -> None:
    missing = client.get("/api/nope")
    assert (missing.status_code, missing.json()["code"]) == (404, "request/not_found")
    wrong = client.put("/api/rooms/ZZZZ")
    assert (wrong.status_code, wrong.json()["code"]) == (405, "request/method")
    assert "GET" in wrong.headers["allow"]
    path = client.get("/api/music/tracks/..%2Fsecret")
    assert (path.status_code, path.json()["code"]) == (404, "music/not_found")


def test_a_skip_without_app_audio_is_invalid_music(client: TestClient) -> None:
    code, host_token, _ = new_room(client, TOY_NAME, 1)
    answer = client.post(f"/api/rooms/{code}/music/skip", headers=host(host_token))
    assert (answer.status_code, answer.json()["code"]) == (422, "music/invalid")


def test_the_music_check_has_the_music_cap(client: TestClient) -> None:
    music = {"source": "external", "themes": ["t" * 450] * 20}  # 9 KiB
    answer = client.post("/api/music/check", json=music)
    assert (answer.status_code, answer.json()["code"]) == (413, "request/too_large")


def test_a_rooms_pages_are_look_ups(make_client: Callable[..., TestClient]) -> None:
    """A page that depends on the room (its game's) counts like any other look-up."""
    client = make_client(lookup_limit=(3, 60.0))
    assert client.get("/join").status_code == 200  # no code: not a look-up
    for path in ("/join/ZZZZ", "/table?room=ZZZY", "/join/ZZZX"):
        assert client.get(path).status_code == 200
    for path in ("/join/ZZZW", "/table?room=ZZZV"):
        answer = client.get(path)
        assert (answer.status_code, answer.json()["code"]) == (429, "rate/limited")


def test_a_database_moved_aside_keeps_its_wal(tmp_path: Path) -> None:
    database = tmp_path / "recordroom.sqlite3"
    database.write_bytes(b"not a database at all")
    wal = bytes(range(256)) * 4
    database.with_name(database.name + "-wal").write_bytes(wal)
    store = SqliteStore(database)
    try:
        aside = store.moved_aside
        assert aside is not None and aside.read_bytes() == b"not a database at all"
        assert aside.with_name(aside.name + "-wal").read_bytes() == wal
    finally:
        store.close()


def test_a_field_over_its_cap_is_too_large_in_the_receivers_language(client: TestClient) -> None:
    code, _, _ = new_room(client, TOY_NAME, 0)
    long_name = client.post(f"/api/rooms/{code}/seats", json={"name": "N" * 25})
    assert (long_name.status_code, long_name.json()["code"]) == (413, "request/too_large")
    assert client.get(f"/api/rooms/{code}").json()["seats"] == []
    big = {"game": TOY_NAME, "options": {"pad": "x" * 70_000}}
    chinese = client.post("/api/rooms?lang=zh-CN", json=big)
    assert (chinese.status_code, chinese.json()["code"]) == (413, "request/too_large")
    assert chinese.json()["message"] == "请求太大了。"
    asked = client.post("/api/rooms", json=big, headers={"Accept-Language": "zh-CN,zh;q=0.9"})
    assert asked.json()["message"] == "请求太大了。"
