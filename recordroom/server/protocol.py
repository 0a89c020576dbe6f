"""The wire protocol: every HTTP body and WebSocket message, as pydantic models.

docs/protocol.md describes each with examples; the OpenAPI page (``/docs``) shows the HTTP ones.
Every refusal, over HTTP or WebSocket, carries a stable ``code`` (a member of
:class:`recordroom.engine.errors.Code`) and a message for people.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from recordroom.engine.errors import Code
from recordroom.server.errors import spoken

ErrorCode = Code
"""The server's name for :class:`recordroom.engine.errors.Code`, the one vocabulary of codes."""


class Model(BaseModel):
    """Base of the protocol models: unknown fields are refused, not ignored."""

    model_config = ConfigDict(extra="forbid")


# -- HTTP --------------------------------------------------------------------------------------


class ErrorOut(Model):
    """A refusal: a stable code and a message for people."""

    code: str = Field(examples=[Code.ROOM_NOT_FOUND])
    message: str = Field(examples=["no room with code ABCD"])

    spoken = field_validator("message")(spoken)  # never what was sent, at most 200 characters


class GameOut(Model):
    """A game the server can host."""

    name: str = Field(examples=["disc-cover"])
    title: str
    min_players: int
    max_players: int
    option_sets: list[dict[str, Any]]
    bot: str = Field(description="the kind of bot that plays bot seats without a chosen level")
    levels: list[str] = Field(description="the bot levels the table may choose per seat")


class MusicSettings(Model):
    """What a room of a game with music plays (Disc Cover); chosen at setup."""

    # No length caps of their own: the whole of ``music`` is capped (8 KiB), and a source or a
    # theme the server does not have, however long, is music/invalid.
    source: str = Field(
        default="demo",
        description="demo: the built-in playlist; library: the server's music folders; "
        "playlist: one M3U playlist of those folders; external: no audio in the app "
        "(any other value is refused with music/invalid)",
    )
    playlist: str | None = Field(default=None, description="the playlist id (source playlist)")
    themes: list[str] = Field(default_factory=list, description="play only tracks of these themes")
    play_to_end: bool = Field(
        default=False, description="let each song play to its end instead of stopping at the reveal"
    )
    skip_intro: bool = Field(
        default=True,
        description="start each track longer than 90 s where its music starts (past a quiet "
        "intro) instead of at 0:00",
    )
    length: int = Field(
        default=45,
        ge=10,
        le=600,
        description="seconds each song plays (unless play_to_end)",
    )


class CreateRoom(Model):
    """``POST /api/rooms``."""

    game: str = Field(examples=["disc-cover"])
    options: dict[str, Any] = Field(default_factory=dict, examples=[{"variant": "cooperative"}])
    music: MusicSettings | None = Field(
        default=None, description="for a game with music; default: the demo playlist"
    )
    timer: Literal[0, 15, 30, 60] = Field(
        default=0, description="seconds a decision round may take before bots decide (0: off)"
    )


class TimerSettings(Model):
    """``POST /api/rooms/{code}/timer``: seconds a decision round may take (0: no timer)."""

    seconds: Literal[0, 15, 30, 60] = Field(examples=[30])


class RoomCreated(Model):
    """The new room's code and the host's secret token (keep it on the table screen)."""

    code: str = Field(examples=["KQTM"])
    host_token: str


class JoinRoom(Model):
    """``POST /api/rooms/{code}/seats``."""

    name: str = Field(min_length=1, max_length=24, examples=["Ann"])


class StartRoom(Model):
    """``POST /api/rooms/{code}/start``: an optional choice the game makes at its start."""

    leader: int | None = Field(
        default=None,
        ge=0,
        description="the seat of the first Leader (Disc Cover: who listened to music most "
        "recently); checked by the game like any option",
    )


class AddBot(Model):
    """``POST /api/rooms/{code}/bots``: how well the bot plays (default: the game's default).

    ``learned`` is a trained policy, offered only by a server started with ``--learned PATH``.
    """

    level: Literal["easy", "normal", "hard", "learned"] | None = None


class Joined(Model):
    """The seat taken and its secret token (reconnect with the same token)."""

    seat: int
    token: str


class TakeBack(Model):
    """``DELETE /api/rooms/{code}/seats/{seat}/bot``: a name gives the seat to a new player."""

    name: str | None = Field(default=None, min_length=1, max_length=24)


class SeatHandedBack(Model):
    """The seat is played by a person again; ``token`` is set when a new token was issued."""

    seat: int
    token: str | None


class SeatOut(Model):
    """A seat as everyone may see it."""

    seat: int
    name: str
    connected: bool
    bot: bool
    level: str | None = Field(default=None, description="the level of the bot playing the seat")
    away: float | None = Field(
        default=None,
        description="seconds since the seat's last phone dropped (no phone connected, no bot)",
    )


class RoomInfo(Model):
    """``GET /api/rooms/{code}``: what anyone with the code may know about a room."""

    code: str
    game: str
    title: str
    status: Literal["lobby", "playing", "over"]
    options: dict[str, Any]
    min_players: int
    max_players: int
    version: int
    seats: list[SeatOut]
    result: dict[str, Any] | None
    join_url: str = Field(description="the address phones open to join this room")
    music: MusicSettings | None = Field(description="the room's music settings, if it has music")


class AgainOut(Model):
    """The room of the next game with the same players."""

    code: str


class LogEntryOut(Model):
    """One accepted action."""

    seat: int
    action: dict[str, Any]


class GameLog(Model):
    """``GET /api/rooms/{code}/log``: everything needed to replay a finished game."""

    code: str
    game: str
    players: int
    seed: int
    options: dict[str, Any]
    log: list[LogEntryOut]
    result: dict[str, Any] | None


# -- WebSocket: server to client ---------------------------------------------------------------


class StateMessage(Model):
    """Sent on connect and after every change: the receiver's own view of the room."""

    type: Literal["state"] = "state"
    version: int = Field(description="number of actions accepted so far")
    status: Literal["lobby", "playing", "over"]
    role: Literal["seat", "host", "spectator"]
    seat: int | None = Field(description="the receiver's seat, if it holds one")
    view: dict[str, Any] | None = Field(description="game.view for the receiver; null before start")
    legal_actions: list[dict[str, Any]]
    seats: list[SeatOut]
    result: dict[str, Any] | None
    music: dict[str, Any] | None = Field(
        default=None,
        description="for the table (host, spectators) of a game with music: the current track",
    )
    listening: bool = Field(
        default=False,
        description="the turn's song is not playing yet: nobody may act until the table opens it",
    )
    opens_in: float | None = Field(
        default=None, description="while listening: seconds until the turn opens by itself"
    )
    timer: dict[str, float] | None = Field(
        default=None,
        description='the decision timer of the round: {"seconds": 30, "remaining": 12.5}',
    )


class AgainMessage(Model):
    """The host started another game with the same players: reconnect to ``code``."""

    type: Literal["again"] = "again"
    code: str


class ErrorMessage(Model):
    """A refusal; nothing changed."""

    type: Literal["error"] = "error"
    code: str
    message: str

    spoken = field_validator("message")(spoken)  # never what was sent, at most 200 characters


class PongMessage(Model):
    """The answer to a ping."""

    type: Literal["pong"] = "pong"


# -- WebSocket: client to server ---------------------------------------------------------------


class ActMessage(Model):
    """An action for the seat this connection holds, made while looking at ``version``."""

    type: Literal["act"]
    version: int = Field(strict=True, description='an integer ("1" and true are refused)')
    action: dict[str, Any]


class PlayingMessage(Model):
    """(table) Turn ``turn``'s song is audibly playing: its vote opens."""

    type: Literal["playing"]
    turn: int = Field(strict=True)


class HoldMessage(Model):
    """(table) The previous song still plays (play to the end): wait before opening ``turn``."""

    type: Literal["hold"]
    turn: int = Field(strict=True)


class TakeBackMessage(Model):
    """(seat) The phone takes its seat back from the bot that played it."""

    type: Literal["take_back"]


class PingMessage(Model):
    """Keeps a connection alive through idle proxies; answered with a pong."""

    type: Literal["ping"]


ClientMessage = Annotated[
    ActMessage | PingMessage | PlayingMessage | HoldMessage | TakeBackMessage,
    Field(discriminator="type"),
]
CLIENT_TYPES = ("act", "ping", "playing", "hold", "take_back")


def field_path(loc: tuple[int | str, ...]) -> str:
    """Where a validation error is, as a client may read it: indices and the names of fields the
    protocol has; any other name is one the client made up, and is not repeated (``…``)."""
    return ".".join(str(p) if isinstance(p, int) or p in _FIELDS else "…" for p in loc)


def _field_names(model: type[BaseModel]) -> set[str]:
    names = set(model.model_fields)
    for sub in model.__subclasses__():
        names |= _field_names(sub)
    return names


_FIELDS = _field_names(Model) | {"body", "query", "path", "header"}
"""Every field name of the protocol's models (and where FastAPI finds a request's parts)."""
