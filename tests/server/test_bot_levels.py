"""Bot levels: the host picks easy, normal or hard per bot seat of a game with levels."""

from __future__ import annotations

from recordroom.bots import ISMCTSAgent
from recordroom.games.records.bots import GreedyAgent
from recordroom.games.records.levels import NoisyAgent

from .helpers import TOY_NAME, TestClient, host, new_room


def test_each_bot_seat_plays_at_its_level(client: TestClient) -> None:
    code, host_token, _ = new_room(client, "records", 1)
    seats = {}
    for level in ("easy", "hard", None):
        body = {"level": level} if level else None
        answer = client.post(f"/api/rooms/{code}/bots", headers=host(host_token), json=body)
        assert answer.status_code == 200, answer.text
        seats[level] = answer.json()["seat"]
    hub = client.app.state.hub  # type: ignore[attr-defined]
    room = hub.get(code)
    assert isinstance(hub.agent(room, seats["easy"]), NoisyAgent)
    assert isinstance(hub.agent(room, seats["hard"]), ISMCTSAgent)
    assert isinstance(hub.agent(room, seats[None]), GreedyAgent)  # the default: normal


def test_unknown_levels_are_refused(client: TestClient) -> None:
    code, host_token, _ = new_room(client, "records", 1)
    bad = client.post(f"/api/rooms/{code}/bots", headers=host(host_token), json={"level": "pro"})
    assert bad.status_code == 422
    toy, toy_host, _ = new_room(client, TOY_NAME, 1)
    refused = client.post(f"/api/rooms/{toy}/bots", headers=host(toy_host), json={"level": "hard"})
    assert refused.status_code == 422
    assert refused.json()["code"] == "bot/level"
    assert len(client.get(f"/api/rooms/{toy}").json()["seats"]) == 1
