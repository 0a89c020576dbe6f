"""The flags every ``recordroom simulate GAME`` shares, and the run they drive.

``--agents`` names one agent for every seat (``greedy``) or one per seat
(``greedy,greedy,ismcts,random``); ``--iterations`` and ``--seconds`` set the search bot's budget;
``--workers`` spreads the games over processes (default: every core); ``--ray [ADDRESS]`` runs
them as tasks on a Ray cluster instead (a local one without an address); ``--seed`` makes the run
repeatable (game ``k`` uses seed ``seed + k`` whatever the number of workers); ``--out DIR``
writes results.json and the plots (see :mod:`recordroom.simulate.report`).
"""

from __future__ import annotations

import argparse
import math
import os
import tempfile
from pathlib import Path
from typing import Any

from rich.console import Console

from recordroom.engine.game import Game
from recordroom.simulate.runner import Job, agent_names, run_jobs


def add_arguments(
    parser: argparse.ArgumentParser,
    default_agents: str,
    out_help: str = "write results.json and plots here",
) -> None:
    """Adds the shared flags (``out_help``: what ``--out`` writes, for a command that differs)."""
    parser.add_argument(
        "--agents",
        default=default_agents,
        help=f"one agent for all seats, or one per seat with commas (default {default_agents})",
    )
    parser.add_argument(
        "--iterations", type=int, default=200, help="ismcts: iterations a decision (default 200)"
    )
    parser.add_argument(
        "--seconds",
        type=float,
        default=None,
        help="ismcts: seconds a decision (default: none); hard: default 1",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 1,
        help="processes (default: every core)",
    )
    parser.add_argument("--out", type=Path, default=None, metavar="DIR", help=out_help)
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument(
        "--ray",
        nargs="?",
        const="local",
        default=None,
        metavar="ADDRESS",
        help="run the games as tasks on a Ray cluster at ADDRESS (none: a local one with "
        "--workers CPUs); the same results as a local run (docs/simulate.md)",
    )


def parse_agents(game: Game, text: str, players: int) -> tuple[str, ...]:
    """One agent spec per seat; ``SystemExit`` naming the known specs otherwise."""
    specs = tuple(s.strip() for s in text.split(",") if s.strip())
    known = agent_names(game)
    unknown = [s for s in specs if s not in known]
    if unknown or not specs:
        raise SystemExit(
            f"--agents: unknown agent {', '.join(unknown)!r}; known: {', '.join(known)}"
        )
    if len(specs) == 1:
        return specs * players
    if len(specs) != players:
        raise SystemExit(f"--agents: {players} seats need 1 or {players} agents, got {len(specs)}")
    return specs


def check(args: argparse.Namespace) -> None:
    """Refuses the counts and budgets no run can use: ``SystemExit`` saying which."""
    if args.games < 1:
        raise SystemExit("--games must be at least 1")
    if args.workers < 1:
        raise SystemExit("--workers must be at least 1")
    if args.iterations < 1:
        raise SystemExit("--iterations must be at least 1")
    if args.seconds is not None and not (math.isfinite(args.seconds) and args.seconds > 0):
        raise SystemExit("--seconds must be a number of seconds above 0")


def check_out(out: Path | None) -> None:
    """Makes the ``--out`` folder and tries a file in it, so that a folder that cannot be
    written is refused (``SystemExit``) before the games are played, not after."""
    if out is None:
        return
    try:
        out.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=out):
            pass
    except OSError as error:
        raise SystemExit(f"--out {out}: cannot write there ({error.strerror or error})") from None


def run(
    game: Game, args: argparse.Namespace, options: dict[str, Any]
) -> tuple[tuple[str, ...], list[dict[str, Any]]]:
    """Checks the flags, plays the games; returns the seat agents and every game's outcome."""
    check(args)
    game.new_state(args.players, args.seed, options)  # refuses a bad setup before the work
    agents = parse_agents(game, args.agents, args.players)
    check_out(args.out)
    jobs = [
        Job(
            game.info.name,
            args.players,
            seed,
            agents,
            options,
            iterations=args.iterations,
            seconds=args.seconds,
        )
        for seed in range(args.seed, args.seed + args.games)
    ]
    outcomes = run_jobs(jobs, args.workers, progress=not args.quiet, ray=args.ray)
    return agents, outcomes


def settings(
    game: Game, args: argparse.Namespace, agents: tuple[str, ...], title: str
) -> dict[str, Any]:
    """The run's settings as written to results.json."""
    return {
        "game": game.info.name,
        "title": title,
        "players": args.players,
        "games": args.games,
        "seed": args.seed,
        "agents": list(agents),
        "iterations": args.iterations,
        "seconds": args.seconds,
    }


def write_out(
    args: argparse.Namespace,
    config: dict[str, Any],
    summary: dict[str, Any],
    outcomes: list[dict[str, Any]],
) -> None:
    """Writes the JSON and plots when ``--out`` was given, and says where."""
    if args.out is None:
        return
    from recordroom.simulate.report import write

    files = write(args.out, config, summary, outcomes)
    Console().print(f"wrote {', '.join(str(f) for f in files)}")
