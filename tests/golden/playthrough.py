"""Golden playthroughs: seeded games written out as text, step by step, and compared exactly.

Each file under ``tests/golden/`` holds one game: its name, players, seed and options, then for
every step the seat that acts, its view (less the events) and legal actions, the action it takes
(a seeded random choice), and after it the events that appeared and the returns; the public table
view at the start and the end, and the result. A change to the rules, the views, the events or
the returns shows up as a readable diff of these files.

Regenerate them after a deliberate change with::

    .venv/bin/python tests/golden/playthrough.py

and read the diff before committing it.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

from recordroom.games import load

HERE = Path(__file__).resolve().parent

CASES: dict[str, tuple[str, int, int, dict[str, Any]]] = {
    "disc-cover-cooperative-3": ("disc-cover", 3, 7, {"variant": "cooperative"}),
    "disc-cover-competitive-4": ("disc-cover", 4, 11, {"variant": "competitive", "leader": 2}),
    "records-solo": ("records", 1, 5, {}),
    "records-2": ("records", 2, 3, {}),
}


def _line(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _view(view: dict[str, Any]) -> str:
    """A view without its events (they are written one by one as they appear)."""
    return _line({k: v for k, v in view.items() if k != "events"})


def playthrough(name: str, players: int, seed: int, options: dict[str, Any]) -> str:
    """The text of one seeded game (see the module docstring)."""
    game = load(name)
    rng = random.Random(seed)
    state = game.new_state(players, seed, options)
    lines = [f"# {name}, {players} players, seed {seed}, options {_line(options)}"]
    lines.append(f"table {_view(game.view(state, None))}")
    seen = 0
    step = 0
    while not game.is_over(state):
        seat = min(state.active)
        legal = game.legal_actions(state, seat)
        action = legal[rng.randrange(len(legal))]
        step += 1
        lines.append(f"## step {step}: seat {seat} of {sorted(state.active)}")
        lines.append(f"view {_view(game.view(state, seat))}")
        lines.append(f"legal {_line(list(legal))}")
        lines.append(f"action {_line(action)}")
        state = game.apply(state, seat, action)
        table = game.view(state, None)
        events = table.get("events", [])
        for event in events[seen:]:
            lines.append(f"event {_line(event)}")
        seen = len(events)
        lines.append(f"returns {_line(list(game.returns(state)))}")
    lines.append(f"table {_view(game.view(state, None))}")
    lines.append(f"result {_line(game.result(state))}")
    return "\n".join(lines) + "\n"


def path_of(case: str) -> Path:
    """Where a case's golden file lives."""
    return HERE / f"{case}.txt"


def main() -> int:
    """Writes every golden file anew."""
    for case, (name, players, seed, options) in CASES.items():
        path_of(case).write_text(playthrough(name, players, seed, options), encoding="utf-8")
        sys.stdout.write(f"wrote {path_of(case).name}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
