"""All rooms of a server: creating them, finding them, rebuilding them, and running their bots.

The hub owns the store and the rooms in memory. On start it rebuilds every stored room by
replaying its log. Bots: whenever a room changes and a bot seat must act, the hub schedules one
task per room that waits ``bot_delay`` seconds (so people at the table can follow) and then plays
every bot seat that must act, through the game's strongest agent, until no bot seat is due.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

from recordroom.engine.agents import Agent
from recordroom.engine.errors import BadOptions
from recordroom.engine.game import Game, JSONDict, Listening, Seat
from recordroom.server.codes import new_code, new_seed, new_token, normalise_code
from recordroom.server.errors import ServerError
from recordroom.server.music import Jukebox, RoomMusic, Senses
from recordroom.server.peers import peers_for
from recordroom.server.protocol import AgainMessage, ErrorCode, MusicSettings
from recordroom.server.room import NEXT_GAME, Room, SeatSlot
from recordroom.server.store import (
    Conflict,
    DamagedRoom,
    DeleteRoom,
    NewRoom,
    RoomLimit,
    RoomRecord,
    Store,
)
from recordroom.server.writer import Writer, commit_job

log = logging.getLogger("recordroom.server")

GameLoader = Callable[[str], Game]
CODE_TRIES = 200
MAX_ROOMS = 10_000
"""Rooms a server holds at most, by default."""
LOBBY_IDLE = 24 * 3600.0
"""A lobby nobody touched for a day is deleted (default)."""
FINISHED_AGE = 30 * 24 * 3600.0
"""A finished game is deleted after 30 days (default)."""
SWEEP_EVERY = 3600.0
"""Seconds between two sweeps of expired rooms."""
"""Random codes tried for a new room before giving up (``room/limit``)."""


class Hub:
    """Every room of the server (see the module docstring)."""

    def __init__(
        self,
        store: Store,
        game_names: tuple[str, ...],
        load_game: GameLoader,
        bot_delay: float = 0.8,
        jukebox: Jukebox | None = None,
        default_options: dict[str, JSONDict] | None = None,
        senses: Senses | None = None,
        open_after: float = 20.0,
    ) -> None:
        self.peers = peers_for(store.store if isinstance(store, Writer) else store)
        """Other processes serving the same rooms (none with SQLite: see :mod:`.peers`)."""
        self.store: Store = store if isinstance(store, Writer) else Writer(store)
        """Every write goes through this one writer (see :mod:`recordroom.server.writer`)."""
        self._creating: set[str] = set()
        """Codes of rooms being stored right now (not yet in ``rooms``)."""
        self.set_aside: dict[str, str] = {}
        """Stored rooms that could not be rebuilt at start: code -> why."""
        self._playing_again: dict[str, asyncio.Future[Room]] = {}
        """Finished rooms whose next game is being made now, by code (see :meth:`again`)."""
        self.max_rooms = MAX_ROOMS
        """At most this many rooms are served; ``room/limit`` beyond."""
        self.lobby_idle = LOBBY_IDLE
        """Seconds after which a lobby nobody touched is deleted."""
        self.finished_age = FINISHED_AGE
        """Seconds after which a finished game is deleted."""
        self._sweeper: asyncio.Task[None] | None = None
        self.jukebox = jukebox
        self.senses = senses
        self.default_options = default_options or {}
        self.game_names = game_names
        self.load_game = load_game
        self.bot_delay = bot_delay
        self.open_after = open_after
        self.rooms: dict[str, Room] = {}
        self._bot_tasks: dict[str, asyncio.Task[None]] = {}
        self._agents: dict[tuple[str, Seat, str], Agent] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._openings: dict[str, asyncio.TimerHandle] = {}
        self._timers: dict[str, tuple[int, asyncio.TimerHandle]] = {}
        self._deciding: set[asyncio.Task[None]] = set()
        self._forced: dict[tuple[str, Seat, int], asyncio.TimerHandle] = {}

    # -- games ------------------------------------------------------------------------------

    def game(self, name: str) -> Game:
        """A registered game; ``ServerError`` naming the known ones otherwise."""
        if name not in self.game_names:
            known = ", ".join(self.game_names)
            raise ServerError(ErrorCode.GAME_UNKNOWN, f"no game {name!r}; known: {known}", 422)
        return self.load_game(name)

    # -- rooms ------------------------------------------------------------------------------

    def restore(self) -> int:
        """Rebuilds every stored room from its log; returns how many were rebuilt.

        A room that cannot be read or replayed is set aside (``set_aside``: its code and why,
        logged): it is not served, its code is not given again, and every other room is served.
        """
        count = 0
        for record in self.store.load_rooms():
            if isinstance(record, DamagedRoom):
                self._set_aside(record.code, f"cannot be read: {record.why}")
                continue
            try:
                self.room_from_record(record)
            except Exception as error:
                self._set_aside(record.code, f"cannot be replayed: {type(error).__name__}: {error}")
                continue
            count += 1
        return count

    def room_from_record(self, record: RoomRecord) -> Room:
        """Rebuilds a stored room from its log and serves it from now on."""
        room = Room.from_record(record, self.game(record.game), self.store, self.jukebox)
        room.open_after = self.open_after
        room.on_change = self._room_changed
        self.peers.serve(room)
        self.rooms[room.code] = room
        return room

    async def create(
        self,
        game_name: str,
        options: JSONDict,
        music: MusicSettings | None = None,
        settings: JSONDict | None = None,
    ) -> Room:
        """A new, empty room for a game, served once it is stored (see :meth:`build`)."""
        room = await asyncio.to_thread(self.build, game_name, options, music, settings)
        await self._open(room)
        return room

    def build(
        self,
        game_name: str,
        options: JSONDict,
        music: MusicSettings | None = None,
        settings: JSONDict | None = None,
    ) -> Room:
        """A new, empty room for a game, not stored yet; its options and music are checked now.

        ``settings`` are the room's own (such as the decision ``timer``), not the game's. The
        room's code is given when it is stored.
        """
        game = self.game(game_name)
        options = {**self.default_options.get(game_name, {}), **options}
        _check_options(game, options)
        room = Room(
            code="",
            game_name=game_name,
            game=game,
            options=dict(options),
            seed=new_seed(),
            host_token=new_token(),
            store=self.store,
            jukebox=self.jukebox,
            settings=dict(settings or {}),
            open_after=self.open_after,
        )
        if game.info.music and self.jukebox is not None:
            room.music = RoomMusic.build(self.jukebox, music or MusicSettings(), room.seed)
        elif music is not None:
            raise ServerError(ErrorCode.MUSIC_INVALID, f"{game.info.title} plays no music", 422)
        return room

    async def _open(self, room: Room) -> None:
        """Gives the room a free code and stores it with its seats; then, and only then, serves it.

        A room the store refuses is served to no one and left nowhere (one job: room and seats).
        """
        held = len(self.rooms) + len(self._creating)
        if self.peers.shared:  # the cap counts every process's rooms: the store's count
            held = max(held, await asyncio.to_thread(self.peers.room_count) + len(self._creating))
        if held >= self.max_rooms:
            raise self._full()
        room.code = self._free_code()
        self._creating.add(room.code)
        # Processes sharing a store could each pass the count above at once: the store checks
        # the cap again as it keeps the room, in the same step.
        limit = self.max_rooms if self.peers.shared else None
        try:
            for _ in range(CODE_TRIES):
                try:
                    await commit_job(self.store, NewRoom(room.record(), limit))
                    break
                except Conflict:  # another process gave that code meanwhile
                    self._creating.discard(room.code)
                    room.code = self._free_code()
                    self._creating.add(room.code)
        except RoomLimit:
            raise self._full() from None
        except Exception as error:
            log.error("room %s could not be stored: %s", room.code, error)
            raise ServerError(
                ErrorCode.SERVER_STORE, f"could not save the room: {error}", 503
            ) from error
        finally:
            self._creating.discard(room.code)
        room.on_change = self._room_changed
        self.peers.serve(room)
        self.rooms[room.code] = room

    def _full(self) -> ServerError:
        return ServerError(
            ErrorCode.ROOM_LIMIT,
            f"this server holds its limit of {self.max_rooms} rooms; try later",
            503,
        )

    async def again(self, old: Room) -> Room:
        """A new game with the same players: same game, options, music, seats and tokens.

        Asked again for the same finished room (a second press, a retry, the same request
        meanwhile), it answers the new game made the first time while that room is served: a
        game is followed by one game, not by one per press.
        """
        making = self._playing_again.get(old.code)
        if making is None:
            making = asyncio.ensure_future(self._again(old))
            self._playing_again[old.code] = making
            making.add_done_callback(lambda done: self._made_again(old.code, done))
        return await asyncio.shield(making)

    def _made_again(self, code: str, done: asyncio.Future[Room]) -> None:
        self._playing_again.pop(code, None)
        if not done.cancelled():
            done.exception()  # seen: it was given to whoever asked

    async def _again(self, old: Room) -> Room:
        if old.status != "over" or old.next_game is None:
            # Another process may have stored the game's last action, or its next game.
            await old.look_again()
        if old.status != "over":
            raise ServerError(ErrorCode.ROOM_NOT_OVER, "a new game starts once this one is over")
        if old.next_game is not None:
            with contextlib.suppress(ServerError):  # deleted meanwhile: a new one is made
                return await self.room(old.next_game)
        room = Room(
            code="",
            game_name=old.game_name,
            game=old.game,
            options=dict(old.options),
            seed=new_seed(),
            host_token=old.host_token,
            store=self.store,
            seats=[SeatSlot(s.name, s.token, s.bot, level=s.level) for s in old.seats],
            jukebox=self.jukebox,
            settings={k: v for k, v in old.settings.items() if k != NEXT_GAME},
            open_after=self.open_after,
        )
        if old.music is not None and self.jukebox is not None:
            room.music = RoomMusic.build(self.jukebox, old.music.settings, room.seed)
        await self._open(room)
        try:
            await room.start()
        except Exception as error:
            # Not started, not kept: the host asks again (the old room still holds everyone).
            self.rooms.pop(room.code, None)
            with contextlib.suppress(Exception):
                await commit_job(self.store, DeleteRoom(room.code))
            if isinstance(error, ServerError):
                raise
            raise ServerError(
                ErrorCode.SERVER_STORE, f"could not start the new game: {error}", 503
            ) from error
        for client in list(old.clients):
            client.send(AgainMessage(code=room.code).model_dump())
        self.peers.again(old, room.code)
        try:
            await old.set_next_game(room.code)
        except ServerError as error:  # the phones connected now follow all the same
            log.error("room %s could not keep its next game %s: %s", old.code, room.code, error)
        return room

    def _free_code(self) -> str:
        """A code no room holds (every stored room is in memory, or set aside, or being made)."""
        for _ in range(CODE_TRIES):
            code = new_code()
            if code not in self.rooms and code not in self._creating and code not in self.set_aside:
                return code
        raise ServerError(ErrorCode.ROOM_LIMIT, "no free room code was found; try later", 503)

    def get(self, code: str) -> Room:
        """The room with that code held here; ``ServerError`` (404) otherwise (:meth:`room` also
        reads one another process made)."""
        return _found(self.rooms.get(normalise_code(code)), code)

    async def room(self, code: str) -> Room:
        """:meth:`get`, a room another process made read from the store off the event loop."""
        known = normalise_code(code)
        await self._fetch(known)
        return _found(self.rooms.get(known), code)

    async def hosted_room(self, code: str, token: str | None) -> Room:
        """The room for a host-only call: the same 403 for a wrong token and for no such room,
        so host-only calls tell nobody which codes are in use (a room another process made is
        read off the event loop, as by :meth:`room`)."""
        known = normalise_code(code)
        await self._fetch(known)
        room = self.rooms.get(known)
        if room is None or token is None or token != room.host_token:
            raise ServerError(ErrorCode.AUTH_HOST_ONLY, "only the host may do that", 403)
        return room

    async def _fetch(self, code: str) -> None:
        """Serves a room another process made, read from the store on a thread: a slow or
        lost Redis then holds up this request only, not every room of the loop."""
        if code in self.rooms or not self.peers.shared or code in self.set_aside:
            return
        record = await asyncio.to_thread(self.peers.read, code)
        if record is not None and code not in self.rooms:  # not made meanwhile by another
            self.room_from_record(record)

    # -- bots -------------------------------------------------------------------------------

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """Binds the hub to the server's event loop, wakes the bots of rebuilt rooms, and starts
        the hourly sweep of expired rooms."""
        self._loop = loop
        self.peers.start(loop, self)
        for room in self.rooms.values():
            self._room_changed(room)
        self._sweeper = loop.create_task(self._sweep_every(SWEEP_EVERY))

    async def _sweep_every(self, seconds: float) -> None:
        while True:
            try:
                await self.sweep()
            except Exception:
                log.exception("the sweep of expired rooms failed; trying again later")
            await asyncio.sleep(seconds)

    async def sweep(self, now: float | None = None) -> list[str]:
        """Deletes lobbies idle for ``lobby_idle`` and games over for ``finished_age``.

        A room someone is connected to stays: here, or (processes sharing a store) a phone on
        another process. Returns the codes deleted.
        """
        now = time.time() if now is None else now
        expired = [
            room
            for room in self.rooms.values()
            if not room.clients
            and not any(slot.elsewhere for slot in room.seats)
            and (
                (room.status == "lobby" and now - room.touched > self.lobby_idle)
                or (room.status == "over" and now - room.touched > self.finished_age)
            )
        ]
        deleted = []
        for room in expired:
            try:
                await commit_job(self.store, DeleteRoom(room.code))
            except Exception as error:
                log.error("room %s could not be deleted: %s", room.code, error)
                continue
            self.rooms.pop(room.code, None)
            room.forget_hang_ups()
            self._bot_tasks.pop(room.code, None)
            self.peers.forget(room.code)
            deleted.append(room.code)
        if deleted:
            log.info("deleted %d expired rooms", len(deleted))
        return deleted

    async def stop(self) -> None:
        """Stops every bot task and clock."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._sweeper
            self._sweeper = None
        for handle in self._openings.values():
            handle.cancel()
        for _, handle in self._timers.values():
            handle.cancel()
        for forced in self._forced.values():
            forced.cancel()
        self._forced.clear()
        self._openings.clear()
        self._timers.clear()
        tasks = [*self._bot_tasks.values(), *self._deciding]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._bot_tasks.clear()
        await asyncio.to_thread(self.peers.stop)

    def _set_aside(self, code: str, why: str) -> None:
        log.error("room %s set aside (not served): %s", code, why)
        self.set_aside[code] = why

    async def stop_writer(self) -> None:
        """Commits what is queued and stops the hub's writer (the store itself stays open)."""
        if isinstance(self.store, Writer):
            await asyncio.to_thread(self.store.stop)

    def room_changed(self, room: Room) -> None:
        """Looks at a room's bots and clocks again (another process changed it, or this one
        became or stopped being its driver)."""
        self._room_changed(room)

    def _room_changed(self, room: Room) -> None:
        if self._loop is None:
            return
        self.peers.changed(room)
        if not self.peers.drives(room):
            self._stop_clocks(room.code)  # another process runs its bots and clocks
            return
        self._schedule_clocks(room)
        if not room.bot_seats_to_move():
            return
        task = self._bot_tasks.get(room.code)
        if task is not None and not task.done():
            return
        self._bot_tasks[room.code] = self._loop.create_task(self._play_bots(room))

    # -- clocks: the turn that opens by itself, the decision timer ---------------------------

    def _stop_clocks(self, code: str) -> None:
        """Cancels a room's clocks (this process does not drive it)."""
        opening = self._openings.pop(code, None)
        if opening is not None:
            opening.cancel()
        timer = self._timers.pop(code, None)
        if timer is not None:
            timer[1].cancel()
        for key in [key for key in self._forced if key[0] == code]:
            self._forced.pop(key).cancel()

    def _schedule_clocks(self, room: Room) -> None:
        """(Re)sets the room's two clocks after a change."""
        assert self._loop is not None
        now = time.monotonic()
        opening = self._openings.pop(room.code, None)
        if opening is not None:
            opening.cancel()
        if room.listening and room.turn is not None:
            delay = max(0.0, room.open_deadline - now)
            self._openings[room.code] = self._loop.call_later(
                delay, self._open_by_itself, room, room.turn
            )
        self._schedule_timer(room)
        self._schedule_forced(room)

    def _schedule_timer(self, room: Room) -> None:
        assert self._loop is not None
        remaining = room.timer_remaining()
        timer = self._timers.get(room.code)
        if remaining is None or not room.undecided_seats():
            if timer is not None:
                timer[1].cancel()
                del self._timers[room.code]
            return
        if timer is not None and timer[0] == room.round_no:
            return  # this round's timer already runs
        if timer is not None:
            timer[1].cancel()
        handle = self._loop.call_later(remaining, self._timer_ran_out, room, room.round_no)
        self._timers[room.code] = (room.round_no, handle)

    def _schedule_forced(self, room: Room) -> None:
        """A seat without a phone whose one legal action is forced plays it after FORCED_DELAY.

        (Records' ``done`` after a marking with nothing to choose: a phone sends it itself after
        the same delay, so how fast a seat is done tells nobody anything.)
        """
        assert self._loop is not None
        for seat in room.forced_seats():
            key = (room.code, seat, room.version)
            if key not in self._forced:
                self._forced[key] = self._loop.call_later(
                    FORCED_DELAY, self._play_forced, room, seat, room.version
                )

    def _play_forced(self, room: Room, seat: Seat, version: int) -> None:
        self._forced.pop((room.code, seat, version), None)
        if self._loop is None or room.version != version or seat not in room.forced_seats():
            return
        task = self._loop.create_task(self._forced_move(room, seat))
        self._deciding.add(task)
        task.add_done_callback(self._deciding.discard)

    async def _forced_move(self, room: Room, seat: Seat) -> None:
        legal = room.seat_legal(seat)
        try:
            await room.act(seat, legal[0], None)
        except ServerError as error:
            log.info("forced move of seat %s in room %s refused: %s", seat, room.code, error)

    def _open_by_itself(self, room: Room, turn: int) -> None:
        self._openings.pop(room.code, None)
        if not room.listening or room.turn != turn:
            return
        if time.monotonic() < room.open_deadline:  # held meanwhile
            self._schedule_clocks(room)
            return
        log.info("room %s: turn %s opened by itself (the table did not)", room.code, turn)
        room.open_turn(turn)

    def _timer_ran_out(self, room: Room, round_no: int) -> None:
        self._timers.pop(room.code, None)
        if room.round_no != round_no or self._loop is None:
            return
        seats = room.undecided_seats()
        if seats:
            task = self._loop.create_task(self._decide_for(room, round_no, seats))
            self._deciding.add(task)
            task.add_done_callback(self._deciding.discard)

    async def _decide_for(self, room: Room, round_no: int, seats: list[Seat]) -> None:
        """The timer ran out: each undecided seat's bot decides for it, this once."""
        for seat in seats:
            if room.round_no != round_no or seat not in room.undecided_seats():
                continue
            room.decided_by_timer.add(seat)
            await self._bot_move(room, seat, timer=True)

    def check_level(self, room: Room, level: str | None) -> None:
        """Refuses a bot level the room's game does not offer."""
        if level is not None and level not in room.game.info.agent_kinds:
            raise ServerError(
                ErrorCode.BOT_LEVEL, f"{room.game.info.title} has no {level!r} bots", status=422
            )

    def agent(self, room: Room, seat: Seat) -> Agent:
        """The agent playing a bot seat: its level if one was chosen, else the game's default.

        The default is the ``normal`` level when the game has levels (it answers at once; ``hard``
        thinks for a second a move), otherwise the strongest kind the game offers.
        """
        kind = room.seats[seat].level or default_bot(room.game)
        key = (room.code, seat, kind)
        agent = self._agents.get(key)
        if agent is None:
            agent = room.game.agent(kind, room.bot_agent_seed(seat))
            self._agents[key] = agent
        return agent

    async def _play_bots(self, room: Room) -> None:
        while room.bot_seats_to_move() and self.peers.drives(room):
            await asyncio.sleep(self.bot_delay)
            for seat in room.bot_seats_to_move():
                if not await self._bot_move(room, seat):
                    return
                # Let clients' messages through between two bot moves.
                await asyncio.sleep(0)

    async def _bot_move(self, room: Room, seat: Seat, timer: bool = False) -> bool:
        """A bot decides for ``seat`` now (``timer``: for a person whose time ran out).

        False when the room refused the move.
        """
        view, legal = room.seat_view(seat)
        if not legal:
            return True
        if self.senses is not None and isinstance(room.game, Listening):
            # A listening bot hears the song and sees the sleeves, like anyone at the table.
            senses = await asyncio.to_thread(self.senses.for_view, room.game, room.music, view)
            view = {**view, "senses": senses}
            if room.status != "playing" or room.seat_legal(seat) != legal:
                return True  # the table moved on while the bot listened
        # A searching bot thinks for a while: keep the event loop free meanwhile.
        action = await asyncio.to_thread(self.agent(room, seat).choose, view, legal)
        due = room.undecided_seats() if timer else room.bot_seats_to_move()
        if seat not in due or room.seat_legal(seat) != legal:
            return True  # the table moved on while the bot thought
        try:
            await room.act(seat, action, None)
        except ServerError as error:
            log.error("bot of seat %s in room %s refused: %s", seat, room.code, error)
            return False
        return True


def _check_options(game: Game, options: JSONDict) -> None:
    """Refuses options that no player count of the game accepts."""
    info = game.info
    first: BadOptions | None = None
    for players in range(info.min_players, info.max_players + 1):
        try:
            game.new_state(players, 0, options)
        except BadOptions as error:
            first = first or error
            continue
        except (TypeError, ValueError, KeyError) as error:
            raise ServerError(
                ErrorCode.OPTIONS_INVALID, f"options not understood: {error}", 422
            ) from error
        return
    if first is not None:
        raise ServerError(first.code, str(first), 422)


FORCED_DELAY = 1.5
"""Seconds before the hub plays a phoneless seat's only legal action (the phones wait as long)."""

LEVELS = ("easy", "normal", "hard", "learned")
"""Bot levels, in the order the table offers them (each only where the game has it: ``learned``
only while a trained checkpoint is in use, see ``recordroom serve --learned``)."""


def default_bot(game: Game) -> str:
    """The kind a bot seat plays without a chosen level: ``normal``, else the strongest kind."""
    kinds = game.info.agent_kinds
    return "normal" if "normal" in kinds else kinds[-1]


def game_summary(game: Game) -> dict[str, Any]:
    """What the lobby shows about a game."""
    info = game.info
    return {
        "name": info.name,
        "title": info.title,
        "min_players": info.min_players,
        "max_players": info.max_players,
        "option_sets": [dict(o) for o in info.option_sets],
        "bot": default_bot(game),
        "levels": [level for level in LEVELS if level in info.agent_kinds],
    }


def _found(room: Room | None, code: str) -> Room:
    if room is None:
        raise ServerError(ErrorCode.ROOM_NOT_FOUND, f"no room with code {code!r}", 404)
    return room
