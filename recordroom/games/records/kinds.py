"""The named kinds of Records, one enum each, shared by the rules, views, determinisations, bots
and the edition loader: phases, marking steps, bonuses and card kinds.

Phases and marking steps are string enums (a member equals its name on the wire, ``"mark"``);
bonuses are an integer enum because bonus queues hold codes: a crew harmony of one colour is the
code ``HARMONY_OF + colour``, named ``harmony:<colour>``. :func:`bonus_name` and
:func:`bonus_code` are the one place that turns codes into names and back.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum, StrEnum


class Phase(StrEnum):
    """What the table is doing now (``State.phase``)."""

    LEAD_SINGER = "lead_singer"
    """Setup: every seat secretly chooses its lead singer colour."""
    KEEP = "keep"
    """Setup: every seat secretly keeps one of the private goals it was dealt."""
    PICK = "pick"
    """A round of a week: every seat secretly picks a card of its hand."""
    MARK = "mark"
    """Seats mark their boards (a round's cards, a solo card, or the bonuses of a claimed goal)."""
    CLAIM = "claim"
    """A weekend: the seats that can claim the current public goal claim it or pass, secretly."""
    PRIVATE = "private"
    """A weekend: the seats that can claim their private goal claim it or pass, secretly."""
    TURN = "turn"
    """Solo: play one of the two cards drawn, or draw a third."""
    THIRD = "third"
    """Solo, option B: play one of the three cards drawn."""
    GOAL = "goal"
    """Solo, option B: claim one goal of the row, or pass."""
    OVER = "over"


CHOICE_PHASES = frozenset({Phase.LEAD_SINGER, Phase.KEEP, Phase.PICK, Phase.CLAIM, Phase.PRIVATE})
"""Phases whose choices are secret until all are in, and may be changed until then."""


class Marking(StrEnum):
    """Why the table is marking (``State.marking_for``); ``NONE`` outside the ``mark`` phase."""

    NONE = ""
    ROUND = "round"
    PUBLIC = "public"
    PRIVATE = "private"
    SOLO = "solo"
    SOLO_GOAL = "solo_goal"


UNDOABLE = frozenset({Marking.ROUND, Marking.SOLO})
"""Marking steps that end with ``done`` and allow ``undo``."""


class Bonus(IntEnum):
    """The bonus kinds an edition may print; their names are the lower-case member names."""

    ALBUM = 0
    SINGLE = 1
    TOUR = 2
    MULTIPLIER = 3
    CASH = 4
    HARMONY = 5
    AGENDA = 6
    ASSET = 7

    @property
    def label(self) -> str:
        """The name players and the edition file use (``album``)."""
        return self.name.lower()


BONUSES = tuple(b.label for b in Bonus)
"""Bonus names by code (``BONUSES[Bonus.TOUR] == "tour"``)."""
HARMONY_OF = len(Bonus)
"""Bonus code of a crew harmony of colour c: ``HARMONY_OF + c``."""
NO_BONUS = -1
"""The code of a box that earns no bonus."""


def bonus_name(colours: Sequence[str], code: int) -> str:
    """The name of a bonus code as shown to players (``album``, ``harmony:red``)."""
    if code >= HARMONY_OF:
        return f"harmony:{colours[code - HARMONY_OF]}"
    return BONUSES[code]


def bonus_code(colours: Sequence[str], name: str) -> int:
    """The code of a bonus name (the inverse of :func:`bonus_name`); ``ValueError`` if unknown."""
    if name.startswith("harmony:"):
        return HARMONY_OF + list(colours).index(name.split(":", 1)[1])
    return BONUSES.index(name)


class CardKind(StrEnum):
    """The three kinds of game card."""

    CREW = "crew"
    AGENDA = "agenda"
    ASSET = "asset"


CARD_KINDS = tuple(CardKind)
