"""Memos kept outside the (immutable) values: a state's legal actions and public view, and
what is built once per board.

- :func:`legal` / :func:`remember_legal` (a state's legal actions by seat) and :func:`record`
  (the public view): each thread remembers the states it was last asked about (at least the last
  :data:`RECENT`), by identity, and what it computed for each; a state not remembered starts
  afresh. The memo holds the states themselves, so a match by identity is that very state, and a
  bot thinking in one thread never reads what another thread computed. Several states are
  remembered so that code stepping many games in turn (one thread advancing a batch of games)
  finds each game's legal actions again when it applies an action.
- :class:`ByIdentity`: a value computed once per object (a board's JSON, its view), found by the
  object's id and checked against the object itself, which the memo holds (a bounded number).

Callers treat what they get as read-only (it is shared).
"""

from __future__ import annotations

from collections.abc import Callable
from threading import local
from typing import Any, Generic, TypeVar

from recordroom.engine.game import Action


class Record:
    """What was computed for one state, beside its legal actions: the public part of its view."""

    __slots__ = ("public", "state")

    state: object
    public: dict[str, Any] | None
    """The public part of the view."""


_new = object.__new__
RECENT = 128
"""States a thread's memo keeps at least (it keeps between RECENT and 2 * RECENT)."""
SEATS = 8
"""More than the seats of any game: a state's legal actions are kept under ``id * SEATS + seat``
(an integer key: remembering them creates no object for the garbage collector to follow)."""


class _Memo(local):
    """One thread's memo in two generations, the current one and the one before it: the states
    by id, their legal actions by id and seat, their records by id. A state's entries are all in
    the generation that holds the state, so an id cannot be reused while its entries are kept."""

    def __init__(self) -> None:
        self.states: dict[int, object] = {}
        self.legal: dict[int, tuple[Action, ...]] = {}
        self.records: dict[int, Record] = {}
        self.old_states: dict[int, object] = {}
        self.old_legal: dict[int, tuple[Action, ...]] = {}
        self.old_records: dict[int, Record] = {}


_MEMO = _Memo()


def _generation(state: object) -> tuple[dict[int, tuple[Action, ...]], dict[int, Record]]:
    """The legal actions and records of the generation that holds ``state`` (the current one
    takes it if neither does)."""
    memo = _MEMO
    key = id(state)
    if memo.states.get(key) is state:
        return memo.legal, memo.records
    if memo.old_states.get(key) is state:
        return memo.old_legal, memo.old_records
    if len(memo.states) >= RECENT:
        # A new generation: the older one is dropped, the last RECENT states stay remembered.
        memo.old_states, memo.old_legal, memo.old_records = memo.states, memo.legal, memo.records
        memo.states, memo.legal, memo.records = {}, {}, {}
    memo.states[key] = state
    return memo.legal, memo.records


def legal(state: object, seat: int) -> tuple[Action, ...] | None:
    """The legal actions of ``seat`` this thread remembered for ``state``, or None (always for
    a seat that is not an int from 0 to ``SEATS - 1``: those are never remembered)."""
    if type(seat) is not int or not 0 <= seat < SEATS:
        return None
    memo = _MEMO
    key = id(state)
    if memo.states.get(key) is state:
        return memo.legal.get(key * SEATS + seat)
    if memo.old_states.get(key) is state:
        return memo.old_legal.get(key * SEATS + seat)
    return None


def remember_legal(state: object, seat: int, actions: tuple[Action, ...]) -> None:
    """Remembers ``actions`` as the legal actions of ``seat`` in ``state`` (in this thread)."""
    if type(seat) is int and 0 <= seat < SEATS:
        _generation(state)[0][id(state) * SEATS + seat] = actions


def record(state: object) -> Record:
    """This thread's record of ``state`` (a new, empty one if it is not remembered)."""
    records = _generation(state)[1]
    found = records.get(id(state))
    if found is None:
        found = records[id(state)] = _new(Record)
        found.state = state
        found.public = None
    return found


K = TypeVar("K")
V = TypeVar("V")


class ByIdentity(Generic[K, V]):
    """``compute(obj)`` once per object, found again by the object's identity.

    Each entry holds the object itself, so its id cannot be reused while remembered; past
    ``limit`` entries the memo starts afresh (what is dropped is only computed again)."""

    def __init__(self, compute: Callable[[K], V], limit: int = 8192) -> None:
        self._compute = compute
        self._limit = limit
        self._known: dict[int, tuple[K, V]] = {}

    def __call__(self, obj: K) -> V:
        known = self._known.get(id(obj))
        if known is not None and known[0] is obj:
            return known[1]
        value = self._compute(obj)
        if len(self._known) >= self._limit:
            self._known = {}
        self._known[id(obj)] = (obj, value)
        return value
