"""A per-client sliding-window rate limit, kept in the server process.

Room codes are short so that people can type them; the limit is what keeps someone from trying
codes (or hammering joins) until one works. An in-process window is enough because one server
process serves a game night; a server spread over several processes would keep the counts in its
shared store instead.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable


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
        if len(hits) >= self.limit:
            return False
        hits.append(now)
        if len(self._hits) > 10_000:
            self._forget_idle(now)
        return True

    def _forget_idle(self, now: float) -> None:
        idle = [c for c, h in self._hits.items() if not h or h[-1] <= now - self.window]
        for client in idle:
            del self._hits[client]
