"""The PettingZoo and Gymnasium faces: their own API tests, hidden information, seeds, bad input."""

from __future__ import annotations

import random
import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test
from pettingzoo.utils.conversions import aec_to_parallel

from recordroom.engine import BadOptions
from recordroom.games import load
from recordroom.rl import action_space, aec_env, encoder, gym_env, parallel_env
from recordroom.rl.envs import GYM_ID, IllegalIndex, RecordsSoloEnv, SeatGame

# PettingZoo's API test recommends plain Box observations; a dict holding "observation" and
# "action_mask" is the layout of its own classic board games, which it exempts by name.
pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably"),
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
]

CASES = [
    ("records", 1, None),
    ("records", 2, None),
    ("records", 5, None),
    ("disc-cover", 3, {"variant": "cooperative"}),
    ("disc-cover", 5, {"variant": "competitive"}),
]


@pytest.mark.parametrize(("game", "players", "options"), CASES)
def test_pettingzoo_api_and_seed_tests(
    game: str, players: int, options: dict[str, Any] | None
) -> None:
    api_test(aec_env(game, players, options), num_cycles=400)
    parallel_api_test(parallel_env(game, players, options), num_cycles=400)
    seed_test(lambda: aec_env(game, players, options), num_cycles=200)
    parallel_seed_test(lambda: parallel_env(game, players, options), num_cycles=200)


def test_gymnasium_check_env() -> None:
    env = gym_env("records")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # not even a warning (a wrapped env would get one)
        check_env(env)
    fresh = gym_env("records")
    for early in (lambda: fresh.step(0), fresh.render):
        with pytest.raises(gymnasium.error.ResetNeeded):
            early()
    made = gymnasium.make(GYM_ID)
    assert isinstance(made.unwrapped, RecordsSoloEnv)
    obs, _ = env.reset(seed=3)
    assert obs["observation"].shape == env.observation_space["observation"].shape  # type: ignore[index]
    assert isinstance(env.render(), str)


def play_parallel(env: Any, seed: int, policy_seed: int) -> tuple[list[Any], dict[str, float]]:
    """A whole game with random masked actions; every observation and the final rewards."""
    rng = np.random.default_rng(policy_seed)
    obs, _ = env.reset(seed=seed)
    seen = [obs]
    rewards: dict[str, float] = {}
    while env.agents:
        actions = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents}
        obs, rewards, _, _, _ = env.step(actions)
        seen.append(obs)
    return seen, rewards


@pytest.mark.parametrize(("game", "players"), [("records", 3), ("disc-cover", 4)])
def test_a_seed_gives_identical_episodes(game: str, players: int) -> None:
    one, r1 = play_parallel(parallel_env(game, players), seed=11, policy_seed=5)
    two, r2 = play_parallel(parallel_env(game, players), seed=11, policy_seed=5)
    assert len(one) == len(two) and r1 == r2
    for a, b in zip(one, two, strict=True):
        for agent in a:
            assert np.array_equal(a[agent]["observation"], b[agent]["observation"])
            assert np.array_equal(a[agent]["action_mask"], b[agent]["action_mask"])
    other, _ = play_parallel(parallel_env(game, players), seed=12, policy_seed=5)
    first = one[0]["seat_0"]["observation"]
    assert not np.array_equal(first, other[0]["seat_0"]["observation"])


def test_a_seed_given_to_reset_outranks_the_one_given_to_the_env() -> None:
    """Later resets without a seed draw from a generator seeded by the last seed given."""
    game = load("records")
    told = aec_env("records", 2, seed=5)
    told.reset(seed=9)
    assert game.dumps(told.table.state) == game.dumps(game.new_state(2, 9))
    told.reset()
    made = aec_env("records", 2, seed=9)
    made.reset()
    made.reset()
    assert game.dumps(told.table.state) == game.dumps(made.table.state)
    assert game.dumps(told.table.state) != game.dumps(game.new_state(2, 5))
    par = parallel_env("records", 2, seed=5)
    par.reset(seed=9)
    par.reset()
    assert game.dumps(par.table.state) == game.dumps(made.table.state)


def test_seeds_and_indices_are_integers_never_taken_for_one() -> None:
    for seed in (1.5, "3", -1, True):
        with pytest.raises(BadOptions, match="seed"):
            aec_env("records", 2, seed=seed)  # type: ignore[arg-type]
        with pytest.raises(BadOptions, match="seed"):
            parallel_env("records", 2).reset(seed=seed)  # type: ignore[arg-type]
        with pytest.raises(BadOptions, match="seed"):
            gym_env("records").reset(seed=seed)  # type: ignore[arg-type]
    env = aec_env("records", 2, seed=1, illegal_action="raise")
    env.reset()
    saved = env.table.game.dumps(env.table.state)
    legal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])
    for look_alike in (True, float(legal), np.float32(legal), np.bool_(True), str(legal)):
        with pytest.raises(IllegalIndex, match="not an action index"):
            env.step(look_alike)
    assert env.table.game.dumps(env.table.state) == saved
    env.step(np.array(legal))  # numpy integers, 0-d arrays included, are indices
    assert env.table.game.dumps(env.table.state) != saved


def test_options_that_are_not_a_mapping_are_named() -> None:
    for options in ("edition", ["edition"], 3):
        for make in (
            lambda o: aec_env("records", 2, o),
            lambda o: parallel_env("records", 2, o),
            lambda o: gym_env("records", o),
        ):
            with pytest.raises(BadOptions, match="options must be a mapping"):
                make(options)


def test_only_disc_cover_says_pettingzoo_may_turn_its_aec_env_parallel() -> None:
    """Records' seats mark in steps of their own, not in turn: aec_to_parallel cannot run it."""
    assert aec_env("records", 2).metadata["is_parallelizable"] is False
    env = aec_to_parallel(aec_env("disc-cover", 3, seed=4))
    obs, _ = env.reset(seed=4)
    rng = np.random.default_rng(0)
    for _ in range(20):
        if not env.agents:
            break
        actions = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in env.agents}
        obs, _, _, _, _ = env.step(actions)
    assert env.unwrapped.table.state.turn > 0


def test_a_game_ends_with_the_contract_returns() -> None:
    env = parallel_env("records", 2)
    _, rewards = play_parallel(env, seed=4, policy_seed=4)
    table = env.table
    assert tuple(rewards.values()) == table.game.returns(table.state)
    assert max(rewards.values()) >= 0.8


def advance(table: SeatGame, steps: int, rng: random.Random) -> None:
    game = table.game
    for _ in range(steps):
        seat = min(table.state.active)
        legal = game.legal_actions(table.state, seat)
        table.state = game.apply(table.state, seat, legal[rng.randrange(len(legal))])


def test_records_observation_is_built_from_the_view_only() -> None:
    """Two states that differ only in what seat 0 cannot see give seat 0 the same observation."""
    table = SeatGame("records", 3, None)
    table.new(8)
    rng = random.Random(1)
    advance(table, 7, rng)  # lead singers, kept goals, one pick
    while table.state.phase != "pick":
        advance(table, 1, rng)
    game = table.game
    mine = table.observation(0)
    other_seat_obs = table.observation(1)
    twin = game.determinize(game.view(table.state, 0), 0, 99)
    assert twin.hands[1] != table.state.hands[1], "the twin should deal other hands"
    original = table.state
    table.state = twin
    assert np.array_equal(table.observation(0), mine)
    assert not np.array_equal(table.observation(1), other_seat_obs)
    table.state = original


def test_disc_cover_pending_vote_stays_hidden() -> None:
    table = SeatGame("disc-cover", 4, None)
    table.new(2)
    game = table.game
    base = table.state
    before = [table.observation(s) for s in range(4)]
    seen = []
    for card in (1, 2):
        table.state = game.apply(base, 1, {"type": "vote", "card": card})
        seen.append([table.observation(s) for s in range(4)])
    for seat in (0, 2, 3):
        assert np.array_equal(seen[0][seat], seen[1][seat]), f"seat {seat} sees seat 1's vote"
    assert not np.array_equal(seen[0][1], seen[1][1]), "seat 1 should see its own vote"
    assert not np.array_equal(before[0], seen[0][0]), "everyone sees that seat 1 has voted"


@pytest.mark.parametrize(("name", "players"), [("records", 1), ("records", 4), ("disc-cover", 6)])
def test_every_legal_action_has_a_fixed_index(name: str, players: int) -> None:
    game = load(name)
    space = action_space(name)
    rng = random.Random(players)
    for seed in range(3):
        state = game.new_state(players, seed)
        while state.active:
            seat = sorted(state.active)[rng.randrange(len(state.active))]
            legal = game.legal_actions(state, seat)
            for action in legal:
                assert space.actions[space.index(action)] == action
            assert sorted(np.flatnonzero(space.mask(legal))) == sorted(space.indices(legal))
            state = game.apply(state, seat, legal[rng.randrange(len(legal))])
    assert len(space.describe()) == space.n


def test_observation_sizes_are_fixed_per_game() -> None:
    assert encoder("records", 2).size == encoder("records", 6).size
    assert encoder("disc-cover", 3).size == encoder("disc-cover", 8).size


def test_bad_setups_name_the_problem() -> None:
    with pytest.raises(BadOptions, match="unknown game 'chess'"):
        aec_env("chess", 2)
    with pytest.raises(BadOptions, match="records takes 1 to 6 players, got 7"):
        parallel_env("records", 7)
    with pytest.raises(BadOptions, match="disc-cover takes 3 to 8 players, got 2"):
        aec_env("disc-cover", 2)
    with pytest.raises(BadOptions, match="colour"):
        aec_env("records", 2, {"colour": "red"})
    with pytest.raises(BadOptions, match="records: no edition named 'nope'"):
        parallel_env("records", 3, {"edition": "nope"})
    with pytest.raises(BadOptions, match=r"disc-cover: variant must be .* got 'solo'"):
        parallel_env("disc-cover", 4, {"variant": "solo"})
    with pytest.raises(BadOptions, match=r"disc-cover: .*speed"):
        aec_env("disc-cover", 4, {"speed": 2})
    with pytest.raises(BadOptions, match="got '2'"):
        aec_env("records", "2")  # type: ignore[arg-type]
    with pytest.raises(BadOptions, match="illegal_action"):
        parallel_env("records", 2, illegal_action="ignore")
    with pytest.raises(BadOptions, match="Records solo"):
        gym_env("disc-cover")


def test_an_index_outside_the_mask_is_refused_and_changes_nothing() -> None:
    env = aec_env("records", 2, seed=1, illegal_action="raise")
    env.reset()
    game = env.table.game
    saved = game.dumps(env.table.state)
    mask = env.observe(env.agent_selection)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    for action in (bad, -1, 10_000, "x", 1.5):
        with pytest.raises(IllegalIndex):
            env.step(action)
    assert game.dumps(env.table.state) == saved

    env = aec_env("records", 2, seed=1)
    env.reset()
    agent = env.agent_selection
    env.step(bad)
    assert game.dumps(env.table.state) == saved
    assert env.rewards[agent] == -1.0 and all(env.terminations.values())
    assert "not legal" in env.infos[agent]["illegal_action"]

    par = parallel_env("disc-cover", 3, seed=2)
    obs, _ = par.reset()
    actions = {a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in par.agents}
    actions["seat_2"] = par.table.wait  # wait is not allowed while voting
    _, rewards, terms, _, infos = par.step(actions)
    assert rewards == {"seat_0": 0.0, "seat_1": 0.0, "seat_2": -1.0}
    assert all(terms.values()) and par.agents == []
    assert "must act" in infos["seat_2"]["illegal_action"]

    solo = gym_env("records", illegal_action="raise")
    solo.reset(seed=1)
    with pytest.raises(IllegalIndex):
        solo.step(bad)


def test_render_is_text() -> None:
    for game, players in (("records", 2), ("disc-cover", 3)):
        env = aec_env(game, players, seed=1, render_mode="ansi")
        env.reset()
        text = env.render()
        assert "waiting for: seat_0" in text
