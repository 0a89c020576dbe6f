"""Memos kept outside the (immutable) values: a state's legal actions and public view, and
what is built once per board.

- :func:`record`: each thread remembers the states it was asked about, by identity, and what it
  computed for each (legal actions by seat, the public view): the last state first (one look-up),
  then at least the :data:`RECENT` before it, so that code stepping many games in turn (one thread
  advancing a batch of games) finds each game's legal actions again when it applies an action; a
  state not remembered starts a fresh record. A record holds its state, so a match by identity is
  that very state, and a bot thinking in one thread never reads what another thread computed.
- :class:`ByIdentity`: a value computed once per object (a board's JSON, its view), found by the
  object's id and checked against the object itself, which the memo holds (a bounded number).

Callers treat what they get as read-only (it is shared).
"""

from __future__ import annotations

from collections.abc import Callable
from threading import get_ident, local
from typing import Any, Generic, TypeVar

from recordroom.engine.game import Action


class Record:
    """What was computed for one state."""

    __slots__ = ("legal", "public", "state")

    state: object
    legal: dict[int, tuple[Action, ...]]
    """Legal actions by seat."""
    public: dict[str, Any] | None
    """The public part of the view."""


_new = object.__new__
_LAST: dict[int, Record] = {}
"""Each thread's last record, by thread id (a thread only reads and writes its own entry)."""
RECENT = 128
"""Records a thread keeps beside its last one: at least RECENT, at most 2 * RECENT."""


class _Recent(local):
    """One thread's recent records by state id: the current generation and the one before it."""

    def __init__(self) -> None:
        self.current: dict[int, Record] = {}
        self.previous: dict[int, Record] = {}


_RECENT = _Recent()


def record(state: object) -> Record:
    """This thread's record of ``state`` (a new, empty one if it is not remembered)."""
    thread = get_ident()
    last = _LAST.get(thread)
    if last is not None and last.state is state:
        return last
    recent = _RECENT
    key = id(state)
    found = recent.current.get(key)
    if found is None or found.state is not state:
        found = recent.previous.get(key)
        if found is None or found.state is not state:
            found = _new(Record)
            found.state = state
            found.legal = {}
            found.public = None
        if len(recent.current) >= RECENT:
            # A new generation: the older one is dropped, the last RECENT records stay.
            recent.previous = recent.current
            recent.current = {}
        recent.current[key] = found
    _LAST[thread] = found
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
