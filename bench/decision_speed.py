"""How fast the Records greedy bot decides: the p95 of its decision times in a small match.

    python bench/decision_speed.py [--games 12] [--seed 100] [--target 0.05]

Plays ``--games`` 4-player games of greedy against three random players (seats rotated, one
worker) and prints the greedy bot's decision-time figures (decisions, mean and p95 seconds) as
JSON. Exits with status 1 when the p95 is above ``--target`` (50 ms: a bot seat must answer at
once at the table). This is the speed half of tests/bots/test_ladder.py, which keeps the
behaviour half (greedy beats random players) and asserts no time: wall-clock figures depend on the
machine and its load, so they are measured here, not in the unit suite.
"""

from __future__ import annotations

import argparse
import json
import sys

from recordroom.simulate.ladder import greedy_jobs, run_match


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--target", type=float, default=0.05, help="p95 target in seconds")
    args = parser.parse_args()
    figures = run_match(
        greedy_jobs(args.games, seed=args.seed), "greedy", workers=1, progress=False
    )
    seconds = figures["decision_seconds"]["greedy"]
    met = seconds["p95"] <= args.target
    print(json.dumps({"greedy_decision_seconds": seconds, "target_p95": args.target, "met": met}))
    sys.exit(0 if met else 1)


if __name__ == "__main__":
    main()
