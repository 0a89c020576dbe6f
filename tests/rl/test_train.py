"""The learned agent: a short training run, its files, its checkpoint, and a server bot seat."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from recordroom.cli import main
from recordroom.games import load
from recordroom.games.records.game import GAME
from recordroom.rl.policy import (
    CHECKPOINT_ENV,
    Adam,
    CheckpointError,
    LearnedAgent,
    Policy,
    masked_softmax,
    save,
)
from recordroom.rl.policy import (
    load as load_checkpoint,
)
from recordroom.rl.train import train


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("learned")
    report = train(players=2, steps=2500, out=out, seed=3, hidden=16, progress=False)
    (out / "train.json").write_text(json.dumps(report))
    return out


def test_a_run_writes_a_small_checkpoint_a_curve_and_its_report(trained: Path) -> None:
    checkpoint = trained / "policy.npz"
    assert 0 < checkpoint.stat().st_size < 1_000_000
    assert (trained / "curve.png").read_bytes()[:4] == b"\x89PNG"
    report = json.loads((trained / "train.json").read_text())
    assert report["steps"] >= 2500 and report["games"] >= 10
    phases = {point["phase"] for point in report["curve"]}
    assert phases == {0, 1}
    policy, meta = load_checkpoint(checkpoint)
    assert meta["game"] == "records" and meta["players"] == 2 and policy.hidden == 16


def test_the_learned_agent_plays_legal_moves_from_views(trained: Path) -> None:
    game = load("records")
    agent = LearnedAgent(trained / "policy.npz")
    for players in (2, 3):
        state = game.new_state(players, 5)
        others = [game.agent("random", s) for s in range(players)]
        while state.active:
            seat = min(state.active)
            legal = game.legal_actions(state, seat)
            chooser = agent if seat == 0 else others[seat]
            action = chooser.choose(game.view(state, seat), legal)
            assert action in legal
            state = game.apply(state, seat, action)


def test_imitation_learns_what_it_is_shown() -> None:
    """A few Adam steps on one fixed choice make it the most likely one."""
    rng = np.random.default_rng(0)
    policy = Policy(6, 4, hidden=8, seed=1)
    opt = Adam(policy.params, lr=0.05)
    x = rng.standard_normal((32, 6)).astype(np.float32)
    masks = np.ones((32, 4), np.int8)
    masks[:, 3] = 0
    actions = (x[:, 0] > 0).astype(np.int64) * 2  # action 0 or 2, by the sign of the first input
    for _ in range(200):
        grads, _ = policy.gradients(x, masks, actions, np.ones(32, np.float32))
        opt.step(policy.params, grads)
    probs = policy.probabilities(x, masks)
    assert (probs.argmax(axis=1) == actions).mean() > 0.95
    assert np.allclose(probs[:, 3], 0.0)
    assert np.allclose(
        masked_softmax(np.zeros((1, 3), np.float32), np.array([[1, 0, 1]])), [[0.5, 0, 0.5]]
    )


def test_bad_checkpoints_are_refused_by_name(tmp_path: Path) -> None:
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a checkpoint")
    with pytest.raises(CheckpointError, match=r"junk\.npz"):
        LearnedAgent(junk)
    other = save(Policy(4, 3, 2), tmp_path / "dc.npz", {"game": "disc-cover", "players": 4})
    with pytest.raises(CheckpointError, match="not a records one"):
        LearnedAgent(other)


def test_records_offers_learned_only_with_a_checkpoint(
    trained: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(CHECKPOINT_ENV, raising=False)
    GAME.refresh_agent_kinds()
    assert "learned" not in GAME.info.agent_kinds
    with pytest.raises(KeyError, match=CHECKPOINT_ENV):
        GAME.agent("learned")
    monkeypatch.setenv(CHECKPOINT_ENV, str(trained / "policy.npz"))
    try:
        GAME.refresh_agent_kinds()
        assert GAME.info.agent_kinds[-1] == "learned"
        assert isinstance(GAME.agent("learned", 1), LearnedAgent)
    finally:
        monkeypatch.delenv(CHECKPOINT_ENV)
        GAME.refresh_agent_kinds()
    assert "learned" not in GAME.info.agent_kinds


def test_train_command_refuses_bad_flags(tmp_path: Path) -> None:
    for flags, message in (
        (["disc-cover"], "only records"),
        (["records", "--players", "1"], "--players must be 2 to 6"),
        (["records", "--steps", "10"], "--steps must be at least 1000"),
        (["records", "--imitation", "2"], "--imitation"),
    ):
        with pytest.raises(SystemExit, match=message):
            main(["train", *flags, "--out", str(tmp_path)])


def test_evaluate_refuses_a_missing_or_broken_checkpoint_in_one_line(tmp_path: Path) -> None:
    broken = tmp_path / "broken.npz"
    broken.write_text("not weights")
    for path in (tmp_path / "missing.npz", broken):
        with pytest.raises(SystemExit) as stopped:
            main(["train", "records", "--evaluate", str(path), "--eval-games", "1"])
        message = str(stopped.value.code)
        assert message.startswith(f"train: --evaluate {path}: not a Record Room checkpoint")
        assert "\n" not in message
