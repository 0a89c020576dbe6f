"""The rules of Records for two to six players on integer arrays, compiled: many games per call.

:class:`~recordroom.rl.vector.VectorGames` steps Records games here rather than through the
engine's frozen states: the same rules (:mod:`recordroom.games.records.flow`, ``.board``,
``.game``), written again over numpy arrays and compiled by numba, with nothing a step does not
need (no events, no log, no causes, no views). A game is one row of integers holding exactly
what decides the next legal actions and the end: the table's counters, the decks, the hands, the
discards, the bonus queues, the pending choices and every board (and the boards as shown, for
``undo``). Games start from the engine's own ``new_state`` (:func:`load_row`), and randomness
during play (a week that reshuffles a discard pile) is CPython's Mersenne Twister, as
:mod:`recordroom.engine.rng` uses it, so a row follows the engine's game action for action: the
same legal actions in the same order, the same end and the same scores. ``tests/rl`` plays both
side by side and compares them at every step.

Actions are indices of the fixed action space (:mod:`recordroom.rl.spaces`). Everything the rules
read of the edition and the space is one integer array (:func:`tables`, ``E``): a header of
sizes and offsets (``Z_*``, ``H_*``, ``O_*``), then the tables. A row (``x``) has the table's
counters (``T_*``), each seat's counters (``S_*``), boards, shown boards and bonus queues at
fixed places, then the hands, dealt goals, discards, decks and public goals at the places the
header gives. Few arrays pass from call to call on purpose: numba passes each array a function
takes with reference counting, which cost more than the rules themselves when the tables were
forty arrays. The solo game (its own turn structure) is not here; the vector steps it through the
engine.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np
import numpy.typing as npt

from recordroom.games.records import board as bd
from recordroom.games.records.edition import GOAL_KINDS, ROLES, Edition
from recordroom.games.records.kinds import (
    CARD_KINDS,
    HARMONY_OF,
    NO_BONUS,
    Marking,
    Phase,
    bonus_code,
)
from recordroom.games.records.state import NONE, State
from recordroom.rl.spaces import ActionSpace

F = TypeVar("F", bound=Callable[..., Any])
Ints = npt.NDArray[np.int64]


def _compiled(function: F) -> F:
    """numba's nopython compilation, kept on disk between runs (the first run compiles)."""
    return cast(F, numba.njit(cache=True, nogil=True)(function))


# -- layout ---------------------------------------------------------------------------------------

MAX_PLAYERS = 6
MAX_GOAL_BOXES = 8
MAX_SLOTS = 16
MAX_QUEUE = 64
"""Bonuses a seat's queue may hold at once (a chain of the standard edition holds a handful)."""

# A board, at its place in a row.
B_LEAD, B_FAILS, B_NGOALS = 0, 1, 2
B_GOALS = 3
B_AGENDA = B_GOALS + MAX_GOAL_BOXES
B_ALBUMS = B_AGENDA + 1
B_SINGLES = B_ALBUMS + 1
B_CREW = B_SINGLES + 1
B_MULT = B_CREW + MAX_SLOTS
B_TOUR = B_MULT + MAX_SLOTS
B_MEARNED = B_TOUR + 1
B_MSPENT = B_MEARNED + 1
B_ASSETS = B_MSPENT + 1
B_HARM = B_ASSETS + 1
B_CASH = B_HARM + 1
BOARD = B_CASH + 1

# The table's counters, at the start of a row.
T_PHASE, T_ACTIVE, T_WEEK, T_ROUND, T_GOAL_SLOT, T_ENDING, T_MARKING, T_RNG, T_CHOSE = range(9)
T_DECK_HEAD, T_DECK_LEN, T_GDECK_HEAD, T_GDECK_LEN, T_PLAYERS, T_SEAT, T_STEPS = range(9, 16)
T_NLEGAL = 16
TABLE = 17

# A seat's counters.
S_PENDING, S_PLAYED, S_REVEALED, S_PRIVATE, S_UNDOS, S_SETTINGS = range(6)
S_HAND, S_DISCARD, S_QUEUE, S_DEALT = range(6, 10)
SEAT = 10

SEATS_AT = TABLE
BOARDS_AT = SEATS_AT + MAX_PLAYERS * SEAT
SHOWN_AT = BOARDS_AT + MAX_PLAYERS * BOARD
QUEUES_AT = SHOWN_AT + MAX_PLAYERS * BOARD
VARIABLE_AT = QUEUES_AT + MAX_PLAYERS * MAX_QUEUE
"""Where the parts whose sizes depend on the edition begin (``H_*`` give their places)."""

# Phases and marking steps as integers (the solo phases never occur here).
P_LEAD, P_KEEP, P_PICK, P_MARK, P_CLAIM, P_PRIVATE, P_OVER = range(7)
PHASES = (
    Phase.LEAD_SINGER,
    Phase.KEEP,
    Phase.PICK,
    Phase.MARK,
    Phase.CLAIM,
    Phase.PRIVATE,
    Phase.OVER,
)
M_NONE, M_ROUND, M_PUBLIC, M_PRIVATE = range(4)
MARKINGS = (Marking.NONE, Marking.ROUND, Marking.PUBLIC, Marking.PRIVATE)

# Action kinds of the space's indices.
K_LEAD, K_KEEP, K_CLAIM, K_PICK, K_CREW, K_AGENDA, K_ASSET = range(7)
K_FAIL, K_PASS, K_DRAW, K_UNDO, K_DONE, K_BONUS = range(7, 13)
_BARE = {"fail": K_FAIL, "pass": K_PASS, "draw": K_DRAW, "undo": K_UNDO, "done": K_DONE}

ALBUM, SINGLE, TOUR, MULTIPLIER, CASH, HARMONY, AGENDA, ASSET = (
    bd.ALBUM,
    bd.SINGLE,
    bd.TOUR,
    bd.MULTIPLIER,
    bd.CASH,
    bd.HARMONY,
    bd.AGENDA,
    bd.ASSET,
)
EMPTY = bd.EMPTY
SINGER = ROLES.index("singer")
UNDO_LIMIT = 3
"""As :data:`recordroom.games.records.game.UNDO_LIMIT` (checked by the tests)."""
G_CREW, G_CREW_ROLE, G_CREW_POINTS, G_HARMONIES, G_HARMONY_COLOUR, G_AGENDA = range(6)
G_AGENDA_LINES, G_ASSETS, G_ASSET_BONUSES, G_ALBUMS, G_SINGLES, G_RELEASE = range(6, 12)
G_TOUR, G_MULTIPLIERS, G_CASH = range(12, 15)
CARD_AGENDA, CARD_ASSET = CARD_KINDS.index("agenda"), CARD_KINDS.index("asset")

# The header of the tables: sizes ...
(Z_COLOURS, Z_HAND, Z_PICKS, Z_PUBLIC, Z_GOAL_BOXES, Z_AGENDA, Z_ASSETS, Z_HCOLUMNS) = range(8)
(Z_HBOXES, Z_ROW_POINTS, Z_COLUMN_POINTS, Z_RESTRICTIONS, Z_TOUR, Z_FAILS) = range(8, 14)
(Z_ALBUMS, Z_SINGLES, Z_MULTIPLIERS, Z_SLOTS, Z_ACTIONS, Z_CARDS, Z_GOALS) = range(14, 21)
(Z_DEALT, Z_LINES, Z_WIDEST) = range(21, 24)
# ... where a row's parts of variable size begin, and its width ...
(H_HANDS, H_DEALT, H_DISCARDS, H_DECK, H_GOAL_DECK, H_PUBLIC, H_WIDTH) = range(24, 31)
# ... and where each table begins.
_TABLES = (
    "card_kind",
    "card_role",
    "card_points",
    "card_sides",
    "slot_role",
    "slot_restriction",
    "slot_bonus",
    "neighbours",
    "line_mask",
    "line_bonus",
    "album_bonus",
    "single_bonus",
    "tour_restriction",
    "tour_bonus",
    "tour_points",
    "multipliers",
    "asset_bonus",
    "harmony_bonus",
    "fail_penalty",
    "fail_bonus",
    "goal_kind",
    "goal_n",
    "goal_points",
    "goal_bonus",
    "goal_role",
    "goal_colour",
    "act_kind",
    "act_a",
    "act_b",
    "i_lead",
    "i_keep",
    "i_claim",
    "i_pick",
    "i_crew",
    "i_agenda",
    "i_asset",
    "i_bonus",
    "i_bare",
)
(O_CARD_KIND, O_CARD_ROLE, O_CARD_POINTS, O_CARD_SIDES, O_SLOT_ROLE) = range(31, 36)
(O_SLOT_RESTRICTION, O_SLOT_BONUS, O_NEIGHBOURS, O_LINE_MASK, O_LINE_BONUS) = range(36, 41)
(O_ALBUM_BONUS, O_SINGLE_BONUS, O_TOUR_RESTRICTION, O_TOUR_BONUS, O_TOUR_POINTS) = range(41, 46)
(O_MULTIPLIERS, O_ASSET_BONUS, O_HARMONY_BONUS, O_FAIL_PENALTY, O_FAIL_BONUS) = range(46, 51)
(O_GOAL_KIND, O_GOAL_N, O_GOAL_POINTS, O_GOAL_BONUS, O_GOAL_ROLE, O_GOAL_COLOUR) = range(51, 57)
(O_ACT_KIND, O_ACT_A, O_ACT_B, O_I_LEAD, O_I_KEEP, O_I_CLAIM, O_I_PICK) = range(57, 64)
(O_I_CREW, O_I_AGENDA, O_I_ASSET, O_I_BONUS, O_I_BARE) = range(64, 69)
HEADER = 69
"""``neighbours``: per slot four (side, other slot, other side), -1 where none; ``i_crew``: per
slot, the index without a multiplier then with each multiplier box; ``i_bonus``: per bonus code,
``Z_WIDEST`` targets; ``i_bare``: fail, pass, draw, undo, done."""


def fits(ed: Edition) -> bool:
    """The edition fits the arrays' fixed sizes (the standard edition does)."""
    return (
        ed.goal_boxes <= MAX_GOAL_BOXES
        and len(ed.crew_slots) <= MAX_SLOTS
        and ed.harmony_boxes <= 62
        and ed.agenda_boxes <= 62
        and ed.asset_boxes <= 62
        and len(ed.restrictions) <= 62
        and len(ed.multipliers) <= 62
    )


def tables(ed: Edition, space: ActionSpace) -> Ints:
    """The edition and its space as one integer array (``E``, see the module docstring)."""
    slots = len(ed.crew_slots)
    neighbours = np.full((slots, 4, 3), -1, dtype=np.int64)
    for slot, near in enumerate(ed.neighbours):
        for k, triple in enumerate(near):
            neighbours[slot, k] = triple
    n = space.n
    act_kind, act_a, act_b = np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64)
    i_lead = np.full(len(ed.colours), -1, np.int64)
    i_keep = np.full(len(ed.goals), -1, np.int64)
    i_claim = np.full(len(ed.goals), -1, np.int64)
    i_pick = np.full(len(ed.cards), -1, np.int64)
    i_crew = np.full((slots, len(ed.multipliers) + 1), -1, np.int64)
    i_agenda = np.full(ed.agenda_boxes, -1, np.int64)
    i_asset = np.full(ed.asset_boxes, -1, np.int64)
    widest = max(ed.harmony_boxes, ed.agenda_boxes, ed.asset_boxes, len(ed.restrictions), 1)
    i_bonus = np.full((HARMONY_OF + len(ed.colours), widest), -1, np.int64)
    i_bare = np.full(5, -1, np.int64)
    for i, action in enumerate(space.actions):
        kind = action["type"]
        if kind == "lead_singer":
            act_kind[i], act_a[i] = K_LEAD, ed.colours.index(action["colour"])
            i_lead[act_a[i]] = i
        elif kind in ("keep", "claim"):
            act_kind[i] = K_KEEP if kind == "keep" else K_CLAIM
            act_a[i] = ed.goal_by_id[action["goal"]]
            (i_keep if kind == "keep" else i_claim)[act_a[i]] = i
        elif kind == "pick":
            act_kind[i], act_a[i] = K_PICK, ed.card_by_id[action["card"]]
            i_pick[act_a[i]] = i
        elif kind == "mark" and action["area"] == "crew":
            m = -1 if action["multiplier"] is None else action["multiplier"]
            act_kind[i], act_a[i], act_b[i] = K_CREW, action["slot"], m
            i_crew[action["slot"], m + 1] = i
        elif kind == "mark":
            agenda = action["area"] == "agenda"
            act_kind[i], act_a[i] = (K_AGENDA if agenda else K_ASSET), action["box"]
            (i_agenda if agenda else i_asset)[action["box"]] = i
        elif kind == "bonus":
            code = bonus_code(ed.colours, action["bonus"])
            act_kind[i], act_a[i], act_b[i] = K_BONUS, code, action["box"]
            i_bonus[code, action["box"]] = i
        elif kind in _BARE:
            act_kind[i] = _BARE[kind]
            i_bare[_BARE[kind] - K_FAIL] = i
        else:
            raise ValueError(f"records arrays: unknown action {action!r} in the space")
    g = ed.goals
    parts: dict[str, Any] = {
        "card_kind": [CARD_KINDS.index(c.kind) for c in ed.cards],
        "card_role": [c.role for c in ed.cards],
        "card_points": [c.points for c in ed.cards],
        "card_sides": [c.sides for c in ed.cards],
        "slot_role": [s.role for s in ed.crew_slots],
        "slot_restriction": [s.restriction for s in ed.crew_slots],
        "slot_bonus": [s.bonus for s in ed.crew_slots],
        "neighbours": neighbours,
        "line_mask": [line.mask for line in ed.agenda_lines],
        "line_bonus": [line.bonus for line in ed.agenda_lines],
        "album_bonus": ed.album_bonuses,
        "single_bonus": ed.single_bonuses,
        "tour_restriction": [t.restriction for t in ed.tour_steps],
        "tour_bonus": [t.bonus for t in ed.tour_steps],
        "tour_points": [t.points for t in ed.tour_steps],
        "multipliers": ed.multipliers,
        "asset_bonus": ed.asset_bonuses,
        "harmony_bonus": ed.harmony_bonuses,
        "fail_penalty": ed.fail_penalties,
        "fail_bonus": ed.fail_bonuses,
        "goal_kind": [GOAL_KINDS.index(x.kind) for x in g],
        "goal_n": [x.n for x in g],
        "goal_points": [x.points for x in g],
        "goal_bonus": [x.bonus for x in g],
        "goal_role": [x.role for x in g],
        "goal_colour": [x.colour for x in g],
        "act_kind": act_kind,
        "act_a": act_a,
        "act_b": act_b,
        "i_lead": i_lead,
        "i_keep": i_keep,
        "i_claim": i_claim,
        "i_pick": i_pick,
        "i_crew": i_crew,
        "i_agenda": i_agenda,
        "i_asset": i_asset,
        "i_bonus": i_bonus,
        "i_bare": i_bare,
    }
    header = np.zeros(HEADER, np.int64)
    header[:H_HANDS] = [
        len(ed.colours),
        ed.hand_size,
        ed.picks_per_week,
        ed.public_goals,
        ed.goal_boxes,
        ed.agenda_boxes,
        ed.asset_boxes,
        ed.harmony_columns,
        ed.harmony_boxes,
        ed.harmony_row_points,
        ed.harmony_column_points,
        len(ed.restrictions),
        len(ed.tour_steps),
        len(ed.fail_penalties),
        len(ed.album_bonuses),
        len(ed.single_bonuses),
        len(ed.multipliers),
        slots,
        n,
        len(ed.cards),
        len(ed.goals),
        ed.private_goals_dealt,
        len(ed.agenda_lines),
        widest,
    ]
    at = VARIABLE_AT
    for place, size in (
        (H_HANDS, MAX_PLAYERS * ed.hand_size),
        (H_DEALT, MAX_PLAYERS * ed.private_goals_dealt),
        (H_DISCARDS, MAX_PLAYERS * len(ed.cards)),
        (H_DECK, len(ed.cards)),
        (H_GOAL_DECK, len(ed.goals)),
        (H_PUBLIC, ed.public_goals),
    ):
        header[place] = at
        at += size
    header[H_WIDTH] = at
    flat = [np.asarray(parts[name], dtype=np.int64).ravel() for name in _TABLES]
    at = HEADER
    for i, values in enumerate(flat):
        header[O_CARD_KIND + i] = at
        at += len(values)
    return np.concatenate([header, *flat])


def rows(e: Ints, n: int) -> Ints:
    """``n`` empty rows (each filled by :func:`load_row`)."""
    return np.zeros((n, int(e[H_WIDTH])), np.int64)


def _board_row(board: bd.Board, out: Ints) -> None:
    out[:] = 0
    out[B_LEAD], out[B_FAILS], out[B_NGOALS] = board.lead, board.fails, len(board.goals)
    out[B_GOALS : B_GOALS + len(board.goals)] = board.goals
    out[B_AGENDA], out[B_ALBUMS], out[B_SINGLES] = board.agenda, board.albums, board.singles
    out[B_CREW : B_CREW + len(board.crew)] = board.crew
    out[B_MULT : B_MULT + len(board.crew_mult)] = board.crew_mult
    out[B_TOUR], out[B_MEARNED], out[B_MSPENT] = board.tour, board.mult_earned, board.mult_spent
    out[B_ASSETS], out[B_HARM], out[B_CASH] = board.assets, board.harmonies, board.cash


def load_row(e: Ints, x: Ints, legal: Ints, state: State) -> None:
    """Row ``x`` set to the engine's ``state`` (of two or more players, not over), its acting
    seat and legal actions (into ``legal``) computed."""
    phase = PHASES.index(state.phase)
    x[:] = 0
    x[T_PHASE] = phase
    x[T_ACTIVE] = sum(1 << s for s in state.active)
    x[T_WEEK], x[T_ROUND], x[T_GOAL_SLOT] = state.week, state.round, state.goal_slot
    x[T_ENDING] = int(state.ending)
    x[T_MARKING] = MARKINGS.index(state.marking_for)
    x[T_RNG], x[T_CHOSE] = state.rng, state.chose
    x[T_DECK_LEN], x[T_GDECK_LEN] = len(state.deck), len(state.goal_deck)
    x[T_PLAYERS] = state.players
    deck, goal_deck, public = int(e[H_DECK]), int(e[H_GOAL_DECK]), int(e[H_PUBLIC])
    x[deck : deck + len(state.deck)] = state.deck
    x[goal_deck : goal_deck + len(state.goal_deck)] = state.goal_deck
    x[public : public + len(state.public)] = state.public
    for s in range(state.players):
        at = SEATS_AT + s * SEAT
        x[at + S_PENDING], x[at + S_PLAYED] = state.pending[s], state.played[s]
        x[at + S_REVEALED], x[at + S_PRIVATE] = state.revealed[s], state.private[s]
        x[at + S_UNDOS], x[at + S_SETTINGS] = state.undos[s], state.settings[s]
        for field, values, place in (
            (S_HAND, state.hands[s], int(e[H_HANDS] + s * e[Z_HAND])),
            (S_DISCARD, state.discards[s], int(e[H_DISCARDS] + s * e[Z_CARDS])),
            (S_QUEUE, state.queues[s], QUEUES_AT + s * MAX_QUEUE),
            (S_DEALT, state.dealt[s], int(e[H_DEALT] + s * e[Z_DEALT])),
        ):
            x[at + field] = len(values)
            x[place : place + len(values)] = values
        _board_row(state.boards[s], x[BOARDS_AT + s * BOARD : BOARDS_AT + (s + 1) * BOARD])
        _board_row(state.shown[s], x[SHOWN_AT + s * BOARD : SHOWN_AT + (s + 1) * BOARD])
    if phase != P_OVER:
        _after(e, x, legal, _scratch(e))


def picture(e: Ints, x: Ints) -> dict[str, Any]:
    """What a row holds that decides the game, as plain values: equal for a row and the engine
    state it follows (the tests compare them step by step)."""
    players = int(x[T_PLAYERS])

    def seat(s: int, field: int) -> int:
        return int(x[SEATS_AT + s * SEAT + field])

    def per_seat(place: int, width: int, field: int) -> list[list[int]]:
        return [
            x[place + s * width : place + s * width + seat(s, field)].tolist()
            for s in range(players)
        ]

    deck, goal_deck, public = int(e[H_DECK]), int(e[H_GOAL_DECK]), int(e[H_PUBLIC])
    return {
        "table": x[[T_PHASE, T_ACTIVE, T_WEEK, T_ROUND, T_GOAL_SLOT, T_ENDING]].tolist()
        + x[[T_MARKING, T_RNG, T_CHOSE]].tolist(),
        "deck": x[deck + x[T_DECK_HEAD] : deck + x[T_DECK_LEN]].tolist(),
        "goal_deck": x[goal_deck + x[T_GDECK_HEAD] : goal_deck + x[T_GDECK_LEN]].tolist(),
        "public": x[public : public + e[Z_PUBLIC]].tolist(),
        "seats": [[seat(s, f) for f in range(S_HAND)] for s in range(players)],
        "hands": per_seat(int(e[H_HANDS]), int(e[Z_HAND]), S_HAND),
        "discards": per_seat(int(e[H_DISCARDS]), int(e[Z_CARDS]), S_DISCARD),
        "queues": per_seat(QUEUES_AT, MAX_QUEUE, S_QUEUE),
        "dealt": per_seat(int(e[H_DEALT]), int(e[Z_DEALT]), S_DEALT),
        "boards": x[BOARDS_AT : BOARDS_AT + players * BOARD].tolist(),
        "shown": x[SHOWN_AT : SHOWN_AT + players * BOARD].tolist(),
    }


def picture_of(e: Ints, state: State) -> dict[str, Any]:
    """:func:`picture` of the engine's ``state`` (loaded into a row of its own)."""
    x = rows(e, 1)[0]
    load_row(e, x, np.zeros(int(e[Z_ACTIONS]), np.int64), state)
    return picture(e, x)


# -- CPython's Mersenne Twister, for a week that reshuffles a discard pile -------------------------

_N, _M = 624, 397
_LOW32 = 0xFFFFFFFF


@_compiled
def _genrand(mt: Ints, at: Ints) -> int:
    """The next 32 random bits (``at[0]``: the position in ``mt``)."""
    if at[0] >= _N:
        for k in range(_N):
            y = (mt[k] & 0x80000000) | (mt[(k + 1) % _N] & 0x7FFFFFFF)
            v = mt[(k + _M) % _N] ^ (y >> 1)
            if y & 1:
                v ^= 0x9908B0DF
            mt[k] = v
        at[0] = 0
    y = mt[at[0]]
    at[0] += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return int(y & _LOW32)


@_compiled
def _seeded(seed: int) -> tuple[Ints, Ints]:
    """The twister as ``random.Random(seed)`` leaves it, for 0 <= seed < 2**63."""
    mt = np.zeros(_N, np.int64)
    mt[0] = 19650218
    for i in range(1, _N):
        mt[i] = (1812433253 * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i) & _LOW32
    key = np.zeros(2, np.int64)
    key[0] = seed & _LOW32
    key[1] = seed >> 32
    length = 2 if key[1] else 1
    i, j = 1, 0
    for _ in range(max(_N, length)):
        mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525)) + key[j] + j) & _LOW32
        i += 1
        j += 1
        if i >= _N:
            mt[0] = mt[_N - 1]
            i = 1
        if j >= length:
            j = 0
    for _ in range(_N - 1):
        mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941)) - i) & _LOW32
        i += 1
        if i >= _N:
            mt[0] = mt[_N - 1]
            i = 1
    mt[0] = 0x80000000
    at = np.zeros(1, np.int64)
    at[0] = _N
    return mt, at


@_compiled
def shuffle(items: Ints, seed: int) -> int:
    """``items`` shuffled in place as :func:`recordroom.engine.rng.shuffled` shuffles them for
    RNG state ``seed``; the next RNG state."""
    mt, at = _seeded(seed)
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = 0
        while n >> k:
            k += 1
        r = _genrand(mt, at) >> (32 - k)
        while r >= n:
            r = _genrand(mt, at) >> (32 - k)
        items[i], items[r] = items[r], items[i]
    low = _genrand(mt, at)
    high = _genrand(mt, at) >> 1
    return low | (high << 32)


# -- the board (``b``: where the seat's board begins in the row) -----------------------------------


@_compiled
def _pop(x: int) -> int:
    count = 0
    while x:
        x &= x - 1
        count += 1
    return count


@_compiled
def _push(x: Ints, s: int, code: int) -> None:
    """Bonus ``code`` queued for seat ``s`` (nothing for ``NO_BONUS``)."""
    if code != NO_BONUS:
        a = SEATS_AT + s * SEAT + S_QUEUE
        if x[a] >= MAX_QUEUE:
            raise ValueError("records arrays: a bonus queue outgrew MAX_QUEUE")
        x[QUEUES_AT + s * MAX_QUEUE + x[a]] = code
        x[a] += 1


@_compiled
def _side(e: Ints, x: Ints, b: int, slot: int, side: int) -> int:
    """The colour of a placed crew member's side (the lead singer wears the lead colour)."""
    if e[e[O_SLOT_ROLE] + slot] == SINGER:
        return int(x[b + B_LEAD])
    return int(e[e[O_CARD_SIDES] + x[b + B_CREW + slot] * 4 + side])


@_compiled
def _place_crew(e: Ints, x: Ints, s: int, card: int, slot: int, m: int) -> None:
    b = BOARDS_AT + s * BOARD
    x[b + B_CREW + slot] = card
    if m >= 0:
        x[b + B_MULT + slot] = e[e[O_MULTIPLIERS] + m]
        x[b + B_MSPENT] |= 1 << m
    _push(x, s, e[e[O_SLOT_BONUS] + slot])
    for k in range(4):
        near = e[O_NEIGHBOURS] + (slot * 4 + k) * 3
        side = e[near]
        if side < 0:
            break
        other = e[near + 1]
        if x[b + B_CREW + other] != EMPTY:
            mine = _side(e, x, b, slot, side)
            if _side(e, x, b, other, e[near + 2]) == mine:
                _push(x, s, HARMONY_OF + mine)


@_compiled
def _tick_agenda(e: Ints, x: Ints, s: int, box: int) -> None:
    b = BOARDS_AT + s * BOARD
    x[b + B_AGENDA] |= 1 << box
    agenda = x[b + B_AGENDA]
    for line in range(e[Z_LINES]):
        mask = e[e[O_LINE_MASK] + line]
        if mask >> box & 1 and agenda & mask == mask:
            _push(x, s, e[e[O_LINE_BONUS] + line])


@_compiled
def _tick_asset(e: Ints, x: Ints, s: int, box: int) -> None:
    b = BOARDS_AT + s * BOARD
    x[b + B_ASSETS] |= 1 << box
    assets = x[b + B_ASSETS]
    if box > 0 and assets >> (box - 1) & 1:
        _push(x, s, e[e[O_ASSET_BONUS] + box - 1])
    if box < e[Z_ASSETS] - 1 and assets >> (box + 1) & 1:
        _push(x, s, e[e[O_ASSET_BONUS] + box])


@_compiled
def _tick_fail(e: Ints, x: Ints, s: int) -> None:
    b = BOARDS_AT + s * BOARD
    if x[b + B_FAILS] < e[Z_FAILS]:
        x[b + B_FAILS] += 1
        _push(x, s, e[e[O_FAIL_BONUS] + x[b + B_FAILS] - 1])


@_compiled
def _targets(e: Ints, x: Ints, b: int, code: int, out: Ints) -> int:
    """Where bonus ``code`` can go on the board at ``b`` (as ``board.bonus_targets``), into
    ``out``; how many."""
    if code in (ALBUM, SINGLE, MULTIPLIER):
        if code == ALBUM:
            room = x[b + B_ALBUMS] < e[Z_ALBUMS]
        elif code == SINGLE:
            room = x[b + B_SINGLES] < e[Z_SINGLES]
        else:
            room = x[b + B_MEARNED] < e[Z_MULTIPLIERS]
        out[0] = 0
        return 1 if room else 0
    if code == TOUR:
        tour = x[b + B_TOUR]
        if tour >= e[Z_TOUR]:
            return 0
        restriction = e[e[O_TOUR_RESTRICTION] + tour]
        out[0] = 0
        return 1 if restriction < 0 or x[b + B_CASH] >> restriction & 1 else 0
    first = 0
    if code == CASH:
        ticked, last = x[b + B_CASH], e[Z_RESTRICTIONS]
    elif code == AGENDA:
        ticked, last = x[b + B_AGENDA], e[Z_AGENDA]
    elif code == ASSET:
        ticked, last = x[b + B_ASSETS], e[Z_ASSETS]
    elif code == HARMONY:
        ticked, last = x[b + B_HARM], e[Z_HBOXES]
    else:
        ticked = x[b + B_HARM]
        first = (code - HARMONY_OF) * e[Z_HCOLUMNS]
        last = first + e[Z_HCOLUMNS]
    count = 0
    for i in range(first, last):
        if not ticked >> i & 1:
            out[count] = i
            count += 1
    return count


@_compiled
def _gain(e: Ints, x: Ints, s: int, code: int, target: int) -> None:
    """Bonus ``code`` used on ``target`` (as ``board.gain``); its earnings queued."""
    b = BOARDS_AT + s * BOARD
    if code == ALBUM:
        x[b + B_ALBUMS] += 1
        _push(x, s, e[e[O_ALBUM_BONUS] + x[b + B_ALBUMS] - 1])
    elif code == SINGLE:
        x[b + B_SINGLES] += 1
        _push(x, s, e[e[O_SINGLE_BONUS] + x[b + B_SINGLES] - 1])
    elif code == MULTIPLIER:
        x[b + B_MEARNED] += 1
    elif code == TOUR:
        x[b + B_TOUR] += 1
        _push(x, s, e[e[O_TOUR_BONUS] + x[b + B_TOUR] - 1])
    elif code == CASH:
        x[b + B_CASH] |= 1 << target
    elif code == AGENDA:
        _tick_agenda(e, x, s, target)
    elif code == ASSET:
        _tick_asset(e, x, s, target)
    else:
        x[b + B_HARM] |= 1 << target
        _push(x, s, e[e[O_HARMONY_BONUS] + target])


@_compiled
def _pop_front(x: Ints, s: int) -> int:
    """The first bonus of the seat's queue, taken off it."""
    q = QUEUES_AT + s * MAX_QUEUE
    a = SEATS_AT + s * SEAT + S_QUEUE
    code = x[q]
    for i in range(1, x[a]):
        x[q + i - 1] = x[q + i]
    x[a] -= 1
    return int(code)


@_compiled
def _resolve(e: Ints, x: Ints, s: int, scratch: Ints) -> None:
    """The seat's queue used in order until a bonus needs a choice (as ``board.resolve``)."""
    b = BOARDS_AT + s * BOARD
    a = SEATS_AT + s * SEAT + S_QUEUE
    while x[a]:
        count = _targets(e, x, b, x[QUEUES_AT + s * MAX_QUEUE], scratch)
        if count > 1:
            break
        code = _pop_front(x, s)
        if count:
            _gain(e, x, s, code, scratch[0])


@_compiled
def _crew_points(e: Ints, x: Ints, b: int) -> int:
    total = 0
    for i in range(e[Z_SLOTS]):
        card = x[b + B_CREW + i]
        if card != EMPTY:
            total += e[e[O_CARD_POINTS] + card] * x[b + B_MULT + i]
    return total


@_compiled
def _measure(e: Ints, x: Ints, b: int, goal: int) -> int:
    """The quantity goal ``goal`` counts on the board at ``b`` (as ``board.measure``)."""
    kind = e[e[O_GOAL_KIND] + goal]
    if kind in (G_CREW, G_CREW_ROLE):
        role = e[e[O_GOAL_ROLE] + goal]
        count = 0
        for i in range(e[Z_SLOTS]):
            if x[b + B_CREW + i] != EMPTY and (kind == G_CREW or e[e[O_SLOT_ROLE] + i] == role):
                count += 1
        return count
    if kind == G_CREW_POINTS:
        return _crew_points(e, x, b)
    if kind == G_HARMONIES:
        return _pop(x[b + B_HARM])
    if kind == G_HARMONY_COLOUR:
        columns = e[Z_HCOLUMNS]
        colour = e[e[O_GOAL_COLOUR] + goal]
        return _pop(x[b + B_HARM] >> (colour * columns) & ((1 << columns) - 1))
    if kind == G_AGENDA:
        return _pop(x[b + B_AGENDA])
    if kind == G_AGENDA_LINES:
        agenda = x[b + B_AGENDA]
        count = 0
        for line in range(e[Z_LINES]):
            mask = e[e[O_LINE_MASK] + line]
            if agenda & mask == mask:
                count += 1
        return count
    if kind == G_ASSETS:
        return _pop(x[b + B_ASSETS])
    if kind == G_ASSET_BONUSES:
        return _pop(x[b + B_ASSETS] & (x[b + B_ASSETS] >> 1))
    if kind == G_ALBUMS:
        return int(x[b + B_ALBUMS])
    if kind == G_SINGLES:
        return int(x[b + B_SINGLES])
    if kind == G_RELEASE:
        return int(x[b + B_ALBUMS] + x[b + B_SINGLES])
    if kind == G_TOUR:
        return int(x[b + B_TOUR])
    if kind == G_MULTIPLIERS:
        return int(x[b + B_MEARNED])
    return _pop(x[b + B_CASH])


@_compiled
def _can_claim(e: Ints, x: Ints, b: int, goal: int) -> bool:
    n = x[b + B_NGOALS]
    if n >= e[Z_GOAL_BOXES]:
        return False
    for i in range(n):
        if x[b + B_GOALS + i] == goal:
            return False
    return bool(_measure(e, x, b, goal) >= e[e[O_GOAL_N] + goal])


@_compiled
def _score(e: Ints, x: Ints, b: int) -> int:
    """The board's score (as ``board.score``)."""
    total = 0
    for i in range(x[b + B_NGOALS]):
        total += e[e[O_GOAL_POINTS] + x[b + B_GOALS + i]]
    total += x[b + B_ALBUMS] * x[b + B_SINGLES] + _crew_points(e, x, b)
    if x[b + B_TOUR]:
        total += e[e[O_TOUR_POINTS] + x[b + B_TOUR] - 1]
    h = x[b + B_HARM]
    if h:
        columns = e[Z_HCOLUMNS]
        row_mask = (1 << columns) - 1
        full_rows = 0
        in_every_row = row_mask
        for c in range(e[Z_COLOURS]):
            line = h >> (c * columns) & row_mask
            if line == row_mask:
                full_rows += 1
            in_every_row &= line
        total += full_rows * e[Z_ROW_POINTS] + _pop(in_every_row) * e[Z_COLUMN_POINTS]
    if x[b + B_FAILS]:
        total += e[e[O_FAIL_PENALTY] + x[b + B_FAILS] - 1]
    return int(total)


# -- legal actions ---------------------------------------------------------------------------------


@_compiled
def _can_undo(x: Ints, s: int) -> bool:
    return bool(
        (x[T_CHOSE] >> s & 1) == 1
        and x[T_MARKING] == M_ROUND
        and x[SEATS_AT + s * SEAT + S_UNDOS] < UNDO_LIMIT
    )


@_compiled
def _legal(e: Ints, x: Ints, s: int, out: Ints, scratch: Ints) -> None:
    """Seat ``s``'s legal action indices into ``out``, in the engine's order (how many:
    ``x[T_NLEGAL]``)."""
    n = 0
    phase = x[T_PHASE]
    a = SEATS_AT + s * SEAT
    b = BOARDS_AT + s * BOARD
    bare = e[O_I_BARE]
    if phase == P_PICK:
        hand = e[H_HANDS] + s * e[Z_HAND]
        pick = e[O_I_PICK]
        for i in range(x[a + S_HAND]):
            out[n] = e[pick + x[hand + i]]
            n += 1
    elif phase == P_MARK:
        card = x[a + S_PLAYED]
        if x[a + S_QUEUE]:
            code = x[QUEUES_AT + s * MAX_QUEUE]
            count = _targets(e, x, b, code, scratch)
            row = e[O_I_BONUS] + code * e[Z_WIDEST]
            for i in range(count):
                out[n] = e[row + scratch[i]]
                n += 1
            if _can_undo(x, s):
                out[n] = e[bare + K_UNDO - K_FAIL]
                n += 1
        elif card == NONE:
            out[n] = e[bare + K_DONE - K_FAIL]
            n += 1
            if _can_undo(x, s):
                out[n] = e[bare + K_UNDO - K_FAIL]
                n += 1
        else:
            kind = e[e[O_CARD_KIND] + card]
            if kind in (CARD_AGENDA, CARD_ASSET):
                if kind == CARD_AGENDA:
                    ticked, boxes, index = x[b + B_AGENDA], e[Z_AGENDA], e[O_I_AGENDA]
                else:
                    ticked, boxes, index = x[b + B_ASSETS], e[Z_ASSETS], e[O_I_ASSET]
                for box in range(boxes):
                    if not ticked >> box & 1:
                        out[n] = e[index + box]
                        n += 1
            else:
                # the first unspent multiplier box of each value, in box order
                values = e[O_MULTIPLIERS]
                spendable = 0
                for m in range(x[b + B_MEARNED]):
                    if not x[b + B_MSPENT] >> m & 1:
                        seen = False
                        for k in range(spendable):
                            if e[values + scratch[k]] == e[values + m]:
                                seen = True
                        if not seen:
                            scratch[spendable] = m
                            spendable += 1
                role = e[e[O_CARD_ROLE] + card]
                crew = e[O_I_CREW]
                width = e[Z_MULTIPLIERS] + 1
                for slot in range(e[Z_SLOTS]):
                    restriction = e[e[O_SLOT_RESTRICTION] + slot]
                    if (
                        e[e[O_SLOT_ROLE] + slot] == role
                        and x[b + B_CREW + slot] == EMPTY
                        and (restriction < 0 or x[b + B_CASH] >> restriction & 1)
                    ):
                        out[n] = e[crew + slot * width]
                        n += 1
                        for k in range(spendable):
                            out[n] = e[crew + slot * width + scratch[k] + 1]
                            n += 1
            out[n] = e[bare + K_FAIL - K_FAIL]
            n += 1
    elif phase == P_CLAIM:
        out[0] = e[e[O_I_CLAIM] + x[e[H_PUBLIC] + x[T_GOAL_SLOT]]]
        out[1] = e[bare + K_PASS - K_FAIL]
        n = 2
    elif phase == P_PRIVATE:
        goal = x[a + S_PRIVATE]
        if _can_claim(e, x, b, goal):
            out[n] = e[e[O_I_CLAIM] + goal]
            n += 1
        out[n] = e[bare + K_PASS - K_FAIL]
        n += 1
    elif phase == P_LEAD:
        for c in range(e[Z_COLOURS]):
            out[n] = e[e[O_I_LEAD] + c]
            n += 1
    elif phase == P_KEEP:
        dealt = e[H_DEALT] + s * e[Z_DEALT]
        for i in range(x[a + S_DEALT]):
            out[n] = e[e[O_I_KEEP] + x[dealt + i]]
            n += 1
    x[T_NLEGAL] = n


@_compiled
def _scratch(e: Ints) -> Ints:
    """Room for a bonus's targets or a card's spendable multipliers."""
    return np.empty(e[Z_WIDEST] + 64, np.int64)


@_compiled
def _after(e: Ints, x: Ints, out: Ints, scratch: Ints) -> None:
    """The acting seat (the lowest active one) and its legal actions into ``out``."""
    active = x[T_ACTIVE]
    s = 0
    while not active >> s & 1:
        s += 1
    x[T_SEAT] = s
    _legal(e, x, s, out, scratch)


# -- how the game moves (as :mod:`recordroom.games.records.flow`) ----------------------------------


@_compiled
def _everyone(x: Ints) -> int:
    return int((1 << x[T_PLAYERS]) - 1)


@_compiled
def _clear_pending(x: Ints) -> None:
    for s in range(x[T_PLAYERS]):
        x[SEATS_AT + s * SEAT + S_PENDING] = NONE


@_compiled
def _show_boards(x: Ints) -> None:
    for i in range(x[T_PLAYERS] * BOARD):
        x[SHOWN_AT + i] = x[BOARDS_AT + i]


@_compiled
def _start_week(e: Ints, x: Ints) -> None:
    """Each seat draws a hand: from the deck, then from its own shuffled discard pile."""
    x[T_WEEK] += 1
    x[T_ROUND] = 1
    size = e[Z_HAND]
    deck = e[H_DECK]
    for s in range(x[T_PLAYERS]):
        a = SEATS_AT + s * SEAT
        hand = e[H_HANDS] + s * size
        take = min(size, x[T_DECK_LEN] - x[T_DECK_HEAD])
        for i in range(take):
            x[hand + i] = x[deck + x[T_DECK_HEAD] + i]
        x[T_DECK_HEAD] += take
        missing = size - take
        if missing:
            discard = e[H_DISCARDS] + s * e[Z_CARDS]
            pile = x[discard : discard + x[a + S_DISCARD]].copy()
            x[T_RNG] = shuffle(pile, x[T_RNG])
            got = min(missing, len(pile))
            for i in range(got):
                x[hand + take + i] = pile[i]
            rest = len(pile) - got
            for i in range(rest):
                x[discard + i] = pile[got + i]
            x[a + S_DISCARD] = rest
            take += got
        x[a + S_HAND] = take
    x[T_PHASE] = P_PICK
    x[T_ACTIVE] = _everyone(x)


@_compiled
def _resolve_lead(x: Ints) -> None:
    for s in range(x[T_PLAYERS]):
        x[BOARDS_AT + s * BOARD + B_LEAD] = x[SEATS_AT + s * SEAT + S_PENDING]
    _show_boards(x)
    _clear_pending(x)
    x[T_PHASE] = P_KEEP
    x[T_ACTIVE] = _everyone(x)


@_compiled
def _resolve_keep(e: Ints, x: Ints) -> None:
    for s in range(x[T_PLAYERS]):
        a = SEATS_AT + s * SEAT
        x[a + S_PRIVATE] = x[a + S_PENDING]
        x[a + S_DEALT] = 0
    _clear_pending(x)
    _start_week(e, x)


@_compiled
def _resolve_picks(e: Ints, x: Ints) -> None:
    """Every pick is in: revealed, out of the hands, onto the discards; everyone marks."""
    for s in range(x[T_PLAYERS]):
        a = SEATS_AT + s * SEAT
        card = x[a + S_PENDING]
        x[a + S_PLAYED] = card
        x[a + S_REVEALED] = card
        hand = e[H_HANDS] + s * e[Z_HAND]
        at = 0
        while x[hand + at] != card:
            at += 1
        for i in range(at + 1, x[a + S_HAND]):
            x[hand + i - 1] = x[hand + i]
        x[a + S_HAND] -= 1
        x[e[H_DISCARDS] + s * e[Z_CARDS] + x[a + S_DISCARD]] = card
        x[a + S_DISCARD] += 1
    _clear_pending(x)
    x[T_PHASE] = P_MARK
    x[T_MARKING] = M_ROUND
    x[T_ACTIVE] = _everyone(x)


@_compiled
def _end_round(e: Ints, x: Ints, scratch: Ints) -> None:
    """End triggers checked; hands pass on, or the week ends and the weekend starts."""
    n = x[T_PLAYERS]
    for s in range(n):
        b = BOARDS_AT + s * BOARD
        if x[b + B_FAILS] >= e[Z_FAILS]:
            x[T_ENDING] = 1
        full = True
        for i in range(e[Z_SLOTS]):
            if x[b + B_CREW + i] == EMPTY:
                full = False
        if full:
            x[T_ENDING] = 1
    size = e[Z_HAND]
    hands = e[H_HANDS]
    if x[T_ROUND] < e[Z_PICKS]:
        step = 1 if x[T_WEEK] % 2 == 1 else -1  # odd weeks pass clockwise
        before = x[hands : hands + n * size].copy()
        counts = np.empty(n, np.int64)
        for s in range(n):
            counts[s] = x[SEATS_AT + s * SEAT + S_HAND]
        for s in range(n):
            source = (s - step) % n
            for i in range(size):
                x[hands + s * size + i] = before[source * size + i]
            x[SEATS_AT + s * SEAT + S_HAND] = counts[source]
        x[T_ROUND] += 1
        x[T_PHASE] = P_PICK
        x[T_ACTIVE] = _everyone(x)
        return
    for s in range(n):
        a = SEATS_AT + s * SEAT
        discard = e[H_DISCARDS] + s * e[Z_CARDS]
        for i in range(x[a + S_HAND]):
            x[discard + x[a + S_DISCARD] + i] = x[hands + s * size + i]
        x[a + S_DISCARD] += x[a + S_HAND]
        x[a + S_HAND] = 0
    x[T_GOAL_SLOT] = 0
    _weekend_next(e, x, scratch)


@_compiled
def _weekend_next(e: Ints, x: Ints, scratch: Ints) -> None:
    """The next public goal someone can claim is put to its claimants; then private goals."""
    n = x[T_PLAYERS]
    public = e[H_PUBLIC]
    while x[T_GOAL_SLOT] < e[Z_PUBLIC]:
        goal = x[public + x[T_GOAL_SLOT]]
        if goal != NONE:
            eligible = 0
            for s in range(n):
                if _can_claim(e, x, BOARDS_AT + s * BOARD, goal):
                    eligible |= 1 << s
            if eligible:
                x[T_PHASE] = P_CLAIM
                x[T_ACTIVE] = eligible
                return
            x[public + x[T_GOAL_SLOT]] = NONE
        x[T_GOAL_SLOT] += 1
    eligible = 0
    for s in range(n):
        if (
            x[SEATS_AT + s * SEAT + S_PRIVATE] != NONE
            and x[BOARDS_AT + s * BOARD + B_NGOALS] < e[Z_GOAL_BOXES]
        ):
            eligible |= 1 << s
    if not eligible:
        _end_weekend(e, x)
        return
    x[T_PHASE] = P_PRIVATE
    # seats that pass unmeetable private goals without asking leave unasked
    for s in range(n):
        a = SEATS_AT + s * SEAT
        if (
            eligible >> s & 1
            and x[a + S_SETTINGS] & 1
            and not _can_claim(e, x, BOARDS_AT + s * BOARD, x[a + S_PRIVATE])
        ):
            eligible &= ~(1 << s)
    x[T_ACTIVE] = eligible
    if not eligible:
        _resolve_private(e, x, scratch)


@_compiled
def _claim(e: Ints, x: Ints, s: int, goal: int, scratch: Ints) -> bool:
    """Seat ``s`` claims ``goal``: written on its board, its bonus used as far as it goes; true
    if a bonus waits for the seat's choice."""
    b = BOARDS_AT + s * BOARD
    x[b + B_GOALS + x[b + B_NGOALS]] = goal
    x[b + B_NGOALS] += 1
    x[SEATS_AT + s * SEAT + S_QUEUE] = 0
    _push(x, s, e[e[O_GOAL_BONUS] + goal])
    _resolve(e, x, s, scratch)
    if x[b + B_NGOALS] >= e[Z_GOAL_BOXES]:
        x[T_ENDING] = 1
    return bool(x[SEATS_AT + s * SEAT + S_QUEUE] > 0)


@_compiled
def _claimants_mark(x: Ints, marking: int, reason: int) -> bool:
    """Claims written: boards shown, choices cleared; the claimants with a bonus to place
    (``marking``, a bit per seat) mark it, for ``reason`` (true), or nobody does (false)."""
    _show_boards(x)
    _clear_pending(x)
    if not marking:
        return False
    x[T_PHASE] = P_MARK
    x[T_MARKING] = reason
    x[T_ACTIVE] = marking
    return True


@_compiled
def _resolve_claims(e: Ints, x: Ints, scratch: Ints) -> None:
    slot = e[H_PUBLIC] + x[T_GOAL_SLOT]
    goal = x[slot]
    marking = 0
    for s in range(x[T_PLAYERS]):
        if x[SEATS_AT + s * SEAT + S_PENDING] == 1:
            x[slot] = NONE
            if _claim(e, x, s, goal, scratch):
                marking |= 1 << s
    if not _claimants_mark(x, marking, M_PUBLIC):
        x[T_GOAL_SLOT] += 1
        _weekend_next(e, x, scratch)


@_compiled
def _resolve_private(e: Ints, x: Ints, scratch: Ints) -> None:
    marking = 0
    for s in range(x[T_PLAYERS]):
        a = SEATS_AT + s * SEAT
        if x[a + S_PENDING] == 1:
            goal = x[a + S_PRIVATE]
            x[a + S_PRIVATE] = NONE
            if _claim(e, x, s, goal, scratch):
                marking |= 1 << s
    if not _claimants_mark(x, marking, M_PRIVATE):
        _end_weekend(e, x)


@_compiled
def _end_weekend(e: Ints, x: Ints) -> None:
    """Public goals refilled; the game ends or a new week starts."""
    public = e[H_PUBLIC]
    for i in range(e[Z_PUBLIC]):
        if x[public + i] == NONE and x[T_GDECK_HEAD] < x[T_GDECK_LEN]:
            x[public + i] = x[e[H_GOAL_DECK] + x[T_GDECK_HEAD]]
            x[T_GDECK_HEAD] += 1
    x[T_GOAL_SLOT] = 0
    if x[T_ENDING]:
        _finish(e, x)
    else:
        _start_week(e, x)


@_compiled
def _finish(e: Ints, x: Ints) -> None:
    """The game ends: each missing crew member ticks a fail box (no bonus from those ticks)."""
    limit = e[Z_FAILS]
    for s in range(x[T_PLAYERS]):
        b = BOARDS_AT + s * BOARD
        missing = 0
        for i in range(e[Z_SLOTS]):
            if x[b + B_CREW + i] == EMPTY:
                missing += 1
        if missing and x[b + B_FAILS] < limit:
            x[b + B_FAILS] = min(limit, x[b + B_FAILS] + missing)
        x[SEATS_AT + s * SEAT + S_HAND] = 0
    _show_boards(x)
    x[T_PHASE] = P_OVER
    x[T_ACTIVE] = 0


@_compiled
def _end_marking(e: Ints, x: Ints, scratch: Ints) -> None:
    """Every marking seat is done: boards shown; the step that asked for marking goes on."""
    _show_boards(x)
    for s in range(x[T_PLAYERS]):
        x[SEATS_AT + s * SEAT + S_PLAYED] = NONE
        x[SEATS_AT + s * SEAT + S_UNDOS] = 0
    x[T_CHOSE] = 0
    reason = x[T_MARKING]
    x[T_MARKING] = M_NONE
    if reason == M_ROUND:
        _end_round(e, x, scratch)
    elif reason == M_PUBLIC:
        x[T_GOAL_SLOT] += 1
        _weekend_next(e, x, scratch)
    else:
        _end_weekend(e, x)


# -- a step ----------------------------------------------------------------------------------------


@_compiled
def _mark(e: Ints, x: Ints, s: int, action: int, scratch: Ints) -> None:
    """Seat ``s`` marks its card, or uses its first bonus, as ``action`` says."""
    kind = e[e[O_ACT_KIND] + action]
    a = SEATS_AT + s * SEAT
    if kind == K_BONUS:
        code = _pop_front(x, s)
        _gain(e, x, s, code, e[e[O_ACT_B] + action])
    else:
        card = x[a + S_PLAYED]
        x[a + S_PLAYED] = NONE
        if kind == K_FAIL:
            _tick_fail(e, x, s)
        elif kind == K_CREW:
            _place_crew(e, x, s, card, e[e[O_ACT_A] + action], e[e[O_ACT_B] + action])
        elif kind == K_AGENDA:
            _tick_agenda(e, x, s, e[e[O_ACT_A] + action])
        else:
            _tick_asset(e, x, s, e[e[O_ACT_A] + action])
    if x[a + S_QUEUE]:
        _resolve(e, x, s, scratch)
    if x[a + S_QUEUE] or x[T_MARKING] == M_ROUND:
        return
    x[T_ACTIVE] &= ~(1 << s)
    if not x[T_ACTIVE]:
        _end_marking(e, x, scratch)


@_compiled
def _step(e: Ints, x: Ints, legal: Ints, action: int, scratch: Ints) -> None:
    """The acting seat plays ``action``, one of its legal indices (``legal``)."""
    s = x[T_SEAT]
    phase = x[T_PHASE]
    kind = e[e[O_ACT_KIND] + action]
    a = SEATS_AT + s * SEAT
    if phase != P_MARK:
        if kind == K_CLAIM:
            x[a + S_PENDING] = 1
        elif kind == K_PASS:
            x[a + S_PENDING] = 0
        else:
            x[a + S_PENDING] = e[e[O_ACT_A] + action]
        x[T_ACTIVE] &= ~(1 << s)
        if x[T_ACTIVE]:
            return
        if phase == P_PICK:
            _resolve_picks(e, x)
        elif phase == P_LEAD:
            _resolve_lead(x)
        elif phase == P_KEEP:
            _resolve_keep(e, x)
        elif phase == P_CLAIM:
            _resolve_claims(e, x, scratch)
        else:
            _resolve_private(e, x, scratch)
        return
    if kind == K_UNDO:
        b = BOARDS_AT + s * BOARD
        for i in range(BOARD):
            x[b + i] = x[SHOWN_AT + s * BOARD + i]
        x[a + S_PLAYED] = x[a + S_REVEALED]
        x[a + S_QUEUE] = 0
        x[a + S_UNDOS] += 1
        x[T_CHOSE] &= ~(1 << s)
        return
    if kind == K_DONE:
        x[T_ACTIVE] &= ~(1 << s)
        if not x[T_ACTIVE]:
            _end_marking(e, x, scratch)
        return
    n = x[T_NLEGAL]
    if n - (1 if legal[n - 1] == e[e[O_I_BARE] + K_UNDO - K_FAIL] else 0) > 1:
        x[T_CHOSE] |= 1 << s
    _mark(e, x, s, action, scratch)


@_compiled
def step(
    e: Ints,
    xs: Ints,
    legal: Ints,
    history: npt.NDArray[np.int16],
    actions: Ints,
    acted: Ints,
    over: Ints,
) -> int:
    """Each row's acting seat plays ``actions[row]``: the seat into ``acted``, 1 into ``over``
    where the game ended (the row is left over, for the caller to start again). If an action is
    not legal in its row, nothing changes and that row is returned; else -1."""
    n = len(actions)
    for row in range(n):
        found = False
        for i in range(xs[row, T_NLEGAL]):
            if legal[row, i] == actions[row]:
                found = True
                break
        if not found:
            return row
    scratch = _scratch(e)
    for row in range(n):
        x = xs[row]
        acted[row] = x[T_SEAT]
        if x[T_STEPS] >= history.shape[1]:
            raise ValueError("records arrays: a game outlasted the engine's max_decisions")
        history[row, x[T_STEPS]] = actions[row]
        x[T_STEPS] += 1
        _step(e, x, legal[row], actions[row], scratch)
        if x[T_PHASE] == P_OVER:
            over[row] = 1
        else:
            over[row] = 0
            _after(e, x, legal[row], scratch)
    return -1


@_compiled
def final(e: Ints, x: Ints, out: Ints) -> None:
    """Per seat of a finished row: score, fail ticks and crew points (the winners' keys)."""
    for s in range(x[T_PLAYERS]):
        b = BOARDS_AT + s * BOARD
        out[s, 0] = _score(e, x, b)
        out[s, 1] = x[b + B_FAILS]
        out[s, 2] = _crew_points(e, x, b)


@_compiled
def random_actions(xs: Ints, legal: Ints, draws: npt.NDArray[np.float64], out: Ints) -> None:
    """One legal index per row: the ``int(draws[row] * count)``-th of its legal ones."""
    for row in range(len(out)):
        out[row] = legal[row, int(draws[row] * xs[row, T_NLEGAL])]


@_compiled
def masks(xs: Ints, legal: Ints, out: npt.NDArray[np.int8]) -> None:
    """The rows' dense 0/1 masks into ``out`` (zeroed first)."""
    out[:] = 0
    for row in range(out.shape[0]):
        for i in range(xs[row, T_NLEGAL]):
            out[row, legal[row, i]] = 1
