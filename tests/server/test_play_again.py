"""Play again: a phone that was away when the table pressed it still follows it, and a second
press is answered with the same new game."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from recordroom.server.hub import Hub
from recordroom.server.store import SqliteStore

from .helpers import TOY_NAME, Socket, TestClient, host, load_game, new_room


def _finished_room(client: TestClient) -> tuple[str, str, list[str]]:
    code, host_token, tokens = new_room(client, TOY_NAME, 2, {"rounds": 1})
    client.post(f"/api/rooms/{code}/start", headers=host(host_token))
    for seat, token in enumerate(tokens):
        with client.websocket_connect(f"/ws/{code}?token={token}") as ws:
            state = Socket(ws).recv_state()
            action = state["legal_actions"][0]
            ws.send_json({"type": "act", "version": seat, "action": action})
            while Socket(ws).recv_state()["version"] == seat:
                pass
    assert client.get(f"/api/rooms/{code}").json()["status"] == "over"
    return code, host_token, tokens


def _next_two(phone: Socket) -> list[dict[str, object]]:
    """The messages after the first state, up to the answer of a ping sent now (a message the
    server sends on connecting comes before it; none coming never blocks the test)."""
    phone.send({"type": "ping"})
    got = [phone.recv()]
    while got[-1]["type"] != "pong":
        got.append(phone.recv())
    return got


def test_a_phone_asleep_when_the_table_played_again_follows_it_when_it_comes_back(
    make_client: Callable[..., TestClient], tmp_path: Path
) -> None:
    """Its page reconnects to the old room with its token: it gets the old room's last state,
    then the same ``again`` message the phones connected at the time got, even after a restart;
    the new game, not played again itself, says nothing of the kind."""
    first = make_client()
    code, host_token, tokens = _finished_room(first)
    second = first.post(f"/api/rooms/{code}/again", headers=host(host_token)).json()["code"]
    with first.websocket_connect(f"/ws/{code}?token={tokens[1]}") as ws:
        phone = Socket(ws)
        assert phone.recv_state()["status"] == "over"
        assert _next_two(phone) == [{"type": "again", "code": second}, {"type": "pong"}]
    first.__exit__(None, None, None)

    restarted = make_client(tmp_path)
    with restarted.websocket_connect(f"/ws/{code}?token={tokens[1]}") as ws:
        phone = Socket(ws)
        phone.recv_state()
        assert _next_two(phone) == [{"type": "again", "code": second}, {"type": "pong"}]
    # The new game does not inherit the old room's pointer: its state, then nothing more.
    with restarted.websocket_connect(f"/ws/{second}?token={tokens[1]}") as ws:
        phone = Socket(ws)
        assert phone.recv_state()["status"] == "playing"
        assert _next_two(phone)[0] == {"type": "pong"}


def test_play_again_pressed_twice_makes_one_new_game(
    make_client: Callable[..., TestClient],
) -> None:
    """A double tap, a retry, or a stale tab still showing the end: the second "play again"
    answers the same new game, and the phones are told of one game, not pulled into another."""
    client = make_client()
    code, host_token, tokens = _finished_room(client)
    with client.websocket_connect(f"/ws/{code}?token={tokens[0]}") as ws:
        phone = Socket(ws)
        assert phone.recv_state()["status"] == "over"
        first = client.post(f"/api/rooms/{code}/again", headers=host(host_token))
        assert first.status_code == 200, first.text
        new = first.json()["code"]
        assert _next_two(phone) == [{"type": "again", "code": new}, {"type": "pong"}]
        second = client.post(f"/api/rooms/{code}/again", headers=host(host_token))
        assert second.status_code == 200, second.text
        assert second.json() == {"code": new}
        assert _next_two(phone) == [{"type": "pong"}]  # nothing more to follow
    # The new game is not touched by the second press: still at its start, still playing.
    state = client.get(f"/api/rooms/{new}").json()
    assert state["status"] == "playing" and state["version"] == 0


def test_play_again_asked_twice_at_once_makes_one_new_game(tmp_path: Path) -> None:
    async def night() -> tuple[str, str, int]:
        hub = Hub(SqliteStore(tmp_path / "rooms.sqlite3"), (TOY_NAME,), load_game, bot_delay=0)
        room = await hub.create(TOY_NAME, {"rounds": 1})
        await room.join("Ann"), await room.join("Bob")
        await room.start()
        await room.act(0, room.seat_view(0)[1][0], 0)
        await room.act(1, room.seat_view(1)[1][0], 1)
        assert room.status == "over"
        first, second = await asyncio.gather(hub.again(room), hub.again(room))
        made = len(hub.rooms)
        await hub.stop()
        await hub.stop_writer()
        return first.code, second.code, made

    first, second, rooms = asyncio.run(night())
    assert first == second
    assert rooms == 2  # the finished game and one new game
