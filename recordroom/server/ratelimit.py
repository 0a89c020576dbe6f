"""A per-client sliding-window rate limit, kept in the server process (and shared through Redis).

Room codes are short so that people can type them; the limit is what keeps someone from trying
codes (or hammering joins) until one works. One server process counts in memory
(:class:`SlidingWindow`). Processes sharing a Redis store (``--cluster``, ``--workers``) each
count their own hits the same way and tell the others through Redis (:class:`SharedWindow`), so a
client spread over several processes is held to about the same limit as on one.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections import Counter, deque
from collections.abc import Callable

import redis
from redis.exceptions import RedisError

log = logging.getLogger("recordroom.server")


class SlidingWindow:
    """Allows at most ``limit`` hits per client within any ``window`` seconds."""

    def __init__(
        self, limit: int, window: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.limit = limit
        self.window = window
        self._clock = clock
        self._hits: dict[str, deque[float]] = {}

    def allow(self, client: str) -> bool:
        """Counts a hit for the client; False when it is over the limit (not counted then)."""
        now = self._clock()
        hits = self._hits.setdefault(client, deque())
        while hits and hits[0] <= now - self.window:
            hits.popleft()
        if len(hits) + self.elsewhere(client) >= self.limit:
            return False
        hits.append(now)
        if len(self._hits) > 10_000:
            self._forget_idle(now)
        return True

    def elsewhere(self, client: str) -> int:
        """The client's hits counted by other processes (none for one process)."""
        return 0

    def close(self) -> None:
        """Stops counting with others (nothing to stop for one process)."""

    def _forget_idle(self, now: float) -> None:
        idle = [c for c, h in self._hits.items() if not h or h[-1] <= now - self.window]
        for client in idle:
            del self._hits[client]


SYNC_EVERY = 0.5
"""Seconds between two exchanges of a :class:`SharedWindow`'s counts with Redis."""


class SharedWindow(SlidingWindow):
    """The same limit counted by every process sharing a Redis store.

    Each process keeps its own sliding window and, every :data:`SYNC_EVERY` seconds on a thread of
    its own, adds its new hits to Redis (``{key}:{bucket}:{client}``, one counter per client and
    window-long bucket of the Unix clock, expiring after two windows) and reads back, for the
    clients it saw lately, the counts of the current and the previous bucket: less its own, those
    are the client's hits elsewhere, which :meth:`allow` adds to its own. So the limit holds
    across processes to within what the others counted in the last half second, and errs on the
    strict side (the previous bucket may reach back up to two windows). When Redis cannot be
    reached, each process goes on with its own count.
    """

    def __init__(
        self,
        limit: int,
        window: float,
        client: redis.Redis,
        key: str,
        clock: Callable[[], float] = time.monotonic,
        every: float = SYNC_EVERY,
    ) -> None:
        super().__init__(limit, window, clock)
        self.client = client
        self.key = key
        self._lock = threading.Lock()
        self._new: Counter[str] = Counter()
        self._own: Counter[tuple[int, str]] = Counter()
        self._others: dict[str, int] = {}
        self._stop = threading.Event()
        self._every = every
        self._thread = threading.Thread(target=self._run, name="recordroom-limits", daemon=True)
        self._thread.start()

    def allow(self, client: str) -> bool:
        """Counts a hit (here and, soon, in Redis); False when over the limit across processes."""
        allowed = super().allow(client)
        if allowed:
            with self._lock:
                self._new[client] += 1
        return allowed

    def elsewhere(self, client: str) -> int:
        """The client's hits in the other processes, as of the last exchange."""
        return self._others.get(client, 0)

    def _run(self) -> None:
        while not self._stop.wait(self._every):
            try:
                self.sync()
            except RedisError as error:
                log.warning("could not share the rate limits' counts: %s", error)

    def sync(self) -> None:
        """Adds this process's new hits to Redis and reads the others' (the thread calls it)."""
        with self._lock:
            new, self._new = self._new, Counter()
        wall = time.time()
        bucket = int(wall // self.window)
        expiry = max(1, math.ceil(2 * self.window))
        recent = f"{self.key}:recent"  # every client any process counted, by its last hit
        pipe = self.client.pipeline(transaction=False)
        for client, count in new.items():
            name = f"{self.key}:{bucket}:{client}"
            pipe.incrby(name, count)
            pipe.expire(name, expiry)
            pipe.zadd(recent, {client: wall})
        pipe.zremrangebyscore(recent, "-inf", wall - 2 * self.window)
        pipe.zrange(recent, 0, -1)
        pipe.expire(recent, expiry)
        answers = pipe.execute()
        for client, count in new.items():
            self._own[(bucket, client)] += count
        clients = sorted(c.decode() if isinstance(c, bytes) else str(c) for c in answers[-2])
        pipe = self.client.pipeline(transaction=False)
        for client in clients:
            pipe.mget(f"{self.key}:{bucket}:{client}", f"{self.key}:{bucket - 1}:{client}")
        counts = pipe.execute() if clients else []
        others: dict[str, int] = {}
        for client, (now, before) in zip(clients, counts, strict=True):
            total = int(now or 0) + int(before or 0)
            own = self._own[(bucket, client)] + self._own[(bucket - 1, client)]
            if total > own:
                others[client] = total - own
        self._others = others
        for old in [k for k in self._own if k[0] < bucket - 1]:
            del self._own[old]

    def close(self) -> None:
        """Stops the exchanges."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()


def window_for(
    limit: int, window: float, shared: redis.Redis | None = None, key: str = ""
) -> SlidingWindow:
    """A :class:`SharedWindow` over ``shared`` when processes share a Redis store, else a
    :class:`SlidingWindow`."""
    if shared is None:
        return SlidingWindow(limit, window)
    return SharedWindow(limit, window, shared, key)
