"""``recordroom serve --workers N``: N server processes on one port, kept running by a supervisor.

Each worker is a whole ``recordroom serve --cluster`` process (its own event loop, writer and
connection to Redis) started with the hidden ``--worker`` option: it binds the port with
``SO_REUSEPORT``, so the kernel spreads new connections over the workers, and prints no banner.
The supervisor (the process the user started) prints the banner, starts the workers, starts a
worker again when one dies (a second later), and stops them all on SIGTERM or SIGINT. Workers
share everything through Redis (:mod:`recordroom.server.peers`), so a client whose connection
lands on another worker after a reconnect is back in its seat. A worker that exits with code 3
(the store cannot be reached or used) stops them all, with that code.
"""

from __future__ import annotations

import argparse
import signal
import subprocess
import sys
import time
from types import FrameType

RESTART_AFTER = 1.0
"""Seconds before a worker that died is started again."""


def worker_command(args: argparse.Namespace) -> list[str]:
    """The command line of one worker: the same options, as one ``--cluster`` worker."""
    command = [sys.executable, "-m", "recordroom", "serve", "--worker", "--cluster", "--no-qr"]
    command += ["--host", args.host, "--port", str(args.port), "--data-dir", str(args.data_dir)]
    command += ["--store", args.store, "--lease", str(args.lease)]
    command += ["--bot-delay", str(args.bot_delay), "--open-after", str(args.open_after)]
    command += ["--keep-days", str(args.keep_days), "--max-rooms", str(args.max_rooms)]
    command += ["--log-level", args.log_level]
    for folder in args.music:
        command += ["--music", str(folder)]
    for option, value in (
        ("--sleeves", args.sleeves),
        ("--cache-dir", args.cache_dir),
        ("--learned", args.learned),
    ):
        if value is not None:
            command += [option, str(value)]
    return command


def supervise(args: argparse.Namespace, banner: str) -> int:
    """Runs ``args.workers`` workers until SIGTERM or SIGINT; returns the exit code."""
    command = worker_command(args)
    stopping: list[int] = []

    def stop(signum: int, frame: FrameType | None) -> None:
        stopping.append(signum)

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    workers: list[subprocess.Popen[bytes] | None] = [None] * args.workers
    died_at: list[float | None] = [None] * args.workers
    code = 0
    sys.stdout.write(banner)
    sys.stdout.write(f"  ({args.workers} worker processes on port {args.port})\n")
    sys.stdout.flush()
    try:
        while not stopping:
            for i, worker in enumerate(workers):
                if worker is None:
                    if died_at[i] is None or time.monotonic() - (died_at[i] or 0) >= RESTART_AFTER:
                        workers[i] = subprocess.Popen(command)
                    continue
                returned = worker.poll()
                if returned is None:
                    continue
                if returned == 3:
                    sys.stderr.write("recordroom serve: a worker could not use the store\n")
                    code = 3
                    stopping.append(0)
                    break
                sys.stderr.write(f"recordroom serve: worker {worker.pid} exited ({returned})\n")
                workers[i], died_at[i] = None, time.monotonic()
            time.sleep(0.1)
    finally:
        for worker in workers:
            if worker is not None and worker.poll() is None:
                worker.terminate()
        for worker in workers:
            if worker is None:
                continue
            try:
                worker.wait(timeout=15)
            except subprocess.TimeoutExpired:
                worker.kill()
                worker.wait()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return code
