"""Other server processes serving the same rooms: what the hub and the rooms hear from them.

A hub has one :class:`Peers`. With the SQLite store (or a Redis store held by one process) it
is :class:`Alone`: nothing to tell, nothing to hear, and this process drives every room. With
``recordroom serve --cluster`` on a Redis store it is :class:`RedisPeers`, and any number of
processes serve any room at once:

* **The log decides.** Every process keeps the rooms it serves by applying what the store holds.
  An action is checked against the room as this process has it, then appended at the index the
  room is at (the store's script refuses an index already taken, as a
  :class:`~recordroom.server.store.Conflict`); a loser reads what it missed (:meth:`catch_up`),
  checks the action again against it and either lands it or refuses it with the usual code
  (``action/stale``, the game's own). Every other change (seats, settings, the start, the music)
  checks the room's *revision*, a count of such changes in the store, the same way.
* **Fan-out through Redis pub/sub.** After each change this process publishes one small message
  on the channel ``{prefix}changes``: the room's code, its version and revision (what the store
  holds of it), which seats have phones here, the turn the table opened and how long until it
  opens by itself. A process serving the room that is behind reads what it missed in one round
  trip and tells its own clients; one that is not only takes the presence and the turn. A
  message missed (pub/sub reconnecting) costs nothing that matters: the next message, or the
  next action (its index is taken), makes the room catch up. A room this process does not hold
  yet is read from the store when someone asks for it (:meth:`find`).
* **One driver a room.** Bots, the decision timer, forced moves and the turn that opens by itself
  are run by the one process that holds the room's lease in Redis
  (:class:`~recordroom.server.cluster.RoomLeases`): each process serving a room that is being
  played asks for its lease; when the holder dies, its lease runs out and another takes it
  within ``ttl`` and a third, and the bots go on.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import queue
import threading
import time
from typing import Any, Protocol

from redis.exceptions import RedisError

from recordroom.engine.game import Seat
from recordroom.server.cluster import ROOM_LEASE_TTL, RoomLeases, holder_id
from recordroom.server.errors import ServerError
from recordroom.server.protocol import AgainMessage, ErrorCode
from recordroom.server.redis_store import RedisStore
from recordroom.server.room import NEXT_GAME, Room, SeatSlot, _with_first_leader
from recordroom.server.store import RoomRecord, Store

log = logging.getLogger("recordroom.server")

PRESENCE_EVERY = 5.0
"""Seconds between two messages telling the other processes which phones are here."""


class Served(Protocol):
    """What the peers need of the hub: its rooms and a nudge."""

    rooms: dict[str, Room]

    def room_changed(self, room: Room) -> None:
        """The room changed (its bots and clocks are looked at again)."""
        ...


class Peers(Protocol):
    """The other processes serving the same rooms (see the module docstring)."""

    shared: bool
    """Whether other processes may serve the same rooms."""

    def start(self, loop: asyncio.AbstractEventLoop, hub: Served) -> None:
        """Starts hearing from the others."""
        ...

    def stop(self) -> None:
        """Stops hearing and telling; lets go of every room this process drives."""
        ...

    def serve(self, room: Room) -> None:
        """This process serves the room from now on."""
        ...

    def forget(self, code: str) -> None:
        """This process no longer serves the room (it was deleted)."""
        ...

    def drives(self, room: Room) -> bool:
        """Whether this process runs the room's bots and clocks."""
        ...

    def changed(self, room: Room) -> None:
        """The room changed here: the others hear of it."""
        ...

    def again(self, old: Room, code: str) -> None:
        """The room's next game is room ``code``: the others' clients of ``old`` hear of it."""
        ...

    def read(self, code: str) -> RoomRecord | None:
        """The stored record of a room this process does not hold yet (None: there is none);
        blocking, and safe on any thread: it only reads the store."""
        ...

    def room_count(self) -> int:
        """How many rooms every process serving the store holds together (blocking)."""
        ...


class Alone:
    """No other process: this one serves and drives every room (SQLite, or one Redis holder)."""

    shared = False

    def start(self, loop: asyncio.AbstractEventLoop, hub: Served) -> None:
        """Nothing to hear."""

    def stop(self) -> None:
        """Nothing to stop."""

    def serve(self, room: Room) -> None:
        """Nothing to set up."""

    def forget(self, code: str) -> None:
        """Nothing to forget."""

    def drives(self, room: Room) -> bool:
        """Always: nobody else could."""
        return True

    def changed(self, room: Room) -> None:
        """Nobody to tell."""

    def again(self, old: Room, code: str) -> None:
        """Nobody to tell."""

    def read(self, code: str) -> RoomRecord | None:
        """Every room is in memory already."""
        return None

    def room_count(self) -> int:
        """Not asked: the hub counts its own rooms."""
        return 0


def peers_for(store: Store) -> Peers:
    """The peers of a store: :class:`RedisPeers` for a Redis store shared by several processes."""
    if isinstance(store, RedisStore) and store.shared:
        return RedisPeers(store, store.room_lease)
    return Alone()


def digest(room: Room) -> str:
    """What the store holds of a room, in a few characters: its version and revision."""
    return f"{room.version}:{room.revision}"


class RedisPeers:
    """The processes sharing one Redis store (see the module docstring)."""

    shared = True

    def __init__(self, store: RedisStore, ttl: float = ROOM_LEASE_TTL) -> None:
        self.store = store
        self.holder = holder_id()
        self.channel = f"{store.prefix}changes"
        self.leases = RoomLeases(store.client, store.prefix, ttl, self.holder, self._lease_moved)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._hub: Served | None = None
        self._outbox: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
        self._stopping = threading.Event()
        self._threads: list[threading.Thread] = []
        self._quiet: str | None = None
        """The code of a room being brought up to the others' changes: not told back."""
        self._heard: dict[str, dict[str, Any]] = {}
        """Per room, the last message heard and not yet handled."""
        self._following: set[str] = set()
        self._presence: dict[str, dict[str, tuple[float, list[int]]]] = {}
        """Per room, per other process, when it last spoke and how many phones each seat has
        there (forgotten once it has been silent for ``3 * PRESENCE_EVERY``: it died)."""
        self._tasks: set[asyncio.Task[None]] = set()
        self._phones: dict[str, int] = {}
        """Per room, how many phones were here at the last change."""
        self.published = 0
        self.caught_up = 0
        """Messages published and catch-ups read from the store, for tests and measurements."""

    # -- starting and stopping ----------------------------------------------------------------

    def start(self, loop: asyncio.AbstractEventLoop, hub: Served) -> None:
        """Subscribes to the channel and starts the publisher and the leases' keeper."""
        self._loop = loop
        self._hub = hub
        pubsub = self.store.client.pubsub(ignore_subscribe_messages=True)  # type: ignore[no-untyped-call]
        pubsub.subscribe(self.channel)
        for target, name in ((self._listen, "listen"), (self._publish, "publish")):
            args = (pubsub,) if target == self._listen else ()
            thread = threading.Thread(
                target=target, args=args, name=f"recordroom-peers-{name}", daemon=True
            )
            thread.start()
            self._threads.append(thread)
        self.leases.start()
        for room in hub.rooms.values():
            self._want(room)
        beat = loop.create_task(self._heartbeat())
        self._tasks.add(beat)
        beat.add_done_callback(self._tasks.discard)

    async def _heartbeat(self) -> None:
        """Every ``PRESENCE_EVERY`` seconds: tells the phones here again (for rooms that have
        some), and forgets the phones of processes silent for three times that long."""
        while not self._stopping.is_set():
            await asyncio.sleep(PRESENCE_EVERY)
            if self._hub is None:
                continue
            for room in list(self._hub.rooms.values()):
                if any(slot.connections for slot in room.seats):
                    self.changed(room)
                if room.code in self._presence and self._count_elsewhere(room):
                    self._quiet = room.code
                    try:
                        room._changed()
                    finally:
                        self._quiet = None

    def stop(self) -> None:
        """Stops the threads and releases this process's rooms' leases."""
        self._stopping.set()
        self._outbox.put(None)
        for thread in self._threads:
            thread.join(timeout=5)
        self.leases.stop()
        if self._loop is not None:  # called on a thread of its own: cancel on the loop
            for task in list(self._tasks):
                with contextlib.suppress(RuntimeError):  # the loop is closed already
                    self._loop.call_soon_threadsafe(task.cancel)

    # -- rooms served ---------------------------------------------------------------------

    def serve(self, room: Room) -> None:
        """Marks the room shared and hooks its catch-up; asks for its lease when it is played."""
        room.shared = True
        room.catch_up = self.catch_up
        self._want(room)

    def forget(self, code: str) -> None:
        """Lets the room's lease go."""
        self.leases.unwant(code)
        self._presence.pop(code, None)
        self._phones.pop(code, None)

    def _want(self, room: Room) -> None:
        if room.status == "playing":
            self.leases.want(room.code)
        else:
            self.leases.unwant(room.code)

    def drives(self, room: Room) -> bool:
        """Whether this process holds the room's lease."""
        return self.leases.holds(room.code)

    def _lease_moved(self, code: str, held: bool) -> None:
        """On the leases' thread: this process gained or lost a room's lease."""
        log.info("room %s: %s its driver", code, "this process is" if held else "no longer")
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._nudge, code)

    def _nudge(self, code: str) -> None:
        room = self._hub.rooms.get(code) if self._hub is not None else None
        if room is not None and self._hub is not None:
            self._hub.room_changed(room)

    def read(self, code: str) -> RoomRecord | None:
        """The record of a room another process made (blocking: one Redis round trip)."""
        try:
            record = self.store.load_room(code)
        except Exception as error:
            raise ServerError(
                ErrorCode.SERVER_STORE, f"could not read room {code}: {error}", 503
            ) from error
        return record if isinstance(record, RoomRecord) else None

    def room_count(self) -> int:
        """The rooms stored in Redis (one round trip); ``server/store`` when unreachable."""
        try:
            return int(self.store.client.zcard(f"{self.store.prefix}rooms"))
        except RedisError as error:
            raise ServerError(
                ErrorCode.SERVER_STORE, f"could not count the rooms: {error}", 503
            ) from error

    # -- telling ----------------------------------------------------------------------------

    def changed(self, room: Room) -> None:
        """Publishes the room's digest, its phones here and its turn (not for a catch-up)."""
        self._want(room)
        if self._quiet == room.code or self._stopping.is_set():
            return
        phones = [slot.connections for slot in room.seats]
        if sum(phones) > self._phones.get(room.code, 0) and self._loop is not None:
            # A phone (re)connected here: it may come from a process that was further on.
            self._hear({"code": room.code, "digest": "?"})
        self._phones[room.code] = sum(phones)
        message: dict[str, Any] = {
            "from": self.holder,
            "code": room.code,
            "digest": digest(room),
            "phones": phones,
        }
        if room.leads_with_music and room.turn is not None:
            message["turn"] = room.turn
            message["opened"] = room.opened_turn == room.turn
            message["opens_in"] = max(0.0, room.open_deadline - time.monotonic())
        self._outbox.put(json.dumps(message, separators=(",", ":")).encode())

    def again(self, old: Room, code: str) -> None:
        """Tells the others' clients of ``old`` where the next game is."""
        message = {"from": self.holder, "code": old.code, "again": code}
        self._outbox.put(json.dumps(message, separators=(",", ":")).encode())

    def _publish(self) -> None:
        while True:
            message = self._outbox.get()
            if message is None:
                return
            try:
                self.store.client.publish(self.channel, message)
                self.published += 1
            except RedisError as error:
                # The others catch up at the next message or action; nothing is lost.
                log.warning("could not tell the other processes of a change: %s", error)

    # -- hearing ----------------------------------------------------------------------------

    def _listen(self, pubsub: Any) -> None:
        while not self._stopping.is_set():
            try:
                message = pubsub.get_message(timeout=0.5)
            except (RedisError, OSError, ValueError) as error:
                if self._stopping.is_set():
                    break
                log.warning("lost the other processes' messages (%s); listening again", error)
                time.sleep(0.5)
                try:
                    pubsub.subscribe(self.channel)
                except (RedisError, OSError, ValueError):
                    continue
                if self._loop is not None:  # whatever was missed: every room catches up
                    self._loop.call_soon_threadsafe(self._catch_up_all)
                continue
            if message is None or message.get("type") != "message":
                continue
            try:
                heard = json.loads(message["data"])
            except (ValueError, TypeError):
                continue
            if not isinstance(heard, dict) or heard.get("from") == self.holder:
                continue
            if self._loop is not None:
                with contextlib.suppress(RuntimeError):  # a loop closed meanwhile
                    self._loop.call_soon_threadsafe(self._hear, heard)
        with contextlib.suppress(RedisError, OSError, ValueError):
            pubsub.close()

    def _catch_up_all(self) -> None:
        if self._hub is None:
            return
        for code in list(self._hub.rooms):
            self._hear({"code": code, "digest": "?"})

    def _hear(self, heard: dict[str, Any]) -> None:
        """On the loop: a message of another process about one room."""
        code = heard.get("code")
        if self._hub is None or not isinstance(code, str) or code not in self._hub.rooms:
            return  # a room not served here is read when someone asks for it
        room = self._hub.rooms[code]
        again = heard.get("again")
        if isinstance(again, str):
            room.settings = {**room.settings, NEXT_GAME: again}  # a phone coming back follows
            for client in list(room.clients):
                client.send(AgainMessage(code=again).model_dump())
            return
        self._heard[code] = heard
        if code in self._following:
            return  # the running follow-up handles it after what it is doing
        self._following.add(code)
        task = asyncio.ensure_future(self._follow(room))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _follow(self, room: Room) -> None:
        """Brings the room up to every message heard about it, one after the other."""
        try:
            while room.code in self._heard:
                heard = self._heard.pop(room.code)
                if heard.get("digest") != digest(room):
                    try:
                        await room.follow()
                    except ServerError as error:
                        log.warning("room %s could not catch up: %s", room.code, error)
                self._take(room, heard)
        finally:
            self._following.discard(room.code)

    def _take(self, room: Room, heard: dict[str, Any]) -> None:
        """The others' phones and the turn they opened (or held)."""
        changed = False
        phones = heard.get("phones")
        sender = heard.get("from")
        if isinstance(phones, list) and isinstance(sender, str):
            present = self._presence.setdefault(room.code, {})
            present[sender] = (time.monotonic(), [n if isinstance(n, int) else 0 for n in phones])
            changed = self._count_elsewhere(room)
        turn = heard.get("turn")
        self._quiet = room.code
        try:
            if isinstance(turn, int) and turn == room.turn and room.listening:
                if heard.get("opened") is True:
                    room.open_turn(turn)
                    return
                opens_in = heard.get("opens_in")
                if isinstance(opens_in, int | float):
                    later = time.monotonic() + float(opens_in)
                    if later > room.open_deadline + 0.5:
                        room.hold_turn(turn)
                        return
            if changed:
                room._changed()
        finally:
            self._quiet = None

    def _count_elsewhere(self, room: Room) -> bool:
        """Sums the others' phones per seat; True when a seat's presence changed."""
        present = self._presence.get(room.code, {})
        changed = False
        now = time.monotonic()
        for sender in [s for s, (heard, _) in present.items() if now - heard > 3 * PRESENCE_EVERY]:
            del present[sender]  # silent for too long: that process is gone, and its phones
        for seat, slot in enumerate(room.seats):
            count = sum(p[seat] for _, p in present.values() if seat < len(p))
            if (count > 0) != (slot.elsewhere > 0):
                changed = True
                if count == 0 and slot.connections == 0 and not slot.bot:
                    slot.away_since = now
            slot.elsewhere = count
        return changed

    # -- catching up ------------------------------------------------------------------------

    async def catch_up(self, room: Room) -> None:
        """Reads what the store holds of the room past this process's version and applies it.

        Called under the room's ``_acting`` (by a change that lost a race, or by a follow-up).
        """
        record, length = await asyncio.to_thread(self.store.read_since, room.code, room.version)
        self.caught_up += 1
        if record is None:
            return  # deleted elsewhere: the sweep of that process told its own clients
        if length < room.version:
            log.critical(
                "room %s: Redis holds %d actions, this process %d", room.code, length, room.version
            )
            raise ServerError(ErrorCode.SERVER_STORE, "the store lost actions of this room", 503)
        if length == room.version and record.revision == room.revision:
            return  # nothing new (a look before refusing a token): nobody is told anything
        self._quiet = room.code
        try:
            adopt(room, record)
            self._count_elsewhere(room)
            room._changed()
        finally:
            self._quiet = None


def adopt(room: Room, record: RoomRecord) -> None:
    """Brings ``room`` to ``record``, whose log holds the actions from the room's version on.

    Seats follow their tokens: a phone here whose seat moved keeps it under its new number; one
    whose token no longer holds a seat (kicked, or given to someone else) is closed.
    """
    before = room.seats
    seats = []
    for stored in record.seats:
        token = stored.token
        old = next((s for s in before if token is not None and s.token == token), None)
        seats.append(
            SeatSlot(
                stored.name,
                stored.token,
                stored.bot,
                level=stored.level,
                away_since=None if old is None else old.away_since,
                elsewhere=0 if old is None else old.elsewhere,
            )
        )
    for client in list(room.clients):
        if client.role != "seat" or client.seat is None:
            continue
        token = before[client.seat].token if client.seat < len(before) else None
        moved = next((i for i, s in enumerate(seats) if token and s.token == token), None)
        if moved is None:
            client.seat = None
            client.close(ErrorCode.SEAT_KICKED, "the host gave this seat to someone else")
        else:
            client.seat = moved
            seats[moved].connections += 1
    room.seats = seats
    room.settings = dict(record.settings)
    room.revision = record.revision
    if room.music is not None and record.music is not None:
        room.music.skips = int(record.music.get("skips", room.music.skips))
    if room.status == "lobby" and record.status != "lobby":
        _start(room, record)
    elif len(room._seat_legal) != len(room.seats):
        room._reset_seen()
    for entry in record.log:
        _apply(room, int(entry["seat"]), entry["action"])
    room.touched = time.time()


def _start(room: Room, record: RoomRecord) -> None:
    """The game started elsewhere: as :meth:`Room.start` does, from the stored settings."""
    room.options = _with_first_leader(record.options, record.settings)
    room.state = room.game.new_state(len(room.seats), room.seed, room.options)
    room.status = "playing"
    room._reset_seen()
    now = time.monotonic()
    for slot in room.seats:
        if slot.connections == 0 and slot.elsewhere == 0 and not slot.bot:
            slot.away_since = now
    room._new_round()


def _apply(room: Room, seat: Seat, action: Any) -> None:
    """One action another process stored, as :meth:`Room._land` applies its own."""
    state = room.game.apply(room.state, seat, action)
    before = room.state.active
    room.state = state
    room.log.append({"seat": seat, "action": action})
    room._seat_changed_at[seat] = room.version
    if not state.active <= before - {seat}:
        room._new_round()
    if room.game.is_over(state):
        room.status = "over"
        room.result = room.game.result(state)
