"""What one seat (or the public table) may see of a Records game.

Views share the parts that did not change: a board's view is built once per board value and
edition (memoised outside the board) and the same dict is handed to every later view of it, and
the public part of a state's view is built once per state (:mod:`.memo`), so callers treat views
as read-only.

Boards, public goals, picks once revealed, discard and hand sizes are public. A seat's hand, its
private goal (and the two it was dealt), its pending choice and its bonus queue are its own. While
seats are marking, every other seat sees their boards as they were when marking began.

``events`` is the game log as data (see :mod:`.events`): the public events of the whole game,
oldest first, then (in a seat's own view) that seat's events not yet shown to the others, counted
by ``you.unrevealed``. ``marking`` lists the seats still marking a round (public: each ends with an
explicit ``done``). Who still has to decide on a private goal is not shown (``waiting`` is null).

``goal_progress`` is each public goal's progress on every board as shown (public), the receiver's
own board in its own view; ``you.goal_progress`` is that of its private goal and the goals it was
dealt, on its own board. Both come from the engine's own measure and claim check (:mod:`.board`).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from recordroom.games.records import board as bd
from recordroom.games.records import choices, memo
from recordroom.games.records.edition import Edition, bonus_name
from recordroom.games.records.kinds import CHOICE_PHASES, UNDOABLE, Phase
from recordroom.games.records.state import NONE, State

# The members as module names: an enum member's attribute look-up is slow on the hot path.
_CLAIM, _PRIVATE, _MARK, _OVER = Phase.CLAIM, Phase.PRIVATE, Phase.MARK, Phase.OVER

SOLO_RANKS = (
    (0, "Garage band"),
    (35, "Pub circuit"),
    (50, "Club headliner"),
    (65, "Festival act"),
    (80, "Stadium legend"),
)
"""The solo chart: the rank of a score is the last entry whose threshold it reaches."""


def solo_rank(score: int) -> str:
    """The solo chart's rank for a score."""
    rank = SOLO_RANKS[0][1]
    for threshold, name in SOLO_RANKS:
        if score >= threshold:
            rank = name
    return rank


def board_view(ed: Edition, b: bd.Board) -> dict[str, Any]:
    """A board in names and lists, with its score breakdown; built once per board value (and
    edition) and shared."""
    return _memos(ed)[0](b)


def _shown_views(ed: Edition, shown: tuple[bd.Board, ...]) -> list[dict[str, Any]]:
    """The views of the boards as shown, one list per ``shown`` tuple (states share the tuple
    until a marking ends, so most public views reuse the list)."""
    return _memos(ed)[1](shown)


_Memos = tuple[
    memo.ByIdentity[bd.Board, dict[str, Any]],
    memo.ByIdentity[tuple[bd.Board, ...], list[dict[str, Any]]],
    memo.ByIdentity[bd.Board, dict[int, dict[str, Any]]],
    memo.ByIdentity[tuple[bd.Board, ...], dict[tuple[int, ...], dict[str, Any]]],
]
_MEMOS: dict[int, tuple[Edition, _Memos]] = {}
"""Per edition (kept alive here, so its id stays its own): the memos of its board views."""


def _memos(ed: Edition) -> _Memos:
    known = _MEMOS.get(id(ed))
    if known is None or known[0] is not ed:
        boards: memo.ByIdentity[bd.Board, dict[str, Any]] = memo.ByIdentity(
            partial(_board_view, ed)
        )

        def views(shown: tuple[bd.Board, ...]) -> list[dict[str, Any]]:
            return [boards(b) for b in shown]

        def by_goal(b: bd.Board) -> dict[int, dict[str, Any]]:
            return {}

        def by_goals(shown: tuple[bd.Board, ...]) -> dict[tuple[int, ...], dict[str, Any]]:
            return {}

        known = _MEMOS[id(ed)] = (
            ed,
            (boards, memo.ByIdentity(views), memo.ByIdentity(by_goal), memo.ByIdentity(by_goals)),
        )
    return known[1]


def _board_view(ed: Edition, b: bd.Board) -> dict[str, Any]:
    breakdown = bd.score_breakdown(ed, b)
    columns = ed.harmony_columns
    return {
        "lead_singer": ed.colours[b.lead] if b.lead >= 0 else None,
        "fails": b.fails,
        "goals": [ed.goals[g].id for g in b.goals],
        "agenda": [i for i in range(ed.agenda_boxes) if b.agenda >> i & 1],
        "albums": b.albums,
        "singles": b.singles,
        "crew": [
            None if c == bd.EMPTY else {"card": ed.cards[c].id, "multiplier": m}
            for c, m in zip(b.crew, b.crew_mult, strict=True)
        ],
        "tour": b.tour,
        "multipliers": {
            "earned": b.mult_earned,
            "spent": [i for i in range(b.mult_earned) if b.mult_spent >> i & 1],
        },
        "assets": [i for i in range(ed.asset_boxes) if b.assets >> i & 1],
        "harmonies": {
            colour: [j for j in range(columns) if b.harmonies >> (c * columns + j) & 1]
            for c, colour in enumerate(ed.colours)
        },
        "cash_lifted": [ed.restrictions[i] for i in range(len(ed.restrictions)) if b.cash >> i & 1],
        "breakdown": breakdown,
        "score": sum(breakdown.values()),
        "raw": b.to_json(),
    }


def goal_status(ed: Edition, b: bd.Board, goal: int) -> dict[str, Any]:
    """A goal against a board, as the engine judges it: the measure its condition counts
    (``have`` of ``need``), whether the board meets it, may claim it now (a free goals box, not
    claimed before) and has claimed it."""
    g = ed.goals[goal]
    return {
        "have": bd.measure(ed, b, g.kind, g.role, g.colour),
        "need": g.n,
        "meets": bd.meets(ed, b, goal),
        "claimable": bd.can_claim(ed, b, goal),
        "claimed": goal in b.goals,
    }


def _status(ed: Edition, b: bd.Board, goal: int) -> dict[str, Any]:
    """:func:`goal_status`, built once per board value, edition and goal, and shared."""
    known = _memos(ed)[2](b)
    found = known.get(goal)
    if found is None:
        found = known[goal] = goal_status(ed, b, goal)
    return found


def _progress(ed: Edition, goals: tuple[int, ...], shown: tuple[bd.Board, ...]) -> dict[str, Any]:
    """Each goal of ``goals`` (empty slots left out): its status on each board as shown, by
    seat; built once per ``shown`` tuple and goal row, and shared."""
    known = _memos(ed)[3](shown)
    found = known.get(goals)
    if found is None:
        found = known[goals] = {
            ed.goals[g].id: [_status(ed, b, g) for b in shown] for g in goals if g != NONE
        }
    return found


def _card(ed: Edition, c: int) -> str | None:
    return None if c == NONE else ed.cards[c].id


def _goal(ed: Edition, g: int) -> str | None:
    return None if g == NONE else ed.goals[g].id


def _public(ed: Edition, s: State) -> dict[str, Any]:
    """What everyone sees, built once per state (boards as shown)."""
    known = memo.record(s)
    if known.public is not None:
        return known.public
    out: dict[str, Any] = {
        "game": "records",
        "edition": s.edition,
        "players": s.players,
        "seat": None,
        "phase": str(s.phase),
        "week": s.week,
        "round": s.round,
        "turn": s.turn,
        # during setup (week 0) the direction shown is that of week 1
        "direction": "clockwise" if s.week % 2 == 1 or s.week == 0 else "counter-clockwise",
        "deck": len(s.deck),
        "goal_deck": len(s.goal_deck),
        "discards": [len(d) for d in s.discards],
        "hand_sizes": [len(h) for h in s.hands],
        "public_goals": [_goal(ed, g) for g in s.public],
        "current_goal": _goal(ed, s.public[s.goal_slot])
        if s.phase == _CLAIM and s.goal_slot < len(s.public)
        else None,
        "revealed": [_card(ed, c) for c in s.revealed],
        "claims": list(s.claims),
        "boards": _shown_views(ed, s.shown),
        "goal_progress": _progress(ed, s.public, s.shown),
        "waiting": sorted(s.active) if s.phase in CHOICE_PHASES and s.phase != _PRIVATE else None,
        "marking": sorted(s.active) if s.phase == _MARK and s.marking_for in UNDOABLE else None,
        "events": list(s.log),
        "triggers": list(s.triggers),
        "ending": s.ending,
        "over": s.phase == _OVER,
    }
    if s.players == 1:
        out["hand"] = [_card(ed, c) for c in s.hands[0]]
        out["option"] = s.option
        out["goal_scale"] = ed.solo_goal_scale
    known.public = out
    return out


def view(ed: Edition, s: State, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` (``None``: public)."""
    out = dict(_public(ed, s))
    if seat is not None:
        out["seat"] = seat
        own = s.boards[seat]
        if own is not s.shown[seat]:
            boards = list(out["boards"])
            boards[seat] = board_view(ed, own)
            out["boards"] = boards
            progress = dict(out["goal_progress"])
            for g in s.public:
                if g != NONE:
                    statuses = list(progress[ed.goals[g].id])
                    statuses[seat] = _status(ed, own, g)
                    progress[ed.goals[g].id] = statuses
            out["goal_progress"] = progress
        queue = s.queues[seat]
        pending = s.pending[seat]
        you: dict[str, Any] = {
            "hand": [_card(ed, c) for c in s.hands[seat]],
            "played": _card(ed, s.played[seat]),
            "queue": [bonus_name(ed, q) for q in queue],
            "private_goal": _goal(ed, s.private[seat]),
            "dealt": [_goal(ed, g) for g in s.dealt[seat]],
            "to_act": seat in s.active,
            "pending": None,
            "queue_causes": list(s.causes[seat]),
            "unrevealed": len(s.hidden[seat]),
            "undos": s.undos[seat],
            "chose": bool(s.chose >> seat & 1),
            "pass_unmet": bool(s.settings[seat] & 1),
            "goal_progress": {
                ed.goals[g].id: _status(ed, own, g)
                for g in (s.private[seat], *s.dealt[seat])
                if g != NONE
            },
        }
        if s.hidden[seat]:
            out["events"] = out["events"] + list(s.hidden[seat])
        if pending != NONE:
            you["pending"] = choices.show(ed, s.phase, pending)
        out["you"] = you
    return out
