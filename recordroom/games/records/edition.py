"""The edition: the player board, the deck and the goal cards, read from a TOML data file.

The rules code holds no card or board lists: everything it needs comes from an :class:`Edition`,
loaded by :func:`load_edition` from ``editions/<name>.toml`` and validated on the way in. A content
error raises :class:`EditionError` naming the file and the entry (``deck.crew[3] (C004): ...``).

Indices are what the rules use (cards, goals, slots, boxes are numbered from 0); ids and names are
what players, actions and views see.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources
from typing import Any

ROLES = ("singer", "musician", "producer", "backstage")
CARD_KINDS = ("crew", "agenda", "asset")
BONUSES = ("album", "single", "tour", "multiplier", "cash", "harmony", "agenda", "asset")
"""Bonus kinds an edition may print (a crew harmony of one colour is kind 8 + colour)."""
GOAL_KINDS = (
    "crew",
    "crew_role",
    "crew_points",
    "harmonies",
    "harmony_colour",
    "agenda",
    "agenda_lines",
    "assets",
    "asset_bonuses",
    "albums",
    "singles",
    "release",
    "tour",
    "multipliers",
    "cash",
)
NO_BONUS = -1
HARMONY_OF = 8
"""Bonus code of a harmony of colour c: ``HARMONY_OF + c``."""


class EditionError(ValueError):
    """The edition data is not valid; the message names the entry."""


@dataclass(frozen=True, slots=True)
class Card:
    """A game card: crew (role, points, side colours top/right/bottom/left), agenda or asset."""

    index: int
    id: str
    players: int
    kind: str
    role: int = -1
    points: int = 0
    sides: tuple[int, int, int, int] = (-1, -1, -1, -1)


@dataclass(frozen=True, slots=True)
class Goal:
    """A goal card: the board must reach ``n`` on the measure ``kind`` (of ``role``/``colour``)."""

    index: int
    id: str
    name: str
    kind: str
    n: int
    points: int
    bonus: int = NO_BONUS
    role: int = -1
    colour: int = -1


@dataclass(frozen=True, slots=True)
class CrewSlot:
    """One of the crew slots; ``restriction`` is its cash restriction's index, or -1."""

    role: int
    row: int
    column: int
    bonus: int
    restriction: int


@dataclass(frozen=True, slots=True)
class TourStep:
    """One step of the tour; ``restriction`` is its cash restriction's index, or -1."""

    points: int
    bonus: int
    restriction: int


@dataclass(frozen=True, slots=True)
class AgendaLine:
    """A row, column or diagonal of the agenda and the bonus its completion earns."""

    name: str
    mask: int
    bonus: int


@dataclass(frozen=True)
class Edition:
    """Everything the rules need to know about one edition, typed and validated."""

    name: str
    title: str
    colours: tuple[str, ...]
    hand_size: int
    picks_per_week: int
    public_goals: int
    private_goals_dealt: int
    cards_per_player: int
    fail_penalties: tuple[int, ...]
    fail_bonuses: tuple[int, ...]
    goal_boxes: int
    agenda_rows: int
    agenda_columns: int
    agenda_lines: tuple[AgendaLine, ...]
    album_bonuses: tuple[int, ...]
    single_bonuses: tuple[int, ...]
    crew_slots: tuple[CrewSlot, ...]
    tour_steps: tuple[TourStep, ...]
    multipliers: tuple[int, ...]
    asset_boxes: int
    asset_bonuses: tuple[int, ...]
    harmony_columns: int
    harmony_row_points: int
    harmony_column_points: int
    harmony_bonuses: tuple[int, ...]
    """Bonus of each harmony box (row = colour, box = colour * columns + column)."""
    restrictions: tuple[str, ...]
    """Names of the cash restrictions, e.g. ``crew 4`` or ``tour 4`` (1-based for players)."""
    goals: tuple[Goal, ...]
    cards: tuple[Card, ...]
    neighbours: tuple[tuple[tuple[int, int, int], ...], ...]
    """Per crew slot: (side, neighbouring slot, that slot's touching side)."""
    card_by_id: Mapping[str, int]
    goal_by_id: Mapping[str, int]
    solo_goal_scale: float = 1.0
    """Solo games ask each goal for this share of its number, rounded up (``[solo] goal_scale``)."""

    @property
    def agenda_boxes(self) -> int:
        """Number of agenda boxes."""
        return self.agenda_rows * self.agenda_columns

    @property
    def harmony_boxes(self) -> int:
        """Number of harmony boxes."""
        return len(self.colours) * self.harmony_columns

    def deck_for(self, players: int) -> tuple[int, ...]:
        """The card indices used with that many players (marks above the count left out)."""
        return tuple(c.index for c in self.cards if c.players <= players)


def bonus_name(edition: Edition, code: int) -> str:
    """The name of a bonus code as shown to players."""
    if code >= HARMONY_OF:
        return f"harmony:{edition.colours[code - HARMONY_OF]}"
    return BONUSES[code]


class _Reader:
    """Small typed accessors that name the entry in every error."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str, message: str) -> EditionError:
        return EditionError(f"{self.source}: {where}: {message}")

    def table(self, data: Mapping[str, Any], key: str, where: str) -> Mapping[str, Any]:
        value = data.get(key)
        if not isinstance(value, Mapping):
            raise self.fail(f"{where}{key}", "missing table")
        return value

    def int_(self, data: Mapping[str, Any], key: str, where: str, low: int | None = None) -> int:
        value = data.get(key)
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.fail(where, f"{key} must be an integer, got {value!r}")
        if low is not None and value < low:
            raise self.fail(where, f"{key} must be at least {low}, got {value}")
        return value

    def str_(self, data: Mapping[str, Any], key: str, where: str) -> str:
        value = data.get(key)
        if not isinstance(value, str) or not value:
            raise self.fail(where, f"{key} must be a non-empty string, got {value!r}")
        return value

    def list_(self, data: Mapping[str, Any], key: str, where: str) -> list[Any]:
        value = data.get(key)
        if not isinstance(value, list):
            raise self.fail(where, f"{key} must be a list, got {value!r}")
        return value

    def bonus(self, value: Any, where: str) -> int:
        if value in ("", None):
            return NO_BONUS
        if value not in BONUSES:
            raise self.fail(where, f"unknown bonus {value!r}; bonuses: {', '.join(BONUSES)}")
        return BONUSES.index(value)

    def choice(self, value: Any, options: tuple[str, ...], what: str, where: str) -> int:
        if value not in options:
            raise self.fail(where, f"unknown {what} {value!r}; known: {', '.join(options)}")
        return options.index(value)


def parse_edition(data: Mapping[str, Any], source: str = "edition") -> Edition:
    """An :class:`Edition` from parsed TOML data; :class:`EditionError` naming the bad entry."""
    r = _Reader(source)
    head = r.table(data, "edition", "")
    name = r.str_(head, "name", "edition")
    colours = tuple(r.list_(head, "colours", "edition"))
    if len(colours) < 2 or len(set(colours)) != len(colours):
        raise r.fail("edition.colours", "needs at least two distinct colours")
    for c in colours:
        if not isinstance(c, str) or not c:
            raise r.fail("edition.colours", f"bad colour {c!r}")

    fail = r.table(data, "fail", "")
    penalties = tuple(r.list_(fail, "penalties", "fail"))
    if not penalties or any(not isinstance(p, int) or p > 0 for p in penalties):
        raise r.fail("fail.penalties", "must be a non-empty list of points <= 0")
    fail_bonuses = tuple(r.list_(fail, "bonuses", "fail"))
    if len(fail_bonuses) != len(penalties):
        raise r.fail("fail.bonuses", "needs one entry per fail box")

    agenda = r.table(data, "agenda", "")
    rows, columns = r.int_(agenda, "rows", "agenda", 1), r.int_(agenda, "columns", "agenda", 1)
    lines = []
    for i, line in enumerate(r.list_(agenda, "lines", "agenda")):
        where = f"agenda.lines[{i}]"
        boxes = r.list_(line, "boxes", where)
        mask = 0
        for b in boxes:
            if not isinstance(b, int) or not 0 <= b < rows * columns:
                raise r.fail(where, f"box {b!r} is not on the agenda")
            mask |= 1 << b
        lines.append(
            AgendaLine(r.str_(line, "name", where), mask, r.bonus(line.get("bonus"), where))
        )

    release = r.table(data, "release", "")
    albums = tuple(r.bonus(b, f"release.albums[{i}]") for i, b in enumerate(release["albums"]))
    singles = tuple(r.bonus(b, f"release.singles[{i}]") for i, b in enumerate(release["singles"]))

    restrictions: list[str] = []
    slots = []
    cells: dict[tuple[int, int], int] = {}
    for i, slot in enumerate(r.list_(r.table(data, "crew", ""), "slots", "crew")):
        where = f"crew.slots[{i}]"
        role = r.choice(slot.get("role"), ROLES, "role", where)
        pos = (r.int_(slot, "row", where, 0), r.int_(slot, "column", where, 0))
        if pos in cells:
            raise r.fail(where, f"row/column {pos} already used by slot {cells[pos]}")
        cells[pos] = i
        restriction = -1
        if slot.get("cash", False):
            restriction = len(restrictions)
            restrictions.append(f"crew {i + 1}")
        slots.append(CrewSlot(role, pos[0], pos[1], r.bonus(slot.get("bonus"), where), restriction))
    if not slots:
        raise r.fail("crew.slots", "needs at least one slot")
    neighbours = []
    for slot in slots:
        touching = []
        for side, (dr, dc) in enumerate(((-1, 0), (0, 1), (1, 0), (0, -1))):
            other = cells.get((slot.row + dr, slot.column + dc))
            if other is not None:
                touching.append((side, other, (side + 2) % 4))
        neighbours.append(tuple(touching))

    steps = []
    for i, step in enumerate(r.list_(r.table(data, "tour", ""), "steps", "tour")):
        where = f"tour.steps[{i}]"
        restriction = -1
        if step.get("cash", False):
            restriction = len(restrictions)
            restrictions.append(f"tour {i + 1}")
        points = r.int_(step, "points", where, 0)
        steps.append(TourStep(points, r.bonus(step.get("bonus"), where), restriction))

    multipliers = tuple(r.list_(r.table(data, "multiplier", ""), "values", "multiplier"))
    if any(not isinstance(v, int) or v < 2 for v in multipliers):
        raise r.fail("multiplier.values", "every multiplier must be an integer >= 2")

    assets = r.table(data, "assets", "")
    asset_boxes = r.int_(assets, "boxes", "assets", 2)
    asset_bonuses = tuple(
        r.bonus(b, f"assets.bonuses[{i}]")
        for i, b in enumerate(r.list_(assets, "bonuses", "assets"))
    )
    if len(asset_bonuses) != asset_boxes - 1:
        raise r.fail("assets.bonuses", "needs one bonus between each two neighbouring boxes")

    harmonies = r.table(data, "harmonies", "")
    h_columns = r.int_(harmonies, "columns", "harmonies", 1)
    h_bonuses = [NO_BONUS] * (len(colours) * h_columns)
    for i, box in enumerate(r.list_(harmonies, "bonus_boxes", "harmonies")):
        where = f"harmonies.bonus_boxes[{i}]"
        colour = r.choice(box.get("colour"), colours, "colour", where)
        column = r.int_(box, "column", where, 0)
        if column >= h_columns:
            raise r.fail(where, f"column {column} is off the harmonies area")
        h_bonuses[colour * h_columns + column] = r.bonus(box.get("bonus"), where)

    goals = []
    goal_by_id: dict[str, int] = {}
    for i, g in enumerate(r.list_(r.table(data, "goals", ""), "cards", "goals")):
        where = f"goals.cards[{i}]"
        gid = r.str_(g, "id", where)
        where = f"{where} ({gid})"
        if gid in goal_by_id:
            raise r.fail(where, "duplicate goal id")
        goal_by_id[gid] = i
        kind = GOAL_KINDS[r.choice(g.get("kind"), GOAL_KINDS, "goal kind", where)]
        role = r.choice(g.get("role"), ROLES, "role", where) if kind == "crew_role" else -1
        colour = -1
        if kind == "harmony_colour":
            colour = r.choice(g.get("colour"), colours, "colour", where)
        goals.append(
            Goal(
                i,
                gid,
                r.str_(g, "name", where),
                kind,
                r.int_(g, "n", where, 1),
                r.int_(g, "points", where, 0),
                r.bonus(g.get("bonus"), where),
                role,
                colour,
            )
        )

    cards: list[Card] = []
    card_by_id: dict[str, int] = {}
    deck = r.table(data, "deck", "")
    for kind in CARD_KINDS:
        for i, c in enumerate(r.list_(deck, kind, "deck")):
            where = f"deck.{kind}[{i}]"
            cid = r.str_(c, "id", where)
            where = f"{where} ({cid})"
            if cid in card_by_id:
                raise r.fail(where, "duplicate card id")
            index = len(cards)
            card_by_id[cid] = index
            players = r.int_(c, "players", where, 1)
            if kind != "crew":
                cards.append(Card(index, cid, players, kind))
                continue
            sides = c.get("sides")
            if not isinstance(sides, list) or len(sides) != 4:
                raise r.fail(where, "sides must list four colours (top, right, bottom, left)")
            s = tuple(r.choice(x, colours, "colour", where) for x in sides)
            role = r.choice(c.get("role"), ROLES, "role", where)
            cards.append(
                Card(
                    index,
                    cid,
                    players,
                    kind,
                    role,
                    r.int_(c, "points", where, 0),
                    (s[0], s[1], s[2], s[3]),
                )
            )

    edition = Edition(
        name=name,
        title=r.str_(head, "title", "edition"),
        colours=colours,
        hand_size=r.int_(head, "hand_size", "edition", 2),
        picks_per_week=r.int_(head, "picks_per_week", "edition", 1),
        public_goals=r.int_(head, "public_goals", "edition", 1),
        private_goals_dealt=r.int_(head, "private_goals_dealt", "edition", 1),
        cards_per_player=r.int_(head, "cards_per_player", "edition", 1),
        fail_penalties=penalties,
        fail_bonuses=tuple(r.bonus(b, f"fail.bonuses[{i}]") for i, b in enumerate(fail_bonuses)),
        goal_boxes=r.int_(r.table(data, "goals_area", ""), "boxes", "goals_area", 1),
        agenda_rows=rows,
        agenda_columns=columns,
        agenda_lines=tuple(lines),
        album_bonuses=albums,
        single_bonuses=singles,
        crew_slots=tuple(slots),
        tour_steps=tuple(steps),
        multipliers=multipliers,
        asset_boxes=asset_boxes,
        asset_bonuses=asset_bonuses,
        harmony_columns=h_columns,
        harmony_row_points=r.int_(harmonies, "row_points", "harmonies", 0),
        harmony_column_points=r.int_(harmonies, "column_points", "harmonies", 0),
        harmony_bonuses=tuple(h_bonuses),
        restrictions=tuple(restrictions),
        goals=tuple(goals),
        cards=tuple(cards),
        neighbours=tuple(neighbours),
        card_by_id=card_by_id,
        goal_by_id=goal_by_id,
        solo_goal_scale=_solo_scale(data, r),
    )
    _check_counts(edition, r)
    return edition


def _solo_scale(data: Mapping[str, Any], r: _Reader) -> float:
    solo = data.get("solo", {})
    if not isinstance(solo, Mapping):
        raise r.fail("solo", "must be a table")
    value = solo.get("goal_scale", 1.0)
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= 1:
        raise r.fail("solo", f"goal_scale must be a number above 0 and at most 1, got {value!r}")
    return float(value)


_SOLO: dict[int, tuple[Edition, Edition]] = {}


def for_players(edition: Edition, players: int) -> Edition:
    """The edition as a game of that many players uses it: a solo game's goals ask for
    ``solo_goal_scale`` of their number (rounded up, at least 1); other games use it as is.
    Built once per edition (the same object every time, as views and bots expect)."""
    if players != 1 or edition.solo_goal_scale == 1.0:
        return edition
    known = _SOLO.get(id(edition))
    if known is not None and known[0] is edition:
        return known[1]
    scale = edition.solo_goal_scale
    goals = tuple(replace(g, n=max(1, math.ceil(g.n * scale))) for g in edition.goals)
    solo = replace(edition, goals=goals)
    _SOLO[id(edition)] = (edition, solo)
    return solo


def _check_counts(edition: Edition, r: _Reader) -> None:
    """Cross-entry checks: the deck per player count, the hand size and the goal supply."""
    if edition.picks_per_week >= edition.hand_size:
        raise r.fail("edition.picks_per_week", "must be smaller than hand_size")
    for players in range(1, 7):
        count = sum(1 for c in edition.cards if c.players == players)
        if count != edition.cards_per_player:
            raise r.fail(
                "deck",
                f"{count} cards carry the mark players = {players}, "
                f"expected cards_per_player = {edition.cards_per_player}",
            )
    for g in edition.goals:
        if g.kind == "cash" and g.n > len(edition.restrictions):
            raise r.fail(f"goals.cards[{g.index}] ({g.id})", "needs more cash removals than exist")
    needed = edition.public_goals + 6 * edition.private_goals_dealt
    if len(edition.goals) < needed:
        raise r.fail("goals.cards", f"{len(edition.goals)} goals; 6 players need {needed}")
    if edition.cards and all(
        c.kind != "crew" or c.role != ROLES.index("singer") for c in edition.cards
    ):
        raise r.fail("deck.crew", "no singer card: the lead singer slot could never be filled")


def parse_text(text: str, source: str = "edition") -> Edition:
    """An :class:`Edition` from TOML text."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise EditionError(f"{source}: not valid TOML: {error}") from None
    return parse_edition(data, source)


@cache
def load_edition(name: str = "standard") -> Edition:
    """The named edition shipped in ``recordroom/games/records/editions``."""
    if not name.isidentifier():
        raise EditionError(f"no edition named {name!r}")
    path = resources.files("recordroom.games.records") / "editions" / f"{name}.toml"
    if not path.is_file():
        raise EditionError(f"no edition named {name!r}")
    return parse_text(path.read_text(encoding="utf-8"), f"{name}.toml")
