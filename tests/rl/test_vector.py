"""The vectorised path: the same games as the engine, observations as the envs, bad indices."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from recordroom.engine.errors import BadOptions
from recordroom.games import load
from recordroom.rl.envs import IllegalIndex, SeatGame
from recordroom.rl.spaces import action_space
from recordroom.rl.vector import VectorGames


@pytest.mark.parametrize(("game", "players"), [("records", 2), ("records", 3), ("disc-cover", 4)])
def test_every_step_equals_the_plain_engine_for_the_same_seeds_and_actions(
    game: str, players: int
) -> None:
    """Each row, step by step, is the plain engine's game of that seed given the same actions:
    the same state (dumps), the same acting seat, the same legal actions (as the mask) and, at the
    end, the same returns."""
    n = 3
    vec = VectorGames(game, players, n, seed=11)
    rng = np.random.default_rng(4)
    # per row: the current game's seed and, per step, (seat, index, dumps, legal indices)
    seeds = list(vec.game_seeds)
    trace: list[list[tuple[int, int, str, tuple[int, ...]]]] = [[] for _ in range(n)]
    checked_games = 0

    def check(row: int, seed: int, steps: list[tuple[int, int, str, tuple[int, ...]]]) -> Any:
        plain = load(game)
        space = action_space(game)
        state = plain.new_state(players, seed)
        for seat, index, dumped, legal in steps:
            assert min(state.active) == seat
            state = plain.apply(state, seat, space.actions[index])
            if dumped:
                assert plain.dumps(state) == dumped
                after = min(state.active)
                assert tuple(space.indices(plain.legal_actions(state, after))) == legal
        return state

    for _ in range(400 if game == "records" else 150):
        seats = vec.seats
        actions = vec.random_actions(rng)
        assert all(int(a) in vec.legal[row] for row, a in enumerate(actions))
        acted, rewards, done = vec.step(actions)
        assert list(acted) == list(seats)
        for row in range(n):
            step = int(acted[row]), int(actions[row])
            if done[row]:
                trace[row].append((*step, "", ()))
                final = check(row, seeds[row], trace[row])
                assert plain_returns(game, final) == pytest.approx(tuple(rewards[row]))
                checked_games += 1
                trace[row] = []
                seeds[row] = vec.game_seeds[row]
            else:
                assert not rewards[row].any()
                dumped = vec.game.dumps(vec.states[row])
                trace[row].append((*step, dumped, vec.legal[row]))
    assert seeds == vec.game_seeds
    for row in range(n):
        check(row, seeds[row], trace[row])
    assert checked_games >= (1 if game == "records" else 3)
    masks = vec.masks()
    assert masks.shape == (n, vec.space.n)
    for row in range(n):
        assert tuple(np.flatnonzero(masks[row])) == tuple(sorted(vec.legal[row]))


def test_records_rows_are_stepped_without_checking_again_what_the_step_checked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Records offers ``apply_handed``: the vector steps through it, never through the checked
    ``apply`` (whose checks would be done twice); the same games come out (test above)."""
    vec = VectorGames("records", 2, 4, seed=5)

    def checked(*_: object) -> None:
        raise AssertionError("the vector used the checked apply")

    monkeypatch.setattr(vec.game, "apply", checked)
    rng = np.random.default_rng(2)
    for _ in range(200):
        vec.step(vec.random_actions(rng))
    assert vec.steps == 800


def test_records_rows_ask_their_legal_actions_without_a_memo_nobody_reads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each new state's legal actions are asked once, and applied through ``apply_handed``:
    the vector asks through ``legal_handed``, which makes no record for a checked ``apply``."""
    from recordroom.games.records import memo

    vec = VectorGames("records", 2, 4, seed=6)

    def remembered(*_: object) -> None:
        raise AssertionError("the vector made a record of a state's legal actions")

    monkeypatch.setattr(memo, "record", remembered)
    rng = np.random.default_rng(3)
    for _ in range(200):
        vec.step(vec.random_actions(rng))
    assert vec.steps == 800 and vec.finished_games >= 1


def plain_returns(game: str, state: object) -> tuple[float, ...]:
    return tuple(load(game).returns(state))


def test_observations_are_the_envs_observations_of_the_acting_seat() -> None:
    vec = VectorGames("records", 2, 2, seed=3)
    table = SeatGame("records", 2, None)
    rng = np.random.default_rng(0)
    for _ in range(60):
        vec.step(vec.random_actions(rng))
        obs = vec.observations()
        assert obs is vec.observations()  # encoded once per step
        for row in range(2):
            table.state = vec.states[row]
            assert np.array_equal(obs[row], table.observation(int(vec.seats[row])))
    out = np.ones((2, vec.space.n), dtype=np.int8)
    assert np.array_equal(vec.masks(out), vec.masks())
    with pytest.raises(ValueError, match="shape"):
        vec.masks(np.zeros((3, 3), dtype=np.int8))


def test_a_bad_index_changes_no_game() -> None:
    vec = VectorGames("disc-cover", 4, 2, seed=1)
    saved = [vec.game.dumps(s) for s in vec.states]
    good = vec.random_actions(np.random.default_rng(0))
    illegal = next(i for i in range(vec.space.n) if i not in vec.legal[1])
    for actions in (
        [good[0], illegal],
        [good[0]],
        [good[0], 99],
        [good[0], -1],
        np.array([True, True]),
        np.array([0.0, 1.0]),
        [[good[0]], [good[1]]],
    ):
        with pytest.raises(IllegalIndex):
            vec.step(actions)  # type: ignore[arg-type]
    assert [vec.game.dumps(s) for s in vec.states] == saved
    assert vec.steps == 0


def test_bad_arguments_name_what_is_wrong() -> None:
    with pytest.raises(BadOptions, match="unknown game 'chess'"):
        VectorGames("chess", 2, 4)
    with pytest.raises(BadOptions, match="records takes 1 to 6 players, got 7"):
        VectorGames("records", 7, 4)
    with pytest.raises(BadOptions, match="'colour'"):
        VectorGames("records", 2, 4, options={"colour": "red"})
    with pytest.raises(ValueError, match="n=0"):
        VectorGames("records", 2, 0)
