"""Point 2: the HTTP API (rooms, seats, bots, start, kick, info, log) and its refusals."""

from __future__ import annotations

import re

from recordroom.server.codes import CODE_LETTERS

from .helpers import TOY_NAME, TestClient, host, new_room


def test_create_room_gives_a_readable_code_and_a_long_host_token(client: TestClient) -> None:
    answer = client.post("/api/rooms", json={"game": TOY_NAME, "options": {}})
    assert answer.status_code == 201
    body = answer.json()
    assert re.fullmatch(f"[{CODE_LETTERS}]{{4}}", body["code"])
    assert not set("BILOS0") & set(CODE_LETTERS)
    assert len(body["host_token"]) >= 43


def test_codes_are_found_in_any_case(client: TestClient) -> None:
    code, _, _ = new_room(client, TOY_NAME, 0)
    assert client.get(f"/api/rooms/{code.lower()}").json()["code"] == code


def test_unknown_game_and_bad_options_are_refused(client: TestClient) -> None:
    unknown = client.post("/api/rooms", json={"game": "chess"})
    assert unknown.status_code == 422
    assert unknown.json()["code"] == "game/unknown"
    bad = client.post("/api/rooms", json={"game": TOY_NAME, "options": {"rounds": 99}})
    assert bad.status_code == 422
    assert bad.json()["code"] == "options/invalid"


def test_seats_bots_start_and_room_info(client: TestClient) -> None:
    code, host_token, tokens = new_room(client, TOY_NAME, 2)
    assert tokens[0] != tokens[1]
    bot = client.post(f"/api/rooms/{code}/bots", headers=host(host_token))
    assert bot.json() == {
        "seat": 2,
        "name": "Bot 3",
        "connected": True,
        "bot": True,
        "level": None,
        "away": None,
    }
    info = client.get(f"/api/rooms/{code}").json()
    assert info["status"] == "lobby"
    assert [s["name"] for s in info["seats"]] == ["P0", "P1", "Bot 3"]
    assert "token" not in str(info)
    started = client.post(f"/api/rooms/{code}/start", headers=host(host_token))
    assert started.status_code == 200
    assert started.json()["status"] == "playing"
    late = client.post(f"/api/rooms/{code}/seats", json={"name": "Late"})
    assert late.status_code == 409
    assert late.json()["code"] == "room/started"


def test_host_calls_need_the_host_token(client: TestClient) -> None:
    code, _, tokens = new_room(client, TOY_NAME, 2)
    for method, path in (
        ("POST", "bots"),
        ("POST", "start"),
        ("POST", "seats/0/bot"),
        ("DELETE", "seats/0/bot"),
        ("DELETE", "seats/0"),
    ):
        for headers in ({}, host(tokens[0]), {"Authorization": "Basic x"}):
            answer = client.request(method, f"/api/rooms/{code}/{path}", headers=headers)
            assert answer.status_code == 403
            assert answer.json()["code"] == "auth/host_only"
    assert client.get(f"/api/rooms/{code}").json()["status"] == "lobby"


def test_start_needs_enough_players_and_the_room_has_a_maximum(client: TestClient) -> None:
    code, host_token, _ = new_room(client, TOY_NAME, 1)
    answer = client.post(f"/api/rooms/{code}/start", headers=host(host_token))
    assert answer.status_code == 409
    assert answer.json()["code"] == "room/players"
    for _ in range(3):
        client.post(f"/api/rooms/{code}/bots", headers=host(host_token))
    full = client.post(f"/api/rooms/{code}/seats", json={"name": "Fifth"})
    assert full.json()["code"] == "room/full"


def test_kick_moves_later_seats_up_and_their_tokens_follow(client: TestClient) -> None:
    code, host_token, tokens = new_room(client, TOY_NAME, 3)
    assert client.delete(f"/api/rooms/{code}/seats/1", headers=host(host_token)).status_code == 204
    assert [s["name"] for s in client.get(f"/api/rooms/{code}").json()["seats"]] == ["P0", "P2"]
    with client.websocket_connect(f"/ws/{code}?token={tokens[2]}") as ws:
        assert ws.receive_json()["seat"] == 1
    with client.websocket_connect(f"/ws/{code}?token={tokens[1]}") as ws:
        assert ws.receive_json()["code"] == "auth/bad_token"
    missing = client.delete(f"/api/rooms/{code}/seats/7", headers=host(host_token))
    assert missing.status_code == 404
    assert missing.json()["code"] == "seat/not_found"


def test_unknown_room_and_malformed_bodies(client: TestClient) -> None:
    for answer in (
        client.get("/api/rooms/ZZZZ"),
        client.post("/api/rooms/ZZZZ/seats", json={"name": "A"}),
        client.get("/api/rooms/ZZZZ/log"),
    ):
        assert answer.status_code == 404
        assert answer.json()["code"] == "room/not_found"
    code, _, _ = new_room(client, TOY_NAME, 0)
    broken = client.post(
        f"/api/rooms/{code}/seats",
        content=b"{not json",
        headers={"Content-Type": "application/json"},
    )
    assert broken.status_code == 422
    assert broken.json()["code"] == "request/invalid"
    empty_name = client.post(f"/api/rooms/{code}/seats", json={"name": ""})
    assert empty_name.json()["code"] == "request/invalid"


def test_log_only_once_the_game_is_over(client: TestClient) -> None:
    code, host_token, _ = new_room(client, TOY_NAME, 2)
    client.post(f"/api/rooms/{code}/start", headers=host(host_token))
    answer = client.get(f"/api/rooms/{code}/log")
    assert answer.status_code == 409
    assert answer.json()["code"] == "room/not_over"


def test_games_openapi_and_lobby_page(client: TestClient) -> None:
    names = [g["name"] for g in client.get("/api/games").json()]
    assert TOY_NAME in names
    assert client.get("/openapi.json").json()["paths"]["/api/rooms"]
    assert client.get("/docs").status_code == 200
    page = client.get("/")
    assert page.status_code == 200
    assert "Record Room" in page.text
