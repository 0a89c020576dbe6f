"""The greedy agent: picks the action whose immediate effect on its own board looks best.

It decides only from its seat's view and its legal actions: it rebuilds its board from the view,
tries each action on that copy with the board functions, and values the result as the board's
score plus rough worths of unspent multipliers, lifted cash restrictions and earned bonuses.
"""

from __future__ import annotations

import random
from typing import Any

from recordroom.engine.game import Action, JSONDict
from recordroom.games.records import board as bd
from recordroom.games.records.edition import Edition, load_edition
from recordroom.games.records.kinds import HARMONY_OF, CardKind, bonus_code

_WORTH: dict[int, float] = {
    bd.MULTIPLIER: 2.5,
    bd.CASH: 1.5,
    bd.HARMONY: 2.5,
    bd.AGENDA: 1.5,
    bd.ASSET: 1.5,
}


def _bonus_worth(ed: Edition, b: bd.Board, code: int) -> float:
    if code == bd.ALBUM:
        return b.singles + 0.5 if b.albums < len(ed.album_bonuses) else 0.0
    if code == bd.SINGLE:
        return b.albums + 0.5 if b.singles < len(ed.single_bonuses) else 0.0
    if code == bd.TOUR:
        steps = ed.tour_steps
        if b.tour >= len(steps):
            return 0.0
        return float(steps[b.tour].points - (steps[b.tour - 1].points if b.tour else 0))
    if code >= HARMONY_OF:
        return 2.0
    return _WORTH.get(code, 1.0)


def value(ed: Edition, b: bd.Board, earned: tuple[int, ...] = ()) -> float:
    """How good a board looks: its score plus what its unused resources may still bring."""
    v = float(bd.score(ed, b))
    unused = b.mult_earned - (b.mult_spent & ((1 << b.mult_earned) - 1)).bit_count()
    v += 2.5 * unused
    v += 3.0 * bd.crew_count(b)  # every empty crew slot costs a fail tick at the end
    v += 0.4 * (b.agenda.bit_count() + b.assets.bit_count() + b.harmonies.bit_count())
    if b.cash:
        for i, name in enumerate(ed.restrictions):
            if b.cash >> i & 1:
                v += 1.2 if name.startswith("tour") else 0.8
    for code in earned:
        v += _bonus_worth(ed, b, code)
    return v


class GreedyAgent:
    """One-step greedy player for Records."""

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)
        self._raw: object = None  # the view's raw board last read, and the board read from it
        self._board: bd.Board | None = None

    def choose(self, view: JSONDict, legal_actions: tuple[Action, ...]) -> Action:
        """The legal action with the best-looking result (ties: the first); never an undo."""
        if legal_actions[-1]["type"] == "undo":
            legal_actions = legal_actions[:-1]
        if len(legal_actions) == 1 or legal_actions[0]["type"] == "done":
            return legal_actions[0]
        ed = load_edition(view["edition"])
        seat: int = view["seat"]
        raw = view["boards"][seat]["raw"]
        if raw is not self._raw or self._board is None:  # views share an unchanged board's raw
            self._raw, self._board = raw, bd.Board.from_json(raw)
        board = self._board
        kind = legal_actions[0]["type"]
        if kind == "lead_singer":
            return legal_actions[self._rng.randrange(len(legal_actions))]
        if kind == "keep":
            return max(legal_actions, key=lambda a: ed.goals[ed.goal_by_id[a["goal"]]].points)
        if kind == "claim":
            return max(
                (a for a in legal_actions if a["type"] == "claim"),
                key=lambda a: ed.goals[ed.goal_by_id[a["goal"]]].points,
            )
        you = view["you"]
        best: Action = legal_actions[0]
        best_value = -1e9
        for action in legal_actions:
            v = self._action_value(ed, board, you, action)
            if v > best_value:
                best, best_value = action, v
        return best

    def _action_value(self, ed: Edition, b: bd.Board, you: dict[str, Any], action: Action) -> float:
        kind = action["type"]
        if kind == "pick":
            return self._card_value(ed, b, ed.card_by_id[action["card"]])
        if kind == "draw":
            return value(ed, b) + 2.0
        if kind in ("fail", "mark"):
            card = ed.card_by_id[you["played"]] if kind == "mark" else -1
            after, earned = bd.mark(ed, b, card, action)
            return value(ed, after, earned)
        if kind == "bonus":
            code = bonus_code(ed.colours, you["queue"][0])
            after, earned = bd.gain(ed, b, code, action["box"])
            return value(ed, after, earned)
        return value(ed, b)

    def _card_value(self, ed: Edition, b: bd.Board, card: int) -> float:
        c = ed.cards[card]
        after, earned = bd.tick_fail(ed, b)
        best = value(ed, after, earned)
        if c.kind == CardKind.AGENDA:
            for box in range(ed.agenda_boxes):
                if not b.agenda >> box & 1:
                    after, earned = bd.tick_agenda(ed, b, box)
                    best = max(best, value(ed, after, earned))
        elif c.kind == CardKind.ASSET:
            for box in range(ed.asset_boxes):
                if not b.assets >> box & 1:
                    after, earned = bd.tick_asset(ed, b, box)
                    best = max(best, value(ed, after, earned))
        else:
            unused = bd.unused_multipliers(ed, b)
            for slot in bd.open_slots(ed, b, c.role):
                for m in (-1, *unused[:1]):
                    after, earned = bd.place_crew(ed, b, card, slot, m)
                    best = max(best, value(ed, after, earned))
        return best
