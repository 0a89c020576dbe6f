"""The one writer: every change to the store goes through one thread, in groups.

A server has one :class:`Writer`. Whoever wants something stored (a room's action on the event
loop, a room creation, a restart's repair) hands it a *job*, a few writes that stand or fall
together, and gets a future back. The writer's thread takes every job that is waiting, commits
them as one group (:meth:`~recordroom.server.store.Store.commit`: one transaction, one fsync),
and only then resolves each job's future, with ``None`` or the error that refused that job.

So transactions never interleave, whatever thread or task the writes come from; the event loop
never waits on the disk (it awaits the future); and when many rooms act at once, the cost of a
durable commit is shared by every action that arrived while the previous one was being written.

The writer is itself a :class:`~recordroom.server.store.Store`: its one-write methods (used by
code that may block, such as a restart) submit a job and wait for it.

A store kept by a process of its own (:class:`~recordroom.server.store_process.StoreProcess`,
what ``recordroom serve`` uses) groups the jobs itself, in that process: the writer hands it the
event loop's jobs directly, and its thread only serves the callers that may block.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, TypeVar

from recordroom.server.store import (
    MAX_GROUP,
    DamagedRoom,
    OneWriteShorthands,
    RoomRecord,
    Store,
    Write,
)
from recordroom.server.store_process import StoreProcess

log = logging.getLogger("recordroom.server")


class WriterClosed(RuntimeError):
    """A job was handed to a writer that has stopped."""


T = TypeVar("T")


@dataclass
class _Job:
    writes: Sequence[Write]
    future: Future[None] | None
    """Told the outcome on the writer's thread (a caller that may block)."""
    loop: asyncio.AbstractEventLoop | None = None
    waiter: asyncio.Future[None] | None = None
    """Told the outcome on ``loop`` (a caller on an event loop), once per group and loop."""


@dataclass
class _Read:
    read: Callable[[], Any]
    future: Future[Any]


class Writer(OneWriteShorthands):
    """Commits jobs on a thread of its own, in groups (see the module docstring)."""

    def __init__(self, store: Store, name: str = "recordroom-writer") -> None:
        self.store = store
        self.groups = 0
        """How many groups (transactions) were committed, for tests and measurements."""
        self.jobs = 0
        """How many jobs were committed."""
        self._queue: queue.SimpleQueue[_Job | _Read | None] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    # -- handing jobs over ------------------------------------------------------------------

    def submit(self, *writes: Write) -> Future[None]:
        """Queues one job; its future is done once the job is durable (or refused)."""
        future: Future[None] = Future()
        self._put(_Job(writes, future))
        return future

    def _put(self, item: _Job | _Read) -> None:
        with self._lock:
            if self._closed:
                raise WriterClosed("the store is closed")
            self._queue.put(item)

    async def write(self, *writes: Write) -> None:
        """Stores one job without blocking the event loop; raises the job's error.

        The outcomes of a group's jobs reach their event loop in one hand-over (one wake-up of
        the loop per group, not one per job). A store kept by a process of its own takes the job
        from the loop itself, and groups it there (:meth:`StoreProcess.write`).
        """
        if isinstance(self.store, StoreProcess):
            await self.store.write(*writes)
            return
        loop = asyncio.get_running_loop()
        waiter: asyncio.Future[None] = loop.create_future()
        self._put(_Job(writes, None, loop, waiter))
        await waiter

    def commit(self, jobs: Sequence[Sequence[Write]]) -> list[Exception | None]:
        """Stores the jobs through the writer's thread and waits (see :meth:`Store.commit`)."""
        futures = [self.submit(*job) for job in jobs]
        errors: list[Exception | None] = []
        for future in futures:
            error = future.exception()
            errors.append(None if error is None else _as_exception(error))
        return errors

    # -- reading ----------------------------------------------------------------------------

    def code_taken(self, code: str) -> bool:
        """Whether a room with that code exists (read on the writer's thread)."""
        return self._call(lambda: self.store.code_taken(code))

    def load_rooms(self) -> Iterator[RoomRecord | DamagedRoom]:
        """Every stored room, read on the writer's thread in one go."""
        return iter(self._call(lambda: list(self.store.load_rooms())))

    def _call(self, read: Callable[[], T]) -> T:
        """Runs a read on the writer's thread, after every job queued before it."""
        future: Future[T] = Future()
        self._put(_Read(read, future))
        return future.result()

    # -- the thread -------------------------------------------------------------------------

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            group: list[_Job] = []
            while isinstance(item, _Job):
                group.append(item)
                if len(group) >= MAX_GROUP:
                    break
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    item = _NOTHING
            if group:
                self._commit(group)
            if isinstance(item, _Read) and item is not _NOTHING:
                self._read(item)
            elif item is None:
                return

    def _commit(self, group: list[_Job]) -> None:
        live = [
            job for job in group if job.future is None or job.future.set_running_or_notify_cancel()
        ]
        try:
            errors: list[Exception | None] = self.store.commit([job.writes for job in live])
        except Exception as error:  # the whole group failed: nothing of it was kept
            log.error("the store refused a group of %d jobs: %s", len(live), error)
            errors = [error] * len(live)
        else:
            self.groups += 1
            self.jobs += len(live)
        told: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[None], Exception | None]]]
        told = {}
        for job, job_error in zip(live, errors, strict=True):
            if job.loop is not None and job.waiter is not None:
                told.setdefault(job.loop, []).append((job.waiter, job_error))
            elif job.future is not None:
                if job_error is None:
                    job.future.set_result(None)
                else:
                    job.future.set_exception(job_error)
        for loop, outcomes in told.items():
            with contextlib.suppress(RuntimeError):  # a closed loop: nobody is left to tell
                loop.call_soon_threadsafe(_tell, outcomes)

    @staticmethod
    def _read(item: _Read) -> None:
        if not item.future.set_running_or_notify_cancel():
            return
        try:
            item.future.set_result(item.read())
        except Exception as error:
            item.future.set_exception(error)

    def stop(self) -> None:
        """Commits what is queued and stops the thread (the store stays open)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._queue.put(None)
        self._thread.join()

    def close(self) -> None:
        """Commits what is queued, stops the thread and closes the store."""
        self.stop()
        self.store.close()


_NOTHING = _Read(lambda: None, Future())
"""Stands for "the queue was empty" while a group is gathered."""


def _tell(outcomes: list[tuple[asyncio.Future[None], Exception | None]]) -> None:
    """On an event loop: each waiter of a committed group learns its job's outcome."""
    for waiter, error in outcomes:
        if waiter.done():  # its caller was cancelled; the job landed all the same
            continue
        if error is None:
            waiter.set_result(None)
        else:
            waiter.set_exception(error)


def _as_exception(error: BaseException) -> Exception:
    return error if isinstance(error, Exception) else RuntimeError(str(error))


async def commit_job(store: Store, *writes: Write) -> None:
    """Stores one job from the event loop: through the writer when ``store`` is one.

    A plain store (a test's, or a tool's) commits the job at once, on the caller's thread.
    """
    if isinstance(store, Writer):
        await store.write(*writes)
        return
    (error,) = store.commit([writes])
    if error is not None:
        raise error
