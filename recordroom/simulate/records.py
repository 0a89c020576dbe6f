"""``recordroom simulate records``: many Records games with greedy or random agents, summarised.

Prints score percentiles, the winners' points by area, game length in weeks (solo: turns), how
often each end trigger fired, and the win rate by seat; for one player, the solo chart's ranks.
``--workers N`` spreads the games over N processes.
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from rich.console import Console
from rich.table import Table

from recordroom.games import load
from recordroom.games.records.board import SCORING_AREAS
from recordroom.games.records.view import SOLO_RANKS
from recordroom.simulate import play_game


def register(games: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Adds the ``records`` simulation."""
    parser = games.add_parser(
        "records",
        help="Draft & Write Records with greedy or random agents",
        description="Plays K games of Draft & Write Records and prints scores, points by area, "
        "game length, end triggers and win rate by seat.",
    )
    parser.add_argument("--players", type=int, default=4, help="1 to 6 (default 4)")
    parser.add_argument("--games", type=int, default=1000, help="games to play (default 1000)")
    parser.add_argument("--agents", choices=("greedy", "random"), default="greedy")
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    parser.set_defaults(run=run)


def _play(job: tuple[int, int, str]) -> dict[str, Any]:
    players, seed, kind = job
    game = load("records")
    agents = [game.agent(kind, seed * 101 + s) for s in range(players)]
    result: dict[str, Any] = play_game(game, players, seed, None, agents).result
    return result


def simulate(
    players: int, seeds: Sequence[int], kind: str, workers: int = 1
) -> list[dict[str, Any]]:
    """The results of one game per seed."""
    jobs = [(players, seed, kind) for seed in seeds]
    if workers <= 1:
        return [_play(job) for job in jobs]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(_play, jobs, chunksize=max(1, len(jobs) // (workers * 8))))


def _percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def summary(results: Sequence[dict[str, Any]], players: int) -> dict[str, Any]:
    """The figures the command prints, as plain data (also used by the tests and the docs)."""
    scores = [s for r in results for s in r["scores"]]
    winner_points: Counter[str] = Counter()
    winners = 0
    wins: Counter[int] = Counter()
    for r in results:
        for w in r["winners"]:
            wins[w] += 1
            winners += 1
            for area, points in r["breakdown"][w].items():
                winner_points[area] += points
    length_key = "turns" if players == 1 else "weeks"
    lengths = Counter(r[length_key] for r in results)
    triggers = Counter(t for r in results for t in r["triggers"])
    winner_total = sum(winner_points[a] for a in SCORING_AREAS if winner_points[a] > 0)
    n = len(results)
    out: dict[str, Any] = {
        "games": n,
        "percentiles": {
            f"p{int(q * 100)}": _percentile(scores, q) for q in (0.1, 0.25, 0.5, 0.75, 0.9)
        },
        "mean_score": sum(scores) / len(scores),
        "winner_area_mean": {a: winner_points[a] / max(1, winners) for a in SCORING_AREAS},
        "winner_area_share": {
            a: winner_points[a] / winner_total if winner_total else 0.0 for a in SCORING_AREAS
        },
        "length": dict(sorted(lengths.items())),
        "length_key": length_key,
        "triggers": {t: c / n for t, c in sorted(triggers.items())},
        "win_rate": {seat: wins[seat] / n for seat in range(players)},
    }
    if players == 1:
        ranks = Counter(r["rank"] for r in results)
        out["ranks"] = {name: ranks[name] / n for _, name in SOLO_RANKS}
    return out


def run(args: argparse.Namespace) -> int:
    """Plays the games and prints the tables."""
    if args.games < 1:
        raise SystemExit("--games must be at least 1")
    load("records").new_state(args.players, args.seed, None)  # refuses a bad player count
    seeds = range(args.seed, args.seed + args.games)
    results = simulate(args.players, seeds, args.agents, args.workers)
    figures = summary(results, args.players)
    console = Console()
    title = (
        f"Draft & Write Records, {args.players} players, {args.agents}, "
        f"{args.games} games, seed {args.seed}"
    )
    table = Table(title=title)
    table.add_column("figure")
    table.add_column("value", justify="right")
    for name, value in figures["percentiles"].items():
        table.add_row(f"score {name}", f"{value}")
    table.add_row("mean score", f"{figures['mean_score']:.1f}")
    for area in SCORING_AREAS:
        table.add_row(
            f"winners' {area}",
            f"{figures['winner_area_mean'][area]:.1f} "
            f"({100 * figures['winner_area_share'][area]:.1f}%)",
        )
    for length, count in figures["length"].items():
        table.add_row(
            f"{figures['length_key']} = {length}", f"{100 * count / figures['games']:.1f}%"
        )
    for trigger, share in figures["triggers"].items():
        table.add_row(f"end trigger {trigger}", f"{100 * share:.1f}%")
    for seat, share in figures["win_rate"].items():
        table.add_row(f"wins seat {seat}", f"{100 * share:.1f}%")
    for rank, share in figures.get("ranks", {}).items():
        table.add_row(f"solo rank {rank}", f"{100 * share:.1f}%")
    console.print(table)
    return 0
