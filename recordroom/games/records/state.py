"""The state of a Records game: one frozen value holding the whole table, and its JSON form.

:class:`State` is a frozen, slotted dataclass, compared field by field. Its fields are listed
once, below; the copy the rules change (a :class:`Draft`, made by ``State.thaw()`` and turned into
the next state by ``Draft.freeze()``), ``_replace`` (see :mod:`recordroom.engine.values`),
equality and :func:`dumps` / :func:`loads` are all derived from that list, so a new field is one
line here plus its codec if its type is new (codecs are chosen by type at import, and an unknown
type fails there).
Per-seat data are tuples indexed by seat; boards are shared between states until a player marks
theirs. Nothing is cached inside a state: memos live outside values (:mod:`.memo`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, fields
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import orjson

from recordroom.engine.errors import BadState
from recordroom.engine.values import with_draft
from recordroom.games.records.board import Board
from recordroom.games.records.kinds import Marking, Phase

NONE = -1

Event = dict[str, Any]


@with_draft
@dataclass(frozen=True, slots=True)
class State:
    """Everything on the table. ``active`` is the set of seats that must act now."""

    players: int
    edition: str
    rng: int
    phase: Phase
    active: frozenset[int]
    week: int
    round: int
    turn: int
    goal_slot: int
    triggers: tuple[str, ...]
    ending: bool
    marking_for: Marking
    option: str
    deck: tuple[int, ...]
    pending: tuple[int, ...]
    played: tuple[int, ...]
    goal_deck: tuple[int, ...]
    public: tuple[int, ...]
    private: tuple[int, ...]
    revealed: tuple[int, ...]
    claims: tuple[int, ...]
    discards: tuple[tuple[int, ...], ...]
    hands: tuple[tuple[int, ...], ...]
    queues: tuple[tuple[int, ...], ...]
    dealt: tuple[tuple[int, ...], ...]
    boards: tuple[Board, ...]
    shown: tuple[Board, ...]
    """The boards as the other seats see them (as they were when the current marking began)."""
    undos: tuple[int, ...]
    """Per seat: undos used in the current marking step."""
    chose: int
    """Bit per seat: it had a choice (two or more legal actions) in the current marking step."""
    settings: tuple[int, ...]
    """Per seat: bit 0 set = pass, without asking, a private goal it cannot meet (the default)."""
    causes: tuple[tuple[str, ...], ...]
    """Per seat: what earned each bonus of its queue (a label per entry of ``queues``)."""
    hidden: tuple[tuple[Event, ...], ...]
    """Per seat: its events of the current marking step, shown to others once all are done."""
    log: tuple[Event, ...]
    """The public events of the whole game, oldest first (see :mod:`.events`)."""

    if TYPE_CHECKING:  # derived from the fields by ``with_draft``

        def thaw(self) -> Draft: ...

        def _replace(self, **changes: Any) -> State: ...


if TYPE_CHECKING:

    class Draft:
        """A state being changed: State's fields, mutable (this declaration is for the type
        checker; the class itself is built from State's fields)."""

        players: int
        edition: str
        rng: int
        phase: Phase
        active: frozenset[int]
        week: int
        round: int
        turn: int
        goal_slot: int
        triggers: tuple[str, ...]
        ending: bool
        marking_for: Marking
        option: str
        deck: tuple[int, ...]
        pending: tuple[int, ...]
        played: tuple[int, ...]
        goal_deck: tuple[int, ...]
        public: tuple[int, ...]
        private: tuple[int, ...]
        revealed: tuple[int, ...]
        claims: tuple[int, ...]
        discards: tuple[tuple[int, ...], ...]
        hands: tuple[tuple[int, ...], ...]
        queues: tuple[tuple[int, ...], ...]
        dealt: tuple[tuple[int, ...], ...]
        boards: tuple[Board, ...]
        shown: tuple[Board, ...]
        undos: tuple[int, ...]
        chose: int
        settings: tuple[int, ...]
        causes: tuple[tuple[str, ...], ...]
        hidden: tuple[tuple[Event, ...], ...]
        log: tuple[Event, ...]

        def freeze(self) -> State: ...

else:
    Draft = State.Draft


# -- the JSON form, derived from the fields ------------------------------------------------------


@lru_cache(maxsize=256)
def _json(value: str | tuple[str, ...]) -> str:
    # Memoised: a handful of phase names, edition names and trigger lists.
    return json.dumps(value)


@lru_cache(maxsize=8192)
def _list(seq: tuple[int, ...]) -> str:
    # Memoised: the deck, the goal deck and the discards stay the same over many states.
    return f"[{','.join(map(str, seq))}]"


@lru_cache(maxsize=8192)
def _nested(seq: tuple[tuple[int, ...], ...]) -> str:
    return f"[{','.join(map(_list, seq))}]"


def _compact(value: Any) -> str:
    # orjson writes the same compact text as json.dumps(separators=(",", ":")) for the ASCII
    # strings, ints and lists of events and hands, five to ten times faster.
    return orjson.dumps(value).decode()


_INT = frozenset({int})


def _int(value: Any, name: str) -> int:
    if type(value) is not int:
        raise BadState(f"records state: {name} must be an integer")
    return value


def _str(value: Any, name: str) -> str:
    if not isinstance(value, str):
        raise BadState(f"records state: {name} must be a string")
    return value


def _ints(value: Any, name: str) -> tuple[int, ...]:
    if type(value) is not list or not _INT.issuperset(map(type, value)):
        raise BadState(f"records state: {name} must be a list of integers")
    return tuple(value)


def _lists(value: Any, name: str) -> list[Any]:
    if not isinstance(value, list):
        raise BadState(f"records state: {name} must be a list")
    return value


def _event(value: Any) -> Event:
    if type(value) is not dict or not isinstance(value.get("type"), str):
        raise BadState("records state: an event is an object with a type")
    return value


def _enum(kind: type[Phase] | type[Marking]) -> Callable[[Any, str], Any]:
    def read(value: Any, name: str) -> Any:
        try:
            return kind(value)
        except ValueError:
            raise BadState(f"records state: {name} {value!r} is not a {kind.__name__}") from None

    return read


Codec = tuple[Callable[[Any], str], Callable[[Any, str], Any]]
"""How a field is written (value -> JSON text) and read (JSON value, field name -> value)."""

_CODECS: dict[str, Codec] = {
    "int": (str, _int),
    "str": (_json, _str),
    "bool": (lambda v: "true" if v else "false", lambda v, n: bool(v)),
    "Phase": (_json, _enum(Phase)),
    "Marking": (_json, _enum(Marking)),
    "frozenset[int]": (lambda v: _list(tuple(sorted(v))), lambda v, n: frozenset(_ints(v, n))),
    "tuple[int, ...]": (_list, _ints),
    "tuple[str, ...]": (_json, lambda v, n: tuple(str(x) for x in _lists(v, n))),
    "tuple[tuple[int, ...], ...]": (
        _nested,
        lambda v, n: tuple(_ints(x, n) for x in _lists(v, n)),
    ),
    "tuple[tuple[str, ...], ...]": (
        _compact,
        lambda v, n: tuple(tuple(str(c) for c in _lists(x, n)) for x in _lists(v, n)),
    ),
    "tuple[Event, ...]": (_compact, lambda v, n: tuple(_event(e) for e in _lists(v, n))),
    "tuple[tuple[Event, ...], ...]": (
        _compact,
        lambda v, n: tuple(tuple(_event(e) for e in _lists(x, n)) for x in _lists(v, n)),
    ),
    "tuple[Board, ...]": (
        lambda v: f"[{','.join(b.text() for b in v)}]",
        lambda v, n: tuple(Board.from_json(b) for b in _lists(v, n)),
    ),
}
_FIELDS: tuple[tuple[str, Codec], ...] = tuple(
    (f.name, _CODECS[str(f.type)]) for f in fields(State)
)
_PER_SEAT = (
    "boards",
    "shown",
    "pending",
    "played",
    "hands",
    "discards",
    "queues",
    "causes",
    "hidden",
    "undos",
    "settings",
)
"""Fields with one entry per seat."""


def dumps(state: State) -> str:
    """The state as compact JSON text, one key per field in the order of the fields.

    Each board's text is built once per board value and reused. A shown board that is the seat's
    own board (the usual case: nobody is marking) is written ``null``; :func:`loads` restores it.
    """
    parts = []
    for name, (write, _) in _FIELDS:
        if name == "shown":
            text = ",".join(
                "null" if b is own or b == own else b.text()
                for b, own in zip(state.shown, state.boards, strict=True)
            )
            parts.append(f'"shown":[{text}]')
        else:
            parts.append(f'"{name}":{write(getattr(state, name))}')
    return "{" + ",".join(parts) + "}"


def loads(text: str) -> State:
    """The state written by :func:`dumps`; :class:`BadState` on anything else."""
    try:
        data = orjson.loads(text)
    except (TypeError, ValueError) as error:
        raise BadState(f"records state: not JSON ({error})") from None
    if not isinstance(data, dict):
        raise BadState("records state: expected a JSON object")
    try:
        values: dict[str, Any] = {}
        for name, (_, read) in _FIELDS:
            if name == "shown":
                shown = _lists(data["shown"], "shown")
                boards = values["boards"]
                if len(shown) != len(boards):
                    raise BadState("records state: shown needs one entry per board")
                values["shown"] = tuple(
                    own if b is None else Board.from_json(b)
                    for b, own in zip(shown, boards, strict=True)
                )
            else:
                values[name] = read(data[name], name)
        state = State(**values)
        n = state.players
        if not 1 <= n <= 6 or any(len(values[name]) != n for name in _PER_SEAT):
            raise BadState("records state: per-seat fields do not match the player count")
    except BadState:
        raise
    except (KeyError, TypeError, ValueError) as error:
        raise BadState(f"records state: unreadable ({error!r})") from None
    return state
