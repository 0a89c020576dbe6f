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


def measure(name: str, players: int, seconds: float) -> tuple[float, int]:
    """Decisions per second over whole random games for at least ``seconds``."""
    game = load(name)
    options = dict(game.info.option_sets[0])
    decisions = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        _, log = random_playout(game, players, games, options)
        decisions += len(log)
        games += 1
    return decisions / (time.perf_counter() - start), games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(names()))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    for name in args.games:
        rate, games = measure(name, args.players, args.seconds)
        print(f"{name:12s} {args.players} players: {rate:10,.0f} decisions/s ({games} games)")


if __name__ == "__main__":
    main()
