"""Env steps per second of the vectorised path, beside the plain engine, in one process.

Run: ``.venv/bin/python bench/rl_vector.py [--game records] [--players 2] [--n 64]
[--seconds 5] [--repeat 3]``. Every figure uses uniformly random legal actions, and each is given
per CPU second of this process (``time.process_time``, so that other work on the machine lowers
it less) and per wall second:

- ``engine``: ``recordroom.engine.random_playout``, as in ``bench/records_playout.py`` (legal
  actions asked, one applied): a step is one accepted action;
- ``vector``: :class:`recordroom.rl.vector.VectorGames`: a step is one action applied to one
  game; after it the game's legal actions are held as action indices and the dense masks of
  all games are built (``masks()``) before the next actions are drawn for all games at once
  (``random_actions``). Records of two to six players is stepped on compiled arrays
  (:mod:`recordroom.rl.records_arrays`; the figures start after the first step, so a first run's
  compilation is not in them);
- ``vector, engine's way``: the same with ``compiled=False``: every step through the engine's
  ``apply_handed`` and ``legal_handed`` (the baseline of the compiled rows);
- ``vector + observations``: the vector, with every acting seat's observation vector built from
  its view (``observations()``), what a learner reads (the rows' engine states are brought up to
  date for the views, so this one goes through the engine either way);
- ``engine apply + legal only``: games recorded beforehand (random legal actions, the lowest
  active seat acting) replayed with nothing but ``game.apply`` and the next acting seat's
  ``game.legal_actions``: the engine work one env step cannot do without, so the most any path
  through the engine could reach.

The figures of one run alternate (engine, vector, vector the engine's way, observations, engine,
...) ``--repeat`` times,
so that a change in the machine's load touches all of them alike.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from recordroom.engine import random_playout
from recordroom.games import load
from recordroom.rl.vector import VectorGames


def engine_rate(game_name: str, players: int, seconds: float) -> tuple[float, float]:
    """(steps per CPU second, steps per wall second) of plain random playouts."""
    game = load(game_name)
    steps = games = 0
    cpu = time.process_time()
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        _, log = random_playout(game, players, games)
        steps += len(log)
        games += 1
    return steps / (time.process_time() - cpu), steps / (time.perf_counter() - start)


def engine_floor_rate(game_name: str, players: int, seconds: float) -> tuple[float, float]:
    """(steps per CPU second, steps per wall second) of apply + legal_actions alone."""
    game = load(game_name)
    rng = np.random.default_rng(1)
    recorded = []
    for seed in range(20):
        state = game.new_state(players, seed)
        moves = []
        while state.active:
            seat = min(state.active)
            legal = game.legal_actions(state, seat)
            action = legal[int(rng.integers(len(legal)))]
            moves.append((seat, action))
            state = game.apply(state, seat, action)
        recorded.append((seed, moves))
    apply, legal_actions = game.apply, game.legal_actions
    steps = 0
    cpu = time.process_time()
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for seed, moves in recorded:
            state = game.new_state(players, seed)
            legal_actions(state, min(state.active))
            for seat, action in moves:
                state = apply(state, seat, action)
                if state.active:
                    legal_actions(state, min(state.active))
            steps += len(moves)
    return steps / (time.process_time() - cpu), steps / (time.perf_counter() - start)


def vector_rate(
    game_name: str, players: int, n: int, seconds: float, observe: bool, compiled: bool = True
) -> tuple[float, float]:
    """(steps per CPU second, steps per wall second) of :class:`VectorGames` with random actions."""
    vec = VectorGames(game_name, players, n, seed=0, compiled=compiled)
    rng = np.random.default_rng(0)
    masks = np.zeros((n, vec.space.n), dtype=np.int8)
    vec.masks(masks)  # everything compiled (or loaded from disk) before the clock starts
    vec.step(vec.random_actions(rng))
    vec.steps = 0
    cpu = time.process_time()
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        vec.masks(masks)
        if observe:
            vec.observations()
        vec.step(vec.random_actions(rng))
    return vec.steps / (time.process_time() - cpu), vec.steps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="records", choices=("records", "disc-cover"))
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--n", type=int, default=64, help="games stepped per call (default 64)")
    parser.add_argument("--seconds", type=float, default=5.0, help="per figure (default 5)")
    parser.add_argument("--repeat", type=int, default=3, help="rounds of figures (default 3)")
    args = parser.parse_args()
    label = f"{args.game} {args.players} players"
    kinds = (
        "engine random playouts",
        f"vector of {args.n}",
        f"vector of {args.n}, engine's way",
        f"vector of {args.n} + observations",
        "engine apply + legal only",
    )
    figures: dict[str, list[tuple[float, float]]] = {kind: [] for kind in kinds}
    for _ in range(args.repeat):
        figures[kinds[0]].append(engine_rate(args.game, args.players, args.seconds))
        for kind, observe, compiled in zip(
            kinds[1:4], (False, False, True), (True, False, True), strict=True
        ):
            rate = vector_rate(args.game, args.players, args.n, args.seconds, observe, compiled)
            figures[kind].append(rate)
        figures[kinds[4]].append(engine_floor_rate(args.game, args.players, args.seconds))
    for kind, rates in figures.items():
        cpu = ", ".join(f"{c:,.0f}" for c, _ in rates)
        wall = ", ".join(f"{w:,.0f}" for _, w in rates)
        median = statistics.median(c for c, _ in rates)
        print(
            f"{label}, {kind}: steps per CPU second {cpu} (median {median:,.0f}); "
            f"per wall second {wall}"
        )


if __name__ == "__main__":
    main()
