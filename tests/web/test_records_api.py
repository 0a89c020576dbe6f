"""The read-only endpoints behind the Records pages: the edition layout, the replay of a finished
game (public views only) and the pages that follow the room's game."""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from recordroom import games
from recordroom.engine.playout import replay
from recordroom.games.records.edition import load_edition
from recordroom.server import Settings, create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore", UserWarning)
    from fastapi.testclient import TestClient


def host(token: str) -> dict[str, str]:
    """The header of a host call."""
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """An app with bots that move at once."""
    with TestClient(create_app(Settings(data_dir=tmp_path, bot_delay=0.0))) as running:
        yield running


def finished_solo_room(client: TestClient) -> str:
    """A solo Records room a bot has played to the end."""
    created = client.post("/api/rooms", json={"game": "records", "options": {}}).json()
    code, token = str(created["code"]), str(created["host_token"])
    client.post(f"/api/rooms/{code}/bots", headers=host(token))
    client.post(f"/api/rooms/{code}/start", headers=host(token))
    deadline = time.monotonic() + 30
    while client.get(f"/api/rooms/{code}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the bot did not finish the solo game"
        time.sleep(0.05)
    return code


def test_the_edition_endpoint_holds_every_area_of_the_board(client: TestClient) -> None:
    ed = load_edition()
    doc = client.get("/api/games/records/edition").json()
    assert len(doc["crew"]) == len(ed.crew_slots)
    assert [s["points"] for s in doc["tour"]] == [s.points for s in ed.tour_steps]
    assert doc["fail"]["penalties"] == list(ed.fail_penalties)
    assert doc["multipliers"] == list(ed.multipliers)
    assert len(doc["agenda"]["lines"]) == len(ed.agenda_lines)
    assert doc["assets"]["boxes"] == ed.asset_boxes
    assert set(doc["harmonies"]["bonuses"]) == set(ed.colours)
    assert set(doc["goals"]) == {g.id for g in ed.goals}
    assert set(doc["cards"]) == {c.id for c in ed.cards}
    assert doc["restrictions"] == list(ed.restrictions)
    missing = client.get("/api/games/records/edition", params={"edition": "nope"})
    assert missing.status_code == 404


def test_the_replay_gives_public_views_of_a_finished_game_only(client: TestClient) -> None:
    created = client.post("/api/rooms", json={"game": "records", "options": {}}).json()
    early = client.get(f"/api/rooms/{created['code']}/replay/0")
    assert early.status_code == 409
    assert early.json()["code"] == "room/not_over"

    code = finished_solo_room(client)
    log = client.get(f"/api/rooms/{code}/log").json()
    steps = len(log["log"])
    game = games.load("records")
    for step in (0, 1, steps // 2, steps):
        answer = client.get(f"/api/rooms/{code}/replay/{step}").json()
        assert answer["step"] == step and answer["steps"] == steps
        assert answer["entry"] == (log["log"][step - 1] if step else None)
        state = replay(game, 1, log["seed"], log["options"], log["log"][:step])
        assert answer["view"] == game.view(state, None)
        assert "you" not in answer["view"]
    assert client.get(f"/api/rooms/{code}/replay/{steps + 1}").status_code == 422
    assert client.get(f"/api/rooms/{code}/replay/-1").status_code == 422


def test_the_table_and_join_pages_follow_the_room_s_game(client: TestClient) -> None:
    records = client.post("/api/rooms", json={"game": "records", "options": {}}).json()["code"]
    disc = client.post(
        "/api/rooms", json={"game": "disc-cover", "options": {"variant": "cooperative"}}
    ).json()["code"]
    assert "records/phone.js" in client.get(f"/join/{records}").text
    assert "records/table.js" in client.get(f"/table?room={records.lower()}").text
    assert "disc-cover/phone.js" in client.get(f"/join/{disc}").text
    assert "disc-cover/table.js" in client.get("/table").text
    assert "records/table.js" in client.get("/records").text
