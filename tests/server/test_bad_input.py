"""Point 7: bad input gets a clear error with a stable code, changes nothing, harms no one else."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from .helpers import TOY_NAME, Socket, TestClient, host, new_room


@pytest.fixture
def table(client: TestClient) -> Iterator[tuple[TestClient, str, list[Socket], Socket]]:
    """A started two-seat toy game: both seats and a spectator connected."""
    code, host_token, tokens = new_room(client, TOY_NAME, 2)
    client.post(f"/api/rooms/{code}/start", headers=host(host_token))
    contexts = [client.websocket_connect(f"/ws/{code}?token={t}") for t in tokens]
    contexts.append(client.websocket_connect(f"/ws/{code}"))
    sockets = [Socket(c.__enter__()) for c in contexts]
    # Each seat sees its own connect and the later seat's; the spectator's tells only itself.
    for i, socket in enumerate(sockets[:2]):
        for _ in range(2 - i):
            socket.recv_state()
    sockets[2].recv_state()
    yield client, code, sockets[:2], sockets[2]
    for c in contexts:
        c.__exit__(None, None, None)


LONG = "x" * (64 * 1024 + 1)


def act(version: int, action: Any) -> dict[str, Any]:
    return {"type": "act", "version": version, "action": action}


def nested(depth: int) -> Any:
    """A list nested ``depth`` levels deep."""
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


def first_legal(state: dict[str, Any]) -> Any:
    return state["legal_actions"][0]


BAD_MESSAGES: list[tuple[str, Callable[[dict[str, Any]], Any], str]] = [
    ("not json", lambda s: "{oops", "message/malformed"),
    ("not an object", lambda s: [1, 2], "message/malformed"),
    ("no type", lambda s: {"version": 0}, "message/malformed"),
    ("unknown type", lambda s: {"type": "cheat", "seat": 1}, "message/unknown_type"),
    ("act without version", lambda s: {"type": "act", "action": {}}, "message/malformed"),
    ("extra field", lambda s: {"type": "ping", "seat": 1}, "message/malformed"),
    ("too large", lambda s: act(0, {"pad": LONG}), "message/too_large"),
    ("stale version", lambda s: act(-1, first_legal(s)), "action/stale"),
    ("future version", lambda s: act(9, first_legal(s)), "action/stale"),
    ("illegal action", lambda s: act(0, {"type": "bid", "card": 1}), "action/illegal"),
    ("malformed action", lambda s: act(0, {"x": 1}), "action/illegal"),
    ("version as text", lambda s: {**act(0, first_legal(s)), "version": "0"}, "message/malformed"),
    ("version true", lambda s: {**act(0, first_legal(s)), "version": True}, "message/malformed"),
    ("nested too deep", lambda s: act(0, {"a": nested(20)}), "message/malformed"),
    ("nested past the decoder", lambda s: "[" * 30000 + "]" * 30000, "message/malformed"),
]


@pytest.mark.parametrize(("label", "build", "code"), BAD_MESSAGES, ids=[b[0] for b in BAD_MESSAGES])
def test_bad_message_is_refused_and_changes_nothing(
    table: tuple[TestClient, str, list[Socket], Socket],
    label: str,
    build: Callable[[dict[str, Any]], Any],
    code: str,
) -> None:
    client, room_code, (first, second), spectator = table
    before = client.get(f"/api/rooms/{room_code}").json()
    first.send(build(first.state))
    error = first.recv()
    assert error["type"] == "error"
    assert error["code"] == code, error
    assert error["message"]
    assert client.get(f"/api/rooms/{room_code}").json() == before
    # The server goes on serving everyone, the sender included.
    second.send({"type": "act", "version": 0, "action": second.state["legal_actions"][0]})
    for socket in (first, second, spectator):
        assert socket.recv_state()["version"] == 1


def test_spectator_and_host_hold_no_seat(
    table: tuple[TestClient, str, list[Socket], Socket],
) -> None:
    _, _, (first, _), spectator = table
    spectator.send({"type": "act", "version": 0, "action": first.state["legal_actions"][0]})
    assert spectator.recv()["code"] == "seat/not_held"


def test_a_seat_cannot_act_for_another(
    table: tuple[TestClient, str, list[Socket], Socket],
) -> None:
    """A seat's action is always its own: another seat's card is just illegal for it."""
    _, _, (first, second), _ = table
    second.send({"type": "act", "version": 0, "action": first.state["legal_actions"][0]})
    assert second.recv()["code"] == "action/illegal"


def test_ping(table: tuple[TestClient, str, list[Socket], Socket]) -> None:
    _, _, (first, _), _ = table
    first.send({"type": "ping"})
    assert first.recv() == {"type": "pong"}


def test_unknown_room_and_bad_token_on_the_socket(client: TestClient) -> None:
    with client.websocket_connect("/ws/ZZZZ") as ws:
        assert ws.receive_json()["code"] == "room/not_found"
    code, _, _ = new_room(client, TOY_NAME, 1)
    with client.websocket_connect(f"/ws/{code}?token=guess") as ws:
        assert ws.receive_json()["code"] == "auth/bad_token"


def test_a_socket_to_an_address_that_is_not_a_rooms_is_closed_and_a_rooms_is_served(
    client: TestClient,
) -> None:
    """Room sockets are served ahead of the HTTP routes: only ``/ws/{code}`` is a room's."""
    code, _, tokens = new_room(client, TOY_NAME, 1)
    for address in ("/ws/", f"/ws/{code}/", f"/ws/{code}/more", "/wsx/ZZZZ", f"/api/rooms/{code}"):
        with pytest.raises(WebSocketDisconnect), client.websocket_connect(address) as ws:
            ws.receive_json()
    with client.websocket_connect(f"/ws/{code.lower()}?token={tokens[0]}") as ws:
        state = Socket(ws).recv_state()
        assert (state["role"], state["seat"]) == ("seat", 0)


def test_acting_before_the_start(client: TestClient) -> None:
    code, _, tokens = new_room(client, TOY_NAME, 2)
    with client.websocket_connect(f"/ws/{code}?token={tokens[0]}") as ws:
        socket = Socket(ws)
        socket.recv_state()
        socket.send({"type": "act", "version": 0, "action": {"type": "bid", "card": 1000}})
        assert socket.recv()["code"] == "room/not_started"


def test_joins_and_lookups_are_rate_limited_per_client(make_client: Any) -> None:
    client = make_client(join_limit=(3, 60.0), lookup_limit=(7, 60.0))
    code, _, _ = new_room(client, TOY_NAME, 2)  # one creation and two joins (two look-ups)
    refused = client.post(f"/api/rooms/{code}/seats", json={"name": "Guess"})  # a third look-up
    assert refused.status_code == 429
    assert refused.json()["code"] == "rate/limited"
    answers = [client.get(f"/api/rooms/{code}").status_code for _ in range(5)]
    assert answers == [200, 200, 200, 200, 429]
    with client.websocket_connect(f"/ws/{code}") as ws:
        assert ws.receive_json()["code"] == "rate/limited"
