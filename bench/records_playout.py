"""Random-playout speed of a Records game, in decisions per second on one core.

Run: ``.venv/bin/python bench/records_playout.py [--players N] [--seconds S]``. A decision is one
accepted action of ``recordroom.engine.random_playout`` (legal actions asked, one applied).
"""

from __future__ import annotations

import argparse
import time

from recordroom.engine import random_playout
from recordroom.games import load


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    game = load("records")
    decisions = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < args.seconds:
        _, log = random_playout(game, args.players, games)
        decisions += len(log)
        games += 1
    rate = decisions / (time.perf_counter() - start)
    print(f"records {args.players} players: {rate:,.0f} decisions/s ({games} games)")


if __name__ == "__main__":
    main()
