"""Helpers of the server tests: settings with the toy game, rooms, and recording sockets."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

import httpx
import uvicorn
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route
from starlette.types import ASGIApp

from recordroom import games
from recordroom.engine.game import Game
from recordroom.server import Settings, create_app
from recordroom.server.guard import GuardedHttp

from .toy_game import GAME as TOY

with warnings.catch_warnings():
    # Starlette asks for the httpx2 fork in its test client; httpx is what the project locks.
    warnings.simplefilter("ignore", UserWarning)
    from fastapi.testclient import TestClient
    from starlette.testclient import WebSocketTestSession

TOY_NAME = TOY.info.name

__all__ = ["TOY", "TOY_NAME", "Socket", "TestClient", "every_game", "host", "load_game"]


def load_game(name: str) -> Game:
    """The registered games, plus the toy game of these tests."""
    return TOY if name == TOY_NAME else games.load(name)


def every_game() -> list[str]:
    """The toy game and every registered game."""
    return [TOY_NAME, *games.names()]


def settings(data_dir: Path, **changes: Any) -> Settings:
    """Test settings: bots move at once, the toy game is served too.

    Disc Cover's turns open at once (``open_after=0``) unless a test asks for the listening
    moment (tests/server/test_listening.py).
    """
    base: dict[str, Any] = {
        "data_dir": data_dir,
        "bot_delay": 0.0,
        "open_after": 0.0,
        "game_names": tuple(every_game()),
        "load_game": load_game,
    }
    base.update(changes)
    return Settings(**base)


def host(token: str) -> dict[str, str]:
    """The header of a host call."""
    return {"Authorization": f"Bearer {token}"}


def default_options(game: str) -> dict[str, Any]:
    """The first option set the game declares."""
    return dict(load_game(game).info.option_sets[0])


def new_room(
    client: TestClient, game: str, players: int, options: dict[str, Any] | None = None
) -> tuple[str, str, list[str]]:
    """A room with ``players`` people seated (not started): code, host token, seat tokens."""
    if options is None:
        options = default_options(game)
    answer = client.post("/api/rooms", json={"game": game, "options": options})
    assert answer.status_code == 201, answer.text
    code, host_token = answer.json()["code"], answer.json()["host_token"]
    tokens = []
    for i in range(players):
        joined = client.post(f"/api/rooms/{code}/seats", json={"name": f"P{i}"})
        assert joined.status_code == 200, joined.text
        assert joined.json()["seat"] == i
        tokens.append(joined.json()["token"])
    return code, host_token, tokens


class Socket:
    """A WebSocket test client that keeps every message it received."""

    def __init__(self, ws: WebSocketTestSession) -> None:
        self.ws = ws
        self.received: list[dict[str, Any]] = []

    def recv(self) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.receive_text())
        self.received.append(message)
        return message

    def recv_state(self) -> dict[str, Any]:
        """The next message, which must be a state message."""
        message = self.recv()
        assert message["type"] == "state", message
        return message

    def send(self, message: Any) -> None:
        self.ws.send_text(message if isinstance(message, str) else json.dumps(message))

    @property
    def state(self) -> dict[str, Any]:
        """The last state message received."""
        return next(m for m in reversed(self.received) if m["type"] == "state")


@contextlib.contextmanager
def guarded_hello(protocol: type[GuardedHttp] = GuardedHttp) -> Iterator[int]:
    """A one-route app ("hello") behind ``protocol`` in a uvicorn thread on a free 127.0.0.1
    port, for the tests of the HTTP guard; gives the port and stops the server afterwards."""

    async def hello(request: object) -> PlainTextResponse:
        return PlainTextResponse("hello")

    with served(Starlette(routes=[Route("/", hello)]), protocol, lifespan="off") as port:
        yield port


@contextlib.contextmanager
def served(
    app: ASGIApp,
    protocol: type[GuardedHttp] = GuardedHttp,
    lifespan: Literal["auto", "on", "off"] = "on",
    ws: type[asyncio.Protocol] | str = "auto",
    **options: Any,
) -> Iterator[int]:
    """``app`` served by uvicorn behind ``protocol`` (as ``recordroom serve`` does) in a thread
    on a free 127.0.0.1 port, its WebSockets by ``ws`` (more of uvicorn's settings in
    ``options``); gives the port and stops the server afterwards."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=port,
        http=protocol,
        ws=ws,
        ws_per_message_deflate=False,
        log_config=None,
        lifespan=lifespan,
        **options,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(10)


@contextlib.contextmanager
def toy_room_served(
    tmp_path: Path, names: tuple[str, ...], ws: type[asyncio.Protocol] | str = "auto"
) -> Iterator[tuple[int, str, list[str]]]:
    """A toy room with ``names`` seated, in the real app served as by :func:`served`: the port,
    the room's code and the seats' tokens."""
    with served(create_app(settings(tmp_path)), ws=ws) as port, httpx.Client() as http:
        api = f"http://127.0.0.1:{port}/api/rooms"
        made = http.post(api, json={"game": TOY_NAME, "options": default_options(TOY_NAME)})
        code = made.json()["code"]
        tokens = [
            http.post(f"{api}/{code}/seats", json={"name": name}).json()["token"] for name in names
        ]
        yield port, code, tokens
