"""A SQLite store kept by a process of its own, so that SQLite never waits on the event loop.

Python runs one thread at a time. SQLite lets go of the interpreter's lock inside each call, and
each time it returns, the writer's thread must win the lock back from the event loop, which then
stops until the writer lets go again: a group with a new room in it makes a dozen such calls. On
a machine of two busy cores, those hand-overs cost the event loop more than the writes.

:class:`StoreProcess` is a :class:`~recordroom.server.store.Store` whose
:class:`~recordroom.server.store.SqliteStore` lives in a child process (:func:`main`), with an
interpreter of its own. It talks to the child over
two socket pairs, each message a pickle after its length (4 bytes, big-endian):

* **the event loop's**, for the jobs of the rooms (:meth:`StoreProcess.write`): the loop sends
  each job as it comes (those of one turn of the loop together) and goes on; the child takes
  every job that has arrived, commits them as one group, and answers with each job's outcome in
  one message, which the loop reads when it comes. No thread of the server takes part.
* **the others'**, one question and its answer at a time (:meth:`StoreProcess.commit`, the
  reads, the one-write shorthands), for code that may block: the start, room creation on a
  worker thread, tools.

What is committed, and when anyone is told, is as with the store in the server's process
(:mod:`recordroom.server.writer`): one transaction per group, ``synchronous=FULL``, each job all
or nothing, its future done only once the group is durable. Whatever the child has received when
the store is closed is committed before it exits.

The child stops when the server closes the store, or when the server is gone (its sockets end),
and ignores Ctrl-C and SIGTERM meant for the server, which closes the store once it has stopped
serving. If the child itself dies, every job in flight and every later call fails with
:class:`StoreGone`: the rooms refuse their actions (``server/store``) rather than going on
without a log, and :attr:`StoreProcess.on_gone` is told (``recordroom serve`` then stops, so
that a restart serves what the file kept).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import pickle
import selectors
import signal
import socket
import struct
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from recordroom.server.store import (
    MAX_GROUP,
    DamagedRoom,
    OneWriteShorthands,
    RoomRecord,
    SqliteStore,
    Write,
)

log = logging.getLogger("recordroom.server")

_LENGTH = struct.Struct("!I")
_READ = 64 * 1024
"""Bytes asked of a socket at a time. Under the C library's threshold for a memory map of its
own: a buffer of 1 MiB cost a map and an unmap of memory on every read, an empty one included,
about 11 us more a read than this size."""
START_TIMEOUT = 60.0
"""Seconds the child has to open the database and answer its first message."""
CLOSE_TIMEOUT = 30.0
"""Seconds the child has to finish and exit once the store is closed."""

_CHILD = "from recordroom.server.store_process import main; main()"
"""What the child runs (``-m`` would load this module twice: the package imports it too)."""

Outcome = tuple[int, Exception | None]
"""A job of the event loop's, by its number, and the error that refused it (None: stored)."""


class StoreGone(OSError):
    """The store's process has ended: nothing more can be stored."""


def _framed(message: Any) -> bytes:
    body = pickle.dumps(message, pickle.HIGHEST_PROTOCOL)
    return _LENGTH.pack(len(body)) + body


def _unframe(buffer: bytearray) -> Iterator[Any]:
    """Takes every whole message off the front of ``buffer``."""
    start = 0
    while len(buffer) - start >= _LENGTH.size:
        (length,) = _LENGTH.unpack_from(buffer, start)
        end = start + _LENGTH.size + length
        if len(buffer) < end:
            break
        yield pickle.loads(memoryview(buffer)[start + _LENGTH.size : end])
        start = end
    del buffer[:start]


def _receive(channel: socket.socket) -> Any:
    """The next message on a blocking socket, where one question or answer is in flight at a
    time; EOFError when the other side is gone."""
    buffer = bytearray()
    while True:
        data = channel.recv(_READ)
        if not data:
            raise EOFError("the other side closed the socket")
        buffer += data
        for message in _unframe(buffer):
            return message


class _LoopChannel:
    """The event loop's end of its socket to the child: jobs out, their outcomes back."""

    def __init__(
        self,
        channel: socket.socket,
        loop: asyncio.AbstractEventLoop,
        died: Callable[[str], None],
    ) -> None:
        channel.setblocking(False)
        self.channel = channel
        self.loop = loop
        self.died = died
        """Told once the child has ended without being asked to."""
        self.waiting: dict[int, asyncio.Future[None]] = {}
        self.gone: str | None = None
        self._numbers = itertools.count()
        self._unsent = bytearray()
        """Jobs not yet handed to the socket (sent at the end of this turn of the loop)."""
        self._flushing = False
        self._writer_armed = False
        self._received = bytearray()
        loop.add_reader(channel.fileno(), self._readable)

    def send(self, writes: Sequence[Write]) -> asyncio.Future[None]:
        """Hands one job over; its future is done once the job is durable (or refused)."""
        if self.gone is not None:
            raise StoreGone(self.gone)
        number = next(self._numbers)
        self._unsent += _framed((number, tuple(writes)))
        done: asyncio.Future[None] = self.loop.create_future()
        self.waiting[number] = done
        if not self._flushing and not self._writer_armed:
            self._flushing = True
            self.loop.call_soon(self._flush)
        return done

    def _flush(self) -> None:
        self._flushing = False
        while self._unsent and self.gone is None:
            try:
                sent = self.channel.send(self._unsent)
            except BlockingIOError:
                break
            except OSError as error:
                self._died(f"the store's process has ended: {error}")
                return
            del self._unsent[:sent]
        wanted = bool(self._unsent) and self.gone is None
        if wanted != self._writer_armed:
            if wanted:
                self.loop.add_writer(self.channel.fileno(), self._flush)
            else:
                self.loop.remove_writer(self.channel.fileno())
            self._writer_armed = wanted

    def _readable(self) -> None:
        try:
            data = self.channel.recv(_READ)
        except BlockingIOError:
            return
        except OSError as error:
            self._died(f"the store's process has ended: {error}")
            return
        if not data:
            self._died("the store's process has ended")
            return
        self._take(data)

    def _take(self, data: bytes) -> None:
        """Tells each job of the answers in ``data`` its outcome."""
        self._received += data
        for outcomes in _unframe(self._received):
            for number, refusal in outcomes:
                done = self.waiting.pop(number, None)
                if done is None or done.done():  # its caller was cancelled; it landed all the same
                    continue
                if refusal is None:
                    done.set_result(None)
                else:
                    done.set_exception(refusal)

    def _died(self, why: str) -> None:
        self._end(why)
        self.died(why)

    def _end(self, why: str) -> None:
        """The child is gone: every job in flight fails, and every later one."""
        self.gone = why
        self._stop_watching()
        waiting, self.waiting = self.waiting, {}
        for done in waiting.values():
            if not done.done():
                done.set_exception(StoreGone(why))

    def _stop_watching(self) -> None:
        with contextlib.suppress(Exception):  # a loop already closed watches nothing
            self.loop.remove_reader(self.channel.fileno())
            if self._writer_armed:
                self.loop.remove_writer(self.channel.fileno())
        self._writer_armed = False

    def hand_over_rest(self) -> None:
        """Sends every job not yet sent, and stops watching the socket (the store is closing
        while this loop still runs; :meth:`take_rest` reads the last answers)."""
        if self.gone is not None:
            return
        self._stop_watching()
        self.channel.setblocking(True)
        with contextlib.suppress(OSError):
            self.channel.sendall(self._unsent)
        self._unsent.clear()

    def take_rest(self) -> None:
        """Reads the answers the child sent before it ended, then fails whatever is left."""
        if self.gone is None:
            self.channel.settimeout(CLOSE_TIMEOUT)
            with contextlib.suppress(OSError):
                while data := self.channel.recv(_READ):
                    self._take(data)
        self._end("the store is closed")


class StoreProcess(OneWriteShorthands):
    """A :class:`SqliteStore` of ``path`` in a child process (see the module docstring)."""

    def __init__(self, path: Path) -> None:
        # Opened here first, so that a damaged file is moved aside and said so in this
        # process's log, and a file that cannot be opened at all fails here.
        checked = SqliteStore(path)
        self.path = path
        self.moved_aside = checked.moved_aside
        checked.close()
        ours, theirs = socket.socketpair()
        loop_ours, loop_theirs = socket.socketpair()
        self._channel = ours
        self._loop_socket = loop_ours
        self._loop_channel: _LoopChannel | None = None
        self._lock = threading.Lock()
        self._gone = False
        self._closing = False
        self._said_gone = False
        self.on_gone: Callable[[str], None] | None = None
        """Called once (on whichever thread found it) if the child ends without being closed;
        ``recordroom serve`` then stops serving, so that a restart serves what the file kept."""
        fds = [theirs.fileno(), loop_theirs.fileno()]
        try:
            self._process = subprocess.Popen(
                [sys.executable, "-c", _CHILD, *map(str, fds)],
                pass_fds=fds,
                start_new_session=True,  # the terminal's Ctrl-C is for the server, which closes us
            )
        except BaseException:
            for end in (ours, loop_ours):
                end.close()
            raise
        finally:
            theirs.close()
            loop_theirs.close()
        # The child takes a moment to start (its imports): the server's own start goes on
        # meanwhile, and the first question waits for the answer to this one.
        self._opening = True
        ours.sendall(_framed(("open", (path,))))

    @property
    def pid(self) -> int:
        """The child process's id."""
        return self._process.pid

    # -- the event loop's jobs ------------------------------------------------------------

    async def write(self, *writes: Write) -> None:
        """Stores one job from the event loop, grouped in the child with the others that
        arrive meanwhile; raises the job's error.

        The first event loop to write owns the loop's channel; a job from any other loop goes
        the blocking way, on a thread.
        """
        loop = asyncio.get_running_loop()
        channel = self._loop_channel
        if channel is None and not self._gone:
            channel = self._loop_channel = _LoopChannel(self._loop_socket, loop, self._died)
        if channel is None or channel.loop is not loop:
            (error,) = await asyncio.to_thread(self.commit, [writes])
            if error is not None:
                raise error
            return
        await channel.send(writes)

    # -- questions, one at a time ---------------------------------------------------------

    def _ask(self, what: str, *args: Any) -> Any:
        value: Any = None
        lost: BaseException | None = None
        ok = False
        with self._lock:
            if self._gone:
                raise StoreGone("the store's process has ended")
            try:
                opened = self._wait_opened()
                if opened is None:
                    self._channel.sendall(_framed((what, args)))
                    ok, value = _receive(self._channel)
            except (OSError, EOFError, pickle.UnpicklingError) as error:
                self._gone = True
                lost = error
        if lost is not None:
            why = f"the store's process has ended: {lost}"
            self._died(why)
            raise StoreGone(why) from lost
        if opened is not None:  # the child could not open the file, and has ended
            self._end()
            raise opened
        if not ok:
            raise value
        return value

    def _died(self, why: str) -> None:
        """The child has ended: said once, loudly, and to :attr:`on_gone` (not when the store
        is being closed)."""
        with self._lock:
            if self._said_gone or self._closing:
                return
            self._said_gone = True
        log.critical("%s: every write is refused until the server is restarted", why)
        if self.on_gone is not None:
            self.on_gone(why)

    def _wait_opened(self) -> Exception | None:
        """Waits for the answer to "open" if it has not come yet: None, or why it failed."""
        if not self._opening:
            return None
        self._opening = False
        self._channel.settimeout(START_TIMEOUT)
        ok, value = _receive(self._channel)
        self._channel.settimeout(None)
        if ok:
            return None
        self._gone = True
        return value if isinstance(value, Exception) else RuntimeError(str(value))

    def commit(self, jobs: Sequence[Sequence[Write]]) -> list[Exception | None]:
        """One transaction for the group, in the child (see :meth:`SqliteStore.commit`)."""
        errors: list[Exception | None] = self._ask("commit", [tuple(job) for job in jobs])
        return errors

    def code_taken(self, code: str) -> bool:
        """Whether a room with that code exists."""
        taken: bool = self._ask("code_taken", code)
        return taken

    def load_rooms(self) -> Iterator[RoomRecord | DamagedRoom]:
        """Every room (see :meth:`SqliteStore.load_rooms`), read in the child in one go."""
        rooms: list[RoomRecord | DamagedRoom] = self._ask("load_rooms")
        return iter(rooms)

    def close(self) -> None:
        """Commits what the child has received, closes the database and waits for the child to
        end. Call it from the event loop that writes, or once that loop has stopped."""
        self._closing = True
        channel = self._loop_channel
        open_loop = channel is not None and not channel.loop.is_closed()
        if channel is not None and open_loop:
            channel.hand_over_rest()
        try:
            self._ask("close")  # the child commits and answers every job it has first
        except StoreGone:
            pass
        finally:
            if channel is not None and open_loop:
                channel.take_rest()
            self._end()

    def _end(self) -> None:
        with self._lock:
            self._gone = True
            self._channel.close()
            self._loop_socket.close()
        try:
            self._process.wait(CLOSE_TIMEOUT)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()


# -- the child --------------------------------------------------------------------------------


def _answer(store: SqliteStore | None, what: str, args: tuple[Any, ...]) -> Any:
    if what == "open":
        return SqliteStore(*args)
    if store is None:
        raise RuntimeError("the store is not open")
    if what == "commit":
        return store.commit(*args)
    if what == "code_taken":
        return store.code_taken(*args)
    if what == "load_rooms":
        return list(store.load_rooms())
    raise ValueError(f"not a question for the store: {what!r}")


class _Child:
    """The child's side: the store, and the two sockets it answers."""

    def __init__(self, questions: socket.socket, jobs: socket.socket) -> None:
        self.questions = questions
        self.jobs = jobs
        jobs.setblocking(False)
        self.store: SqliteStore | None = None
        self.received = bytearray()
        self.queued: list[tuple[int, tuple[Write, ...]]] = []
        self.jobs_open = True

    def serve(self) -> None:
        """Answers until the store is closed or the server is gone."""
        selector = selectors.DefaultSelector()
        selector.register(self.questions, selectors.EVENT_READ)
        selector.register(self.jobs, selectors.EVENT_READ)
        try:
            while True:
                ready = {key.fileobj for key, _ in selector.select()}
                if self.jobs in ready:
                    self.read_jobs()
                    if not self.jobs_open:
                        selector.unregister(self.jobs)
                self.commit_jobs()
                if self.questions in ready and not self.answer_question():
                    return
        finally:
            self.read_jobs()  # whatever was sent before the end is committed
            self.commit_jobs()
            if self.store is not None:
                self.store.close()

    def read_jobs(self) -> None:
        while self.jobs_open:
            try:
                data = self.jobs.recv(_READ)
            except BlockingIOError:
                break
            except OSError:
                data = b""
            if not data:
                self.jobs_open = False
                break
            self.received += data
        self.queued.extend(_unframe(self.received))

    def commit_jobs(self) -> None:
        """Commits what the event loop has sent, in groups, and answers each group at once."""
        while self.queued and self.store is not None:
            group, self.queued = self.queued[:MAX_GROUP], self.queued[MAX_GROUP:]
            try:
                errors = self.store.commit([writes for _, writes in group])
            except Exception as error:  # the whole group failed: nothing of it was kept
                errors = [error] * len(group)
            outcomes: list[Outcome] = [
                (number, error) for (number, _), error in zip(group, errors, strict=True)
            ]
            self.tell_jobs(outcomes)

    def tell_jobs(self, outcomes: list[Outcome]) -> None:
        if not self.jobs_open:
            return
        try:
            reply = _framed(outcomes)
        except (pickle.PicklingError, TypeError, AttributeError):
            reply = _framed([(n, None if e is None else RuntimeError(str(e))) for n, e in outcomes])
        self.jobs.setblocking(True)
        try:
            self.jobs.sendall(reply)
        except OSError:
            self.jobs_open = False
        finally:
            self.jobs.setblocking(False)

    def answer_question(self) -> bool:
        """Answers one question; False once the store is closed or the server is gone."""
        try:
            what, args = _receive(self.questions)
        except (EOFError, OSError):
            return False
        if what == "close":
            self.read_jobs()
            self.commit_jobs()
            if self.store is not None:
                self.store.close()
                self.store = None
            self.questions.sendall(_framed((True, None)))
            return False
        try:
            value = _answer(self.store, what, args)
        except Exception as error:  # the caller's to see, as if it had made the call itself
            self.reply(what, (False, error))
            return bool(what != "open")  # a store that could not be opened has nothing to serve
        if what == "open":
            self.store, value = value, None
            self.commit_jobs()  # jobs that came before the store was open
        self.reply(what, (True, value))
        return True

    def reply(self, what: str, answer: tuple[bool, Any]) -> None:
        """Sends an answer; one that cannot be pickled is sent as an error that says so."""
        try:
            message = _framed(answer)
        except (pickle.PicklingError, TypeError, AttributeError) as error:
            unsent = RuntimeError(f"{what}: an answer that cannot be sent: {error}")
            message = _framed((False, unsent))
        self.questions.sendall(message)


def main() -> None:
    """The child: serves the store over the two sockets whose descriptors are its arguments
    (the questions', then the event loop's)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    questions = socket.socket(fileno=int(sys.argv[1]))
    jobs = socket.socket(fileno=int(sys.argv[2]))
    try:
        _Child(questions, jobs).serve()
    except OSError:
        pass  # the server is gone mid-answer: nothing is waiting for it
    finally:
        questions.close()
        jobs.close()
