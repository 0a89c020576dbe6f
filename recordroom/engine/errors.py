"""The one small error family of the rules engine.

Every error is a ``ValueError`` with a stable ``code`` string that the server passes on to clients
unchanged, and a message that names what was tried and in which phase. A rules function raises one
of these and leaves every state it was given untouched.
"""

from __future__ import annotations


class RulesError(ValueError):
    """Base of every error a game raises for bad input."""

    code = "rules/error"


class IllegalAction(RulesError):
    """The action is well formed but the rules do not allow it now."""

    code = "action/illegal"


class MalformedAction(IllegalAction):
    """The action is not an action of this game at all (wrong shape, type or field)."""

    code = "action/malformed"


class NotYourTurn(RulesError):
    """The seat is not among the seats that must act now."""

    code = "action/inactive_seat"


class GameOver(RulesError):
    """The game has ended; no action is accepted any more."""

    code = "game/over"


class BadOptions(RulesError):
    """The players count or the options of a new game are not valid for that game."""

    code = "options/invalid"


class BadState(RulesError):
    """A serialised state could not be read back (corrupt, or from another game)."""

    code = "state/invalid"
