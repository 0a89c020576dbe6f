"""The one small error family of the rules engine, and the one vocabulary of error codes.

Every error is a ``ValueError`` with a stable ``code`` (a :class:`Code`) that the server passes on
to clients unchanged, and a message that names what was tried and in which phase. A rules function
raises one of these and leaves every state it was given untouched.

:class:`Code` holds every code a client can be sent, the engine's, the games' and the server's: the
server imports it from here (the arrows point server -> engine), and no module spells a code as a
string of its own. docs/protocol.md's table lists exactly these codes (a test compares them).
"""

from __future__ import annotations

from enum import StrEnum


class Code(StrEnum):
    """Every stable error code; a member is its string on the wire (``"room/not_found"``)."""

    # The engine's own (raised by the rules of any game).
    RULES_ERROR = "rules/error"
    ACTION_ILLEGAL = "action/illegal"
    ACTION_MALFORMED = "action/malformed"
    ACTION_INACTIVE_SEAT = "action/inactive_seat"
    GAME_OVER = "game/over"
    OPTIONS_INVALID = "options/invalid"
    STATE_INVALID = "state/invalid"
    # Records' marking (raised by that game's rules).
    MARK_UNDO_REFUSED = "mark/undo_refused"
    MARK_DONE_REFUSED = "mark/done_refused"
    MARK_ALREADY_DONE = "mark/already_done"
    # The server's.
    MESSAGE_MALFORMED = "message/malformed"
    MESSAGE_UNKNOWN_TYPE = "message/unknown_type"
    MESSAGE_TOO_LARGE = "message/too_large"
    MESSAGE_INVALID = "message/invalid"
    REQUEST_INVALID = "request/invalid"
    REQUEST_TOO_LARGE = "request/too_large"
    REQUEST_NOT_FOUND = "request/not_found"
    REQUEST_METHOD = "request/method"
    ROOM_NOT_FOUND = "room/not_found"
    ROOM_STARTED = "room/started"
    ROOM_NOT_STARTED = "room/not_started"
    ROOM_FULL = "room/full"
    ROOM_PLAYERS = "room/players"
    ROOM_NOT_OVER = "room/not_over"
    ROOM_LIMIT = "room/limit"
    GAME_UNKNOWN = "game/unknown"
    SEAT_NOT_FOUND = "seat/not_found"
    SEAT_NOT_HELD = "seat/not_held"
    SEAT_BOT = "seat/bot"
    SEAT_NOT_BOT = "seat/not_bot"
    SEAT_KICKED = "seat/kicked"
    BOT_LEVEL = "bot/level"
    AUTH_BAD_TOKEN = "auth/bad_token"
    AUTH_HOST_ONLY = "auth/host_only"
    ACTION_STALE = "action/stale"
    TURN_NOT_OPEN = "turn/not_open"
    TURN_TIMED_OUT = "turn/timed_out"
    RATE_LIMITED = "rate/limited"
    SERVER_STORE = "server/store"
    MUSIC_INVALID = "music/invalid"
    MUSIC_NOT_FOUND = "music/not_found"
    SLEEVE_NOT_FOUND = "sleeve/not_found"


class RulesError(ValueError):
    """Base of every error a game raises for bad input."""

    code: Code = Code.RULES_ERROR


class IllegalAction(RulesError):
    """The action is well formed but the rules do not allow it now."""

    code = Code.ACTION_ILLEGAL


class MalformedAction(IllegalAction):
    """The action is not an action of this game at all (wrong shape, type or field)."""

    code = Code.ACTION_MALFORMED


class NotYourTurn(RulesError):
    """The seat is not among the seats that must act now."""

    code = Code.ACTION_INACTIVE_SEAT


class GameOver(RulesError):
    """The game has ended; no action is accepted any more."""

    code = Code.GAME_OVER


class BadOptions(RulesError):
    """The players count or the options of a new game are not valid for that game."""

    code = Code.OPTIONS_INVALID


class BadState(RulesError):
    """A serialised state could not be read back (corrupt, or from another game)."""

    code = Code.STATE_INVALID
