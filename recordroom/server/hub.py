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
from collections.abc import Callable
from typing import Any

from recordroom.engine.agents import Agent
from recordroom.engine.errors import BadOptions
from recordroom.engine.game import Game, JSONDict, Seat
from recordroom.server.codes import new_code, new_seed, new_token, normalise_code
from recordroom.server.errors import ServerError
from recordroom.server.music import Jukebox, RoomMusic, Senses
from recordroom.server.protocol import AgainMessage, ErrorCode, MusicSettings
from recordroom.server.room import Room, SeatSlot
from recordroom.server.store import Store

log = logging.getLogger("recordroom.server")

GameLoader = Callable[[str], Game]


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
    ) -> None:
        self.store = store
        self.jukebox = jukebox
        self.senses = senses
        self.default_options = default_options or {}
        self.game_names = game_names
        self.load_game = load_game
        self.bot_delay = bot_delay
        self.rooms: dict[str, Room] = {}
        self._bot_tasks: dict[str, asyncio.Task[None]] = {}
        self._agents: dict[tuple[str, Seat], Agent] = {}
        self._levels: dict[tuple[str, Seat], str] = {}
        self._loop: asyncio.AbstractEventLoop | None = None

    # -- games ------------------------------------------------------------------------------

    def game(self, name: str) -> Game:
        """A registered game; ``ServerError`` naming the known ones otherwise."""
        if name not in self.game_names:
            known = ", ".join(self.game_names)
            raise ServerError(ErrorCode.GAME_UNKNOWN, f"no game {name!r}; known: {known}", 422)
        return self.load_game(name)

    # -- rooms ------------------------------------------------------------------------------

    def restore(self) -> int:
        """Rebuilds every stored room from its log; returns how many were rebuilt."""
        count = 0
        for record in self.store.load_rooms():
            try:
                game = self.game(record.game)
                room = Room.from_record(record, game, self.store, self.jukebox)
            except Exception:
                log.exception("room %s could not be rebuilt; left out", record.code)
                continue
            room.on_change = self._room_changed
            self.rooms[room.code] = room
            count += 1
        return count

    def create(self, game_name: str, options: JSONDict, music: MusicSettings | None = None) -> Room:
        """A new, empty room for a game; its options and music are checked now."""
        game = self.game(game_name)
        options = {**self.default_options.get(game_name, {}), **options}
        _check_options(game, options)
        room = Room(
            code=self._free_code(),
            game_name=game_name,
            game=game,
            options=dict(options),
            seed=new_seed(),
            host_token=new_token(),
            store=self.store,
            jukebox=self.jukebox,
        )
        if game.info.music and self.jukebox is not None:
            room.music = RoomMusic.build(self.jukebox, music or MusicSettings(), room.seed)
        elif music is not None:
            raise ServerError(ErrorCode.MUSIC_INVALID, f"{game.info.title} plays no music", 422)
        self.store.create_room(room.record())
        room.on_change = self._room_changed
        self.rooms[room.code] = room
        return room

    def again(self, old: Room) -> Room:
        """A new game with the same players: same game, options, music, seats and tokens."""
        if old.status != "over":
            raise ServerError(ErrorCode.ROOM_NOT_OVER, "a new game starts once this one is over")
        room = Room(
            code=self._free_code(),
            game_name=old.game_name,
            game=old.game,
            options=dict(old.options),
            seed=new_seed(),
            host_token=old.host_token,
            store=self.store,
            seats=[SeatSlot(s.name, s.token, s.bot, level=s.level) for s in old.seats],
            jukebox=self.jukebox,
            settings=dict(old.settings),
        )
        if old.music is not None and self.jukebox is not None:
            room.music = RoomMusic.build(self.jukebox, old.music.settings, room.seed)
        self.store.create_room(room.record())
        self.store.save_seats(room.code, [s.record() for s in room.seats])
        room.on_change = self._room_changed
        self.rooms[room.code] = room
        room.start()
        for client in list(old.clients):
            client.send(AgainMessage(code=room.code).model_dump())
        return room

    def _free_code(self) -> str:
        code = new_code()
        while code in self.rooms or self.store.code_taken(code):
            code = new_code()
        return code

    def get(self, code: str) -> Room:
        """The room with that code; ``ServerError`` (404) otherwise."""
        room = self.rooms.get(normalise_code(code))
        if room is None:
            raise ServerError(ErrorCode.ROOM_NOT_FOUND, f"no room with code {code!r}", 404)
        return room

    # -- bots -------------------------------------------------------------------------------

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """Binds the hub to the server's event loop and wakes the bots of rebuilt rooms."""
        self._loop = loop
        for room in self.rooms.values():
            self._room_changed(room)

    async def stop(self) -> None:
        """Stops every bot task."""
        tasks = list(self._bot_tasks.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._bot_tasks.clear()

    def _room_changed(self, room: Room) -> None:
        if self._loop is None or not room.bot_seats_to_move():
            return
        task = self._bot_tasks.get(room.code)
        if task is not None and not task.done():
            return
        self._bot_tasks[room.code] = self._loop.create_task(self._play_bots(room))

    def check_level(self, room: Room, level: str | None) -> None:
        """Refuses a bot level the room's game does not offer."""
        if level is not None and level not in room.game.info.agent_kinds:
            raise ServerError(
                "bot/level", f"{room.game.info.title} has no {level!r} bots", status=422
            )

    def set_level(self, room: Room, seat: Seat, level: str | None) -> None:
        """The level the bot of a seat plays at (None: the game's default bot)."""
        if level is None:
            self._levels.pop((room.code, seat), None)
        else:
            self._levels[(room.code, seat)] = level
        self._agents.pop((room.code, seat), None)

    def agent(self, room: Room, seat: Seat) -> Agent:
        """The agent playing a bot seat: its level if one was chosen, else the game's default.

        The default is the ``normal`` level when the game has levels (it answers at once; ``hard``
        thinks for a second a move), otherwise the strongest kind the game offers.
        """
        key = (room.code, seat)
        agent = self._agents.get(key)
        if agent is None:
            kind = self._levels.get(key) or default_bot(room.game)
            agent = room.game.agent(kind, room.bot_agent_seed(seat))
            self._agents[key] = agent
        return agent

    async def _play_bots(self, room: Room) -> None:
        while room.bot_seats_to_move():
            await asyncio.sleep(self.bot_delay)
            for seat in room.bot_seats_to_move():
                view, legal = room.seat_view(seat)
                if not legal:
                    continue
                if room.game.info.music and self.senses is not None:
                    # A listening bot hears the song and sees the sleeves, like anyone at the table.
                    senses = await asyncio.to_thread(self.senses.for_view, room.music, view)
                    view = {**view, "senses": senses}
                    if room.status != "playing" or room.seat_view(seat)[1] != legal:
                        continue  # the table moved on while the bot listened
                # A searching bot thinks for a while: keep the event loop free meanwhile.
                action = await asyncio.to_thread(self.agent(room, seat).choose, view, legal)
                if seat not in room.bot_seats_to_move() or room.seat_view(seat)[1] != legal:
                    continue  # the table moved on while the bot thought
                try:
                    room.act(seat, action, None)
                except ServerError as error:
                    log.error("bot of seat %s in room %s refused: %s", seat, room.code, error)
                    return
                # Let clients' messages through between two bot moves.
                await asyncio.sleep(0)


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
            raise ServerError("options/invalid", f"options not understood: {error}", 422) from error
        return
    if first is not None:
        raise ServerError(first.code, str(first), 422)


LEVELS = ("easy", "normal", "hard")


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
