"""One room: its seats, its game, and who may do what.

Every change (join, kick, start, action, bot hand-over, timer, music) is checked, its write
handed to the store's one writer and awaited (the event loop serves everyone else meanwhile and
never waits on the disk), and only once it is stored is it applied and each connected client sent
a fresh :class:`~recordroom.server.protocol.StateMessage` built from its own ``game.view``. A
room's changes are taken one at a time (``Room._acting``), so two never interleave; a change whose
write the store refuses changes nothing and is told to nobody but its caller (``server/store``).

Versions: ``version`` counts accepted actions. An action is stale when, after the version the
client sent, the seat acted (a double tap, or a bot playing the seat) or the seat's legal actions
changed (its turn came or went, a round resolved). A choice made in parallel with other seats of
a simultaneous round is not stale just because another seat chose first: that seat's options are
the same, so everyone can pick at once without being bounced.

The song leads the turn (games with music): when a new turn begins, the room is *listening* until
the table says the turn's song is audibly playing (:meth:`Room.open_turn`), or until
``open_after`` seconds have passed (the hub opens it then, so a table that is gone or an audio
element that is blocked never stalls the night). While listening no seat may act
(``turn/not_open``) and bots wait. Decision rounds can have a timer (room setting ``timer``): it
starts when a round begins (or when the turn opens) and, when it runs out, the hub lets each
undecided seat's bot decide. A round begins with every action that does more than take the actor
out of ``state.active`` (a vote that resolves the round, a new tie-break, the Leader's choice).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Protocol, TypeVar, cast

import orjson

from recordroom.engine.errors import BadOptions, RulesError
from recordroom.engine.game import Action, Game, JSONDict, OwnViews, Seat
from recordroom.engine.playout import replay
from recordroom.server.codes import new_token
from recordroom.server.errors import ServerError
from recordroom.server.music import Jukebox, RoomMusic
from recordroom.server.protocol import ErrorCode, MusicSettings, SeatOut
from recordroom.server.store import (
    AppendAction,
    CheckRevision,
    Conflict,
    RoomRecord,
    SaveSeats,
    SeatRecord,
    SetMusic,
    SetSettings,
    SetStatus,
    Store,
    Write,
)
from recordroom.server.writer import commit_job

Status = Literal["lobby", "playing", "over"]
_Moment = tuple[int, Status, JSONDict | None, bool, float | None, JSONDict | None]
CONFLICT_TRIES = 5
"""Times a change of a shared room is checked again after another process changed it first."""
Role = Literal["seat", "host", "spectator"]
T = TypeVar("T")
HANG_UP_DELAY = 0.05
"""Seconds within which the phones that hang up are told to the others as one change.

When a game ends, or a table reloads, the room's sockets close one after the other: told one by
one, six of them cost fifteen state messages, each built and sent for nothing but the next.
A player does not see 50 ms."""


def _retrieve(task: asyncio.Future[Any]) -> None:
    """Takes a finished action's error, so that one nobody waited for is not reported again."""
    if not task.cancelled():
        task.exception()


class Client(Protocol):
    """A connected client, as a room sees it."""

    role: Role
    seat: Seat | None

    def send(self, message: JSONDict) -> None:
        """Queues a message for the client (never blocks)."""
        ...

    def send_text(self, text: str) -> None:
        """Queues an already serialised message (never blocks)."""
        ...

    def close(self, code: str, message: str) -> None:
        """Sends an error and closes the connection."""
        ...


@dataclass
class SeatSlot:
    """A seat of the room and who plays it."""

    name: str
    token: str | None
    bot: bool
    connections: int = 0
    level: str | None = None
    """The bot level of the seat (None: the game's default bot)."""
    away_since: float | None = None
    """When (``time.monotonic``) the seat's last phone dropped, while none is connected."""
    elsewhere: int = 0
    """The seat's connections to other server processes (a store shared by several)."""

    def record(self) -> SeatRecord:
        """The seat as stored."""
        return SeatRecord(self.name, self.token, self.bot, self.level)


@dataclass
class Room:
    """A room with its game, seats, state and log (see the module docstring)."""

    code: str
    game_name: str
    game: Game
    options: JSONDict
    seed: int
    host_token: str
    store: Store
    status: Status = "lobby"
    seats: list[SeatSlot] = field(default_factory=list)
    state: Any = None
    log: list[dict[str, Any]] = field(default_factory=list)
    result: JSONDict | None = None
    clients: list[Client] = field(default_factory=list)
    on_change: Callable[[Room], None] | None = None
    music: RoomMusic | None = None
    jukebox: Jukebox | None = None
    settings: JSONDict = field(default_factory=dict)
    """Room-level settings (such as the vote timer), kept in the store."""
    touched: float = field(default_factory=time.time)
    """When (``time.time()``) the room last changed: its expiry counts from there."""
    _seat_legal: list[tuple[Action, ...] | None] = field(default_factory=list)
    _seat_changed_at: list[int] = field(default_factory=list)
    _hung_up: asyncio.TimerHandle | None = None
    """The change that will tell the others of phones that hung up (see ``HANG_UP_DELAY``)."""
    _acting: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Held from an action's checks to its landing: two actions never see the same old state."""
    _next: Any = None
    """The state an action checked under ``_acting`` leads to, until it lands."""
    open_after: float = 20.0
    """Seconds after a turn began when it opens by itself (the table did not open it)."""
    turn: int | None = None
    """The current turn of a game with music (the public view's ``turn``)."""
    opened_turn: int | None = None
    """The last turn whose vote the table (or the fallback) opened."""
    open_deadline: float = 0.0
    """When (``time.monotonic``) the current turn opens by itself."""
    round_no: int = 0
    """Counts decision rounds; the timer of a round is identified by it."""
    round_began: float | None = None
    """When (``time.monotonic``) the current round's timer started; None while it does not run."""
    decided_by_timer: set[Seat] = field(default_factory=set)
    timed_out_before: tuple[int, frozenset[Seat]] = (0, frozenset())
    """The seats the timer decided for in the round that ended last, and the version it ended
    at: their late taps for it (made on an older version) are told ``turn/timed_out``."""
    """The seats whose choice in this round the timer gave to their bot."""
    shared: bool = False
    """Whether other server processes serve the room too (``recordroom serve --cluster``):
    then every change but an action checks the room's ``revision`` in the store, and a change
    the store refuses as a :class:`~recordroom.server.store.Conflict` is checked again after
    ``catch_up``."""
    revision: int = 0
    """The room's changes other than actions, as counted by a shared store."""
    catch_up: Callable[[Room], Awaitable[None]] | None = None
    """Brings the room up to what the store holds (called under ``_acting``; shared rooms)."""
    _views_of: Any = None
    """The state whose views ``_seen`` holds."""
    _seen: dict[Seat | None, tuple[JSONDict | None, tuple[Action, ...]]] = field(
        default_factory=dict
    )
    _seen_legal: dict[Seat, tuple[Action, ...]] = field(default_factory=dict)
    """The legal actions of the state of ``_views_of``, by seat (asked without the view)."""
    _public_json: bytes | None = None
    """The public view of the state of ``_views_of`` as JSON, once a change wrote it."""
    _offers_own_views: bool | None = None
    """Whether the game offers ``own_view`` (looked at once)."""

    # -- building ---------------------------------------------------------------------------

    @classmethod
    def from_record(
        cls, record: RoomRecord, game: Game, store: Store, jukebox: Jukebox | None = None
    ) -> Room:
        """Rebuilds a stored room, replaying its log (every seat starts disconnected)."""
        room = cls(
            code=record.code,
            game_name=record.game,
            game=game,
            options=_with_first_leader(record.options, record.settings),
            seed=record.seed,
            host_token=record.host_token,
            store=store,
            status="lobby",
            seats=[SeatSlot(s.name, s.token, s.bot, level=s.level) for s in record.seats],
            jukebox=jukebox,
            settings=dict(record.settings),
        )
        if record.touched is not None:
            room.touched = record.touched
        room.revision = record.revision
        if record.music is not None and jukebox is not None:
            settings = MusicSettings.model_validate(record.music["settings"])
            room.music = RoomMusic.build(jukebox, settings, record.seed, int(record.music["skips"]))
        if record.status != "lobby":
            room.state = replay(game, len(room.seats), record.seed, room.options, record.log)
            room.log = list(record.log)
            room.status = "over" if game.is_over(room.state) else "playing"
            room.result = game.result(room.state) if room.status == "over" else None
            if room.status == "over" and record.status != "over":
                # The process died between the last action and the status write.
                store.set_status(room.code, "over", room.result)
            room._reset_seen()
            if room.status == "playing":
                # After a restart the turn under way stays open: its song was already heard.
                room._track_turn(game.view(room.state, None))
                room.opened_turn = room.turn
                room._new_round()
                now = time.monotonic()
                for slot in room.seats:
                    slot.away_since = None if slot.bot else now
        return room

    def record(self) -> RoomRecord:
        """The room as a new store record."""
        return RoomRecord(
            code=self.code,
            game=self.game_name,
            options=self.options,
            seed=self.seed,
            host_token=self.host_token,
            status=self.status,
            seats=[s.record() for s in self.seats],
            music=self.music.stored() if self.music else None,
            settings=dict(self.settings),
        )

    # -- who is who -------------------------------------------------------------------------

    @property
    def version(self) -> int:
        """The number of accepted actions."""
        return len(self.log)

    def role_of(self, token: str | None) -> tuple[Role, Seat | None]:
        """Who a token makes its bearer; ``ServerError`` for a token that is not of this room."""
        if token is None or token == "":
            return "spectator", None
        if token == self.host_token:
            return "host", None
        for seat, slot in enumerate(self.seats):
            if slot.token is not None and slot.token == token:
                return "seat", seat
        raise ServerError(ErrorCode.AUTH_BAD_TOKEN, "that token holds nothing in this room", 403)

    def check_host(self, token: str | None) -> None:
        """Refuses anyone but the host."""
        if token != self.host_token:
            raise ServerError(ErrorCode.AUTH_HOST_ONLY, "only the host may do that", 403)

    def _slot(self, seat: int) -> SeatSlot:
        if not 0 <= seat < len(self.seats):
            raise ServerError(ErrorCode.SEAT_NOT_FOUND, f"room {self.code} has no seat {seat}", 404)
        return self.seats[seat]

    def seats_out(self) -> list[SeatOut]:
        """The seats as everyone may see them."""
        return [SeatOut(**seat) for seat in self.seats_json()]

    # -- lobby ------------------------------------------------------------------------------

    def _require_lobby(self) -> None:
        if self.status != "lobby":
            raise ServerError(ErrorCode.ROOM_STARTED, f"the game in room {self.code} has started")

    def _require_room_for_one_more(self) -> None:
        if len(self.seats) >= self.game.info.max_players:
            raise ServerError(
                ErrorCode.ROOM_FULL,
                f"{self.game.info.title} takes at most {self.game.info.max_players} players",
            )

    async def _one_at_a_time(self, change: Callable[[], Awaitable[T]]) -> T:
        """Runs a change of the room under ``_acting``, so changes never interleave.

        A change checks, hands its write to the store and awaits the commit (the event loop
        serves everyone else meanwhile), and only then changes the room and tells everyone. The
        caller being cancelled (a request whose client went away) does not stop a change whose
        write was handed over: it lands as it would have.
        """

        async def locked() -> T:
            async with self._acting:
                looked_again = False
                for _ in range(CONFLICT_TRIES):
                    try:
                        return await change()
                    except Conflict:
                        await self._caught_up()
                    except ServerError as error:
                        # A shared room's checks read what this process knows of it: another
                        # process may have changed it (a seat joined or a bot added there)
                        # before its message came. A refusal is checked once more against the
                        # store's room.
                        if not self.shared or looked_again or not _may_be_news(error):
                            raise
                        looked_again = True
                        await self._caught_up()
                raise ServerError(
                    ErrorCode.SERVER_STORE, "the room kept changing elsewhere; try again", 503
                )

        task = asyncio.ensure_future(locked())
        task.add_done_callback(_retrieve)
        return await asyncio.shield(task)

    async def _commit(self, *writes: Write) -> None:
        """Stores one job of this room, awaited; a refusal is ``server/store`` (503).

        A shared room's job checks its revision first; a :class:`Conflict` is raised as it is
        (the change is checked again once the room caught up).
        """
        if self.shared:
            writes = (CheckRevision(self.code, self.revision), *writes)
        try:
            await commit_job(self.store, *writes)
        except Exception as error:
            if self.shared and isinstance(error, Conflict):
                raise
            raise ServerError(
                ErrorCode.SERVER_STORE, f"could not save the room: {error}", 503
            ) from error
        if self.shared:
            self.revision += 1

    async def _caught_up(self) -> None:
        """Under ``_acting``: another process changed the room first; take what it did."""
        if self.catch_up is None:
            raise ServerError(ErrorCode.SERVER_STORE, "the store refused a conflicting change", 503)
        try:
            await self.catch_up(self)
        except ServerError:
            raise
        except Exception as error:  # the store cannot be read: refused, nothing changed
            raise ServerError(
                ErrorCode.SERVER_STORE, f"could not read the room back: {error}", 503
            ) from error

    async def follow(self) -> None:
        """Brings the room up to what the store holds, between two of its own changes."""
        async with self._acting:
            await self._caught_up()

    async def look_again(self) -> None:
        """Before this process refuses or answers a request about the room: a shared room is
        brought up to what the store holds (another process may have changed it a moment before
        this one heard; a look that finds nothing new tells nobody). A room of one process has
        nothing to look at."""
        if self.shared:
            await self.follow()

    async def _save_seats(self, seats: list[SeatSlot]) -> None:
        await self._commit(SaveSeats(self.code, [s.record() for s in seats]))

    async def join(self, name: str) -> tuple[Seat, str]:
        """Takes the next free seat for a person; returns it and its new token."""

        async def change() -> tuple[Seat, str]:
            self._require_lobby()
            self._require_room_for_one_more()
            token = new_token()
            seats = [*self.seats, SeatSlot(name.strip() or "Player", token, bot=False)]
            await self._save_seats(seats)
            self.seats = seats
            self._changed()
            return len(seats) - 1, token

        return await self._one_at_a_time(change)

    async def add_bot(self, level: str | None = None) -> Seat:
        """Adds a bot seat (at ``level``, None: the game's default) before the start."""

        async def change() -> Seat:
            self._require_lobby()
            self._require_room_for_one_more()
            bot = SeatSlot(f"Bot {len(self.seats) + 1}", None, bot=True, level=level)
            seats = [*self.seats, bot]
            await self._save_seats(seats)
            self.seats = seats
            self._changed()
            return len(seats) - 1

        return await self._one_at_a_time(change)

    async def kick(self, seat: Seat) -> None:
        """Removes a seat before the start; later seats move up by one."""

        async def change() -> None:
            self._require_lobby()
            self._slot(seat)
            seats = self.seats[:seat] + self.seats[seat + 1 :]
            await self._save_seats(seats)
            self.seats = seats
            for client in list(self.clients):
                if client.role == "seat" and client.seat is not None:
                    if client.seat == seat:
                        client.seat = None
                        client.close(ErrorCode.SEAT_KICKED, "the host removed this seat")
                    elif client.seat > seat:
                        client.seat -= 1
            self._changed()

        await self._one_at_a_time(change)

    async def start(self, leader: Seat | None = None) -> None:
        """Starts the game with the seats taken (and ``leader`` as the first Leader, if given)."""
        await self._one_at_a_time(lambda: self._start(leader))

    async def _start(self, leader: Seat | None) -> None:
        self._require_lobby()
        info = self.game.info
        if not info.min_players <= len(self.seats) <= info.max_players:
            raise ServerError(
                ErrorCode.ROOM_PLAYERS,
                f"{info.title} needs {info.min_players} to {info.max_players} players, "
                f"the room has {len(self.seats)}",
            )
        options = self.options if leader is None else {**self.options, "leader": leader}
        try:
            state = self.game.new_state(len(self.seats), self.seed, options)
        except BadOptions as error:
            raise ServerError(error.code, str(error), 422) from error
        writes: list[Write] = []
        settings = self.settings
        if leader is not None:
            # Kept with the room's settings: a restart replays the log with the same options.
            settings = {**self.settings, "leader": leader}
            writes.append(SetSettings(self.code, dict(settings)))
        writes.append(SetStatus(self.code, "playing"))
        await self._commit(*writes)  # one job: the leader and the start stand or fall together
        self.settings = settings
        self.options = options
        self.state = state
        self.status = "playing"
        self._reset_seen()
        now = time.monotonic()
        for slot in self.seats:
            if slot.connections == 0 and not slot.bot:
                slot.away_since = now
        self._new_round()
        self._changed()

    # -- seats and bots during the game -----------------------------------------------------

    async def hand_to_bot(self, seat: Seat, level: str | None = None) -> None:
        """A bot (at ``level``, None: the game's default) plays this seat from now on.

        Its player may come back later; a seat a bot already plays changes level.
        """

        async def change() -> None:
            slot = self._slot(seat)
            if slot.bot and slot.level == level:
                return
            await self._save_seats(self._with(seat, replace(slot, bot=True, level=level)))
            slot.bot, slot.level = True, level
            self._changed()

        await self._one_at_a_time(change)

    def _with(self, seat: Seat, slot: SeatSlot) -> list[SeatSlot]:
        """The seats with ``seat`` replaced by ``slot`` (for the record to store)."""
        return [slot if i == seat else s for i, s in enumerate(self.seats)]

    async def reclaim(self, seat: Seat) -> None:
        """The seat's own phone takes it back from the bot that played it."""
        if not self._slot(seat).bot:
            raise ServerError(ErrorCode.SEAT_NOT_BOT, "no bot plays this seat; it is yours")
        await self.take_back(seat, None)

    async def take_back(self, seat: Seat, name: str | None) -> str | None:
        """A person plays the seat again: its own player, or with ``name`` a new one (new token)."""

        async def change() -> str | None:
            slot = self._slot(seat)
            new = None
            after = replace(slot, bot=False)
            if name is not None or slot.token is None:
                new = new_token()
                after = replace(after, token=new, name=(name or "").strip() or slot.name)
            await self._save_seats(self._with(seat, after))
            slot.bot, slot.name, slot.token = False, after.name, after.token
            if new is not None:
                for client in list(self.clients):
                    if client.role == "seat" and client.seat == seat:
                        client.seat = None
                        slot.connections -= 1
                        client.close(
                            ErrorCode.SEAT_KICKED, "the host gave this seat to someone else"
                        )
            self._changed()
            return new

        return await self._one_at_a_time(change)

    def bot_seats_to_move(self) -> list[Seat]:
        """The bot seats that must act now."""
        if self.status != "playing" or self.listening:
            return []
        return sorted(s for s in self.state.active if self.seats[s].bot)

    def bot_agent_seed(self, seat: Seat) -> int:
        """A seed for the bot of a seat, fixed by the room's seed."""
        return random.Random(f"{self.seed}:{seat}").getrandbits(32)

    # -- actions ----------------------------------------------------------------------------

    async def act(self, seat: Seat, action: Action, version: int | None) -> None:
        """Applies a seat's action: checked, committed to the store, then told to everyone.

        ``version`` is the version the client looked at; ``None`` (bots) skips that check.
        Seats outside ``state.active`` are passed to the game too: a seat with a pending
        simultaneous choice may replace it, and the game's own error speaks otherwise.

        The room's actions are taken one at a time: the next one is checked against the state
        this one leaves. The caller being cancelled (a phone that hangs up) does not stop an
        action whose write was handed to the store: it still lands, and is told to everyone.
        """
        acting = asyncio.ensure_future(self._act(seat, action, version))
        acting.add_done_callback(_retrieve)
        await asyncio.shield(acting)

    async def _act(self, seat: Seat, action: Action, version: int | None) -> None:
        async with self._acting:
            seen = self.version
            for _ in range(CONFLICT_TRIES):
                self._act_now(seat, action, version)
                try:
                    await self._land(seat, action)
                    return
                except Conflict:
                    # Another process took this index first: check again against what it did.
                    self._next = None
                    await self._caught_up()
                    if version is None and self._seat_changed_at[seat] > seen:
                        raise ServerError(
                            ErrorCode.ACTION_STALE, "the seat's turn moved on meanwhile"
                        ) from None
            raise ServerError(
                ErrorCode.SERVER_STORE, "the room kept changing elsewhere; try again", 503
            )

    def _act_now(self, seat: Seat, action: Action, version: int | None) -> None:
        """The checks of an action and its new state, kept in ``_next`` (nothing changes)."""
        if self.status == "lobby":
            raise ServerError(ErrorCode.ROOM_NOT_STARTED, "the game has not started yet")
        if self.listening:
            raise ServerError(
                ErrorCode.TURN_NOT_OPEN,
                f"turn {self.turn} opens once its song is playing; listen first",
            )
        if version is not None and self.seats[seat].bot:
            raise ServerError(ErrorCode.SEAT_BOT, "a bot plays this seat now; ask the host")
        ended_at, timed_out = self.timed_out_before
        if version is not None and (
            seat in self.decided_by_timer or (seat in timed_out and version < ended_at)
        ):
            raise ServerError(
                ErrorCode.TURN_TIMED_OUT,
                "time ran out: your bot made this round's choice for you; the next is yours",
            )
        if version is not None and not self._seat_changed_at[seat] <= version <= self.version:
            raise ServerError(
                ErrorCode.ACTION_STALE,
                f"version {version} is out of date (now {self.version}); look again and retry",
            )
        try:
            state = self.game.apply(self.state, seat, action)
        except RulesError as error:
            raise ServerError(error.code, str(error), 422) from error
        except (ValueError, TypeError, KeyError, IndexError, AttributeError) as error:
            # A game that did not anticipate some shape of input; the state is unchanged.
            raise ServerError(
                ErrorCode.ACTION_MALFORMED, f"not an action of this game: {error}"
            ) from error
        self._next = state

    async def _land(self, seat: Seat, action: Action) -> None:
        """Commits the checked action (with the result, when it ends the game), then applies it."""
        state, self._next = self._next, None
        writes: list[Write] = [AppendAction(self.code, self.version, seat, action)]
        over = self.game.is_over(state)
        result = self.game.result(state) if over else None
        if over:
            writes.append(SetStatus(self.code, "over", result))
        try:
            await commit_job(self.store, *writes)
        except Exception as error:
            if self.shared and isinstance(error, Conflict):
                raise
            raise ServerError(
                ErrorCode.SERVER_STORE, f"could not save the action: {error}", 503
            ) from error
        before = self.state.active
        self.state = state
        self.log.append({"seat": seat, "action": action})
        self._seat_changed_at[seat] = self.version
        if not state.active <= before - {seat}:
            self._new_round()
        if over:
            self.status = "over"
            self.result = result
        self._changed()

    # -- the listening moment and the timer ------------------------------------------------

    @property
    def leads_with_music(self) -> bool:
        """Whether the song opens each turn's vote (a game with music that plays some)."""
        return self.game.info.music and self.music is not None

    @property
    def listening(self) -> bool:
        """Whether the current turn waits for its song before anyone may act."""
        return (
            self.status == "playing"
            and self.leads_with_music
            and self.turn is not None
            and self.turn != self.opened_turn
        )

    def _check_turn_message(self, turn: int) -> None:
        if self.status != "playing" or not self.leads_with_music:
            raise ServerError(ErrorCode.MESSAGE_INVALID, "this room has no turn to open now")
        if turn != self.turn:
            raise ServerError(
                ErrorCode.MESSAGE_INVALID, f"the current turn is {self.turn}, not {turn}"
            )

    def open_turn(self, turn: int) -> None:
        """The table hears turn ``turn``'s song: its vote opens (again: nothing happens)."""
        self._check_turn_message(turn)
        if self.opened_turn == turn:
            return
        self.opened_turn = turn
        self._new_round()
        self._changed()

    def hold_turn(self, turn: int) -> None:
        """The previous song still plays (play to the end): the turn opens by itself later."""
        self._check_turn_message(turn)
        if self.opened_turn == turn:
            return
        self.open_deadline = max(self.open_deadline, time.monotonic() + self.open_after)
        self._changed()

    def _track_turn(self, table_view: JSONDict | None) -> None:
        """Notices a new turn of a game with music: it starts listening."""
        if table_view is None or not self.leads_with_music:
            return
        turn = table_view.get("turn")
        if not isinstance(turn, int) or turn == self.turn:
            return
        self.turn = turn
        self.open_deadline = time.monotonic() + self.open_after
        self.round_began = None
        if self.open_after <= 0:  # the server was told not to wait for songs
            self.opened_turn = turn
            self._new_round()

    @property
    def next_game(self) -> str | None:
        """The code of the room "play again" made from this one, once it did (kept with the
        room's settings, so a phone that comes back to this room later follows it too)."""
        code = self.settings.get(NEXT_GAME)
        return code if isinstance(code, str) else None

    async def set_next_game(self, code: str) -> None:
        """Keeps the code of this room's next game (see :attr:`next_game`)."""

        async def change() -> None:
            settings = {**self.settings, NEXT_GAME: code}
            await self._commit(SetSettings(self.code, dict(settings)))
            self.settings = settings

        await self._one_at_a_time(change)

    @property
    def timer_seconds(self) -> int:
        """The room's decision timer in seconds (0: no timer)."""
        seconds = self.settings.get("timer", 0)
        return seconds if isinstance(seconds, int) else 0

    async def set_timer(self, seconds: int) -> None:
        """Sets the decision timer (0 turns it off); a running round starts counting now."""

        async def change() -> None:
            settings = {**self.settings, "timer": seconds}
            await self._commit(SetSettings(self.code, dict(settings)))
            self.settings = settings
            if self.status == "playing":
                self._new_round()
            self._changed()

        await self._one_at_a_time(change)

    def _new_round(self) -> None:
        self.round_no += 1
        self.round_began = None if self.listening else time.monotonic()
        if self.decided_by_timer or self.version != self.timed_out_before[0]:
            # (A round that opens again at the same version, once its song plays, keeps them.)
            self.timed_out_before = (self.version, frozenset(self.decided_by_timer))
        self.decided_by_timer = set()

    def timer_remaining(self) -> float | None:
        """Seconds left on the current round's timer, or None when no timer runs."""
        if (
            not self.timer_seconds
            or self.status != "playing"
            or self.round_began is None
            or self.listening
            or not self.state.active
            or not self._timed_phase()
        ):
            return None
        return max(0.0, self.round_began + self.timer_seconds - time.monotonic())

    def _timed_phase(self) -> bool:
        """Whether the game lets the decision timer run in its current phase
        (``GameInfo.timed_phases``: a Records pick, not the marking of a sheet)."""
        phases = self.game.info.timed_phases
        if phases is None:
            return True
        view = self.table_view()
        return view is not None and view.get("phase") in phases

    def forced_seats(self) -> list[Seat]:
        """The seats a person plays, with no phone connected, that have one legal action only."""
        if self.status != "playing" or self.listening:
            return []
        return [
            seat
            for seat in sorted(self.state.active)
            if not self.seats[seat].bot
            and not (self.seats[seat].connections or self.seats[seat].elsewhere)
            and len(self.game.legal_actions(self.state, seat)) == 1
        ]

    def undecided_seats(self) -> list[Seat]:
        """The seats a person plays that still have to decide in this round, in a phase the
        timer runs in (the seats its running out hands to their bots, this once)."""
        if self.status != "playing" or self.listening or not self._timed_phase():
            return []
        return sorted(s for s in self.state.active if not self.seats[s].bot)

    # -- music ------------------------------------------------------------------------------

    async def skip_track(self) -> None:
        """The table moves to another track for the current turn (kept across restarts)."""

        async def change() -> None:
            music = self.music
            if music is None or not music.queue:
                raise ServerError(
                    ErrorCode.MUSIC_INVALID, "this room plays no music from the app", 422
                )
            await self._commit(SetMusic(self.code, {**music.stored(), "skips": music.skips + 1}))
            music.skips += 1
            self._changed()

        await self._one_at_a_time(change)

    def music_message(self, view: JSONDict | None) -> JSONDict | None:
        """The music part of the table's state message."""
        if self.music is None or self.jukebox is None:
            return None
        return self.music.message(self.jukebox, view)

    # -- telling clients --------------------------------------------------------------------

    def _reset_seen(self) -> None:
        self._seat_legal = [None] * len(self.seats)
        self._seat_changed_at = [self.version] * len(self.seats)

    def _views(self) -> dict[Seat | None, tuple[JSONDict | None, tuple[Action, ...]]]:
        """The views (and legal actions) of the current state computed so far, by seat (None:
        the table's). A view depends on the state alone: a change that leaves the state as it
        was (a phone connecting, a seat handed to a bot) reuses them."""
        if self.state is not self._views_of:
            self._views_of = self.state
            self._seen = {}
            self._seen_legal = {}
            self._public_json = None
        return self._seen

    def seat_legal(self, seat: Seat) -> tuple[Action, ...]:
        """A seat's legal actions now, without its view (computed once per state)."""
        self._views()
        legal = self._seen_legal.get(seat)
        if legal is None:
            legal = self._seen_legal[seat] = self.game.legal_actions(self.state, seat)
        return legal

    def seat_view(self, seat: Seat) -> tuple[JSONDict, tuple[Action, ...]]:
        """A seat's view and legal actions now (computed once per state; read, never change)."""
        seen = self._views()
        known = seen.get(seat)
        if known is None:
            known = seen[seat] = (self.game.view(self.state, seat), self.seat_legal(seat))
        return known  # type: ignore[return-value]

    def table_view(self) -> JSONDict | None:
        """The public view now (the table's and spectators'), computed once per state."""
        if self.state is None:
            return None
        seen = self._views()
        known = seen.get(None)
        if known is None:
            known = seen[None] = (self.game.view(self.state, None), ())
        return known[0]

    def message_for(
        self,
        role: Role,
        seat: Seat | None,
        seats: list[JSONDict] | None = None,
        moment: _Moment | None = None,
    ) -> JSONDict:
        """The state message for one receiver, built from its own view only.

        A plain dict of the :class:`StateMessage` shape (no validation on this hot path; the
        tests check the shape). ``seats`` and ``moment`` may be given when they were computed
        for the change.
        """
        view, legal = self._view_and_legal(seat)
        version, status, result, listening, opens_in, timer = moment or self._moment()
        return {
            "type": "state",
            "version": version,
            "status": status,
            "role": role,
            "seat": seat,
            "view": view,
            "legal_actions": [] if listening else list(legal),
            "seats": seats if seats is not None else self.seats_json(),
            "result": result,
            "music": self.music_message(view) if role != "seat" else None,
            "listening": listening,
            "opens_in": opens_in,
            "timer": timer,
        }

    def _moment(self) -> _Moment:
        """What a change tells every receiver alike: the version, status, result, whether the
        room is listening, when the turn opens by itself and the round's timer."""
        listening = self.listening
        opens_in = round(max(0.0, self.open_deadline - time.monotonic()), 1) if listening else None
        left = self.timer_remaining()
        timer = None
        if left is not None:
            timer = {"seconds": self.timer_seconds, "remaining": round(left, 1)}
        return self.version, self.status, self.result, listening, opens_in, timer

    def _own_views(self) -> bool:
        """Whether a seat's message may be written from the public view's JSON and the seat's
        own part (a started game that offers ``own_view``)."""
        if self._offers_own_views is None:
            self._offers_own_views = isinstance(self.game, OwnViews)
        return self._offers_own_views and self.state is not None

    def public_json(self) -> bytes:
        """The public view now as JSON (written once per state)."""
        self._views()
        if self._public_json is None:
            self._public_json = _json(self.table_view())
        return self._public_json

    def _view_and_legal(self, seat: Seat | None) -> tuple[JSONDict | None, tuple[Action, ...]]:
        if self.state is None:
            return None, ()
        if seat is None:
            return self.table_view(), ()
        return self.seat_view(seat)

    def seats_json(self) -> list[JSONDict]:
        """The seats as everyone may see them (:class:`SeatOut`), as plain dicts.

        Built without pydantic: it is on the path of every state message (the tests check the
        shape against :class:`SeatOut`).
        """
        now = time.monotonic()
        return [
            {
                "seat": i,
                "name": s.name,
                "connected": s.bot or s.connections > 0 or s.elsewhere > 0,
                "bot": s.bot,
                "level": s.level if s.bot else None,
                "away": None
                if s.bot or s.connections > 0 or s.elsewhere > 0 or s.away_since is None
                else round(now - s.away_since, 1),
            }
            for i, s in enumerate(self.seats)
        ]

    def _changed(self) -> None:
        """Tells every client about a change, and the hub (bots) too."""
        self.touched = time.time()
        self.forget_hang_ups()  # this change tells of the phones that hung up too
        if self.state is not None:
            for seat in range(len(self.seats)):
                legal = self.seat_legal(seat)
                if self._seat_legal[seat] != legal:
                    self._seat_legal[seat] = legal
                    self._seat_changed_at[seat] = self.version
            if self.leads_with_music:
                self._track_turn(self.table_view())
        # Each distinct receiver (role and seat) gets its message built and serialised once;
        # the table and every spectator of a seat share the text. A game whose seats see the
        # table plus their own part has the public part written once for all (_Texts).
        seats = self.seats_json()
        moment = self._moment()
        texts: dict[tuple[Role, Seat | None], str] = {}
        pieces: _Texts | None = None
        for client in list(self.clients):
            key = (client.role, client.seat)
            text = texts.get(key)
            if text is None:
                if self._own_views():
                    if pieces is None:
                        pieces = _Texts(self, seats, moment)
                    text = pieces.text(client.role, client.seat)
                else:
                    text = _dumps(self.message_for(client.role, client.seat, seats, moment))
                texts[key] = text
            client.send_text(text)
        if self.on_change is not None:
            self.on_change(self)

    def connect(self, client: Client) -> None:
        """Registers a client and tells everyone (the seat shows as connected).

        A spectator changes nothing anyone sees: it alone gets the state, so a crowd of them
        joining or leaving costs one message each, not one per client already there.
        """
        self.clients.append(client)
        if client.role == "spectator":
            client.send_text(_dumps(self.message_for(client.role, client.seat)))
            return
        if client.seat is not None:
            self.seats[client.seat].connections += 1
            self.seats[client.seat].away_since = None
        self._changed()

    def disconnect(self, client: Client) -> None:
        """Forgets a client; its seat stays and shows as disconnected.

        The others are told within ``HANG_UP_DELAY``, once for every client that hangs up
        meanwhile (at once when no event loop runs); the seat's count changes at once.
        """
        if client not in self.clients:
            return
        self.clients.remove(client)
        if client.role == "spectator":
            return  # nobody sees spectators come and go
        if client.seat is not None:
            slot = self.seats[client.seat]
            slot.connections -= 1
            if slot.connections == 0:
                slot.away_since = time.monotonic()
        if self._hung_up is not None:
            return  # already due
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self._changed()
            return
        self._hung_up = loop.call_later(HANG_UP_DELAY, self._tell_hang_ups)

    def _tell_hang_ups(self) -> None:
        self._hung_up = None
        self._changed()

    def forget_hang_ups(self) -> None:
        """Drops the pending telling of phones that hung up (a change tells them, or the room
        is being deleted)."""
        if self._hung_up is not None:
            self._hung_up.cancel()
            self._hung_up = None


def _may_be_news(error: ServerError) -> bool:
    """Whether a refusal may come from a change another process made that this one has not
    heard of yet: a conflict with the room's state (409) or a seat it does not know yet."""
    return error.status == 409 or error.code == ErrorCode.SEAT_NOT_FOUND


def _json(value: Any) -> bytes:
    """A value as compact JSON, with orjson.

    Its fast path takes string keys only; a view with other keys (numbers) takes the slower one.
    """
    try:
        return orjson.dumps(value)
    except TypeError:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


def _dumps(message: JSONDict) -> str:
    """A message as compact JSON text (see :func:`_json`)."""
    return _json(message).decode()


class _Texts:
    """The state messages of one change of a started game that offers ``own_view``, written from
    pieces: the public view's JSON (once per state), a seat's own part, and what every message
    of the change shares (its head, the seats, the result, the listening and the clocks).

    Each text is laid out as :meth:`Room.message_for` builds the message, so it is the very
    text ``_dumps`` would write of it (the tests compare them); the public part of the change,
    about nine tenths of each message, is written once for all its receivers.
    """

    def __init__(self, room: Room, seats: list[JSONDict], moment: _Moment) -> None:
        version, status, result, listening, opens_in, timer = moment
        self.room = room
        self.own_view = cast(OwnViews, room.game).own_view
        self.listening = listening
        self.public = room.public_json()
        self.public_open = self.public[:-1] + b","
        """The public view's text without its closing brace, for a seat's own keys to follow."""
        self.head = _json({"type": "state", "version": version, "status": status})[:-1]
        self.middle = b',"seats":' + _json(seats) + b',"result":' + _json(result) + b',"music":'
        clocks = {"listening": listening, "opens_in": opens_in, "timer": timer}
        self.end = b"," + _json(clocks)[1:]

    def text(self, role: Role, seat: Seat | None) -> str:
        """The text of the message for one receiver."""
        room = self.room
        if seat is None:  # the table and spectators: the public view, and the music
            view: tuple[bytes, ...] = (self.public,)
            legal = b"[]"
        else:
            own = _json(self.own_view(room.state, seat))
            if own == b"{}":
                view = (self.public,)
            elif self.public == b"{}":
                view = (own,)
            else:
                view = (self.public_open, own[1:])
            legal = b"[]" if self.listening else _json(list(room.seat_legal(seat)))
        if role == "seat":
            music = b"null"
        else:
            music = _json(room.music_message(room._view_and_legal(seat)[0]))
        return b"".join(
            (
                self.head,
                _ROLES[role],
                b',"seat":',
                _json(seat),
                b',"view":',
                *view,
                b',"legal_actions":',
                legal,
                self.middle,
                music,
                self.end,
            )
        ).decode()


_ROLES: dict[str, bytes] = {
    role: b',"role":' + _json(role) for role in ("seat", "host", "spectator")
}
"""A message's role, as its text writes it."""


NEXT_GAME = "next_game"
"""The room setting that names the room "play again" made from this one."""


def _with_first_leader(options: JSONDict, settings: JSONDict) -> JSONDict:
    """The game's options with the first Leader the table chose at the start, if it chose one."""
    leader = settings.get("leader")
    return options if leader is None else {**options, "leader": leader}
