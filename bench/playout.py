"""Random-playout speed of each game, in decisions per second on one core.

Run: ``.venv/bin/python bench/playout.py [GAME ...] [--players N] [--seconds S]``. A decision is
one accepted action: the random player asks for the active seats' legal actions, picks one and
applies it, as ``recordroom.engine.random_playout`` does.
"""

from __future__ import annotations

import argparse
import time

from recordroom.engine import random_playout
from recordroom.games import load, names


def measure(name: str, players: int, seconds: float) -> tuple[float, float, int]:
    """Decisions per second and per CPU second over whole random games for at least ``seconds``.

    The CPU figure counts this process's time only, so other work on the machine lowers it less.
    """
    game = load(name)
    options = dict(game.info.option_sets[0])
    decisions = games = 0
    start = time.perf_counter()
    cpu = time.process_time()
    while time.perf_counter() - start < seconds:
        _, log = random_playout(game, players, games, options)
        decisions += len(log)
        games += 1
    per_cpu = decisions / (time.process_time() - cpu)
    return decisions / (time.perf_counter() - start), per_cpu, games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(names()))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    for name in args.games:
        rate, per_cpu, games = measure(name, args.players, args.seconds)
        print(
            f"{name:12s} {args.players} players: {rate:10,.0f} decisions/s, "
            f"{per_cpu:10,.0f} per CPU second ({games} games)"
        )


if __name__ == "__main__":
    main()
