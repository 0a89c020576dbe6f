"""The player board: ten areas as compact, immutable values, their marks, bonuses and scores.

A :class:`Board` holds each area as a small integer or tuple (bit masks for the agenda, assets,
harmonies and lifted cash restrictions; counts for the tracks) in a frozen, slotted dataclass, so
a mark is a cheap copy (a draft, :mod:`recordroom.engine.values`). Every mark returns a new board
and the bonuses it earned (:func:`mark` applies a played card); :func:`resolve` runs a player's
bonus queue as far as it can without a choice; :func:`score_breakdown` scores each area and
:func:`score` is its sum.

Bonus codes are :class:`~recordroom.games.records.kinds.Bonus` values, plus ``HARMONY_OF + colour``
for a crew harmony of one colour. A board's JSON list and text are memoised outside it, keyed by
the board's value.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

import orjson

from recordroom.engine.values import replaced, with_draft
from recordroom.games.records import memo
from recordroom.games.records.edition import ROLES, Edition
from recordroom.games.records.kinds import HARMONY_OF, NO_BONUS, Bonus

# The codes as plain ints: an int compared with an IntEnum member misses the interpreter's fast
# path, and the board's functions compare codes at every bonus.
ALBUM, SINGLE, TOUR, MULTIPLIER, CASH, HARMONY, AGENDA, ASSET = map(int, Bonus)
SINGER = ROLES.index("singer")
SCORING_AREAS = ("goals", "release", "crew", "tour", "harmonies", "fail")
EMPTY = -1

Bonuses = tuple[int, ...]

_INT = frozenset({int})


@with_draft
@dataclass(frozen=True, slots=True)
class Board:
    """One player's board: a frozen value; every change makes a new board (a draft, frozen)."""

    lead: int
    fails: int
    goals: tuple[int, ...]
    agenda: int
    albums: int
    singles: int
    crew: tuple[int, ...]
    crew_mult: tuple[int, ...]
    tour: int
    mult_earned: int
    mult_spent: int
    assets: int
    harmonies: int
    cash: int

    if TYPE_CHECKING:  # derived from the fields by ``with_draft``

        def _replace(self, **changes: Any) -> Board: ...

        def thaw(self) -> Any: ...

        @staticmethod
        def _make(values: Any) -> Board: ...

    def to_json(self) -> list[Any]:
        """The board as a JSON-safe list (one entry per field), shared: do not change it."""
        return _to_json(self)

    def text(self) -> str:
        """:meth:`to_json` as compact JSON text."""
        return _text(self)

    @staticmethod
    def from_json(data: Any) -> Board:
        """The board written by :meth:`to_json`; ``ValueError`` on anything else."""
        if not isinstance(data, list) or len(data) != len(_FIELDS):
            raise ValueError(f"a board is a list of {len(_FIELDS)} fields")
        values = list(data)
        for i in _LISTS:
            value = values[i]
            if type(value) is not list or not _INT.issuperset(map(type, value)):
                raise ValueError(f"board field {_FIELDS[i][0]} must be a list of integers")
            values[i] = tuple(value)
        if not _INT.issuperset(map(type, map(values.__getitem__, _NUMBERS))):
            wrong = next(i for i in _NUMBERS if type(values[i]) is not int)
            raise ValueError(f"board field {_FIELDS[wrong][0]} must be an integer")
        return Board._make(values)


_FIELDS = tuple([(f.name, str(f.type).startswith("tuple")) for f in fields(Board)])
"""Each field's name and whether it holds a tuple (a list in JSON), in order."""
_NAMES = tuple([name for name, _ in _FIELDS])
_LISTS = tuple([i for i, (_, is_tuple) in enumerate(_FIELDS) if is_tuple])
_NUMBERS = tuple([i for i, (_, is_tuple) in enumerate(_FIELDS) if not is_tuple])


def _json_of(board: Board) -> list[Any]:
    return [list(v) if type(v) is tuple else v for v in map(board.__getattribute__, _NAMES)]


_to_json = memo.ByIdentity(_json_of)
"""Built once per board (views, bots and the saved form reuse it)."""


def _text_of(board: Board) -> str:
    # orjson writes lists of integers as compact as json.dumps(separators=(",", ":")) does.
    return orjson.dumps(_to_json(board)).decode()


_text = memo.ByIdentity(_text_of)


def new_board(edition: Edition) -> Board:
    """An empty board (no lead singer colour chosen yet)."""
    slots = len(edition.crew_slots)
    return Board(
        lead=-1,
        fails=0,
        goals=(),
        agenda=0,
        albums=0,
        singles=0,
        crew=(EMPTY,) * slots,
        crew_mult=(1,) * slots,
        tour=0,
        mult_earned=0,
        mult_spent=0,
        assets=0,
        harmonies=0,
        cash=0,
    )


def _bonus(code: int) -> Bonuses:
    return () if code == NO_BONUS else (code,)


# -- placing crew -------------------------------------------------------------------------------


def open_slots(edition: Edition, board: Board, role: int) -> tuple[int, ...]:
    """Empty slots of that role whose cash restriction (if any) is lifted."""
    out = []
    for i, slot in enumerate(edition.crew_slots):
        if slot.role == role and board.crew[i] == EMPTY:
            r = slot.restriction
            if r < 0 or board.cash >> r & 1:
                out.append(i)
    return tuple(out)


def unused_multipliers(edition: Edition, board: Board) -> tuple[int, ...]:
    """Indices of earned multiplier boxes not yet spent."""
    return tuple([i for i in range(board.mult_earned) if not board.mult_spent >> i & 1])


def side_colours(edition: Edition, board: Board, slot: int) -> tuple[int, ...]:
    """The colours around a placed crew member (the lead singer wears the lead colour)."""
    card = edition.cards[board.crew[slot]]
    if edition.crew_slots[slot].role == SINGER:
        return (board.lead,) * 4
    return card.sides


def place_crew(
    edition: Edition, board: Board, card_index: int, slot: int, multiplier: int
) -> tuple[Board, Bonuses]:
    """The crew card placed in ``slot`` (spending multiplier box ``multiplier``, or -1)."""
    d = board.thaw()
    d.crew = replaced(board.crew, slot, card_index)
    if multiplier >= 0:
        value = edition.multipliers[multiplier]
        d.crew_mult = replaced(board.crew_mult, slot, value)
        d.mult_spent = board.mult_spent | 1 << multiplier
    b: Board = d.freeze()
    earned = list(_bonus(edition.crew_slots[slot].bonus))
    mine = side_colours(edition, b, slot)
    for side, other, other_side in edition.neighbours[slot]:
        if b.crew[other] != EMPTY and side_colours(edition, b, other)[other_side] == mine[side]:
            earned.append(HARMONY_OF + mine[side])
    return b, tuple(earned)


# -- ticking boxes ------------------------------------------------------------------------------


def tick_agenda(edition: Edition, board: Board, box: int) -> tuple[Board, Bonuses]:
    """Agenda box ticked; every line it completes earns its bonus."""
    b = board.thaw()
    b.agenda = board.agenda | 1 << box
    b = b.freeze()
    earned = tuple(
        [
            line.bonus
            for line in edition.agenda_lines
            if line.mask >> box & 1 and b.agenda & line.mask == line.mask and line.bonus != NO_BONUS
        ]
    )
    return b, earned


def tick_asset(edition: Edition, board: Board, box: int) -> tuple[Board, Bonuses]:
    """Asset box ticked; a bonus whose two boxes are now both ticked is earned."""
    b = board.thaw()
    b.assets = board.assets | 1 << box
    b = b.freeze()
    earned = []
    if box > 0 and b.assets >> (box - 1) & 1:
        earned.append(edition.asset_bonuses[box - 1])
    if box < edition.asset_boxes - 1 and b.assets >> (box + 1) & 1:
        earned.append(edition.asset_bonuses[box])
    return b, tuple([x for x in earned if x != NO_BONUS])


def tick_harmony(edition: Edition, board: Board, box: int) -> tuple[Board, Bonuses]:
    """Harmony box ticked, earning its bonus if it has one."""
    b = board.thaw()
    b.harmonies = board.harmonies | 1 << box
    b = b.freeze()
    return b, _bonus(edition.harmony_bonuses[box])


def tick_fail(edition: Edition, board: Board) -> tuple[Board, Bonuses]:
    """The next fail box ticked; a full fail track takes no more ticks."""
    if board.fails >= len(edition.fail_penalties):
        return board, ()
    b = board.thaw()
    b.fails = board.fails + 1
    b = b.freeze()
    return b, _bonus(edition.fail_bonuses[b.fails - 1])


def lift_cash(edition: Edition, board: Board, restriction: int) -> tuple[Board, Bonuses]:
    """A cash restriction lifted."""
    d = board.thaw()
    d.cash = board.cash | 1 << restriction
    return d.freeze(), ()


def claim_goal(edition: Edition, board: Board, goal: int) -> tuple[Board, Bonuses]:
    """A goal's points written in the next goals box, and its bonus earned."""
    b = board.thaw()
    b.goals = (*board.goals, goal)
    b = b.freeze()
    return b, _bonus(edition.goals[goal].bonus)


# -- bonuses --------------------------------------------------------------------------------------


def bonus_targets(edition: Edition, board: Board, code: int) -> tuple[int, ...]:
    """Where a bonus can go: the boxes to choose from (``(0,)`` for a track's next box)."""
    if code == ALBUM:
        return (0,) if board.albums < len(edition.album_bonuses) else ()
    if code == SINGLE:
        return (0,) if board.singles < len(edition.single_bonuses) else ()
    if code == MULTIPLIER:
        return (0,) if board.mult_earned < len(edition.multipliers) else ()
    if code == TOUR:
        if board.tour >= len(edition.tour_steps):
            return ()
        r = edition.tour_steps[board.tour].restriction
        return (0,) if r < 0 or board.cash >> r & 1 else ()
    if code == CASH:
        return tuple([i for i in range(len(edition.restrictions)) if not board.cash >> i & 1])
    if code == AGENDA:
        return tuple([i for i in range(edition.agenda_boxes) if not board.agenda >> i & 1])
    if code == ASSET:
        return tuple([i for i in range(edition.asset_boxes) if not board.assets >> i & 1])
    columns = edition.harmony_columns
    if code == HARMONY:
        return tuple([i for i in range(edition.harmony_boxes) if not board.harmonies >> i & 1])
    first = (code - HARMONY_OF) * columns
    return tuple([i for i in range(first, first + columns) if not board.harmonies >> i & 1])


def gain(edition: Edition, board: Board, code: int, target: int) -> tuple[Board, Bonuses]:
    """A bonus used on ``target`` (one of :func:`bonus_targets`); the bonuses that earns."""
    if code == ALBUM:
        b = board.thaw()
        b.albums = board.albums + 1
        b = b.freeze()
        return b, _bonus(edition.album_bonuses[b.albums - 1])
    if code == SINGLE:
        b = board.thaw()
        b.singles = board.singles + 1
        b = b.freeze()
        return b, _bonus(edition.single_bonuses[b.singles - 1])
    if code == MULTIPLIER:
        d = board.thaw()
        d.mult_earned = board.mult_earned + 1
        return d.freeze(), ()
    if code == TOUR:
        b = board.thaw()
        b.tour = board.tour + 1
        b = b.freeze()
        return b, _bonus(edition.tour_steps[b.tour - 1].bonus)
    if code == CASH:
        return lift_cash(edition, board, target)
    if code == AGENDA:
        return tick_agenda(edition, board, target)
    if code == ASSET:
        return tick_asset(edition, board, target)
    return tick_harmony(edition, board, target)


def resolve(edition: Edition, board: Board, queue: Bonuses) -> tuple[Board, Bonuses]:
    """Uses queued bonuses in order until one needs a choice; unusable bonuses are lost.

    A bonus with exactly one place to go is used there without asking. The returned queue is
    empty or starts with a bonus that has at least two targets.
    """
    while queue:
        targets = bonus_targets(edition, board, queue[0])
        if len(targets) > 1:
            break
        rest = queue[1:]
        if targets:
            board, earned = gain(edition, board, queue[0], targets[0])
            rest = rest + earned
        queue = rest
    return board, queue


# -- measures and scores -------------------------------------------------------------------------


def crew_count(board: Board) -> int:
    """Placed crew members."""
    return len(board.crew) - board.crew.count(EMPTY)


def crew_full(board: Board) -> bool:
    """Every crew slot holds a crew member."""
    return EMPTY not in board.crew


def fail_full(edition: Edition, board: Board) -> bool:
    """Every fail box is ticked."""
    return board.fails >= len(edition.fail_penalties)


def agenda_lines_done(edition: Edition, board: Board) -> int:
    """Completed agenda lines."""
    return sum(1 for line in edition.agenda_lines if board.agenda & line.mask == line.mask)


def asset_bonuses_done(edition: Edition, board: Board) -> int:
    """Asset bonuses whose two boxes are ticked."""
    a = board.assets
    return (a & (a >> 1)).bit_count()


def crew_points(edition: Edition, board: Board) -> int:
    """Points of the placed crew, with their multipliers."""
    cards = edition.cards
    return sum(
        cards[c].points * m for c, m in zip(board.crew, board.crew_mult, strict=True) if c != EMPTY
    )


def harmony_points(edition: Edition, board: Board) -> int:
    """Points for full harmony rows (one per colour) and full columns."""
    h = board.harmonies
    if not h:
        return 0
    columns = edition.harmony_columns
    row_mask = (1 << columns) - 1
    full_rows = 0
    in_every_row = row_mask  # bit j stays set while column j is full in every row so far
    for c in range(len(edition.colours)):
        row = h >> (c * columns) & row_mask
        full_rows += row == row_mask
        in_every_row &= row
    return (
        full_rows * edition.harmony_row_points
        + in_every_row.bit_count() * edition.harmony_column_points
    )


def area_points(edition: Edition, board: Board) -> tuple[int, ...]:
    """Points of each scoring area, in the order of :data:`SCORING_AREAS`."""
    return (
        sum(edition.goals[g].points for g in board.goals),
        board.albums * board.singles,
        crew_points(edition, board),
        edition.tour_steps[board.tour - 1].points if board.tour else 0,
        harmony_points(edition, board),
        edition.fail_penalties[board.fails - 1] if board.fails else 0,
    )


def score_breakdown(edition: Edition, board: Board) -> dict[str, int]:
    """Points of each scoring area (agenda, assets and multipliers give bonuses, not points)."""
    return dict(zip(SCORING_AREAS, area_points(edition, board), strict=True))


def score(edition: Edition, board: Board) -> int:
    """The Scores area: the sum of :func:`score_breakdown`, by construction (the same points)."""
    return sum(area_points(edition, board))


# -- marking a card -------------------------------------------------------------------------------


def mark(
    edition: Edition, board: Board, card: int, action: dict[str, Any]
) -> tuple[Board, Bonuses]:
    """The played ``card`` marked as a ``mark`` or ``fail`` action says: the new board and the
    bonuses earned. The one place that applies a mark (the rules and the greedy agent use it)."""
    if action["type"] == "fail":
        return tick_fail(edition, board)
    area = action["area"]
    if area == "crew":
        m = action["multiplier"]
        return place_crew(edition, board, card, action["slot"], -1 if m is None else m)
    if area == "agenda":
        return tick_agenda(edition, board, action["box"])
    return tick_asset(edition, board, action["box"])


def measure(edition: Edition, board: Board, kind: str, role: int = -1, colour: int = -1) -> int:
    """The quantity a goal condition of that kind counts on the board."""
    if kind == "crew":
        return crew_count(board)
    if kind == "crew_role":
        slots = edition.crew_slots
        return sum(1 for i, c in enumerate(board.crew) if c != EMPTY and slots[i].role == role)
    if kind == "crew_points":
        return crew_points(edition, board)
    if kind == "harmonies":
        return board.harmonies.bit_count()
    if kind == "harmony_colour":
        columns = edition.harmony_columns
        return (board.harmonies >> (colour * columns) & ((1 << columns) - 1)).bit_count()
    if kind == "agenda":
        return board.agenda.bit_count()
    if kind == "agenda_lines":
        return agenda_lines_done(edition, board)
    if kind == "assets":
        return board.assets.bit_count()
    if kind == "asset_bonuses":
        return asset_bonuses_done(edition, board)
    if kind == "albums":
        return board.albums
    if kind == "singles":
        return board.singles
    if kind == "release":
        return board.albums + board.singles
    if kind == "tour":
        return board.tour
    if kind == "multipliers":
        return board.mult_earned
    if kind == "cash":
        return board.cash.bit_count()
    raise ValueError(f"unknown goal kind {kind!r}")


def meets(edition: Edition, board: Board, goal: int) -> bool:
    """The board meets that goal's condition."""
    g = edition.goals[goal]
    return measure(edition, board, g.kind, g.role, g.colour) >= g.n


def can_claim(edition: Edition, board: Board, goal: int) -> bool:
    """The board meets the goal, has a free goals box and has not claimed that goal before."""
    goals = board.goals
    if len(goals) >= edition.goal_boxes or goal in goals:
        return False
    g = edition.goals[goal]  # meets(), without a call: this runs for every goal every weekend
    return measure(edition, board, g.kind, g.role, g.colour) >= g.n
