"""Memos kept outside the (immutable) values: a state's legal actions and public view, and
what is built once per board.

- :func:`record`: each thread remembers the last state it was asked about, by identity, and what
  it computed for it (legal actions by seat, the public view); a different state starts a fresh
  record. The record holds the state itself, so a match by identity is that very state, and a
  bot thinking in one thread never reads what another thread computed for another state.
- :class:`ByIdentity`: a value computed once per object (a board's JSON, its view), found by the
  object's id and checked against the object itself, which the memo holds (a bounded number).

Callers treat what they get as read-only (it is shared).
"""

from __future__ import annotations

from collections.abc import Callable
from threading import get_ident
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


def record(state: object) -> Record:
    """This thread's record of ``state`` (a new, empty one if it was not the last state asked)."""
    thread = get_ident()
    last = _LAST.get(thread)
    if last is not None and last.state is state:
        return last
    fresh = _LAST[thread] = _new(Record)
    fresh.state = state
    fresh.legal = {}
    fresh.public = None
    return fresh


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
