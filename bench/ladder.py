"""The Draft & Write Records ladder, in full (long: about an hour and more on two cores).

    python bench/ladder.py [--workers 2] [--greedy-games 200] [--ismcts-games 200] [--seconds 1]

Plays greedy against three random players (4-player games, seats rotated) and ISMCTS at
``--seconds`` a decision against greedy (2-player games, seats rotated), appending every finished
game to ``--log`` (JSON lines) as it ends, then prints the figures and writes them to ``--out``.
``--report LOG`` only reads a log (also of a run that was stopped) and prints its figures.
See docs/bots.md for the figures measured so far.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from recordroom.simulate.ladder import greedy_jobs, ismcts_jobs, read_log, run_match


def main() -> None:
    """Runs the ladder (or reads a log) and prints the figures as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--greedy-games", type=int, default=200)
    parser.add_argument("--ismcts-games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--log", type=Path, default=Path("ladder.jsonl"))
    parser.add_argument("--out", type=Path, default=Path("ladder.json"))
    parser.add_argument("--report", type=Path, help="only read this log and print its figures")
    args = parser.parse_args()
    if args.report:
        print(json.dumps(read_log(args.report), indent=2))
        return
    figures = {
        "greedy_vs_random": run_match(
            greedy_jobs(args.greedy_games, args.seed), "greedy", args.workers, args.log
        ),
        "ismcts_vs_greedy": run_match(
            ismcts_jobs(args.ismcts_games, args.seed, args.seconds),
            "ismcts",
            args.workers,
            args.log,
        ),
    }
    args.out.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
