"""The Records ladder: how much stronger each bot is than the one below, and how fast it decides.

Two matches, seats rotated so that every bot plays every seat equally often:

- ``greedy`` against three ``random`` players (4 players; game ``k`` seats the greedy bot at
  ``k % 4``): the share of games the greedy bot wins (a shared first place counts as a win);
- ``ismcts`` with ``seconds`` a decision against ``greedy`` (2 players; game ``k`` seats the search
  bot at ``k % 2``): the share of games it wins.

Decision times are kept for every choice with more than one legal action (a forced move costs
nothing) and reported per bot as the mean and the 95th percentile. Each finished game is appended
to a JSON-lines file as it ends, so a long run can be read while it goes on or after it stopped.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from recordroom.simulate.runner import Job, run_jobs


def greedy_jobs(games: int, seed: int) -> list[Job]:
    """Greedy against three random players, the greedy seat rotating."""
    jobs = []
    for k in range(games):
        agents = ["random"] * 4
        agents[k % 4] = "greedy"
        jobs.append(Job("records", 4, seed + k, tuple(agents)))
    return jobs


def ismcts_jobs(
    games: int, seed: int, seconds: float | None, iterations: int | None = None
) -> list[Job]:
    """ISMCTS against greedy in 2-player games, the ISMCTS seat rotating."""
    jobs = []
    for k in range(games):
        agents = ["greedy", "greedy"]
        agents[k % 2] = "ismcts"
        jobs.append(
            Job("records", 2, seed + k, tuple(agents), iterations=iterations, seconds=seconds)
        )
    return jobs


def _percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def match_figures(outcomes: Sequence[dict[str, Any]], hero: str) -> dict[str, Any]:
    """Wins of ``hero`` (shared firsts count), sole wins, mean scores, decision times per bot."""
    wins = sole = 0
    hero_scores: list[int] = []
    other_scores: list[int] = []
    times: dict[str, list[float]] = {}
    for outcome in outcomes:
        seat = outcome["agents"].index(hero)
        winners = outcome["result"]["winners"]
        wins += seat in winners
        sole += winners == [seat]
        scores = outcome["result"]["scores"]
        hero_scores.append(scores[seat])
        other_scores.extend(s for i, s in enumerate(scores) if i != seat)
        for name, seat_times in zip(outcome["agents"], outcome["times"], strict=True):
            times.setdefault(name, []).extend(seat_times)
    n = len(outcomes)
    return {
        "games": n,
        "hero": hero,
        "wins": wins,
        "win_rate": wins / n if n else 0.0,
        "sole_wins": sole,
        "hero_mean_score": statistics.fmean(hero_scores) if hero_scores else 0.0,
        "others_mean_score": statistics.fmean(other_scores) if other_scores else 0.0,
        "decision_seconds": {
            name: {
                "decisions": len(values),
                "mean": statistics.fmean(values) if values else 0.0,
                "p95": _percentile(values, 0.95) if values else 0.0,
            }
            for name, values in sorted(times.items())
        },
    }


def run_match(
    jobs: Sequence[Job],
    hero: str,
    workers: int,
    log_path: Path | None = None,
    progress: bool = True,
    ray: str | None = None,
) -> dict[str, Any]:
    """Plays the jobs and returns :func:`match_figures`; appends each game to ``log_path``."""
    handle = log_path.open("a", encoding="utf-8") if log_path else None

    def record(index: int, outcome: dict[str, Any]) -> None:
        if handle is not None:
            handle.write(json.dumps({"hero": hero, **outcome}) + "\n")
            handle.flush()

    try:
        outcomes = run_jobs(
            jobs,
            workers,
            progress=progress,
            description=f"{hero} games",
            on_result=record,
            ray=ray,
        )
    finally:
        if handle is not None:
            handle.close()
    return match_figures(outcomes, hero)


def read_log(path: Path) -> dict[str, dict[str, Any]]:
    """The figures of every match in a ladder log (also of a run that was stopped early)."""
    by_hero: dict[str, list[dict[str, Any]]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            entry = json.loads(line)
            by_hero.setdefault(entry["hero"], []).append(entry)
    return {hero: match_figures(entries, hero) for hero, entries in by_hero.items()}
