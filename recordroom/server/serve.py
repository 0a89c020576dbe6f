"""``recordroom serve``: run the game server, and print where phones should point.

By default the server listens on every address of this machine, port 8000, so that phones on the
same network can join: the join address printed (and its QR code) uses this machine's address on
the local network. To keep it to this machine only, use ``--host 127.0.0.1``. Rooms are kept in
``./data`` (one SQLite file); ``--store sqlite:PATH`` names another SQLite file, and
``--store redis://HOST:PORT/DB`` keeps them in Redis: one server process at a time holds the store
(a lease in Redis), and another takes over within ``--lease`` seconds of its death (docs/deploy.md).
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import io
import math
import os
import socket
import sqlite3
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from recordroom.arguments import at_least, whole_number

if TYPE_CHECKING:
    from recordroom.server.store import Store

DEFAULT_HOST = "0.0.0.0"
DEFAULT_PORT = 8000
REFUSAL_GRACE = 0.5
"""Seconds between a store found behind and the stop, for the refusal to reach its sender."""
WS_MAX_FRAME = 1 << 20
"""Frames above this are cut off by the WebSocket layer itself; smaller messages that are still
over the app's own limit (``Settings.max_message_bytes``) get an error message instead."""


def port_number(text: str) -> int:
    """A ``--port`` value: 1 to 65535 (argparse turns the refusal into its ``error:`` line)."""
    port = whole_number(text)
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 1 to 65535, not {port}")
    return port


def zero_or_more(text: str) -> float:
    """A length of time that may be 0 but not negative (nor infinite, nor not a number)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"must be a finite number, not {text}")
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {text}")
    return value


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Adds ``serve`` to the command line."""
    parser = commands.add_parser(
        "serve",
        help="run the game server (rooms for the table screen and phones)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--host",
        default=DEFAULT_HOST,
        help="address to listen on (default 0.0.0.0: phones on the local network can join; "
        "127.0.0.1 keeps it to this machine)",
    )
    parser.add_argument(
        "--port",
        type=port_number,
        default=DEFAULT_PORT,
        help=f"port to listen on, 1 to 65535 (default {DEFAULT_PORT})",
    )
    parser.add_argument(
        "--data-dir", type=Path, default=Path("data"), help="folder of the rooms database"
    )
    parser.add_argument(
        "--store",
        metavar="WHERE",
        help="where rooms are kept: sqlite:PATH (one SQLite file) or redis://HOST:PORT/DB "
        "(one server process at a time holds it); default: the SQLite file in --data-dir",
    )
    parser.add_argument(
        "--lease",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="with a Redis store: how long this process's hold on the store lasts without "
        "renewal, so how soon another process can take over once it died (default 10)",
    )
    parser.add_argument(
        "--cluster",
        action="store_true",
        help="with a Redis store: serve its rooms together with any other process started with "
        "--cluster on it (clients of one room may be on any of them; each room's bots are run "
        "by one process, through a lease of --lease seconds); without it, one process at a "
        "time holds the store",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="with a Redis store: N server processes on this one port (each a --cluster "
        "process; the kernel spreads connections over them, a worker that dies is started "
        "again); default 1",
    )
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument(
        "--bot-delay",
        type=zero_or_more,
        default=0.8,
        metavar="SECONDS",
        help="seconds a bot waits before it moves (default 0.8; 0: at once)",
    )
    parser.add_argument(
        "--open-after",
        type=zero_or_more,
        default=20.0,
        metavar="SECONDS",
        help="Disc Cover: a turn whose song the table has not reported playing opens by itself "
        "after this long (default 20; 0: votes open at once, without waiting for the song)",
    )
    parser.add_argument(
        "--music",
        type=Path,
        action="append",
        default=[],
        metavar="DIR",
        help="a music folder to play from (repeatable); its M3U playlists come along",
    )
    parser.add_argument(
        "--sleeves",
        type=Path,
        metavar="DIR",
        help="a custom sleeve pack (images and an optional manifest.toml) for Disc Cover",
    )
    parser.add_argument(
        "--cache-dir",
        type=Path,
        help="where the demo playlist is cached (default: the user's cache folder)",
    )
    parser.add_argument(
        "--learned",
        type=Path,
        metavar="PATH",
        help="a Records checkpoint (recordroom train): bots may then play at level 'learned'",
    )
    parser.add_argument(
        "--keep-days",
        type=zero_or_more,
        default=30.0,
        metavar="DAYS",
        help="days a finished game is kept (default 30; lobbies nobody touched go after a day)",
    )
    parser.add_argument(
        "--max-rooms",
        type=at_least(1),
        default=10_000,
        metavar="N",
        help="rooms served at most, 1 or more (default 10000; room/limit beyond)",
    )
    parser.add_argument("--no-qr", action="store_true", help="do not print the QR code")
    parser.add_argument(
        "--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"]
    )
    parser.set_defaults(run=run)


def lan_address() -> str:
    """This machine's address on the local network (127.0.0.1 when there is none)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        # Connecting a UDP socket sends nothing; it only picks the outgoing interface.
        probe.connect(("10.254.254.254", 1))
        address: str = probe.getsockname()[0]
    except OSError:
        address = "127.0.0.1"
    finally:
        probe.close()
    return address


def join_url(host: str, port: int) -> str:
    """The address people open: the LAN address when listening on every interface."""
    shown = lan_address() if host in ("0.0.0.0", "::", "") else host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


def qr_text(url: str) -> str:
    """A QR code of the address, drawn with text blocks for a terminal."""
    import qrcode

    code = qrcode.QRCode(border=2)
    code.add_data(url)
    code.make(fit=True)
    out = io.StringIO()
    code.print_ascii(out=out, invert=True)
    return out.getvalue()


def banner(url: str, data_dir: Path, with_qr: bool, kept_in: str | None = None) -> str:
    """What the terminal shows when the server starts (``kept_in``: a store other than SQLite
    in the data folder)."""
    lines = [
        "Record Room is serving.",
        f"  Open on the table screen and on phones: {url}",
        f"  Rooms are kept in: {kept_in or data_dir / 'recordroom.sqlite3'}",
    ]
    if url.startswith(("http://127.", "http://[::1]", "http://localhost")):
        lines.append("  (only this machine can reach it; leave out --host 127.0.0.1 for phones)")
    else:
        lines.append(
            "  (phones on this network can join; --host 127.0.0.1 keeps it to this machine)"
        )
    text = "\n".join(lines) + "\n"
    if with_qr:
        text += qr_text(url)
    return text


def use_learned(path: Path) -> bool:
    """Checks a learned checkpoint and offers bots at level ``learned`` from it (Records')."""
    try:
        from recordroom.rl.policy import CHECKPOINT_ENV, LearnedAgent

        LearnedAgent(path)
    except (ImportError, ValueError) as error:
        sys.stderr.write(f"recordroom serve: error: --learned {path}: {error}\n")
        return False
    os.environ[CHECKPOINT_ENV] = str(path)
    from recordroom import games
    from recordroom.engine.game import RefreshingAgents

    for name in games.names():
        game = games.load(name)
        if isinstance(game, RefreshingAgents):
            game.refresh_agent_kinds()
    return True


class StoreError(Exception):
    """A ``--store`` that names nothing usable, or a store that cannot be reached."""


def open_store(
    where: str,
    lease: float = 10.0,
    on_lost: Callable[[str | None], None] | None = None,
    cluster: bool = False,
) -> tuple[Store, str]:
    """The store ``--store`` names, and how the banner tells it; raises StoreError.

    A Redis store is held with a lease of ``lease`` seconds; ``on_lost`` is called if another
    process ever takes it. With ``cluster`` it is not held: every process started so serves
    its rooms, and each room's driver holds a lease of ``lease`` seconds.
    """
    if cluster and not where.startswith(("redis://", "rediss://", "unix://")):
        raise StoreError("--cluster needs a Redis store (--store redis://HOST:PORT/DB)")
    if where.startswith("sqlite:"):
        path = Path(where.removeprefix("sqlite:"))
        if not path.name:
            raise StoreError("sqlite: needs the path of a file (sqlite:rooms.sqlite3)")
        return open_sqlite(path), str(path)
    if where.startswith(("redis://", "rediss://", "unix://")):
        from recordroom.server.redis_store import RedisStore, StoreUnavailable

        try:
            store = RedisStore.from_url(where)
        except StoreUnavailable as error:
            raise StoreError(str(error)) from error
        if cluster:
            if lease <= 0:
                store.close()
                raise StoreError("--lease must be a positive number of seconds")
            store.shared = True
            store.room_lease = lease
            return store, f"{store.where} (shared by every --cluster process)"
        try:
            store.hold_server(lease, on_lost)
        except (StoreUnavailable, ValueError) as error:
            store.close()
            raise StoreError(str(error)) from error
        return store, store.where
    raise StoreError("not a store: give sqlite:PATH or redis://HOST:PORT/DB")


def open_sqlite(path: Path) -> Store:
    """The SQLite file at ``path``, kept by a process of its own
    (:class:`~recordroom.server.store_process.StoreProcess`); raises StoreError."""
    from recordroom.server.store_process import StoreProcess

    try:
        return StoreProcess(path)
    except (OSError, sqlite3.Error) as error:
        raise StoreError(f"cannot open {path}: {error}") from error


def run(args: argparse.Namespace) -> int:
    """Starts the server and blocks until it is stopped.

    Exit codes: 0 when stopped (SIGTERM, Ctrl-C); 2 for a bad option; 3 for a store that
    cannot be opened, reached or held (a process whose Redis store another process took over,
    or whose SQLite store's process died, stops serving, with exit code 3).
    """
    for folder in args.music:
        if not folder.is_dir():
            sys.stderr.write(f"recordroom serve: error: --music {folder}: no such folder\n")
            return 2
    if args.learned is not None and not use_learned(args.learned):
        return 2
    url = join_url(args.host, args.port)
    store: Store | None = None
    kept_in: str | None = None
    stopped_because: list[str] = []
    running: list[Any] = []

    def stop_serving(why: str) -> None:
        stopped_because.append(why)
        for server in running:
            server.should_exit = True  # uvicorn's own way out: a clean shutdown

    def lease_lost(holder: str | None) -> None:
        # Every write is refused from now on (fenced): stop serving, let clients go to the holder.
        stop_serving(f"another process ({holder}) took the store over")

    def store_gone(why: str) -> None:
        # The store's process ended by itself (killed, out of memory): every write is refused
        # from now on. Stop, a moment later (as for Redis below), so that a restart serves what
        # the file kept.
        why = f"{why}; restart to serve what it kept"
        threading.Timer(REFUSAL_GRACE, stop_serving, (why,)).start()

    def behind(why: str) -> None:
        # Rooms here are further on than Redis: a restart serves what Redis kept. Called on the
        # writer's thread inside the commit that found it: the stop waits a moment, so that the
        # sender of the refused action is told "server/store" before the sockets close (1012).
        why = f"Redis lost acknowledged actions ({why}); restart to serve what it kept"
        threading.Timer(REFUSAL_GRACE, stop_serving, (why,)).start()

    if args.workers < 1:
        sys.stderr.write("recordroom serve: error: --workers needs a count of at least 1\n")
        return 2
    redis_store = (args.store or "").startswith(("redis://", "rediss://", "unix://"))
    if args.workers > 1:
        if not redis_store:
            sys.stderr.write(
                "recordroom serve: error: --workers needs --store redis://HOST:PORT/DB "
                "(the workers share their rooms through Redis)\n"
            )
            return 2
        try:  # a store that cannot be used stops everything now, before any worker starts
            checked, kept_in = open_store(args.store, args.lease, cluster=True)
            checked.close()
        except StoreError as error:
            from recordroom.server.redis_store import shown_url

            sys.stderr.write(f"recordroom serve: error: --store {shown_url(args.store)}: {error}\n")
            return 3
        from recordroom.server.workers import supervise

        return supervise(args, banner(url, args.data_dir, not args.no_qr, kept_in))
    if args.cluster and not redis_store:
        sys.stderr.write("recordroom serve: error: --cluster needs --store redis://HOST:PORT/DB\n")
        return 2
    if args.store is not None:
        try:
            store, kept_in = open_store(args.store, args.lease, lease_lost, args.cluster)
            from recordroom.server.redis_store import RedisStore

            if isinstance(store, RedisStore):
                store.on_behind = behind
        except StoreError as error:
            from recordroom.server.redis_store import shown_url

            shown = shown_url(args.store)  # never a password
            sys.stderr.write(f"recordroom serve: error: --store {shown}: {error}\n")
            return 3
    else:
        from recordroom.server.settings import DB_NAME

        try:
            store = open_sqlite(args.data_dir / DB_NAME)
        except StoreError as error:
            sys.stderr.write(f"recordroom serve: error: --data-dir {args.data_dir}: {error}\n")
            return 3
    from recordroom.server.store_process import StoreProcess

    if isinstance(store, StoreProcess):
        store.on_gone = store_gone
    try:
        code = _serve(args, url, store, kept_in, running, stopped_because)
    finally:
        if store is not None:
            store.close()
    if stopped_because:
        why = stopped_because[0]
        sys.stderr.write(f"recordroom serve: error: --store: {why}; stopped serving\n")
        return 3
    return code


SWITCH_INTERVAL = 0.001
"""Seconds a thread may hold the interpreter's lock before another may take it."""
FULL_COLLECTION_EVERY = 3600.0
"""Seconds between two collections of everything, what was set aside included."""
YOUNG_COLLECTION_AFTER = 10_000
"""New objects (less those freed) after which the collector walks the youngest ones (Python's
default is 700)."""


def settle_interpreter() -> None:
    """Interpreter settings for a server process that runs for hours.

    - What the start loaded (modules, the game tables, the app) is moved out of the garbage
      collector's sight (``gc.freeze``): a full collection then walks only what came after,
      instead of pausing every room for the tens of milliseconds the start's objects cost.
    - So is what survives each full collection (:func:`freeze_after_full`): the rooms' states,
      logs and views, which live for a whole game and are freed by reference counting when it
      ends. Without it, every full collection walks all of them again, and a night of a few
      hundred rooms pauses the event loop, so every room, for a quarter of a second or more, a
      few times a minute.
    - Once an hour a thread collects everything, what was set aside included
      (:func:`collect_everything`): cycles that became garbage after they were set aside are
      freed then, at the cost of one pause an hour.
    - The youngest objects are walked after 10,000 new ones instead of 700
      (:data:`YOUNG_COLLECTION_AFTER`, :func:`tune_collector`). Most of what a change makes
      (views, messages) is freed by reference counting within the change; what a young
      collection walks is what is still alive, chiefly the coroutines and futures of the open
      sockets waiting for their next message, and with 700 it walked them over forty times a
      second. Its passes logged under ``bench/server_load.py``'s closed loop took about 11% of
      the event loop's time with 700, 7 to 9% with 5,000 and about 6% with 20,000, whose
      young passes took near 30 ms each: 10,000 lies between.
    - The thread switch interval drops from 5 ms to 1 ms: the writer's thread lets go of the
      lock on every call into SQLite and must win it back from a busy event loop, and bots
      think on threads too; a shorter interval shortens how long a commit, so a broadcast,
      waits behind the loop.
    """
    gc.collect()
    gc.freeze()
    tune_collector()
    threading.Thread(
        target=collect_everything, args=(FULL_COLLECTION_EVERY,), daemon=True, name="recordroom-gc"
    ).start()
    sys.setswitchinterval(SWITCH_INTERVAL)


def tune_collector() -> None:
    """The collector of a server: young collections after :data:`YOUNG_COLLECTION_AFTER` new
    objects, and what survives a full collection set aside (:func:`freeze_after_full`)."""
    gc.set_threshold(YOUNG_COLLECTION_AFTER, *gc.get_threshold()[1:])
    if freeze_after_full not in gc.callbacks:
        gc.callbacks.append(freeze_after_full)


def freeze_after_full(phase: str, info: dict[str, int]) -> None:
    """A ``gc`` callback: after a full collection, sets what survived it aside."""
    if phase == "stop" and info["generation"] == 2:
        gc.freeze()


def collect_everything(every: float, rounds: int | None = None) -> None:
    """Every ``every`` seconds (``rounds`` times; None: for ever), collects everything, what
    was set aside included, then sets the survivors aside again."""
    done = 0
    while rounds is None or done < rounds:
        time.sleep(every)
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        done += 1


def _serve(
    args: argparse.Namespace,
    url: str,
    store: Store | None,
    kept_in: str | None,
    running: list[Any],
    stopped_because: list[str],
) -> int:
    import uvicorn

    from recordroom.media.packs import PackError
    from recordroom.server.app import Settings, create_app
    from recordroom.server.frames import DirectTextFrames
    from recordroom.server.guard import KEEP_ALIVE_TIMEOUT, GuardedHttp, quiet_logs

    try:
        app = create_app(
            Settings(
                data_dir=args.data_dir,
                bot_delay=args.bot_delay,
                music_dirs=tuple(args.music),
                sleeves_dir=args.sleeves,
                cache_dir=args.cache_dir,
                public_url=url,
                open_after=args.open_after,
                finished_age=args.keep_days * 24 * 3600.0,
                max_rooms=args.max_rooms,
                store=store,
            )
        )
    except PackError as error:
        sys.stderr.write(f"recordroom serve: error: --sleeves {args.sleeves}: {error}\n")
        return 2
    if not args.worker:  # a worker of --workers: its supervisor printed the banner
        sys.stdout.write(banner(url, args.data_dir, not args.no_qr, kept_in))
    sys.stdout.flush()
    settle_interpreter()
    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        http=GuardedHttp,
        ws=DirectTextFrames,
        ws_max_size=WS_MAX_FRAME,
        # State messages are a few KB, sent to every socket of a room on every change:
        # compressing each costs more server CPU than it saves on a local network.
        ws_per_message_deflate=False,
        log_level=args.log_level,
        timeout_keep_alive=KEEP_ALIVE_TIMEOUT,
    )
    quiet_logs()  # after the Config: it sets up uvicorn's loggers
    server = uvicorn.Server(config)
    running.append(server)
    server.should_exit = bool(stopped_because)  # the store was taken over before it could start
    if args.worker:
        # One of --workers N: every worker listens on the same port; the kernel spreads them.
        listener = socket.socket(socket.AF_INET6 if ":" in args.host else socket.AF_INET)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        listener.bind((args.host, args.port))
        listener.set_inheritable(True)
        with contextlib.suppress(KeyboardInterrupt):  # see below
            server.run(sockets=[listener])
        return 0
    # Ctrl-C: uvicorn stops serving cleanly, then raises KeyboardInterrupt again for whoever
    # called it. Here that is the end of a normal stop, not an error to print a traceback for.
    with contextlib.suppress(KeyboardInterrupt):
        server.run()
    return 0
