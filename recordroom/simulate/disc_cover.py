"""``recordroom simulate disc-cover``: score and tier distribution of games with random voters."""

from __future__ import annotations

import argparse
import statistics
from collections import Counter
from typing import Any

from rich.console import Console
from rich.table import Table

from recordroom.games import load
from recordroom.games.disc_cover.scoring import TIERS
from recordroom.simulate import Played, play_many


def register(games: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Adds the ``disc-cover`` simulation."""
    parser = games.add_parser(
        "disc-cover",
        help="Disc Cover with random voters",
        description="Plays K games of Disc Cover with random voters and prints the score "
        "distribution (cooperative: tiers; competitive: points and winners).",
    )
    parser.add_argument("--players", type=int, default=4, help="3 to 8 (default 4)")
    parser.add_argument("--variant", choices=("cooperative", "competitive"), default="cooperative")
    parser.add_argument("--games", type=int, default=1000, help="games to play (default 1000)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Plays the games and prints the tables."""
    game = load("disc-cover")
    options = {"variant": args.variant}
    if args.games < 1:
        raise SystemExit("--games must be at least 1")
    game.new_state(args.players, args.seed, options)  # refuses a bad setup before the work
    seeds = range(args.seed, args.seed + args.games)
    played = play_many(
        game,
        args.players,
        seeds,
        options,
        lambda seed: [game.agent("random", seed * 101 + s) for s in range(args.players)],
    )
    console = Console()
    title = (
        f"Disc Cover, {args.players} players, {args.variant}, {args.games} games, seed {args.seed}"
    )
    if args.variant == "cooperative":
        console.print(cooperative_table(played, title))
    else:
        console.print(competitive_table(played, args.players, title))
    return 0


def cooperative_table(played: list[Played], title: str) -> Table:
    """Score statistics and how often each tier was reached."""
    scores = [p.result["score"] for p in played]
    tiers = Counter(p.result["tier"] for p in played)
    table = Table(title=title)
    table.add_column("tier")
    table.add_column("games", justify="right")
    table.add_column("share", justify="right")
    for name in TIERS:
        count = tiers.get(name, 0)
        table.add_row(name, str(count), f"{100 * count / len(played):.1f}%")
    table.caption = _score_caption(scores)
    return table


def competitive_table(played: list[Played], players: int, title: str) -> Table:
    """Each seat's mean points, wins and shared wins."""
    table = Table(title=title)
    for column in ("seat", "mean points", "wins", "of which shared"):
        table.add_column(column, justify="right")
    points: list[list[int]] = [[] for _ in range(players)]
    wins = Counter[int]()
    shared = Counter[int]()
    for p in played:
        for seat, value in enumerate(p.result["points"]):
            points[seat].append(value)
        winners: list[Any] = p.result["winners"]
        for seat in winners:
            wins[seat] += 1
            if len(winners) > 1:
                shared[seat] += 1
    for seat in range(players):
        table.add_row(
            str(seat), f"{statistics.fmean(points[seat]):.2f}", str(wins[seat]), str(shared[seat])
        )
    table.caption = _score_caption([v for p in played for v in p.result["points"]])
    return table


def _score_caption(scores: list[int]) -> str:
    cuts = statistics.quantiles(scores, n=10) if len(scores) > 1 else [scores[0]] * 9
    return (
        f"score: mean {statistics.fmean(scores):.2f}, min {min(scores)}, "
        f"p10 {cuts[0]:.0f}, median {statistics.median(scores):.0f}, p90 {cuts[-1]:.0f}, "
        f"max {max(scores)}"
    )
