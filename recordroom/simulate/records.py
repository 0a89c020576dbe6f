"""``recordroom simulate records``: many Records games with any mix of agents, summarised.

Prints score percentiles, the winners' points by area, game length in weeks (solo: turns), how
often each end trigger fired, and the win rate by seat (and by agent, for a mix); for one player,
the solo chart's ranks. The shared flags (``--agents``, ``--workers``, ``--out`` ...) are in
:mod:`.common`. ``--ladder`` plays the bot ladder instead (:mod:`.ladder`).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from recordroom.games import load
from recordroom.games.records.board import SCORING_AREAS
from recordroom.games.records.view import SOLO_RANKS
from recordroom.simulate import common
from recordroom.simulate.report import win_rates
from recordroom.simulate.runner import Job, run_jobs


def register(games: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Adds the ``records`` simulation."""
    parser = games.add_parser(
        "records",
        help="Draft & Write Records with any mix of agents, or the bot ladder",
        description="Plays K games of Draft & Write Records and prints scores, points by area, "
        "game length, end triggers and win rate by seat.",
    )
    parser.add_argument("--players", type=int, default=4, help="1 to 6 (default 4)")
    parser.add_argument("--games", type=int, default=1000, help="games to play (default 1000)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    parser.add_argument(
        "--edition",
        default="standard",
        help="the edition (a TOML file in the package's editions folder; default standard)",
    )
    common.add_arguments(
        parser,
        "greedy",
        out_help="write results.json and plots here (with --ladder: ladder.json, the figures "
        "of both matches)",
    )
    parser.add_argument(
        "--ladder",
        action="store_true",
        help="play the ladder instead: greedy vs random (4 players) and ismcts vs greedy "
        "(2 players), --games each, seats rotated, ismcts at --seconds (default 1) a decision",
    )
    parser.add_argument(
        "--ladder-log", type=Path, default=None, help="append every ladder game here (JSON lines)"
    )
    parser.set_defaults(run=run)


def simulate(
    players: int, seeds: Sequence[int], kind: str, workers: int = 1
) -> list[dict[str, Any]]:
    """The results of one game per seed, every seat played by ``kind``."""
    jobs = [Job("records", players, seed, (kind,) * players) for seed in seeds]
    return [o["result"] for o in run_jobs(jobs, workers, progress=False)]


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
    """Plays the games (or the ladder) and prints the tables."""
    if args.ladder:
        if args.edition != "standard":
            raise SystemExit("--ladder plays the standard edition; leave out --edition")
        return run_ladder(args)
    game = load("records")
    options = {} if args.edition == "standard" else {"edition": args.edition}
    agents, outcomes = common.run(game, args, options)
    results = [o["result"] for o in outcomes]
    figures = summary(results, args.players)
    mixed = len(set(agents)) > 1
    if mixed:
        figures["win_rate_by_agent"] = win_rates(outcomes, args.players)["by_agent"]
    names = ",".join(agents) if mixed else agents[0]
    edition = "" if args.edition == "standard" else f", edition {args.edition}"
    title = (
        f"Draft & Write Records{edition}, {args.players} players, {names}, "
        f"{args.games} games, seed {args.seed}"
    )
    Console().print(figures_table(figures, title))
    config = common.settings(game, args, agents, title)
    common.write_out(args, config, {**figures, "win_rate_by_seat": figures["win_rate"]}, outcomes)
    return 0


def figures_table(figures: dict[str, Any], title: str) -> Table:
    """The summary figures as a table."""
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
    for agent, share in figures.get("win_rate_by_agent", {}).items():
        table.add_row(f"wins of a {agent} seat", f"{100 * share:.1f}%")
    for rank, share in figures.get("ranks", {}).items():
        table.add_row(f"solo rank {rank}", f"{100 * share:.1f}%")
    return table


def run_ladder(args: argparse.Namespace) -> int:
    """The ladder: both matches, their win rates and every bot's decision times."""
    from recordroom.simulate.ladder import greedy_jobs, ismcts_jobs, run_match

    common.check(args)
    common.check_out(args.out)
    if args.ladder_log is not None:
        try:
            args.ladder_log.open("a", encoding="utf-8").close()
        except OSError as error:
            raise SystemExit(
                f"--ladder-log {args.ladder_log}: cannot write there ({error.strerror or error})"
            ) from None
    seconds = 1.0 if args.seconds is None else args.seconds
    quiet = args.quiet
    matches = {
        "greedy vs 3 random (4 players)": run_match(
            greedy_jobs(args.games, args.seed),
            "greedy",
            args.workers,
            args.ladder_log,
            not quiet,
            args.ray,
        ),
        f"ismcts {seconds:g} s vs greedy (2 players)": run_match(
            ismcts_jobs(args.games, args.seed, seconds),
            "ismcts",
            args.workers,
            args.ladder_log,
            not quiet,
            args.ray,
        ),
    }
    table = Table(
        title=f"Draft & Write Records ladder, {args.games} games a match, seed {args.seed}"
    )
    for column in ("match", "games", "wins", "win rate", "bot", "mean decision", "p95 decision"):
        table.add_column(column, justify="right")
    for name, figures in matches.items():
        for bot, times in figures["decision_seconds"].items():
            table.add_row(
                name,
                str(figures["games"]),
                str(figures["wins"]),
                f"{100 * figures['win_rate']:.1f}%",
                bot,
                f"{1000 * times['mean']:.2f} ms",
                f"{1000 * times['p95']:.2f} ms",
            )
    Console().print(table)
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "ladder.json").write_text(json.dumps(matches, indent=2) + "\n")
    return 0
