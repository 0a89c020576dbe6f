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
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError

from recordroom.games.records.kinds import BONUSES as BONUSES
from recordroom.games.records.kinds import CARD_KINDS as CARD_KINDS
from recordroom.games.records.kinds import HARMONY_OF as HARMONY_OF
from recordroom.games.records.kinds import NO_BONUS as NO_BONUS
from recordroom.games.records.kinds import bonus_name as _bonus_name

ROLES = ("singer", "musician", "producer", "backstage")
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
    """The name of a bonus code as shown to players (see :mod:`.kinds`)."""
    return _bonus_name(edition.colours, code)


def _one_of(options: tuple[str, ...], what: str) -> AfterValidator:
    def check(value: str) -> str:
        if value not in options:
            raise ValueError(f"unknown {what} {value!r}; known: {', '.join(options)}")
        return value

    return AfterValidator(check)


def _bonus_or_none(value: str) -> str:
    if value and value not in BONUSES:
        raise ValueError(f"unknown bonus {value!r}; bonuses: {', '.join(BONUSES)}")
    return value


_Text = Annotated[str, Field(min_length=1)]
_Bonus = Annotated[str, AfterValidator(_bonus_or_none)]
"""A bonus name, or ``""`` for none (a missing ``bonus`` is none too)."""
_Role = Annotated[str, _one_of(ROLES, "role")]
_GoalKind = Annotated[str, _one_of(GOAL_KINDS, "goal kind")]


class _Model(BaseModel):
    """An entry of the edition file: exact types (no "3" for 3, no true for 1), no unknown keys."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class _Head(_Model):
    name: _Text
    title: _Text
    colours: list[_Text] = Field(min_length=2)
    hand_size: int = Field(ge=2)
    picks_per_week: int = Field(ge=1)
    public_goals: int = Field(ge=1)
    private_goals_dealt: int = Field(ge=1)
    cards_per_player: int = Field(ge=1)


class _Fail(_Model):
    penalties: list[Annotated[int, Field(le=0)]] = Field(min_length=1)
    bonuses: list[_Bonus]


class _GoalsArea(_Model):
    boxes: int = Field(ge=1)


class _Line(_Model):
    name: _Text
    boxes: list[Annotated[int, Field(ge=0)]]
    bonus: _Bonus = ""


class _Agenda(_Model):
    rows: int = Field(ge=1)
    columns: int = Field(ge=1)
    lines: list[_Line]


class _Release(_Model):
    albums: list[_Bonus]
    singles: list[_Bonus]


class _Slot(_Model):
    role: _Role
    row: int = Field(ge=0)
    column: int = Field(ge=0)
    bonus: _Bonus = ""
    cash: bool = False


class _Crew(_Model):
    slots: list[_Slot] = Field(min_length=1)


class _Step(_Model):
    points: int = Field(ge=0)
    bonus: _Bonus = ""
    cash: bool = False


class _Tour(_Model):
    steps: list[_Step]


class _Multiplier(_Model):
    values: list[Annotated[int, Field(ge=2)]]


class _Assets(_Model):
    boxes: int = Field(ge=2)
    bonuses: list[_Bonus]


class _HarmonyBox(_Model):
    colour: _Text
    column: int = Field(ge=0)
    bonus: _Bonus = ""


class _Harmonies(_Model):
    columns: int = Field(ge=1)
    row_points: int = Field(ge=0)
    column_points: int = Field(ge=0)
    bonus_boxes: list[_HarmonyBox]


class _GoalCard(_Model):
    id: _Text
    name: _Text
    kind: _GoalKind
    n: int = Field(ge=1)
    points: int = Field(ge=0)
    bonus: _Bonus = ""
    role: _Role | None = None
    """Only for ``crew_role`` goals (and required there)."""
    colour: _Text | None = None
    """Only for ``harmony_colour`` goals (and required there)."""


class _Goals(_Model):
    cards: list[_GoalCard]


class _Card(_Model):
    id: _Text
    players: int = Field(ge=1)


class _CrewCard(_Card):
    role: _Role
    points: int = Field(ge=0)
    sides: list[_Text] = Field(min_length=4, max_length=4)
    """Colours of the top, right, bottom and left sides."""


class _Deck(_Model):
    crew: list[_CrewCard]
    agenda: list[_Card]
    asset: list[_Card]


class _Solo(_Model):
    goal_scale: float = Field(default=1.0, gt=0, le=1)


class _EditionFile(_Model):
    """The whole edition file, table by table (see ``editions/standard.toml``)."""

    edition: _Head
    fail: _Fail
    goals_area: _GoalsArea
    agenda: _Agenda
    release: _Release
    crew: _Crew
    tour: _Tour
    multiplier: _Multiplier
    assets: _Assets
    harmonies: _Harmonies
    goals: _Goals
    deck: _Deck
    solo: _Solo = _Solo()


def _where(loc: tuple[int | str, ...]) -> str:
    """A pydantic location as the file's path: ``goals.cards[3].points``."""
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def _id_at(data: Any, loc: tuple[int | str, ...]) -> str:
    """`` (C004)`` when the location is inside a card or goal that has a string id, else ``""``."""
    if len(loc) < 3 or loc[0] not in ("deck", "goals") or not isinstance(loc[2], int):
        return ""
    entry = data
    for part in loc[:3]:
        in_list = isinstance(part, int) and isinstance(entry, list) and 0 <= part < len(entry)
        in_table = isinstance(part, str) and isinstance(entry, Mapping) and part in entry
        if not (in_list or in_table):
            return ""
        entry = entry[part]
    found = entry.get("id") if isinstance(entry, Mapping) else None
    return f" ({found})" if isinstance(found, str) and found else ""


def _first_error(error: ValidationError, data: Any, source: str) -> EditionError:
    problems = error.errors(include_url=False)
    first = problems[0]
    loc = tuple(first["loc"])
    where = (_where(loc) or "edition file") + _id_at(data, loc)
    kind = first["type"]
    message = first["msg"].removeprefix("Value error, ").replace("Input should be", "must be")
    if kind == "missing":
        message = "missing"
    elif kind == "extra_forbidden":
        message = "unknown key"
    elif kind in ("model_type", "model_attributes_type", "dict_type"):
        message = "must be a table"
    if kind.endswith("_type"):
        shown = repr(first.get("input"))
        message += f", got {shown if len(shown) <= 40 else shown[:39] + '…'}"
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    return EditionError(f"{source}: {where}: {message}{more}")


def parse_edition(data: Mapping[str, Any], source: str = "edition") -> Edition:
    """An :class:`Edition` from parsed TOML data; :class:`EditionError` naming the bad entry.

    The pydantic models above check every table, key and type (``goals.cards[3].points: Input
    should be greater than or equal to 0``); the checks below are those that span entries (a
    colour the edition names, the deck per player count, cash restrictions)."""
    try:
        file = _EditionFile.model_validate(data)
    except ValidationError as error:
        raise _first_error(error, data, source) from None

    def fail(where: str, message: str) -> EditionError:
        return EditionError(f"{source}: {where}: {message}")

    def bonus(name: str) -> int:
        return BONUSES.index(name) if name else NO_BONUS

    head = file.edition
    colours = tuple(head.colours)
    if len(set(colours)) != len(colours):
        raise fail("edition.colours", "needs at least two distinct colours")

    def colour(name: str, where: str) -> int:
        if name not in colours:
            raise fail(where, f"unknown colour {name!r}; known: {', '.join(colours)}")
        return colours.index(name)

    if len(file.fail.bonuses) != len(file.fail.penalties):
        raise fail("fail.bonuses", "needs one entry per fail box")

    agenda = file.agenda
    lines = []
    for i, line in enumerate(agenda.lines):
        mask = 0
        for j, b in enumerate(line.boxes):
            if b >= agenda.rows * agenda.columns:
                raise fail(f"agenda.lines[{i}].boxes[{j}]", f"box {b} is not on the agenda")
            mask |= 1 << b
        lines.append(AgendaLine(line.name, mask, bonus(line.bonus)))

    restrictions: list[str] = []
    slots = []
    cells: dict[tuple[int, int], int] = {}
    for i, slot in enumerate(file.crew.slots):
        pos = (slot.row, slot.column)
        if pos in cells:
            raise fail(f"crew.slots[{i}]", f"row/column {pos} already used by slot {cells[pos]}")
        cells[pos] = i
        restriction = -1
        if slot.cash:
            restriction = len(restrictions)
            restrictions.append(f"crew {i + 1}")
        slots.append(
            CrewSlot(ROLES.index(slot.role), slot.row, slot.column, bonus(slot.bonus), restriction)
        )
    neighbours = []
    for slot_ in slots:
        touching = []
        for side, (dr, dc) in enumerate(((-1, 0), (0, 1), (1, 0), (0, -1))):
            other = cells.get((slot_.row + dr, slot_.column + dc))
            if other is not None:
                touching.append((side, other, (side + 2) % 4))
        neighbours.append(tuple(touching))

    steps = []
    for i, step in enumerate(file.tour.steps):
        restriction = -1
        if step.cash:
            restriction = len(restrictions)
            restrictions.append(f"tour {i + 1}")
        steps.append(TourStep(step.points, bonus(step.bonus), restriction))

    assets = file.assets
    if len(assets.bonuses) != assets.boxes - 1:
        raise fail("assets.bonuses", "needs one bonus between each two neighbouring boxes")

    harmonies = file.harmonies
    h_bonuses = [NO_BONUS] * (len(colours) * harmonies.columns)
    for i, box in enumerate(harmonies.bonus_boxes):
        where = f"harmonies.bonus_boxes[{i}]"
        row = colour(box.colour, f"{where}.colour")
        if box.column >= harmonies.columns:
            raise fail(f"{where}.column", f"column {box.column} is off the harmonies area")
        h_bonuses[row * harmonies.columns + box.column] = bonus(box.bonus)

    goals = []
    goal_by_id: dict[str, int] = {}
    for i, g in enumerate(file.goals.cards):
        where = f"goals.cards[{i}]"
        if g.id in goal_by_id:
            raise fail(f"{where}.id", f"duplicate goal id {g.id!r}")
        goal_by_id[g.id] = i
        role = goal_colour = -1
        if g.kind == "crew_role":
            if g.role is None:
                raise fail(f"{where}.role", f"missing: a crew_role goal ({g.id}) names a role")
            role = ROLES.index(g.role)
        if g.kind == "harmony_colour":
            if g.colour is None:
                raise fail(f"{where}.colour", f"missing: a harmony_colour goal ({g.id}) names one")
            goal_colour = colour(g.colour, f"{where}.colour")
        goals.append(
            Goal(i, g.id, g.name, g.kind, g.n, g.points, bonus(g.bonus), role, goal_colour)
        )

    cards: list[Card] = []
    card_by_id: dict[str, int] = {}
    deck = file.deck
    for kind, entries in (("crew", deck.crew), ("agenda", deck.agenda), ("asset", deck.asset)):
        for i, c in enumerate(entries):
            where = f"deck.{kind}[{i}]"
            if c.id in card_by_id:
                raise fail(f"{where}.id", f"duplicate card id {c.id!r}")
            index = len(cards)
            card_by_id[c.id] = index
            if not isinstance(c, _CrewCard):
                cards.append(Card(index, c.id, c.players, kind))
                continue
            s = tuple(colour(x, f"{where}.sides[{j}]") for j, x in enumerate(c.sides))
            role = ROLES.index(c.role)
            cards.append(
                Card(index, c.id, c.players, kind, role, c.points, (s[0], s[1], s[2], s[3]))
            )

    edition = Edition(
        name=head.name,
        title=head.title,
        colours=colours,
        hand_size=head.hand_size,
        picks_per_week=head.picks_per_week,
        public_goals=head.public_goals,
        private_goals_dealt=head.private_goals_dealt,
        cards_per_player=head.cards_per_player,
        fail_penalties=tuple(file.fail.penalties),
        fail_bonuses=tuple(bonus(b) for b in file.fail.bonuses),
        goal_boxes=file.goals_area.boxes,
        agenda_rows=agenda.rows,
        agenda_columns=agenda.columns,
        agenda_lines=tuple(lines),
        album_bonuses=tuple(bonus(b) for b in file.release.albums),
        single_bonuses=tuple(bonus(b) for b in file.release.singles),
        crew_slots=tuple(slots),
        tour_steps=tuple(steps),
        multipliers=tuple(file.multiplier.values),
        asset_boxes=assets.boxes,
        asset_bonuses=tuple(bonus(b) for b in assets.bonuses),
        harmony_columns=harmonies.columns,
        harmony_row_points=harmonies.row_points,
        harmony_column_points=harmonies.column_points,
        harmony_bonuses=tuple(h_bonuses),
        restrictions=tuple(restrictions),
        goals=tuple(goals),
        cards=tuple(cards),
        neighbours=tuple(neighbours),
        card_by_id=card_by_id,
        goal_by_id=goal_by_id,
        solo_goal_scale=float(file.solo.goal_scale),
    )
    _check_counts(edition, fail)
    return edition


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


def _check_counts(edition: Edition, fail: Callable[[str, str], EditionError]) -> None:
    """Cross-entry checks: the deck per player count, the hand size and the goal supply."""
    if edition.picks_per_week >= edition.hand_size:
        raise fail("edition.picks_per_week", "must be smaller than hand_size")
    for players in range(1, 7):
        count = sum(1 for c in edition.cards if c.players == players)
        if count != edition.cards_per_player:
            raise fail(
                "deck",
                f"{count} cards carry the mark players = {players}, "
                f"expected cards_per_player = {edition.cards_per_player}",
            )
    for g in edition.goals:
        if g.kind == "cash" and g.n > len(edition.restrictions):
            raise fail(f"goals.cards[{g.index}].n", f"{g.id} needs more cash removals than exist")
    needed = edition.public_goals + 6 * edition.private_goals_dealt
    if len(edition.goals) < needed:
        raise fail("goals.cards", f"{len(edition.goals)} goals; 6 players need {needed}")
    if edition.cards and all(
        c.kind != "crew" or c.role != ROLES.index("singer") for c in edition.cards
    ):
        raise fail("deck.crew", "no singer card: the lead singer slot could never be filled")


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
