"""``recordroom simulate disc-cover``: score and tier distribution of many games.

Random voters by default; any mix of agents with ``--agents`` (see :mod:`.common`).
"""

from __future__ import annotations

import argparse
import statistics
from collections import Counter
from typing import Any

from rich.console import Console
from rich.table import Table

from recordroom.games import load
from recordroom.games.disc_cover.scoring import TIERS
from recordroom.simulate import common
from recordroom.simulate.report import win_rates


def register(games: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Adds the ``disc-cover`` simulation."""
    parser = games.add_parser(
        "disc-cover",
        help="Disc Cover with random voters or any mix of agents",
        description="Plays K games of Disc Cover (random voters unless --agents says otherwise) "
        "and prints the score distribution (cooperative: tiers; competitive: points and winners).",
    )
    parser.add_argument("--players", type=int, default=4, help="3 to 8 (default 4)")
    parser.add_argument("--variant", choices=("cooperative", "competitive"), default="cooperative")
    parser.add_argument("--games", type=int, default=1000, help="games to play (default 1000)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    common.add_arguments(parser, "random")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Plays the games and prints the tables."""
    game = load("disc-cover")
    options = {"variant": args.variant}
    agents, outcomes = common.run(game, args, options)
    played = [o["result"] for o in outcomes]
    console = Console()
    names = ",".join(agents) if len(set(agents)) > 1 else agents[0]
    title = (
        f"Disc Cover, {args.players} players, {args.variant}, {names}, {args.games} games, "
        f"seed {args.seed}"
    )
    if args.variant == "cooperative":
        console.print(cooperative_table(played, title))
    else:
        console.print(competitive_table(played, args.players, title))
    common.write_out(
        args, common.settings(game, args, agents, title), summary(outcomes, args.players), outcomes
    )
    return 0


def summary(outcomes: list[dict[str, Any]], players: int) -> dict[str, Any]:
    """The figures of a run as plain data (results.json)."""
    results = [o["result"] for o in outcomes]
    if "score" in results[0]:
        scores = [r["score"] for r in results]
        tiers = Counter(r["tier"] for r in results)
        return {
            "games": len(results),
            "mean_score": statistics.fmean(scores),
            "tiers": {name: tiers.get(name, 0) / len(results) for name in TIERS},
        }
    rates = win_rates(outcomes, players)
    return {
        "games": len(results),
        "mean_points": statistics.fmean(v for r in results for v in r["points"]),
        "win_rate_by_seat": rates["by_seat"],
        "win_rate_by_agent": rates["by_agent"],
    }


def cooperative_table(played: list[dict[str, Any]], title: str) -> Table:
    """Score statistics and how often each tier was reached, from the games' results."""
    scores = [r["score"] for r in played]
    tiers = Counter(r["tier"] for r in played)
    table = Table(title=title)
    table.add_column("tier")
    table.add_column("games", justify="right")
    table.add_column("share", justify="right")
    for name in TIERS:
        count = tiers.get(name, 0)
        table.add_row(name, str(count), f"{100 * count / len(played):.1f}%")
    table.caption = _score_caption(scores)
    return table


def competitive_table(played: list[dict[str, Any]], players: int, title: str) -> Table:
    """Each seat's mean points, wins and shared wins, from the games' results."""
    table = Table(title=title)
    for column in ("seat", "mean points", "wins", "of which shared"):
        table.add_column(column, justify="right")
    points: list[list[int]] = [[] for _ in range(players)]
    wins = Counter[int]()
    shared = Counter[int]()
    for r in played:
        for seat, value in enumerate(r["points"]):
            points[seat].append(value)
        winners: list[Any] = r["winners"]
        for seat in winners:
            wins[seat] += 1
            if len(winners) > 1:
                shared[seat] += 1
    for seat in range(players):
        table.add_row(
            str(seat), f"{statistics.fmean(points[seat]):.2f}", str(wins[seat]), str(shared[seat])
        )
    table.caption = _score_caption([v for r in played for v in r["points"]])
    return table


def _score_caption(scores: list[int]) -> str:
    cuts = statistics.quantiles(scores, n=10) if len(scores) > 1 else [scores[0]] * 9
    return (
        f"score: mean {statistics.fmean(scores):.2f}, min {min(scores)}, "
        f"p10 {cuts[0]:.0f}, median {statistics.median(scores):.0f}, p90 {cuts[-1]:.0f}, "
        f"max {max(scores)}"
    )
