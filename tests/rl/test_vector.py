"""The vectorised path: the same games as the engine, observations as the envs, bad indices."""

from __future__ import annotations

import random

import numpy as np
import pytest

from recordroom.engine import replay
from recordroom.rl.envs import IllegalIndex, SeatGame
from recordroom.rl.vector import VectorGames


def test_rows_are_plain_engine_games_seen_from_the_acting_seat() -> None:
    vec = VectorGames("records", 2, 3, seed=5)
    rng = random.Random(2)
    logs: list[list[dict[str, object]]] = [[] for _ in range(3)]
    table = SeatGame("records", 2, None)
    seeds_before = list(vec.game_seeds)
    for _ in range(500):
        actions = vec.random_actions(rng)
        seats = vec.seats.copy()
        for row, index in enumerate(actions):
            logs[row].append({"seat": int(seats[row]), "action": vec.space.actions[index]})
        acted, rewards, done = vec.step(actions)
        assert list(acted) == list(seats)
        for row in range(3):
            if done[row]:
                finished = replay(vec.game, 2, seeds_before[row], None, logs[row])
                assert tuple(rewards[row]) == pytest.approx(vec.game.returns(finished))
                assert max(rewards[row]) >= 0.8
                logs[row] = []
            else:
                assert not rewards[row].any()
        seeds_before = list(vec.game_seeds)
        table.state = vec.states[0]
        assert np.array_equal(vec.observations()[0], table.observation(int(vec.seats[0])))
    assert vec.finished_games >= 1
    for row in range(3):
        rebuilt = replay(vec.game, 2, vec.game_seeds[row], None, logs[row])
        assert vec.game.dumps(rebuilt) == vec.game.dumps(vec.states[row])
    mask = vec.masks()
    assert mask.shape == (3, vec.space.n)
    assert all(mask[row, vec.legal[row]].all() for row in range(3))
    assert mask.sum() == sum(len(legal) for legal in vec.legal)


def test_a_bad_index_changes_no_game() -> None:
    vec = VectorGames("disc-cover", 4, 2, seed=1, observe=False)
    saved = [vec.game.dumps(s) for s in vec.states]
    good = vec.random_actions(random.Random(0))
    illegal = next(i for i in range(vec.space.n) if i not in vec.legal[1])
    for actions in ([good[0], illegal], [good[0]], [good[0], 99]):
        with pytest.raises(IllegalIndex):
            vec.step(actions)
    assert [vec.game.dumps(s) for s in vec.states] == saved
    with pytest.raises(ValueError, match="observe=False"):
        vec.observations()
