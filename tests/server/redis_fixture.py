"""A real Redis for the tests: ``redis-server`` on a free loopback port, in a temporary folder.

``make test`` installs the ``redis-server`` package when it is missing. The server keeps an
append-only file (``--appendonly yes --appendfsync always``) and no snapshots, and is stopped by
its pid when the tests are done. Import the ``redis_server`` fixture into a test module (or a
conftest) to use it.
"""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import redis


def free_port() -> int:
    """A TCP port of 127.0.0.1 nobody listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@dataclass
class RedisServer:
    """One ``redis-server`` process started by the tests."""

    port: int
    folder: Path
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """The address of database 0."""
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        """Starts the server (again, on the same port and folder) and waits until it answers."""
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.fail("redis-server is not installed (make test installs it)")
        self.process = subprocess.Popen(
            [
                binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "yes",
                "--appendfsync",
                "always",
                "--dir",
                str(self.folder),
                "--loglevel",
                "warning",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        client = redis.Redis(port=self.port, socket_connect_timeout=0.5)
        deadline = time.monotonic() + 10
        try:
            while True:
                try:
                    client.ping()
                    return
                except redis.ConnectionError:
                    if self.process.poll() is not None or time.monotonic() > deadline:
                        pytest.fail(f"redis-server did not start on port {self.port}")
                    time.sleep(0.05)
        finally:
            client.close()

    def stop(self, sig: int = signal.SIGTERM) -> None:
        """Stops the server by its pid (SIGTERM: a clean stop; SIGKILL: a crash)."""
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def flush(self) -> None:
        """Empties every database (between tests)."""
        client = redis.Redis(port=self.port)
        try:
            client.flushall()
        finally:
            client.close()


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    """One Redis for the whole session (each test worker has its own)."""
    with tempfile.TemporaryDirectory(prefix="recordroom-redis-") as folder:
        server = RedisServer(free_port(), Path(folder))
        server.start()
        try:
            yield server
        finally:
            server.stop()
