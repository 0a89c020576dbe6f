"""The Disc Cover state: a compact, immutable value.

The shuffled deck is fixed at setup and kept in a shared :class:`Setup`; a turn's four sleeves are
the next four of it, so a state only holds what changes: the turn, the phase, the pending votes,
what has been revealed this turn, the mosaic, the points and the Leader. A state is a frozen,
slotted dataclass (equality and hash from its fields); every transition builds a new one by
keyword or with ``_replace`` (:mod:`recordroom.engine.values`) and shares everything else.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from recordroom.engine.values import with_draft

TURNS = 9
RECORD_CARDS = (1, 2, 3, 4)
MOSAIC_SIZE = TURNS
TIEBREAK_ROUNDS = 3
"""Tie-break votes a cooperative table gets before a fair draw settles it."""
NO_VOTE = 0


class Variant(StrEnum):
    """The two ways to play."""

    COOPERATIVE = "cooperative"
    COMPETITIVE = "competitive"


class Phase(StrEnum):
    """What the table is doing now."""

    VOTE = "vote"
    """Everyone secretly picks the Record card of the sleeve that fits the song."""
    TIEBREAK = "tiebreak"
    """Cooperative tie: everyone votes again, only among the tied sleeves."""
    LEADER = "leader"
    """Competitive tie: the Leader alone picks among the tied sleeves."""
    OVER = "over"


class DecidedBy(StrEnum):
    """How a turn's sleeve was chosen."""

    MAJORITY = "majority"
    TIEBREAK = "tiebreak"
    DRAW = "draw"
    LEADER = "leader"


@dataclass(frozen=True, slots=True)
class Setup:
    """What is fixed for the whole game."""

    players: int
    variant: Variant
    seed: int
    first_leader: int
    deck: tuple[int, ...]
    """Sleeve ids in the order they are drawn."""

    @property
    def competitive(self) -> bool:
        """True in the competitive variant."""
        return self.variant is Variant.COMPETITIVE

    def sleeves_of_turn(self, turn: int) -> tuple[int, ...]:
        """The four sleeves laid under Record cards 1 to 4 on that turn (0-based)."""
        return self.deck[4 * turn : 4 * turn + 4]


@dataclass(frozen=True, slots=True)
class TurnRecord:
    """A finished turn, as the table remembers it."""

    turn: int
    sleeves: tuple[int, ...]
    votes: tuple[int, ...]
    tiebreak_votes: tuple[tuple[int, ...], ...]
    card: int
    points: int
    decided_by: DecidedBy
    leader: int | None
    scorers: tuple[int, ...]
    """Competitive: the seats that scored a point this turn."""

    @property
    def sleeve(self) -> int:
        """The id of the chosen sleeve."""
        return self.sleeves[self.card - 1]


@with_draft
@dataclass(frozen=True, slots=True, repr=False)
class DiscCoverState:
    """One moment of a Disc Cover game: a frozen value, built by keyword or by ``_replace``."""

    setup: Setup
    turn: int
    """0-based; equals TURNS once the game is over."""
    phase: Phase
    active: frozenset[int]
    pending: tuple[int, ...]
    """Each seat's hidden choice in the current vote (NO_VOTE when none)."""
    votes: tuple[int, ...]
    """The revealed votes of this turn's first vote (empty until revealed)."""
    candidates: tuple[int, ...]
    """Record cards still in the running in a tie-break or a Leader's choice."""
    tiebreak_votes: tuple[tuple[int, ...], ...]
    history: tuple[TurnRecord, ...]
    score: int
    """Cooperative: the team's points."""
    points: tuple[int, ...]
    """Competitive: each seat's points."""
    leader: int | None
    """Competitive: the seat holding the First Player Record token."""
    rng: int

    if TYPE_CHECKING:  # derived from the fields by ``with_draft``

        def _replace(self, **changes: Any) -> DiscCoverState: ...

        def thaw(self) -> Any: ...

    def __repr__(self) -> str:
        return (
            f"DiscCoverState(turn={self.turn + 1}/{TURNS}, phase={self.phase.value}, "
            f"active={sorted(self.active)}, mosaic={len(self.history)})"
        )

    @property
    def mosaic(self) -> tuple[tuple[int, int], ...]:
        """The chosen sleeves so far with their points, in the order they were placed."""
        return tuple((record.sleeve, record.points) for record in self.history)
