"""Issue 12, point 3: each distinct view is computed and serialised once per change."""

from __future__ import annotations

import json
from typing import Any

from recordroom.server import room as room_module
from recordroom.server.protocol import SeatOut, StateMessage

from .helpers import TOY, TOY_NAME, Socket, TestClient, host, new_room


def counted_views(monkeypatch: Any) -> list[int | None]:
    """The seats (None: the table) the toy game is asked views for from now on, in order."""
    calls: list[int | None] = []
    view = TOY.view

    def counted(state: Any, seat: int | None) -> Any:
        calls.append(seat)
        return view(state, seat)

    monkeypatch.setattr(TOY, "view", counted)
    return calls


def test_every_state_message_has_the_documented_shape(client: TestClient) -> None:
    code, host_token, tokens = new_room(client, TOY_NAME, 2)
    client.post(f"/api/rooms/{code}/start", headers=host(host_token))
    with (
        client.websocket_connect(f"/ws/{code}?token={tokens[0]}") as a,
        client.websocket_connect(f"/ws/{code}?token={host_token}") as t,
    ):
        seat, table = Socket(a), Socket(t)
        seat.recv_state(), seat.recv_state(), table.recv_state()
        seat.send({"type": "act", "version": 0, "action": seat.state["legal_actions"][0]})
        for socket in (seat, table):
            message = socket.recv_state()
            assert StateMessage.model_validate(message).model_dump() == message


def test_spectators_share_one_view_per_change(client: TestClient, monkeypatch: Any) -> None:
    code, host_token, tokens = new_room(client, TOY_NAME, 2)
    client.post(f"/api/rooms/{code}/start", headers=host(host_token))
    calls = counted_views(monkeypatch)
    contexts = [client.websocket_connect(f"/ws/{code}") for _ in range(8)]
    contexts.append(client.websocket_connect(f"/ws/{code}?token={tokens[0]}"))
    sockets = [Socket(c.__enter__()) for c in contexts]
    try:
        for socket in sockets[:-1]:
            socket.recv_state(), socket.recv_state()  # its own, then the seat's connect
        sockets[-1].recv_state()
        seat = sockets[-1]
        calls.clear()
        seat.send({"type": "act", "version": 0, "action": seat.state["legal_actions"][0]})
        texts = {s.ws.receive_text() for s in sockets[:-1]}
        seat.recv_state()
        # One public view for eight spectators, one view per seat; the same bytes for all eight.
        assert calls.count(None) == 1
        assert len(texts) == 1
    finally:
        for c in contexts:
            c.__exit__(None, None, None)


def test_a_crowd_of_spectators_costs_one_message_each(client: TestClient) -> None:
    code, host_token, tokens = new_room(client, TOY_NAME, 2)
    client.post(f"/api/rooms/{code}/start", headers=host(host_token))
    with client.websocket_connect(f"/ws/{code}?token={tokens[0]}") as a:
        seat = Socket(a)
        seat.recv_state()
        contexts = [client.websocket_connect(f"/ws/{code}") for _ in range(40)]
        crowd = [Socket(c.__enter__()) for c in contexts]
        for spectator in crowd:
            assert spectator.recv_state()["version"] == 0
        for c in contexts[:20]:
            c.__exit__(None, None, None)
        # The next message anyone gets is the next change, not 60 presence updates.
        seat.send({"type": "act", "version": 0, "action": seat.state["legal_actions"][0]})
        assert seat.recv_state()["version"] == 1
        for spectator in crowd[20:]:
            assert spectator.recv_state()["version"] == 1
        for c in contexts[20:]:
            c.__exit__(None, None, None)


def test_the_seats_of_a_state_message_are_built_without_pydantic(
    client: TestClient, monkeypatch: Any
) -> None:
    code, host_token, tokens = new_room(client, TOY_NAME, 2)
    client.post(f"/api/rooms/{code}/start", headers=host(host_token))
    with client.websocket_connect(f"/ws/{code}?token={tokens[0]}") as a:
        seat = Socket(a)
        seat.recv_state()

        def refused(*args: Any, **kwargs: Any) -> None:
            raise AssertionError("pydantic on the outgoing path")

        # A seat model built, or dumped, while telling everyone of an action fails the change.
        monkeypatch.setattr(SeatOut, "__init__", refused)
        monkeypatch.setattr(SeatOut, "model_dump", refused)
        monkeypatch.setattr(StateMessage, "model_dump", refused)
        seat.send({"type": "act", "version": 0, "action": seat.state["legal_actions"][0]})
        message = seat.recv_state()
        monkeypatch.undo()
        assert message["version"] == 1
        assert [SeatOut.model_validate(s).model_dump() for s in message["seats"]] == message[
            "seats"
        ]


def test_state_messages_are_compact_json_whatever_the_keys_of_a_view() -> None:
    from recordroom.server.room import _dumps

    plain = {"type": "state", "view": {"cards": [1, 2], "name": "Ann"}, "seat": None}
    numbered = {"type": "state", "view": {"scores": {0: 3, 1: 5}}}  # numbers as keys
    assert _dumps(plain) == json.dumps(plain, separators=(",", ":"))
    assert json.loads(_dumps(numbered)) == {"type": "state", "view": {"scores": {"0": 3, "1": 5}}}


def test_phones_coming_and_going_reuse_the_views_of_the_state(
    client: TestClient, monkeypatch: Any
) -> None:
    code, host_token, tokens = new_room(client, TOY_NAME, 2)
    client.post(f"/api/rooms/{code}/start", headers=host(host_token))
    calls = counted_views(monkeypatch)
    with (
        client.websocket_connect(f"/ws/{code}?token={host_token}") as t,
        client.websocket_connect(f"/ws/{code}?token={tokens[0]}") as a,
    ):
        table, ann = Socket(t), Socket(a)
        table.recv_state(), table.recv_state(), ann.recv_state()
        ann.send({"type": "act", "version": 0, "action": ann.state["legal_actions"][0]})
        after = [ann.recv_state(), table.recv_state()]
        calls.clear()
        # Bo's phone comes and goes twice: everyone is told each time, from the views of
        # the state they already hold, computed once for it.
        for _ in range(2):
            with client.websocket_connect(f"/ws/{code}?token={tokens[1]}") as b:
                bo = Socket(b)
                told = [bo.recv_state(), ann.recv_state(), table.recv_state()]
                assert all(m["version"] == 1 and m["seats"][1]["connected"] for m in told)
                assert told[1]["view"] == after[0]["view"]
                assert told[1]["legal_actions"] == after[0]["legal_actions"]
                assert told[2]["view"] == after[1]["view"]
            gone = [ann.recv_state(), table.recv_state()]
            assert not any(m["seats"][1]["connected"] for m in gone)
        # Every view of the state was made once: the seats' with phones when the action was
        # told, Bo's when his phone first came (a seat's legal actions are asked without its
        # view, so a seat with no phone has none made until one comes).
        assert calls == [1]


def test_phones_hanging_up_together_are_told_as_one_change(
    client: TestClient, monkeypatch: Any
) -> None:
    # A game's end, or a table reloaded: sockets close one after the other. The others learn of
    # them once for the burst, not once per phone (a wide window, so that a slow run holds too).
    monkeypatch.setattr(room_module, "HANG_UP_DELAY", 1.0)
    code, host_token, tokens = new_room(client, TOY_NAME, 3)
    client.post(f"/api/rooms/{code}/start", headers=host(host_token))
    with (
        client.websocket_connect(f"/ws/{code}?token={host_token}") as t,
        client.websocket_connect(f"/ws/{code}?token={tokens[0]}") as a,
    ):
        table, ann = Socket(t), Socket(a)
        table.recv_state(), table.recv_state(), ann.recv_state()
        phones = [client.websocket_connect(f"/ws/{code}?token={tokens[i]}") for i in (1, 2)]
        for phone in phones:
            Socket(phone.__enter__()).recv_state()
            table.recv_state(), ann.recv_state()
        for phone in phones:
            phone.__exit__(None, None, None)
        # The first message after the hang-ups already shows both phones gone.
        told = table.recv_state()
        assert [s["connected"] for s in told["seats"]] == [True, False, False]
        assert [s["connected"] for s in ann.recv_state()["seats"]] == [True, False, False]
        # And it was the only one: the next message is the next change.
        ann.send({"type": "act", "version": 0, "action": ann.state["legal_actions"][0]})
        assert table.recv_state()["version"] == 1


def test_a_phone_hanging_up_alone_is_told_without_any_other_change(client: TestClient) -> None:
    code, host_token, tokens = new_room(client, TOY_NAME, 2)
    client.post(f"/api/rooms/{code}/start", headers=host(host_token))
    with client.websocket_connect(f"/ws/{code}?token={host_token}") as t:
        table = Socket(t)
        table.recv_state()
        with client.websocket_connect(f"/ws/{code}?token={tokens[1]}") as b:
            Socket(b).recv_state()
            assert table.recv_state()["seats"][1]["connected"]
        assert not table.recv_state()["seats"][1]["connected"]
