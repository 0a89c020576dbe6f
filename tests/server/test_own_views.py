"""Issue 12, point 3: a Disc Cover change writes the public view once for all who see it.

Disc Cover offers ``own_view`` (a seat sees the table and its own vote and points): a seat's
state message is then written from the public view's JSON and the seat's own part. What a phone
receives must be the very text the whole message would give, in every moment of a game.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import ExitStack
from typing import Any, ClassVar

import pytest

from recordroom.games.disc_cover import GAME as DISC_COVER
from recordroom.server import room as room_module
from recordroom.server.protocol import StateMessage

from .helpers import Socket, TestClient, host, new_room


class _Checked(room_module._Texts):
    """The texts of a change, each compared with what the whole message would give."""

    compared: ClassVar[list[tuple[str, bool]]] = []

    def __init__(self, room: room_module.Room, seats: list[Any], moment: Any) -> None:
        super().__init__(room, seats, moment)
        self.whole = (seats, moment)

    def text(self, role: Any, seat: int | None) -> str:
        text = super().text(role, seat)
        whole = room_module._dumps(self.room.message_for(role, seat, *self.whole))
        self.compared.append((role, text == whole))
        return text


def _play(client: TestClient, variant: str, timer: int | None) -> list[Socket]:
    """A whole three-seat game, the table opening each turn once its song plays; every socket."""
    code, host_token, tokens = new_room(client, "disc-cover", 3, {"variant": variant})
    if timer is not None:
        body = {"seconds": timer}
        answer = client.post(f"/api/rooms/{code}/timer", json=body, headers=host(host_token))
        assert answer.status_code == 200, answer.text
    assert client.post(f"/api/rooms/{code}/start", headers=host(host_token)).status_code == 200
    with ExitStack() as stack:
        table = Socket(
            stack.enter_context(client.websocket_connect(f"/ws/{code}?token={host_token}"))
        )
        table.recv_state()
        phones = []
        for token in tokens:
            phones.append(
                Socket(stack.enter_context(client.websocket_connect(f"/ws/{code}?token={token}")))
            )
            phones[-1].recv_state()
            for earlier in [table, *phones[:-1]]:
                earlier.recv_state()
        while table.state["status"] == "playing":
            state = table.state
            if state["listening"]:
                table.send({"type": "playing", "turn": state["view"]["turn"]})
            else:
                for phone in phones:
                    if phone.state["version"] == state["version"] and phone.state["legal_actions"]:
                        action = phone.state["legal_actions"][-1]
                        phone.send({"type": "act", "version": state["version"], "action": action})
                        break
            version, listening = state["version"], state["listening"]
            for sock in [table, *phones]:
                while (sock.state["version"], sock.state["listening"]) == (version, listening):
                    sock.recv_state()
    return [table, *phones]


@pytest.mark.parametrize(("variant", "timer"), [("cooperative", None), ("competitive", 60)])
def test_each_receiver_gets_the_text_the_whole_message_would_give(
    make_client: Callable[..., TestClient], monkeypatch: Any, variant: str, timer: int | None
) -> None:
    compared: list[tuple[str, bool]] = []
    monkeypatch.setattr(_Checked, "compared", compared)
    monkeypatch.setattr(room_module, "_Texts", _Checked)
    sockets = _play(make_client(open_after=20.0), variant, timer)
    table, phones = sockets[0], sockets[1:]
    assert table.state["status"] == "over"
    # Every message of every change was compared, and each was the whole message's text.
    assert all(same for _, same in compared)
    assert sum(role == "seat" for role, _ in compared) >= 3 * 12
    assert sum(role == "host" for role, _ in compared) >= 12
    assert any(m["music"] for m in table.received)
    seen = [m for phone in phones for m in phone.received]
    assert any(m["listening"] for m in seen) and any(m["legal_actions"] for m in seen)
    if timer is not None:
        assert any(m["timer"] is not None for m in seen)
    for phone in phones:
        for message in phone.received:
            assert StateMessage.model_validate(message).model_dump() == message
            own = message["view"]
            assert own["seat"] == message["seat"]
            assert ("my_points" in own) == (variant == "competitive")


def test_a_change_asks_the_game_for_the_public_view_only(
    make_client: Callable[..., TestClient], monkeypatch: Any
) -> None:
    # Without own_view, each of the three seats' views is asked for and written whole.
    client = make_client(open_after=0.0)
    code, host_token, tokens = new_room(client, "disc-cover", 3)
    assert client.post(f"/api/rooms/{code}/start", headers=host(host_token)).status_code == 200
    asked: list[int | None] = []
    view = DISC_COVER.view

    def counted(state: Any, seat: int | None) -> Any:
        asked.append(seat)
        return view(state, seat)

    with ExitStack() as stack:
        phones = [
            Socket(stack.enter_context(client.websocket_connect(f"/ws/{code}?token={t}")))
            for t in tokens
        ]
        ann = phones[0]
        while not ann.recv_state()["legal_actions"]:
            pass
        version = ann.state["version"]
        monkeypatch.setattr(DISC_COVER, "view", counted)
        ann.send({"type": "act", "version": version, "action": ann.state["legal_actions"][0]})
        told = []
        for phone in phones:
            while phone.recv_state()["version"] != version + 1:
                pass
            told.append(phone.state)
        monkeypatch.undo()
    assert asked == [None]
    # Each phone got the table's view with its own seat and vote added.
    own = {"seat", "my_vote", "my_points"}
    public = [{k: v for k, v in m["view"].items() if k not in own} for m in told]
    assert public[0] == public[1] == public[2]
    assert [m["view"]["seat"] for m in told] == [0, 1, 2]
    assert told[0]["view"]["my_vote"] is not None
    assert told[1]["view"]["my_vote"] is None
