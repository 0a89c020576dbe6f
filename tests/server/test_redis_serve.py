"""The server on a Redis store: `serve --store`, a game through Redis, Redis lost mid-game."""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path
from typing import Any

import pytest

from recordroom.server import serve
from recordroom.server.redis_store import RedisStore

from .helpers import TOY_NAME, Socket, host, new_room
from .redis_fixture import RedisServer, free_port, redis_server

__all__ = ["redis_server"]


def serve_args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    serve.register(parser.add_subparsers())
    return parser.parse_args(["serve", "--host", "127.0.0.1", "--no-qr", *argv])


@pytest.mark.parametrize(
    ("where", "said"),
    [
        ("redis://127.0.0.1:{port}/0", "cannot reach Redis at redis://127.0.0.1:"),
        ("redis://:secret@127.0.0.1:{port}/0", "cannot reach Redis at redis://***@127.0.0.1"),
        ("postgres://127.0.0.1/rooms", "not a store: give sqlite:PATH or redis://"),
        ("sqlite:", "needs the path of a file"),
    ],
)
def test_a_store_that_cannot_be_used_stops_serve_with_exit_code_3(
    where: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = serve_args("--store", where.format(port=free_port()))
    assert serve.run(args) == 3
    err = capsys.readouterr().err
    assert err.startswith("recordroom serve: error: --store ")
    assert said in err
    assert "secret" not in err


def test_open_store_names_sqlite_and_redis(tmp_path: Path, redis_server: RedisServer) -> None:
    store, shown = serve.open_store(f"sqlite:{tmp_path / 'rooms.sqlite3'}")
    assert shown == str(tmp_path / "rooms.sqlite3") and (tmp_path / "rooms.sqlite3").exists()
    store.close()
    store, shown = serve.open_store(redis_server.url)
    assert isinstance(store, RedisStore) and shown == redis_server.url
    store.close()
    text = serve.banner("http://127.0.0.1:8000/", Path("data"), False, redis_server.url)
    assert f"Rooms are kept in: {redis_server.url}" in text


def connect_all(client: Any, code: str, tokens: list[str]) -> tuple[list[Any], list[Socket]]:
    contexts = [client.websocket_connect(f"/ws/{code}?token={t}") for t in tokens]
    sockets = [Socket(c.__enter__()) for c in contexts]
    for i, socket in enumerate(sockets):
        for _ in range(len(sockets) - i):
            socket.recv_state()
    return contexts, sockets


def act_first(sockets: list[Socket], acted: list[dict[str, Any]]) -> tuple[int, dict[str, Any]]:
    """The lowest seat with something to do plays its first action; ``acted`` gets it if told."""
    seat = next(i for i, s in enumerate(sockets) if s.state["legal_actions"])
    mine = sockets[seat].state
    action = mine["legal_actions"][0]
    sockets[seat].send({"type": "act", "version": mine["version"], "action": action})
    told = sockets[seat].recv()
    if told["type"] == "state":
        acted.append({"seat": seat, "action": action})
        for other in sockets:
            if other is not sockets[seat]:
                other.recv_state()
    return seat, told


def test_a_game_on_redis_survives_redis_going_away_and_a_server_restart(
    make_client: Any,
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        server = RedisServer(free_port(), Path(folder))
        server.start()
        store = RedisStore.from_url(server.url)
        try:
            first = make_client(store=store)
            code, host_token, tokens = new_room(first, TOY_NAME, 3)
            first.post(f"/api/rooms/{code}/start", headers=host(host_token))
            contexts, sockets = connect_all(first, code, tokens)
            acted: list[dict[str, Any]] = []
            for _ in range(4):
                _, told = act_first(sockets, acted)
                assert told["type"] == "state"
            assert store.read_log(code) == acted

            server.stop()
            seat, told = act_first(sockets, acted)
            assert told["type"] == "error" and told["code"] == "server/store", told
            server.start()  # the same folder: its append-only file brings every action back
            assert store.read_log(code) == acted
            assert first.get(f"/api/rooms/{code}").json()["version"] == 4
            sockets[seat].send({"type": "ping"})
            assert sockets[seat].recv() == {"type": "pong"}  # no state was sent meanwhile

            _, told = act_first(sockets, acted)  # served again
            assert told["type"] == "state" and told["version"] == 5
            for c in contexts:
                c.__exit__(None, None, None)
            first.__exit__(None, None, None)

            again = RedisStore.from_url(server.url)
            second = make_client(store=again)
            assert second.get(f"/api/rooms/{code}").json()["version"] == 5
            contexts, sockets = connect_all(second, code, tokens)
            assert [s.state["seat"] for s in sockets] == [0, 1, 2]
            while sockets[0].state["status"] != "over":
                _, told = act_first(sockets, acted)
                assert told["type"] == "state"
            for c in contexts:
                c.__exit__(None, None, None)
            log = second.get(f"/api/rooms/{code}/log").json()
            assert log["log"] == acted == again.read_log(code)
            assert log["result"] == sockets[0].state["result"]
            again.close()
        finally:
            store.close()
            server.stop()
