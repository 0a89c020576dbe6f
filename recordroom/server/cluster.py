"""Leases in Redis: one holder at a time for a name, until it stops renewing.

A :class:`Lease` is a Redis key holding its holder's id with an expiry. Taking it succeeds only
when the key is free (``SET NX PX``); renewing and releasing succeed only for the holder (a Lua
script compares the id first), so a process that was paused past the expiry and lost the lease
cannot extend or drop another holder's. A :class:`LeaseKeeper` renews a lease on a thread of its
own, every third of its time to live, and says when it was lost.

The server uses one lease per store (``{prefix}server``): while one ``recordroom serve`` process
holds it, another started on the same Redis database and prefix stops at once with a clear
message, and the store's writes are *fenced* by it (every job's script first checks that this
process still holds the lease; see :class:`~recordroom.server.redis_store.RedisStore`), so a
process that lost its lease (Redis unreachable for longer than the lease) can no longer write
anything once another process took over. A process killed with ``SIGKILL`` stops renewing; its
lease ends after at most its time to live and another process can take over.
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
import threading
import time
from collections.abc import Callable

import redis
from redis.exceptions import RedisError

log = logging.getLogger("recordroom.server")

SERVER_LEASE_TTL = 10.0
"""Seconds a server process's lease lasts without renewal (it renews every third of that)."""

_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0
"""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return 1
end
return 0
"""


def holder_id() -> str:
    """An id for this process: host, pid and a random part (a pid is reused, the rest is not)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


class Lease:
    """One named lease in Redis (see the module docstring)."""

    def __init__(self, client: redis.Redis, key: str, ttl: float, holder: str | None = None):
        if ttl <= 0:
            raise ValueError("a lease lasts a positive number of seconds")
        self.client = client
        self.key = key
        self.ttl = ttl
        self.holder = holder or holder_id()
        self._renew = client.register_script(_RENEW)
        self._release = client.register_script(_RELEASE)

    @property
    def _millis(self) -> int:
        return max(1, round(self.ttl * 1000))

    def acquire(self) -> bool:
        """Takes the lease if it is free (or already ours); raises RedisError when unreachable."""
        if self.client.set(self.key, self.holder, nx=True, px=self._millis):
            return True
        return self.renew()

    def renew(self) -> bool:
        """Extends the lease by its time to live; False when another holds it or it ended."""
        return bool(self._renew(keys=[self.key], args=[self.holder, self._millis]))

    def release(self) -> bool:
        """Ends the lease now if it is ours; False otherwise (nothing changes then)."""
        return bool(self._release(keys=[self.key], args=[self.holder]))

    def current_holder(self) -> str | None:
        """Who holds the lease now (None: nobody)."""
        value = self.client.get(self.key)
        return None if value is None else bytes(value).decode()  # type: ignore[arg-type]


class LeaseKeeper:
    """Renews a held lease on a thread of its own; calls ``on_lost`` once if it is lost.

    A renewal that cannot reach Redis is retried at the next tick: the lease is lost only when
    Redis answers that it is no longer ours (it ended, or another process took it), and then
    the keeper tries to take it back once, in case it simply ended while Redis was away.
    """

    def __init__(self, lease: Lease, on_lost: Callable[[str | None], None] | None = None):
        self.lease = lease
        self.on_lost = on_lost
        self.lost = False
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="recordroom-lease", daemon=True)

    def start(self) -> LeaseKeeper:
        """Starts renewing (the lease must be held already)."""
        self._thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.wait(self.lease.ttl / 3):
            try:
                if self.lease.renew() or self.lease.acquire():
                    continue
                holder = self.lease.current_holder()
            except RedisError as error:
                log.warning("could not renew the lease %s: %s", self.lease.key, error)
                continue
            self.lost = True
            log.critical("the lease %s was lost to %s", self.lease.key, holder)
            if self.on_lost is not None:
                self.on_lost(holder)
            return

    def stop(self, release: bool = True) -> None:
        """Stops renewing and (by default) ends the lease so another process may take it."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()
        if release and not self.lost:
            try:
                self.lease.release()
            except RedisError as error:
                log.warning("could not release the lease %s: %s", self.lease.key, error)


ROOM_LEASE_TTL = 5.0
"""Seconds a room's driver lease lasts without renewal (default of ``recordroom serve
--cluster``): a driver that died is replaced within about this long and a third."""


class RoomLeases:
    """One lease a room, ``{prefix}driver:{code}``: the process holding it drives the room.

    The process says which rooms it would drive (:meth:`want`, :meth:`unwant`); one thread
    takes the free leases of those rooms (``SET NX PX``), renews the ones it holds and releases
    the ones no longer wanted, every third of the time to live (at once when a room is newly
    wanted), all in one pipeline. ``on_change(code, held)`` is called on that thread whenever
    this process gains or loses a room's lease. A renewal that cannot reach Redis for longer
    than the time to live counts every lease as lost: another process may hold them by then.
    """

    def __init__(
        self,
        client: redis.Redis,
        prefix: str,
        ttl: float = ROOM_LEASE_TTL,
        holder: str | None = None,
        on_change: Callable[[str, bool], None] | None = None,
    ) -> None:
        if ttl <= 0:
            raise ValueError("a lease lasts a positive number of seconds")
        self.client = client
        self.prefix = prefix
        self.ttl = ttl
        self.holder = holder or holder_id()
        self.on_change = on_change
        self._renew = client.register_script(_RENEW)
        self._release = client.register_script(_RELEASE)
        self._lock = threading.Lock()
        self._wanted: set[str] = set()
        self._held: frozenset[str] = frozenset()
        self._renewed_at = time.monotonic()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="recordroom-rooms", daemon=True)

    def key(self, code: str) -> str:
        """The Redis key of a room's lease."""
        return f"{self.prefix}driver:{code}"

    @property
    def _millis(self) -> int:
        return max(1, round(self.ttl * 1000))

    def start(self) -> RoomLeases:
        """Starts the thread."""
        self._thread.start()
        return self

    def want(self, code: str) -> None:
        """This process would drive the room (it takes the lease as soon as it is free)."""
        with self._lock:
            if code in self._wanted:
                return
            self._wanted.add(code)
        self._wake.set()

    def unwant(self, code: str) -> None:
        """This process no longer drives the room (its lease is released at the next tick)."""
        with self._lock:
            if code not in self._wanted:
                return
            self._wanted.discard(code)
        self._wake.set()

    def holds(self, code: str) -> bool:
        """Whether this process holds the room's lease (as of the last tick)."""
        return code in self._held

    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(self.ttl / 3)
            self._wake.clear()
            if self._stop.is_set():
                return
            self.tick()

    def tick(self) -> None:
        """Takes, renews and releases leases once (the thread calls it; tests may too)."""
        with self._lock:
            wanted = set(self._wanted)
        held = self._held
        keep = sorted(held & wanted)
        take = sorted(wanted - held)
        drop = sorted(held - wanted)
        now = time.monotonic()
        try:
            pipe = self.client.pipeline(transaction=False)
            for code in keep:
                self._renew(keys=[self.key(code)], args=[self.holder, self._millis], client=pipe)
            for code in take:
                pipe.set(self.key(code), self.holder, nx=True, px=self._millis)
            for code in drop:
                self._release(keys=[self.key(code)], args=[self.holder], client=pipe)
            answers = pipe.execute() if keep or take or drop else []
        except RedisError as error:
            log.warning("could not renew the rooms' leases: %s", error)
            if now - self._renewed_at > self.ttl and held:
                self._set_held(frozenset())
            return
        self._renewed_at = now
        renewed = {code for code, ok in zip(keep, answers, strict=False) if ok}
        taken = {code for code, ok in zip(take, answers[len(keep) :], strict=False) if ok}
        self._set_held(frozenset(renewed | taken))

    def _set_held(self, held: frozenset[str]) -> None:
        before, self._held = self._held, held
        if self.on_change is None:
            return
        for code in sorted(held - before):
            self.on_change(code, True)
        for code in sorted(before - held):
            self.on_change(code, False)

    def stop(self) -> None:
        """Stops the thread and releases every lease held, so other processes take over at once."""
        self._stop.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join()
        held, self._held = self._held, frozenset()
        if not held:
            return
        try:
            pipe = self.client.pipeline(transaction=False)
            for code in held:
                self._release(keys=[self.key(code)], args=[self.holder], client=pipe)
            pipe.execute()
        except RedisError as error:
            log.warning("could not release the rooms' leases: %s", error)
