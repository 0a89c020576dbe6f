"""A server started with ``--learned PATH`` seats Records bots at level ``learned``."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordroom.games.records.game import GAME
from recordroom.rl.policy import CHECKPOINT_ENV, LearnedAgent
from recordroom.rl.train import train
from recordroom.server.serve import use_learned

from .helpers import TestClient, host, new_room


def test_a_learned_bot_is_seated_only_with_a_checkpoint(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    train(players=2, steps=1200, out=tmp_path / "run", seed=1, hidden=8, progress=False)
    code, host_token, _ = new_room(client, "records", 1)
    url = f"/api/rooms/{code}/bots"
    refused = client.post(url, headers=host(host_token), json={"level": "learned"})
    assert refused.status_code == 422 and refused.json()["code"] == "bot/level"

    def levels() -> list[str]:
        """The levels the table offers a Records bot (GET /api/games)."""
        games = {g["name"]: g for g in client.get("/api/games").json()}
        return list(games["records"]["levels"])

    assert levels() == ["easy", "normal", "hard"]
    monkeypatch.delenv(CHECKPOINT_ENV, raising=False)
    try:
        assert not use_learned(tmp_path / "missing.npz")
        assert "learned" not in GAME.info.agent_kinds
        assert use_learned(tmp_path / "run" / "policy.npz")
        assert levels() == ["easy", "normal", "hard", "learned"]
        seated = client.post(url, headers=host(host_token), json={"level": "learned"})
        assert seated.status_code == 200, seated.text
        hub = client.app.state.hub  # type: ignore[attr-defined]
        agent = hub.agent(hub.get(code), seated.json()["seat"])
        assert isinstance(agent, LearnedAgent)
    finally:
        monkeypatch.delenv(CHECKPOINT_ENV, raising=False)
        GAME.refresh_agent_kinds()
