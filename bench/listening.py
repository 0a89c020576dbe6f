"""Do listening bots hear the same thing? Agreement and stability of Disc Cover's listening bots.

Run: ``.venv/bin/python bench/listening.py [--music DIR] [--deals N] [--bots K] [--seed S]``.

For every track of the demo playlist (and of each ``--music`` folder), ``N`` deals of four random
built-in sleeves are laid out; ``K`` listening bots with different personalities vote on each
deal. Reported per library:

- *agreement*: the share of pairs of bots that voted for the same sleeve (random voters: 25%);
- *plurality*: the share of deals whose most-voted sleeve had a strict majority of the votes
  over every other sleeve (what a table needs to avoid a tie), against random voters;
- *stability*: the same bot, the same song and the same four sleeves, asked ten times with fresh
  doubt: the share of answers that match its most frequent answer.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
from collections import Counter
from pathlib import Path
from typing import Any

from recordroom.games.disc_cover.bots import ListeningAgent, senses
from recordroom.media.music.demo import demo_library
from recordroom.media.music.features import AudioError, analyse
from recordroom.media.music.library import Library, scan
from recordroom.media.sleeve_features import builtin_features

VOTES = tuple({"type": "vote", "card": c} for c in (1, 2, 3, 4))


def table_view(deal: list[int], heard: dict[str, float] | None) -> dict[str, Any]:
    looks = builtin_features()
    return {
        "records": [{"card": i + 1, "sleeve": {"id": sid}} for i, sid in enumerate(deal)],
        "senses": senses(heard, {sid: looks[sid].to_json() for sid in deal}),
    }


def has_plurality(cards: list[int]) -> bool:
    counts = Counter(cards).most_common()
    return len(counts) == 1 or counts[0][1] > counts[1][1]


def study(library: Library, deals: int, bots: int, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    sleeve_ids = sorted(builtin_features())
    agreement: list[float] = []
    plurality: list[bool] = []
    random_plurality: list[bool] = []
    stability: list[float] = []
    for track in library:
        try:
            heard = analyse(track.path).to_json()
        except AudioError:
            continue
        for _ in range(deals):
            deal = rng.sample(sleeve_ids, 4)
            view = table_view(deal, heard)
            agents = [ListeningAgent(seed * 1000 + b) for b in range(bots)]
            cards = [int(a.choose(view, VOTES)["card"]) for a in agents]
            pairs = list(itertools.combinations(cards, 2))
            agreement.append(sum(x == y for x, y in pairs) / len(pairs))
            plurality.append(has_plurality(cards))
            random_plurality.append(has_plurality([rng.randint(1, 4) for _ in range(bots)]))
            again = [int(agents[0].choose(view, VOTES)["card"]) for _ in range(10)]
            stability.append(Counter(again).most_common(1)[0][1] / len(again))
    return {
        "tracks": float(len(library)),
        "agreement": statistics.fmean(agreement),
        "plurality": statistics.fmean(plurality),
        "random_plurality": statistics.fmean(random_plurality),
        "stability": statistics.fmean(stability),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--music", type=Path, action="append", default=[])
    parser.add_argument("--cache-dir", type=Path, default=Path(".cache/recordroom"))
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--bots", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    libraries = [("demo playlist", demo_library(args.cache_dir))]
    libraries += [(str(folder.name), scan([folder])) for folder in args.music]
    print(
        f"{args.bots} listening bots, {args.deals} deals of 4 sleeves per track, seed {args.seed}"
    )
    print("| library | tracks | agreement (random 25%) | plurality (random) | stability |")
    print("| --- | --- | --- | --- | --- |")
    for name, library in libraries:
        r = study(library, args.deals, args.bots, args.seed)
        print(
            f"| {name} | {r['tracks']:.0f} | {100 * r['agreement']:.1f}% | "
            f"{100 * r['plurality']:.1f}% ({100 * r['random_plurality']:.1f}%) | "
            f"{100 * r['stability']:.1f}% |"
        )


if __name__ == "__main__":
    main()
