"""The action dicts of one edition, built once and shared (callers treat them as read-only).

Action types say what they are: ``lead_singer``, ``keep`` (a private goal), ``pick`` (a card),
``mark`` (the picked card on the board), ``fail`` (the picked card on the fail track), ``bonus``
(where an earned bonus goes), ``undo`` and ``done`` (a seat takes back its marks of this step, or
ends its marking), ``claim`` and ``pass`` (goals), ``draw`` (solo option B). ``setting`` (a seat's
own setting, ``pass_unmet``) is never listed as legal: a seat may send it at any time.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from recordroom.games.records.edition import Edition, bonus_name, load_edition

Action = dict[str, Any]

KEYS: dict[str, frozenset[str]] = {
    "lead_singer": frozenset({"type", "colour"}),
    "keep": frozenset({"type", "goal"}),
    "pick": frozenset({"type", "card"}),
    "mark": frozenset({"type", "area", "slot", "box", "multiplier"}),
    "fail": frozenset({"type"}),
    "bonus": frozenset({"type", "bonus", "box"}),
    "claim": frozenset({"type", "goal"}),
    "pass": frozenset({"type"}),
    "draw": frozenset({"type"}),
    "undo": frozenset({"type"}),
    "done": frozenset({"type"}),
    "setting": frozenset({"type", "pass_unmet"}),
}
"""The exact keys of each action type; anything else is malformed."""

FAIL: Action = {"type": "fail"}
PASS: Action = {"type": "pass"}
DRAW: Action = {"type": "draw"}
UNDO: Action = {"type": "undo"}
DONE: Action = {"type": "done"}


class Actions:
    """Prebuilt action dicts for one edition."""

    def __init__(self, edition: Edition) -> None:
        self.lead = tuple({"type": "lead_singer", "colour": c} for c in edition.colours)
        self.keep = tuple({"type": "keep", "goal": g.id} for g in edition.goals)
        self.claim = tuple({"type": "claim", "goal": g.id} for g in edition.goals)
        self.pick = tuple({"type": "pick", "card": c.id} for c in edition.cards)
        self.multipliers = len(edition.multipliers)
        self.crew = tuple(
            tuple(
                {
                    "type": "mark",
                    "area": "crew",
                    "slot": slot,
                    "box": None,
                    "multiplier": None if m < 0 else m,
                }
                for m in range(-1, len(edition.multipliers))
            )
            for slot in range(len(edition.crew_slots))
        )
        self.agenda = tuple(
            {"type": "mark", "area": "agenda", "slot": None, "box": b, "multiplier": None}
            for b in range(edition.agenda_boxes)
        )
        self.asset = tuple(
            {"type": "mark", "area": "assets", "slot": None, "box": b, "multiplier": None}
            for b in range(edition.asset_boxes)
        )
        self._edition = edition
        self._bonus: dict[tuple[int, int], Action] = {}

    def crew_mark(self, slot: int, multiplier: int) -> Action:
        """Place in ``slot``, spending multiplier box ``multiplier`` (-1: none)."""
        return self.crew[slot][multiplier + 1]

    def bonus(self, code: int, target: int) -> Action:
        """Use bonus ``code`` on box ``target``."""
        key = (code, target)
        action = self._bonus.get(key)
        if action is None:
            action = {"type": "bonus", "bonus": bonus_name(self._edition, code), "box": target}
            self._bonus[key] = action
        return action


@cache
def actions_for(edition_name: str) -> Actions:
    """The shared action dicts of a named edition."""
    return Actions(load_edition(edition_name))
