"""The player board: ten areas as compact, immutable values, their marks, bonuses and scores.

A :class:`Board` holds each area as a small integer or tuple (bit masks for the agenda, assets,
harmonies and lifted cash restrictions; counts for the tracks), so copying one to make a mark is
cheap. Every mark returns a new board and the bonuses it earned; :func:`resolve` runs a player's
bonus queue as far as it can without a choice; :func:`score_breakdown` scores each area.

Bonus codes are indices into :data:`~recordroom.games.records.edition.BONUSES`, plus
``HARMONY_OF + colour`` for a crew harmony of one colour.
"""

from __future__ import annotations

from typing import Any

from recordroom.games.records.edition import HARMONY_OF, NO_BONUS, ROLES, Edition

ALBUM, SINGLE, TOUR, MULTIPLIER, CASH, HARMONY, AGENDA, ASSET = range(8)
SINGER = ROLES.index("singer")
SCORING_AREAS = ("goals", "release", "crew", "tour", "harmonies", "fail")
EMPTY = -1

Bonuses = tuple[int, ...]

_INT = frozenset({int})
_INT_FIELDS = (
    "lead",
    "fails",
    "agenda",
    "albums",
    "singles",
    "tour",
    "mult_earned",
    "mult_spent",
    "assets",
    "harmonies",
    "cash",
)


class Board:
    """One player's board. Treat as immutable: every change makes a new board."""

    __slots__ = (
        "_json",
        "_text",
        "_view",
        "agenda",
        "albums",
        "assets",
        "cash",
        "crew",
        "crew_mult",
        "fails",
        "goals",
        "harmonies",
        "lead",
        "mult_earned",
        "mult_spent",
        "singles",
        "tour",
    )

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
    _json: list[Any] | None
    """:meth:`to_json`, built once (a board is not changed once shown to anyone)."""
    _text: str | None
    """The compact JSON text of :meth:`to_json`, built once (see :meth:`text`)."""
    _view: tuple[object, dict[str, Any]] | None
    """The board's view and the edition it was built for (see ``view.board_view``)."""

    def copy(self) -> Board:
        """A shallow copy, to be changed before anyone else sees it."""
        b = Board.__new__(Board)
        b._json = b._text = b._view = None
        b.lead = self.lead
        b.fails = self.fails
        b.goals = self.goals
        b.agenda = self.agenda
        b.albums = self.albums
        b.singles = self.singles
        b.crew = self.crew
        b.crew_mult = self.crew_mult
        b.tour = self.tour
        b.mult_earned = self.mult_earned
        b.mult_spent = self.mult_spent
        b.assets = self.assets
        b.harmonies = self.harmonies
        b.cash = self.cash
        return b

    def to_json(self) -> list[Any]:
        """The board as a JSON-safe list, built once and shared: callers must not change it."""
        if self._json is not None:
            return self._json
        self._json = [
            self.lead,
            self.fails,
            list(self.goals),
            self.agenda,
            self.albums,
            self.singles,
            list(self.crew),
            list(self.crew_mult),
            self.tour,
            self.mult_earned,
            self.mult_spent,
            self.assets,
            self.harmonies,
            self.cash,
        ]
        return self._json

    def text(self) -> str:
        """:meth:`to_json` as compact JSON text, built once."""
        if self._text is None:
            self._text = (
                f"[{self.lead},{self.fails},[{','.join(map(str, self.goals))}],{self.agenda},"
                f"{self.albums},{self.singles},[{','.join(map(str, self.crew))}],"
                f"[{','.join(map(str, self.crew_mult))}],{self.tour},{self.mult_earned},"
                f"{self.mult_spent},{self.assets},{self.harmonies},{self.cash}]"
            )
        return self._text

    @staticmethod
    def from_json(data: Any) -> Board:
        """The board written by :meth:`to_json`; ``ValueError`` on anything else."""
        if not isinstance(data, list) or len(data) != 14:
            raise ValueError("a board is a list of 14 fields")
        b = Board.__new__(Board)
        b._json = b._text = b._view = None
        (
            b.lead,
            b.fails,
            goals,
            b.agenda,
            b.albums,
            b.singles,
            crew,
            mult,
            b.tour,
            b.mult_earned,
            b.mult_spent,
            b.assets,
            b.harmonies,
            b.cash,
        ) = data
        if type(goals) is not list or type(crew) is not list or type(mult) is not list:
            raise ValueError("board goals, crew and multipliers are lists")
        b.goals, b.crew, b.crew_mult = tuple(goals), tuple(crew), tuple(mult)
        if not _INT.issuperset(map(type, (*goals, *crew, *mult))):
            raise ValueError("board lists hold integers")
        for name in _INT_FIELDS:
            if type(getattr(b, name)) is not int:
                raise ValueError(f"board field {name} must be an integer")
        return b

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self.to_json() == other.to_json()

    def __hash__(self) -> int:
        return hash(repr(self.to_json()))


def new_board(edition: Edition) -> Board:
    """An empty board (no lead singer colour chosen yet)."""
    b = Board.__new__(Board)
    b._json = b._text = b._view = None
    b.lead = -1
    b.fails = 0
    b.goals = ()
    b.agenda = 0
    b.albums = 0
    b.singles = 0
    b.crew = (EMPTY,) * len(edition.crew_slots)
    b.crew_mult = (1,) * len(edition.crew_slots)
    b.tour = 0
    b.mult_earned = 0
    b.mult_spent = 0
    b.assets = 0
    b.harmonies = 0
    b.cash = 0
    return b


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
    return tuple(i for i in range(board.mult_earned) if not board.mult_spent >> i & 1)


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
    b = board.copy()
    crew = list(b.crew)
    crew[slot] = card_index
    b.crew = tuple(crew)
    if multiplier >= 0:
        mult = list(b.crew_mult)
        mult[slot] = edition.multipliers[multiplier]
        b.crew_mult = tuple(mult)
        b.mult_spent |= 1 << multiplier
    earned = list(_bonus(edition.crew_slots[slot].bonus))
    mine = side_colours(edition, b, slot)
    for side, other, other_side in edition.neighbours[slot]:
        if b.crew[other] != EMPTY and side_colours(edition, b, other)[other_side] == mine[side]:
            earned.append(HARMONY_OF + mine[side])
    return b, tuple(earned)


# -- ticking boxes ------------------------------------------------------------------------------


def tick_agenda(edition: Edition, board: Board, box: int) -> tuple[Board, Bonuses]:
    """Agenda box ticked; every line it completes earns its bonus."""
    b = board.copy()
    b.agenda |= 1 << box
    earned = tuple(
        line.bonus
        for line in edition.agenda_lines
        if line.mask >> box & 1 and b.agenda & line.mask == line.mask and line.bonus != NO_BONUS
    )
    return b, earned


def tick_asset(edition: Edition, board: Board, box: int) -> tuple[Board, Bonuses]:
    """Asset box ticked; a bonus whose two boxes are now both ticked is earned."""
    b = board.copy()
    b.assets |= 1 << box
    earned = []
    if box > 0 and b.assets >> (box - 1) & 1:
        earned.append(edition.asset_bonuses[box - 1])
    if box < edition.asset_boxes - 1 and b.assets >> (box + 1) & 1:
        earned.append(edition.asset_bonuses[box])
    return b, tuple(x for x in earned if x != NO_BONUS)


def tick_harmony(edition: Edition, board: Board, box: int) -> tuple[Board, Bonuses]:
    """Harmony box ticked, earning its bonus if it has one."""
    b = board.copy()
    b.harmonies |= 1 << box
    return b, _bonus(edition.harmony_bonuses[box])


def tick_fail(edition: Edition, board: Board) -> tuple[Board, Bonuses]:
    """The next fail box ticked; a full fail track takes no more ticks."""
    if board.fails >= len(edition.fail_penalties):
        return board, ()
    b = board.copy()
    b.fails += 1
    return b, _bonus(edition.fail_bonuses[b.fails - 1])


def lift_cash(edition: Edition, board: Board, restriction: int) -> tuple[Board, Bonuses]:
    """A cash restriction lifted."""
    b = board.copy()
    b.cash |= 1 << restriction
    return b, ()


def claim_goal(edition: Edition, board: Board, goal: int) -> tuple[Board, Bonuses]:
    """A goal's points written in the next goals box, and its bonus earned."""
    b = board.copy()
    b.goals = (*b.goals, goal)
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
        return tuple(i for i in range(len(edition.restrictions)) if not board.cash >> i & 1)
    if code == AGENDA:
        return tuple(i for i in range(edition.agenda_boxes) if not board.agenda >> i & 1)
    if code == ASSET:
        return tuple(i for i in range(edition.asset_boxes) if not board.assets >> i & 1)
    columns = edition.harmony_columns
    if code == HARMONY:
        return tuple(i for i in range(edition.harmony_boxes) if not board.harmonies >> i & 1)
    first = (code - HARMONY_OF) * columns
    return tuple(i for i in range(first, first + columns) if not board.harmonies >> i & 1)


def gain(edition: Edition, board: Board, code: int, target: int) -> tuple[Board, Bonuses]:
    """A bonus used on ``target`` (one of :func:`bonus_targets`); the bonuses that earns."""
    if code == ALBUM:
        b = board.copy()
        b.albums += 1
        return b, _bonus(edition.album_bonuses[b.albums - 1])
    if code == SINGLE:
        b = board.copy()
        b.singles += 1
        return b, _bonus(edition.single_bonuses[b.singles - 1])
    if code == MULTIPLIER:
        b = board.copy()
        b.mult_earned += 1
        return b, ()
    if code == TOUR:
        b = board.copy()
        b.tour += 1
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


def score_breakdown(edition: Edition, board: Board) -> dict[str, int]:
    """Points of each scoring area (agenda, assets and multipliers give bonuses, not points)."""
    return {
        "goals": sum(edition.goals[g].points for g in board.goals),
        "release": board.albums * board.singles,
        "crew": crew_points(edition, board),
        "tour": edition.tour_steps[board.tour - 1].points if board.tour else 0,
        "harmonies": harmony_points(edition, board),
        "fail": edition.fail_penalties[board.fails - 1] if board.fails else 0,
    }


def score(edition: Edition, board: Board) -> int:
    """The Scores area: the sum of every area (as :func:`score_breakdown`, without the dict)."""
    goals = edition.goals
    return (
        sum(goals[g].points for g in board.goals)
        + board.albums * board.singles
        + crew_points(edition, board)
        + (edition.tour_steps[board.tour - 1].points if board.tour else 0)
        + harmony_points(edition, board)
        + (edition.fail_penalties[board.fails - 1] if board.fails else 0)
    )


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
    return (
        len(board.goals) < edition.goal_boxes
        and goal not in board.goals
        and meets(edition, board, goal)
    )
