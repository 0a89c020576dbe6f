"""Playout speed of a Records game, in decisions per second of CPU time on one core.

Run: ``.venv/bin/python bench/records_playout.py [--players N] [--seconds S] [--agents KIND]``.
A decision is one accepted action. With ``--agents random`` (the default) the games are
``recordroom.engine.random_playout`` (legal actions asked, one applied); with ``--agents greedy``
every seat is the greedy agent, deciding from its view (``recordroom.simulate.play_game``).
"""

from __future__ import annotations

import argparse
import time

from recordroom.engine import random_playout
from recordroom.games import load
from recordroom.simulate import play_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--agents", choices=("random", "greedy"), default="random")
    args = parser.parse_args()
    game = load("records")
    decisions = games = 0
    start = time.perf_counter()
    cpu = time.process_time()
    while time.perf_counter() - start < args.seconds:
        if args.agents == "random":
            _, log = random_playout(game, args.players, games)
        else:
            agents = [game.agent("greedy", games * 101 + s) for s in range(args.players)]
            log = list(play_game(game, args.players, games, None, agents).log)
        decisions += len(log)
        games += 1
    # CPU time of this process, so that other work on the machine does not lower the figure.
    rate = decisions / (time.process_time() - cpu)
    print(
        f"records {args.players} players, {args.agents}: "
        f"{rate:,.0f} decisions per CPU second ({games} games)"
    )


if __name__ == "__main__":
    main()
