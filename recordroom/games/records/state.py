"""The state of a Records game: a slotted value holding the whole table, and its JSON form.

States are never changed once another caller may hold them: the rules copy a state
(:meth:`State.copy`), change only the fields a step touches, and return the copy. Per-seat data
are tuples indexed by seat; boards are shared between states until a player marks theirs.
"""

from __future__ import annotations

import json
from typing import Any

from recordroom.engine.errors import BadState
from recordroom.games.records.board import Board

NONE = -1

_INT_TUPLES = ("deck", "pending", "played", "goal_deck", "public", "private", "revealed", "claims")
_NESTED = ("discards", "hands", "queues", "dealt")


class State:
    """Everything on the table. ``active`` is the set of seats that must act now."""

    __slots__ = (
        "active",
        "boards",
        "claims",
        "dealt",
        "deck",
        "discards",
        "edition",
        "ending",
        "goal_deck",
        "goal_slot",
        "hands",
        "legal_cache",
        "marking_for",
        "option",
        "pending",
        "phase",
        "played",
        "players",
        "private",
        "public",
        "queues",
        "revealed",
        "rng",
        "round",
        "shown",
        "triggers",
        "turn",
        "week",
    )

    players: int
    edition: str
    rng: int
    phase: str
    active: frozenset[int]
    week: int
    round: int
    turn: int
    deck: tuple[int, ...]
    discards: tuple[tuple[int, ...], ...]
    hands: tuple[tuple[int, ...], ...]
    pending: tuple[int, ...]
    played: tuple[int, ...]
    queues: tuple[tuple[int, ...], ...]
    boards: tuple[Board, ...]
    shown: tuple[Board, ...]
    goal_deck: tuple[int, ...]
    public: tuple[int, ...]
    goal_slot: int
    dealt: tuple[tuple[int, ...], ...]
    private: tuple[int, ...]
    revealed: tuple[int, ...]
    claims: tuple[int, ...]
    triggers: tuple[str, ...]
    ending: bool
    marking_for: str
    option: str
    legal_cache: dict[int, tuple[dict[str, Any], ...]]

    def copy(self) -> State:
        """A shallow copy with an empty legal-action cache."""
        s = State.__new__(State)
        for name in State.__slots__:
            setattr(s, name, getattr(self, name))
        s.legal_cache = {}
        return s

    def to_json(self) -> dict[str, Any]:
        """Every field but the cache, JSON-safe."""
        out: dict[str, Any] = {
            "players": self.players,
            "edition": self.edition,
            "rng": self.rng,
            "phase": self.phase,
            "active": sorted(self.active),
            "week": self.week,
            "round": self.round,
            "turn": self.turn,
            "goal_slot": self.goal_slot,
            "triggers": list(self.triggers),
            "ending": self.ending,
            "marking_for": self.marking_for,
            "option": self.option,
            "boards": [b.to_json() for b in self.boards],
            "shown": [b.to_json() for b in self.shown],
        }
        for name in _INT_TUPLES:
            out[name] = list(getattr(self, name))
        for name in _NESTED:
            out[name] = [list(x) for x in getattr(self, name)]
        return out


def dumps(state: State) -> str:
    """The state as compact JSON text."""
    return json.dumps(state.to_json(), separators=(",", ":"), sort_keys=True)


def _ints(value: Any, name: str) -> tuple[int, ...]:
    if not isinstance(value, list) or any(
        not isinstance(v, int) or isinstance(v, bool) for v in value
    ):
        raise BadState(f"records state: {name} must be a list of integers")
    return tuple(value)


def loads(text: str) -> State:
    """The state written by :func:`dumps`; :class:`BadState` on anything else."""
    try:
        data = json.loads(text)
    except (TypeError, ValueError) as error:
        raise BadState(f"records state: not JSON ({error})") from None
    if not isinstance(data, dict):
        raise BadState("records state: expected a JSON object")
    try:
        s = State.__new__(State)
        s.players = data["players"]
        s.edition = data["edition"]
        s.rng = data["rng"]
        s.phase = data["phase"]
        s.active = frozenset(_ints(data["active"], "active"))
        s.week = data["week"]
        s.round = data["round"]
        s.turn = data["turn"]
        s.goal_slot = data["goal_slot"]
        s.triggers = tuple(str(t) for t in data["triggers"])
        s.ending = bool(data["ending"])
        s.marking_for = str(data["marking_for"])
        s.option = str(data["option"])
        s.boards = tuple(Board.from_json(b) for b in data["boards"])
        s.shown = tuple(Board.from_json(b) for b in data["shown"])
        for name in _INT_TUPLES:
            setattr(s, name, _ints(data[name], name))
        for name in _NESTED:
            value = data[name]
            if not isinstance(value, list):
                raise BadState(f"records state: {name} must be a list")
            setattr(s, name, tuple(_ints(x, name) for x in value))
        for name in ("players", "rng", "week", "round", "turn", "goal_slot"):
            if not isinstance(getattr(s, name), int):
                raise BadState(f"records state: {name} must be an integer")
        if not isinstance(s.phase, str) or not isinstance(s.edition, str):
            raise BadState("records state: phase and edition must be strings")
        n = s.players
        if not 1 <= n <= 6 or any(
            len(getattr(s, name)) != n
            for name in ("boards", "shown", "pending", "played", "hands", "discards", "queues")
        ):
            raise BadState("records state: per-seat fields do not match the player count")
    except BadState:
        raise
    except (KeyError, TypeError, ValueError) as error:
        raise BadState(f"records state: unreadable ({error!r})") from None
    s.legal_cache = {}
    return s
