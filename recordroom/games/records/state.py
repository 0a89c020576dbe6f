"""The state of a Records game: a slotted value holding the whole table, and its JSON form.

States are never changed once another caller may hold them: the rules copy a state
(:meth:`State.copy`), change only the fields a step touches, and return the copy. Per-seat data
are tuples indexed by seat; boards are shared between states until a player marks theirs.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from recordroom.engine.errors import BadState
from recordroom.games.records.board import Board

NONE = -1
PUBLIC_VIEW = "public view"
"""The key of the public part of the view in :attr:`State.legal_cache`."""

_INT_TUPLES = ("deck", "pending", "played", "goal_deck", "public", "private", "revealed", "claims")
_NESTED = ("discards", "hands", "queues", "dealt")


class State:
    """Everything on the table. ``active`` is the set of seats that must act now."""

    __slots__ = (
        "active",
        "boards",
        "causes",
        "chose",
        "claims",
        "dealt",
        "deck",
        "discards",
        "edition",
        "ending",
        "goal_deck",
        "goal_slot",
        "hands",
        "hidden",
        "legal_cache",
        "log",
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
        "settings",
        "shown",
        "triggers",
        "turn",
        "undos",
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
    log: tuple[dict[str, Any], ...]
    """The public events of the whole game, oldest first (see :mod:`.events`)."""
    hidden: tuple[tuple[dict[str, Any], ...], ...]
    """Per seat: its events of the current marking step, shown to others once all are done."""
    causes: tuple[tuple[str, ...], ...]
    """Per seat: what earned each bonus of its queue (a label per entry of ``queues``)."""
    undos: tuple[int, ...]
    """Per seat: undos used in the current marking step."""
    chose: int
    """Bit per seat: it had a choice (two or more legal actions) in the current marking step."""
    settings: tuple[int, ...]
    """Per seat: bit 0 set = pass, without asking, a private goal it cannot meet (the default)."""
    legal_cache: dict[int | str, Any]
    """Per-state memo, emptied by :meth:`copy`: legal actions by seat, the public view at
    :data:`PUBLIC_VIEW`."""

    def copy(self) -> State:
        """A shallow copy with an empty legal-action cache."""
        s = State.__new__(State)
        s.active = self.active
        s.boards = self.boards
        s.causes = self.causes
        s.chose = self.chose
        s.claims = self.claims
        s.dealt = self.dealt
        s.deck = self.deck
        s.discards = self.discards
        s.edition = self.edition
        s.ending = self.ending
        s.goal_deck = self.goal_deck
        s.goal_slot = self.goal_slot
        s.hands = self.hands
        s.hidden = self.hidden
        s.legal_cache = {}
        s.log = self.log
        s.marking_for = self.marking_for
        s.option = self.option
        s.pending = self.pending
        s.phase = self.phase
        s.played = self.played
        s.players = self.players
        s.private = self.private
        s.public = self.public
        s.queues = self.queues
        s.revealed = self.revealed
        s.rng = self.rng
        s.round = self.round
        s.settings = self.settings
        s.shown = self.shown
        s.triggers = self.triggers
        s.turn = self.turn
        s.undos = self.undos
        s.week = self.week
        return s


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


def dumps(state: State) -> str:
    """The state as compact JSON text (keys in a fixed order).

    Each board's text is built once per board and reused. A shown board that is the seat's own
    board (the usual case: nobody is marking) is written ``null``; :func:`loads` restores it.
    """
    s = state
    boards = ",".join(b.text() for b in s.boards)
    shown = ",".join(
        "null" if b is own else b.text() for b, own in zip(s.shown, s.boards, strict=True)
    )
    return (
        f'{{"players":{s.players},"edition":{_json(s.edition)},"rng":{s.rng},'
        f'"phase":{_json(s.phase)},"active":{_list(tuple(sorted(s.active)))},'
        f'"week":{s.week},"round":{s.round},"turn":{s.turn},"goal_slot":{s.goal_slot},'
        f'"triggers":{_json(s.triggers)},"ending":{"true" if s.ending else "false"},'
        f'"marking_for":{_json(s.marking_for)},"option":{_json(s.option)},'
        f'"deck":{_list(s.deck)},"pending":{_list(s.pending)},"played":{_list(s.played)},'
        f'"goal_deck":{_list(s.goal_deck)},"public":{_list(s.public)},'
        f'"private":{_list(s.private)},"revealed":{_list(s.revealed)},'
        f'"claims":{_list(s.claims)},"discards":{_nested(s.discards)},'
        f'"hands":{_nested(s.hands)},"queues":{_nested(s.queues)},"dealt":{_nested(s.dealt)},'
        f'"boards":[{boards}],"shown":[{shown}],"undos":{_list(s.undos)},"chose":{s.chose},'
        f'"settings":{_list(s.settings)},"causes":{_compact(s.causes)},'
        f'"hidden":{_compact(s.hidden)},"log":{_compact(s.log)}}}'
    )


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


_INT = frozenset({int})


def _event(value: Any) -> dict[str, Any]:
    if type(value) is not dict or not isinstance(value.get("type"), str):
        raise BadState("records state: an event is an object with a type")
    return value


def _ints(value: Any, name: str) -> tuple[int, ...]:
    if type(value) is not list or not _INT.issuperset(map(type, value)):
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
        shown = data["shown"]
        if not isinstance(shown, list) or len(shown) != len(s.boards):
            raise BadState("records state: shown needs one entry per board")
        s.shown = tuple(
            own if b is None else Board.from_json(b) for b, own in zip(shown, s.boards, strict=True)
        )
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
        s.undos = _ints(data["undos"], "undos")
        s.settings = _ints(data["settings"], "settings")
        s.chose = data["chose"]
        if type(s.chose) is not int:
            raise BadState("records state: chose must be an integer")
        s.causes = tuple(tuple(str(c) for c in x) for x in data["causes"])
        s.hidden = tuple(tuple(_event(e) for e in x) for x in data["hidden"])
        s.log = tuple(_event(e) for e in data["log"])
        n = s.players
        if not 1 <= n <= 6 or any(
            len(getattr(s, name)) != n
            for name in (
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
        ):
            raise BadState("records state: per-seat fields do not match the player count")
    except BadState:
        raise
    except (KeyError, TypeError, ValueError) as error:
        raise BadState(f"records state: unreadable ({error!r})") from None
    s.legal_cache = {}
    return s
