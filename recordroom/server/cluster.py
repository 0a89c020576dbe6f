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
