"""Expensive pages (the booklet, mosaics, replays) on a pool of their own, made once.

Rendering the Artists Booklet PDF takes seconds of CPU. On the default thread pool, a few clients
asking for it in a loop used to keep the bots (which think on that pool) and room creation
waiting. :class:`Pages` runs such work on one thread of its own, so at most one core goes to it
whatever the demand, and keeps the answers: a page that cannot change (the booklet of this
server's deck, the mosaic of a finished game, a replay step) is made once. Two requests for the
same page while it is being made wait for the same result.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")

THREAD_NAME = "recordroom-pages"


class Pages:
    """A small pool for heavy pages and a bounded cache of what it made (see the module page)."""

    def __init__(self, workers: int = 1, keep: int = 256) -> None:
        self.pool = ThreadPoolExecutor(workers, thread_name_prefix=THREAD_NAME)
        self.keep = keep
        self.made = 0
        """How many pages were made (not answered from the cache)."""
        self._cache: OrderedDict[Hashable, asyncio.Future[Any]] = OrderedDict()

    async def get(self, key: Hashable, make: Callable[[], T]) -> T:
        """The page for ``key``: made by ``make`` on the pool the first time, then kept."""
        future = self._cache.get(key)
        if future is None:
            future = asyncio.get_running_loop().run_in_executor(self.pool, make)
            self.made += 1
            self._cache[key] = future
            future.add_done_callback(lambda done: self._forget_failure(key, done))
            while len(self._cache) > self.keep:
                self._cache.popitem(last=False)
        else:
            self._cache.move_to_end(key)
        result: T = await asyncio.shield(future)
        return result

    def _forget_failure(self, key: Hashable, done: asyncio.Future[Any]) -> None:
        if (done.cancelled() or done.exception() is not None) and self._cache.get(key) is done:
            del self._cache[key]

    def close(self) -> None:
        """Stops the pool (work under way finishes)."""
        self.pool.shutdown(wait=False, cancel_futures=True)
