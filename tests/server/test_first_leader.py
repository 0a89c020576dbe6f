"""The first Leader of a competitive Disc Cover game, chosen by the table at the start."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from .helpers import Socket, TestClient, host, new_room

COMPETITIVE = {"variant": "competitive"}


def table_view(client: TestClient, code: str, host_token: str) -> dict[str, object]:
    with client.websocket_connect(f"/ws/{code}?token={host_token}") as ws:
        view: dict[str, object] = Socket(ws).recv_state()["view"]
    return view


def test_the_table_chooses_the_first_leader_and_a_restart_keeps_it(
    make_client: Callable[..., TestClient], tmp_path: Path
) -> None:
    first = make_client()
    code, host_token, _ = new_room(first, "disc-cover", 4, COMPETITIVE)
    started = first.post(f"/api/rooms/{code}/start", json={"leader": 2}, headers=host(host_token))
    assert started.status_code == 200, started.text
    assert started.json()["options"]["leader"] == 2
    assert table_view(first, code, host_token)["leader"] == 2
    first.__exit__(None, None, None)

    again = make_client(tmp_path)
    assert table_view(again, code, host_token)["leader"] == 2
    assert again.get(f"/api/rooms/{code}").json()["options"]["leader"] == 2


def test_without_a_choice_the_first_seat_leads(client: TestClient) -> None:
    code, host_token, _ = new_room(client, "disc-cover", 3, COMPETITIVE)
    assert client.post(f"/api/rooms/{code}/start", headers=host(host_token)).status_code == 200
    assert table_view(client, code, host_token)["leader"] == 0


def test_a_leader_the_game_refuses_starts_nothing(client: TestClient) -> None:
    code, host_token, _ = new_room(client, "disc-cover", 3, COMPETITIVE)
    for body, error in (
        ({"leader": 3}, "options/invalid"),  # only seats 0 to 2
        ({"leader": -1}, "request/invalid"),
        ({"leader": "Ann"}, "request/invalid"),
    ):
        answer = client.post(f"/api/rooms/{code}/start", json=body, headers=host(host_token))
        assert answer.status_code == 422, answer.text
        assert answer.json()["code"] == error
        assert client.get(f"/api/rooms/{code}").json()["status"] == "lobby"
    records, records_host, _ = new_room(client, "records", 1)
    answer = client.post(
        f"/api/rooms/{records}/start", json={"leader": 0}, headers=host(records_host)
    )
    assert answer.status_code == 422, answer.text  # Records has no Leader
    assert client.get(f"/api/rooms/{records}").json()["status"] == "lobby"
