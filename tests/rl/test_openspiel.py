"""The OpenSpiel face: OpenSpiel's own random-simulation test, its MCTS, tensors, bad input."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import mcts

from recordroom.engine import BadOptions
from recordroom.rl import openspiel_game
from recordroom.rl.envs import SeatGame


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


def test_registered_names_load_with_parameters() -> None:
    import recordroom.rl.openspiel  # noqa: F401  (registers the games)

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
    for _ in range(5):
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)


def test_bad_setups_name_the_problem() -> None:
    with pytest.raises(BadOptions, match="unknown game 'go'"):
        openspiel_game("go", 2)
    with pytest.raises(BadOptions, match="takes 3 to 8 players"):
        openspiel_game("disc-cover", 9)
    with pytest.raises(BadOptions, match="no option 'speed'"):
        openspiel_game("records", 2, {"speed": 2})


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
    for _ in range(4):
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
