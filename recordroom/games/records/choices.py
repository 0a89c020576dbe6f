"""A seat's pending choice in a simultaneous step, one integer in ``State.pending``.

The one place that knows how each choice phase codes its choice: a lead singer colour by its
index, a kept goal and a picked card by their indices, a claim or a pass as 1 or 0 (``NONE``: no
choice yet). The rules code an action (:func:`encode`), the view shows the choice to its own seat
(:func:`show`) and a determinisation reads it back from that view (:func:`read`).
"""

from __future__ import annotations

from typing import Any

from recordroom.games.records.edition import Edition
from recordroom.games.records.kinds import Phase

NONE = -1
CLAIM, PASS = 1, 0
# The members as module names: an enum member's attribute look-up is slow on the hot path.
_LEAD_SINGER, _KEEP, _PICK = Phase.LEAD_SINGER, Phase.KEEP, Phase.PICK


def encode(ed: Edition, action: dict[str, Any]) -> int:
    """The pending value of a choice action (``lead_singer``, ``keep``, ``pick``, ``claim``,
    ``pass``)."""
    kind = action["type"]
    if kind == "lead_singer":
        return ed.colours.index(action["colour"])
    if kind == "keep":
        return ed.goal_by_id[action["goal"]]
    if kind == "pick":
        return ed.card_by_id[action["card"]]
    return CLAIM if kind == "claim" else PASS


def show(ed: Edition, phase: Phase, value: int) -> str | None:
    """A pending value as its seat sees it: a colour, a goal id, a card id, claim or pass."""
    if value == NONE:
        return None
    if phase == _LEAD_SINGER:
        return ed.colours[value]
    if phase == _KEEP:
        return ed.goals[value].id
    if phase == _PICK:
        return ed.cards[value].id
    return "claim" if value == CLAIM else "pass"


def read(ed: Edition, phase: Phase, shown: str) -> int:
    """The pending value :func:`show` showed as ``shown`` (its inverse)."""
    if phase == _LEAD_SINGER:
        return ed.colours.index(shown)
    if phase == _KEEP:
        return ed.goal_by_id[shown]
    if phase == _PICK:
        return ed.card_by_id[shown]
    return CLAIM if shown == "claim" else PASS
