"""Env steps per CPU second of the vectorised path, beside the plain engine, on one core.

Run: ``nice -n 19 .venv/bin/python bench/rl_vector.py [--game records] [--players 2] [--n 64]
[--seconds 5]``. Three figures, each with uniformly random legal actions:

- ``engine``: ``recordroom.engine.random_playout`` (legal actions asked, one applied);
- ``vector, masks``: :class:`recordroom.rl.vector.VectorGames` with ``observe=False``: every step
  maps the new legal actions to indices of the fixed action space and samples from them;
- ``vector, observations``: the same with every acting seat's observation vector built from its
  view (what a learner reads).

A step is one accepted action in one game. Rates are per CPU second of this process, so other
work on the machine does not lower them.
"""

from __future__ import annotations

import argparse
import random
import time

from recordroom.engine import random_playout
from recordroom.games import load
from recordroom.rl.vector import VectorGames


def engine_rate(game_name: str, players: int, seconds: float) -> float:
    game = load(game_name)
    decisions = games = 0
    cpu = time.process_time()
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        _, log = random_playout(game, players, games)
        decisions += len(log)
        games += 1
    return decisions / (time.process_time() - cpu)


def vector_rate(game_name: str, players: int, n: int, seconds: float, observe: bool) -> float:
    vec = VectorGames(game_name, players, n, seed=0, observe=observe)
    rng = random.Random(0)
    cpu = time.process_time()
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        vec.step(vec.random_actions(rng))
    return vec.steps / (time.process_time() - cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="records", choices=("records", "disc-cover"))
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--n", type=int, default=64, help="games stepped per call (default 64)")
    parser.add_argument("--seconds", type=float, default=5.0, help="per figure (default 5)")
    args = parser.parse_args()
    label = f"{args.game} {args.players} players"
    rate = engine_rate(args.game, args.players, args.seconds)
    print(f"{label}, engine random playouts: {rate:,.0f} steps per CPU second")
    rate = vector_rate(args.game, args.players, args.n, args.seconds, observe=False)
    print(f"{label}, vector of {args.n}, masks: {rate:,.0f} steps per CPU second")
    rate = vector_rate(args.game, args.players, args.n, args.seconds, observe=True)
    print(f"{label}, vector of {args.n}, observations: {rate:,.0f} steps per CPU second")


if __name__ == "__main__":
    main()
