"""What ``recordroom simulate`` writes to ``--out DIR``: the results as JSON and PNG plots.

``results.json`` holds the command's settings, the summary figures and every game's result.
The plots (matplotlib, Agg backend, no display needed):

``results.json`` also gives each game's ``returns`` (the contract's ``game.returns``, one per seat).

- ``returns.png``: the distribution of each agent's returns (``game.returns``, 0 to 1);
- ``areas.png``: mean points by scoring area, per agent (Records);
- ``length.png``: game length (Records: weeks, or turns in solo; Disc Cover: decisions);
- ``end.png``: how games ended (Records: end triggers; Disc Cover: tiers, or sole and shared wins);
- ``win_rate.png``: win rate by seat (competitive games).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # after the backend is chosen


def agent_returns(outcomes: Sequence[dict[str, Any]]) -> dict[str, list[float]]:
    """Each agent spec's returns (the contract's ``game.returns``) over all its seats and games."""
    out: dict[str, list[float]] = {}
    for o in outcomes:
        for spec, value in zip(o["agents"], o["returns"], strict=True):
            out.setdefault(spec, []).append(value)
    return out


def win_rates(outcomes: Sequence[dict[str, Any]], players: int) -> dict[str, Any]:
    """Win rate by seat and by agent spec (a shared first place counts for each)."""
    by_seat: Counter[int] = Counter()
    by_agent: Counter[str] = Counter()
    seats_of: Counter[str] = Counter()
    for o in outcomes:
        for spec in o["agents"]:
            seats_of[spec] += 1
        for w in o["result"].get("winners", []):
            by_seat[w] += 1
            by_agent[o["agents"][w]] += 1
    n = max(1, len(outcomes))
    return {
        "by_seat": {seat: by_seat[seat] / n for seat in range(players)},
        "by_agent": {spec: by_agent[spec] / seats_of[spec] for spec in sorted(seats_of)},
    }


def write(
    out: Path, settings: dict[str, Any], summary: dict[str, Any], outcomes: Sequence[dict[str, Any]]
) -> list[Path]:
    """Writes results.json and the plots into ``out``; returns the files written."""
    out.mkdir(parents=True, exist_ok=True)
    written = [out / "results.json"]
    payload = {
        "settings": settings,
        "summary": summary,
        "games": [
            {
                "seed": o["seed"],
                "agents": o["agents"],
                "decisions": o["decisions"],
                "returns": o["returns"],
                **o["result"],
            }
            for o in outcomes
        ],
    }
    written[0].write_text(json.dumps(payload, indent=1, default=str) + "\n", encoding="utf-8")
    game = settings["game"]
    players = settings["players"]
    title = f"{settings['title']}, {len(outcomes)} games"

    fig, ax = plt.subplots(figsize=(7, 4))
    for spec, values in sorted(agent_returns(outcomes).items()):
        ax.hist(values, bins=30, range=(0.0, 1.0), alpha=0.55, label=spec)
    ax.set(title=f"Returns (game.returns, 0 to 1)\n{title}", xlabel="return", ylabel="seats")
    ax.legend()
    written.append(_save(fig, out / "returns.png"))

    if game == "records":
        areas: dict[str, Counter[str]] = {}
        seats: Counter[str] = Counter()
        for o in outcomes:
            for spec, breakdown in zip(o["agents"], o["result"]["breakdown"], strict=True):
                areas.setdefault(spec, Counter()).update(breakdown)
                seats[spec] += 1
        names = list(next(iter(outcomes))["result"]["breakdown"][0])
        fig, ax = plt.subplots(figsize=(8, 4))
        width = 0.8 / max(1, len(areas))
        for k, (spec, totals) in enumerate(sorted(areas.items())):
            xs = [i + k * width for i in range(len(names))]
            ax.bar(xs, [totals[a] / seats[spec] for a in names], width, label=spec)
        ax.set_xticks([i + 0.4 - width / 2 for i in range(len(names))], names)
        ax.set(title=f"Mean points by area\n{title}", ylabel="points")
        ax.axhline(0, color="black", linewidth=0.5)
        ax.legend()
        written.append(_save(fig, out / "areas.png"))
        key = "turns" if players == 1 else "weeks"
        lengths = Counter(o["result"][key] for o in outcomes)
        ends = Counter(t for o in outcomes for t in o["result"]["triggers"])
        length_label = key
        end_title = "End triggers (share of games)"
    else:
        lengths = Counter(o["decisions"] for o in outcomes)
        if "tier" in outcomes[0]["result"]:
            ends = Counter(o["result"]["tier"] for o in outcomes)
            end_title = "Tier reached (share of games)"
        else:
            ends = Counter(
                "shared win" if len(o["result"]["winners"]) > 1 else "sole win" for o in outcomes
            )
            end_title = "How games ended (share of games)"
        length_label = "decisions"

    fig, ax = plt.subplots(figsize=(7, 4))
    xs = sorted(lengths)
    ax.bar([str(x) for x in xs], [lengths[x] / len(outcomes) for x in xs])
    ax.set(title=f"Game length\n{title}", xlabel=length_label, ylabel="share of games")
    if len(xs) > 20:
        ax.set_xticks(range(0, len(xs), max(1, len(xs) // 10)))
    written.append(_save(fig, out / "length.png"))

    if ends:
        total = len(outcomes)
        fig, ax = plt.subplots(figsize=(7, 4))
        names = sorted(ends)
        ax.bar(names, [ends[n] / total for n in names])
        ax.set(title=f"{end_title}\n{title}", ylabel="share")
        written.append(_save(fig, out / "end.png"))

    rates = summary.get("win_rate_by_seat")
    if rates:
        fig, ax = plt.subplots(figsize=(7, 4))
        ax.bar([str(s) for s in rates], list(rates.values()))
        ax.set(title=f"Win rate by seat\n{title}", xlabel="seat", ylabel="win rate")
        written.append(_save(fig, out / "win_rate.png"))
    return written


def _save(fig: Any, path: Path) -> Path:
    for ax in fig.axes:
        ax.title.set_fontsize(9)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
