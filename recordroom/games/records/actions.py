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

from recordroom.games.records import board as bd
from recordroom.games.records.edition import Edition, bonus_name, load_edition
from recordroom.games.records.kinds import HARMONY_OF, CardKind

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
ONLY_FAIL = (FAIL,)
ONLY_DONE = (DONE,)
DONE_OR_UNDO = (DONE, UNDO)
HANDS_KEPT = 2048
"""Hands whose pick actions :meth:`Actions.picks` keeps: enough for a hand passed on to be found
again in the many games of a vector (bench/rl_vector.py), few enough that the collector's full
passes stay short (with 65,536 they took 4% of a vectorised step's time, with 2,048 under 2%)."""
# The members as module names: an enum member's attribute look-up is slow on the hot path.
_AGENDA, _ASSET = CardKind.AGENDA, CardKind.ASSET


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
        # Tables for the mark and bonus actions a board allows, built as boards ask for them.
        self._kinds = tuple(c.kind for c in edition.cards)
        self._roles = tuple(c.role for c in edition.cards)
        role_slots: dict[int, list[tuple[int, int]]] = {}
        for i, slot in enumerate(edition.crew_slots):
            role_slots.setdefault(slot.role, []).append((i, slot.restriction))
        self._role_slots = {role: tuple(slots) for role, slots in role_slots.items()}
        self._boxes: dict[tuple[str, int], tuple[Action, ...]] = {}
        self._spendable: dict[tuple[int, int], tuple[int, ...]] = {}
        self._placements: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[Action, ...]] = {}
        self._targets: dict[tuple[int, int, bool], tuple[Action, ...]] = {}
        self._hands: dict[tuple[int, ...], tuple[Action, ...]] = {}

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

    def picks(self, hand: tuple[int, ...]) -> tuple[Action, ...]:
        """The ``pick`` actions of the cards of ``hand``, in its order (one shared tuple per
        hand, while the table of hands is small; it starts afresh past :data:`HANDS_KEPT`)."""
        known = self._hands.get(hand)
        if known is None:
            if len(self._hands) >= HANDS_KEPT:
                self._hands = {}
            pick = self.pick
            known = self._hands[hand] = tuple([pick[c] for c in hand])
        return known

    def marks(self, board: bd.Board, card: int) -> tuple[Action, ...]:
        """The legal actions of played ``card`` on ``board``: its ``mark`` actions in a fixed
        order (free agenda or asset boxes in box order; for crew, each open slot of its role in
        slot order, placed without a multiplier and then with each unspent multiplier value, one
        box per value), then ``fail``. One shared tuple per case."""
        kind = self._kinds[card]
        if kind == _AGENDA:
            return self._free_boxes("agenda", board.agenda)
        if kind == _ASSET:
            return self._free_boxes("assets", board.assets)
        crew, cash = board.crew, board.cash
        slots = tuple(
            [
                i
                for i, restriction in self._role_slots.get(self._roles[card], ())
                if crew[i] == bd.EMPTY and (restriction < 0 or cash >> restriction & 1)
            ]
        )
        if not slots:
            return ONLY_FAIL
        key = (board.mult_earned, board.mult_spent)
        spendable = self._spendable.get(key)
        if spendable is None:
            spendable = self._spendable[key] = self._spendable_of(board)
        placements = self._placements.get((slots, spendable))
        if placements is None:
            placements = self._placements[slots, spendable] = (
                *(self.crew_mark(slot, m) for slot in slots for m in (-1, *spendable)),
                FAIL,
            )
        return placements

    def _spendable_of(self, board: bd.Board) -> tuple[int, ...]:
        # Two unspent boxes of the same value are the same choice: the first of each value.
        spendable = []
        seen = set()
        for m in bd.unused_multipliers(self._edition, board):
            value = self._edition.multipliers[m]
            if value not in seen:
                seen.add(value)
                spendable.append(m)
        return tuple(spendable)

    def _free_boxes(self, area: str, ticked: int) -> tuple[Action, ...]:
        key = (area, ticked)
        known = self._boxes.get(key)
        if known is None:
            boxes = self.agenda if area == "agenda" else self.asset
            free = (a for b, a in enumerate(boxes) if not ticked >> b & 1)
            known = self._boxes[key] = (*free, FAIL)
        return known

    def bonuses(self, board: bd.Board, code: int, undo: bool) -> tuple[Action, ...]:
        """The legal actions while bonus ``code`` waits for a box on ``board``: its ``bonus``
        actions, one per target of :func:`board.bonus_targets` in its order, then ``undo`` if
        ``undo``. One shared tuple per case."""
        if code == bd.CASH:
            key = (code, board.cash, undo)
        elif code == bd.AGENDA:
            key = (code, board.agenda, undo)
        elif code == bd.ASSET:
            key = (code, board.assets, undo)
        elif code == bd.HARMONY or code >= HARMONY_OF:
            key = (code, board.harmonies, undo)
        else:  # a track's next box (a queue never waits on one: it has one target or none)
            return self._bonuses(board, code, undo)
        known = self._targets.get(key)
        if known is None:
            known = self._targets[key] = self._bonuses(board, code, undo)
        return known

    def _bonuses(self, board: bd.Board, code: int, undo: bool) -> tuple[Action, ...]:
        targets = (self.bonus(code, t) for t in bd.bonus_targets(self._edition, board, code))
        return (*targets, UNDO) if undo else tuple(targets)


@cache
def actions_for(edition_name: str) -> Actions:
    """The shared action dicts of a named edition."""
    return Actions(load_edition(edition_name))
