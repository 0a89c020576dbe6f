"""The OpenSpiel face: OpenSpiel's own random-simulation test, its MCTS, tensors, bad input."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import mcts

from recordroom.engine import BadOptions
from recordroom.rl import openspiel_game
from recordroom.rl.envs import IllegalIndex, SeatGame
from recordroom.rl.openspiel import DEALS, _redraw


@pytest.mark.parametrize(
    ("game", "players", "options", "sims"),
    [
        ("disc-cover", 3, {"variant": "competitive"}, 3),
        ("disc-cover", 5, None, 2),
        ("records", 1, None, 2),
        ("records", 2, None, 2),
    ],
)
def test_openspiel_random_simulation(
    game: str, players: int, options: dict[str, str] | None, sims: int
) -> None:
    pyspiel.random_sim_test(
        openspiel_game(game, players, options), num_sims=sims, serialize=False, verbose=False
    )


def test_importing_the_package_registers_the_games() -> None:
    """In a fresh interpreter: ``import recordroom.rl`` is enough for OpenSpiel and Gymnasium."""
    program = (
        "import gymnasium, pyspiel, recordroom.rl\n"
        "print(pyspiel.load_game('python_recordroom_records').num_players())\n"
        "print(pyspiel.load_game('python_recordroom_disc_cover', {'players': 5}).num_players())\n"
        "print(type(gymnasium.make('recordroom/RecordsSolo-v0').unwrapped).__name__)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["2", "5", "RecordsSoloEnv"]


def test_registered_names_load_with_parameters() -> None:
    game = pyspiel.load_game("python_recordroom_records", {"players": 3})
    assert game.num_players() == 3
    assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    game = pyspiel.load_game("python_recordroom_disc_cover", {"players": 6})
    assert game.num_players() == 6


def test_nodes_tensors_and_returns_follow_the_engine() -> None:
    game = openspiel_game("records", 2)
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 1000
    state.apply_action(7)
    assert state.current_player() == pyspiel.PlayerId.SIMULTANEOUS  # both choose a lead singer
    table = SeatGame("records", 2, None)
    table.new(7)
    assert np.allclose(state.observation_tensor(1), table.observation(1))
    rng = np.random.default_rng(0)
    while not state.is_terminal():
        if state.current_player() == pyspiel.PlayerId.SIMULTANEOUS:
            state.apply_actions([int(rng.choice(state.legal_actions(p))) for p in range(2)])
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    returns = state.returns()
    assert max(returns) >= 0.8 and all(0.0 <= r <= 1.0 for r in returns)
    assert " own:" in state.information_state_string(0)
    assert state.observation_string(0) != state.observation_string(1)


def _random_play(game_name: str, players: int, seed: int) -> list[tuple[Any, Any]]:
    """Plays one game at random; returns, at each draw's chance node, (node, its state before)."""
    game = openspiel_game(game_name, players)
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    draws = []
    while not state.is_terminal():
        if state.is_chance_node():
            if state.engine_state is not None:
                draws.append((state.clone(), state.engine_state))
            state.apply_action(int(rng.integers(DEALS)))
        elif state.current_player() == pyspiel.PlayerId.SIMULTANEOUS:
            state.apply_actions([int(rng.choice(state.legal_actions(p))) for p in range(players)])
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return draws


@pytest.mark.parametrize(("game", "players"), [("disc-cover", 4), ("records", 2), ("records", 1)])
def test_every_draw_is_a_chance_node_that_changes_no_view(game: str, players: int) -> None:
    """A chance node comes before every move that draws from an unseen pile; its outcome reorders
    only what nobody has seen (every view is unchanged), the move then draws from it."""
    draws = _random_play(game, players, 3)
    if game == "disc-cover":
        assert len(draws) >= 8  # the sleeves of turns 2 to 9 (the deal made turn 1's)
    else:
        assert len(draws) >= 2  # at least the hands of week 1 or the solo turns, after the deal
    for node, before in draws:
        assert node.is_chance_node() and not node.is_terminal()
        assert node.chance_outcomes() == [(seed, 1.0 / DEALS) for seed in range(DEALS)]
        table = node.get_game().table
        engine = table.game
        outcomes = []
        for seed in (0, 1, 2, 3):
            redrawn = _redraw(table, before, seed)
            for seat in (None, *range(players)):
                assert engine.view(redrawn, seat) == engine.view(before, seat)
            child = node.clone()
            child.apply_action(seed)
            assert not child.is_chance_node() or child.engine_state is None
            assert child.engine_state.active or child.is_terminal()
            outcomes.append(engine.dumps(child.engine_state))
        assert len(set(outcomes)) > 1, "the outcome of a draw decides what is drawn"


def test_a_draw_then_the_move_is_the_engine_move_on_the_redrawn_state() -> None:
    node, before = _random_play("records", 2, 5)[0]
    waiting = node._waiting.value
    assert waiting is not None and waiting[0] is before
    table = node.get_game().table
    expected = _redraw(table, before, 17)
    for seat, index in waiting[1]:
        expected = table.game.apply(expected, seat, table.space.actions[index])
    node.apply_action(17)
    assert table.game.dumps(node.engine_state) == table.game.dumps(expected)
    assert node.history_str().split(", ")[-1] == "17"


def test_openspiel_mcts_plays_records_solo() -> None:
    game = openspiel_game("records", 1)
    bot = mcts.MCTSBot(
        game,
        uct_c=1.4,
        max_simulations=8,
        evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1)),
        random_state=np.random.RandomState(2),
    )
    state = game.new_initial_state()
    state.apply_action(3)
    played = 0
    while played < 5:
        if state.is_chance_node():  # a draw: MCTS samples these in its search, the table deals
            state.apply_action(played)
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        played += 1


def test_bad_setups_name_the_problem() -> None:
    with pytest.raises(BadOptions, match="unknown game 'go'"):
        openspiel_game("go", 2)
    with pytest.raises(BadOptions, match="takes 3 to 8 players"):
        openspiel_game("disc-cover", 9)
    with pytest.raises(BadOptions, match="no option 'speed'"):
        openspiel_game("records", 2, {"speed": 2})
    with pytest.raises(BadOptions, match="disc-cover: variant"):
        openspiel_game("disc-cover", 4, {"variant": "solo"})
    # Values of the wrong type are the game's to name too, not OpenSpiel's parameter check.
    with pytest.raises(BadOptions, match=r"disc-cover: variant must be .* got 1"):
        openspiel_game("disc-cover", 4, {"variant": 1})
    with pytest.raises(BadOptions, match="records: no edition named"):
        openspiel_game("records", 2, {"edition": 3})
    with pytest.raises(BadOptions, match="options must be a mapping"):
        openspiel_game("records", 2, "edition")  # type: ignore[arg-type]


def test_a_simultaneous_node_takes_flat_joint_actions_as_openspiel_numbers_them() -> None:
    """Asked as a whole, a simultaneous node lists one action per combination of the seats'
    choices (the first seat's the lowest digit), and applying one plays that combination."""
    game = openspiel_game("disc-cover", 3)
    state = game.new_initial_state()
    state.apply_action(0)
    assert state.current_player() == pyspiel.PlayerId.SIMULTANEOUS
    each = [state.legal_actions(p) for p in range(3)]
    flat = state.legal_actions()
    assert flat == list(range(len(each[0]) * len(each[1]) * len(each[2])))
    for index in (0, 5, flat[-1]):
        digits, rest = [], index
        for legal in each:
            digits.append(legal[rest % len(legal)])
            rest //= len(legal)
        one, other = state.clone(), state.clone()
        one.apply_action(index)
        other.apply_actions(digits)
        assert str(one) == str(other) and one.own_actions == other.own_actions
    before = str(state)
    with pytest.raises(IllegalIndex, match=r"joint action 64 is outside 0\.\.63"):
        state.apply_action(len(flat))
    assert str(state) == before


def test_an_action_outside_the_legal_ones_is_refused_and_changes_nothing() -> None:
    game = openspiel_game("records", 2)
    state = game.new_initial_state()
    for outcome in (DEALS, 5000):
        with pytest.raises(IllegalIndex, match=r"outside 0\.\.999"):
            state.apply_action(outcome)
    assert state.is_chance_node() and state.engine_state is None
    state.apply_action(3)
    before = str(state)
    wait = game.table.wait
    assert state.legal_actions(0) == [0, 1, 2, 3]
    for joint, why in (
        ([300, 0], "player 0 may not take action index 300"),
        ([wait, 0], "player 0 may not take wait"),
        ([0, 9999], "player 1 may not take action index 9999"),
        ([0], "2 players need 2 actions, got 1"),
    ):
        with pytest.raises(IllegalIndex, match=why):
            state.apply_actions(joint)
    assert str(state) == before and state.history() == [3]
    solo = openspiel_game("records", 1).new_initial_state()
    solo.apply_action(3)
    with pytest.raises(IllegalIndex, match="may not take wait"):
        solo.apply_action(solo.get_game().table.wait)
    with pytest.raises(IllegalIndex, match="action index 64"):
        solo.apply_action(64)


def test_turn_based_conversion_runs_mcts_on_disc_cover() -> None:
    game = pyspiel.convert_to_turn_based(openspiel_game("disc-cover", 3))
    bot = mcts.MCTSBot(
        game,
        uct_c=1.4,
        max_simulations=4,
        evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1)),
        random_state=np.random.RandomState(2),
    )
    state = game.new_initial_state()
    state.apply_action(5)
    played = 0
    while played < 12:  # past the first turn's vote, into the next turn's draw
        if state.is_chance_node():
            state.apply_action(played)
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        played += 1
