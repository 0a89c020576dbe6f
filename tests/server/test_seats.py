"""Points 5 and 6: dropped phones keep their seat; bots take seats and play by themselves."""

from __future__ import annotations

from typing import Any

import pytest

from recordroom.engine.playout import replay

from .helpers import TOY_NAME, Socket, TestClient, every_game, host, load_game, new_room


def connected(socket: Socket) -> list[bool]:
    return [s["connected"] for s in socket.state["seats"]]


def test_a_dropped_phone_keeps_its_seat_and_rejoins_with_its_token(client: TestClient) -> None:
    code, host_token, tokens = new_room(client, TOY_NAME, 2)
    client.post(f"/api/rooms/{code}/start", headers=host(host_token))
    with client.websocket_connect(f"/ws/{code}?token={tokens[0]}") as a:
        first = Socket(a)
        first.recv_state()
        with client.websocket_connect(f"/ws/{code}?token={tokens[1]}") as b:
            second = Socket(b)
            first.recv_state(), second.recv_state()
            assert connected(first) == [True, True]
            second.send({"type": "act", "version": 0, "action": second.state["legal_actions"][0]})
            first.recv_state(), second.recv_state()
            seen = second.state
        assert connected(_next(first)) == [True, False]
        with client.websocket_connect(f"/ws/{code}?token={tokens[1]}") as b:
            again = Socket(b)
            back = again.recv_state()
            assert back["seat"] == 1
            assert back["view"] == seen["view"]
            assert connected(_next(first)) == [True, True]


def _next(socket: Socket) -> Socket:
    socket.recv_state()
    return socket


def test_the_host_hands_a_seat_to_a_bot_and_back(client: TestClient) -> None:
    code, host_token, tokens = new_room(client, TOY_NAME, 2)
    client.post(f"/api/rooms/{code}/start", headers=host(host_token))
    with (
        client.websocket_connect(f"/ws/{code}?token={tokens[0]}") as a,
        client.websocket_connect(f"/ws/{code}?token={tokens[1]}") as b,
    ):
        first, second = Socket(a), Socket(b)
        first.recv_state(), first.recv_state(), second.recv_state()
        handed = client.post(f"/api/rooms/{code}/seats/1/bot", headers=host(host_token))
        assert handed.json()["bot"] is True
        # The bot bids for seat 1 at once (its highest card: the toy game's strongest bot).
        assert second.recv_state()["seats"][1]["bot"] is True
        after_bot = second.recv_state()
        assert after_bot["version"] == 1
        assert after_bot["view"]["my_bid"] == max(after_bot["view"]["hand"])
        second.send({"type": "act", "version": 1, "action": {"type": "bid", "card": 0}})
        assert second.recv()["code"] == "seat/bot"
        back = client.request("DELETE", f"/api/rooms/{code}/seats/1/bot", headers=host(host_token))
        assert back.json() == {"seat": 1, "token": None}
        assert second.recv_state()["seats"][1]["bot"] is False
        # Seat 0 bids; the round resolves; seat 1 plays again by itself.
        first.recv_state(), first.recv_state(), first.recv_state()
        first.send({"type": "act", "version": 1, "action": first.state["legal_actions"][0]})
        assert second.recv_state()["version"] == 2
        legal = second.state["legal_actions"]
        second.send({"type": "act", "version": 2, "action": legal[0]})
        assert second.recv_state()["version"] == 3


def test_taking_a_seat_back_for_someone_new_issues_a_new_token(client: TestClient) -> None:
    code, host_token, tokens = new_room(client, TOY_NAME, 2)
    client.post(f"/api/rooms/{code}/start", headers=host(host_token))
    client.post(f"/api/rooms/{code}/seats/1/bot", headers=host(host_token))
    back = client.request(
        "DELETE", f"/api/rooms/{code}/seats/1/bot", headers=host(host_token), json={"name": "Kim"}
    ).json()
    assert back["token"] and back["token"] != tokens[1]
    with client.websocket_connect(f"/ws/{code}?token={tokens[1]}") as ws:
        assert ws.receive_json()["code"] == "auth/bad_token"
    with client.websocket_connect(f"/ws/{code}?token={back['token']}") as ws:
        state = ws.receive_json()
        assert state["seat"] == 1
        assert state["seats"][1]["name"] == "Kim"


def test_bots_play_a_whole_game_with_one_person(client: TestClient) -> None:
    code, host_token, tokens = new_room(client, TOY_NAME, 1)
    for _ in range(2):
        client.post(f"/api/rooms/{code}/bots", headers=host(host_token))
    client.post(f"/api/rooms/{code}/start", headers=host(host_token))
    with client.websocket_connect(f"/ws/{code}?token={tokens[0]}") as ws:
        me = Socket(ws)
        me.recv_state()
        sent_at = -1
        while me.state["status"] != "over":
            if me.state["legal_actions"] and sent_at != me.state["version"]:
                sent_at = me.state["version"]
                me.send(act(me.state))
            message = me.recv()
            # Bots move at once, so a bid may be sent on a state already overtaken.
            assert message["type"] == "state" or message["code"] == "action/stale", message
    log = client.get(f"/api/rooms/{code}/log").json()
    assert len(log["log"]) == 3 * 3
    assert {e["seat"] for e in log["log"]} == {0, 1, 2}


def test_bots_wait_the_configured_delay(make_client: Any) -> None:
    client = make_client(bot_delay=30.0)
    code, host_token, _ = new_room(client, TOY_NAME, 0)
    for _ in range(2):
        client.post(f"/api/rooms/{code}/bots", headers=host(host_token))
    client.post(f"/api/rooms/{code}/start", headers=host(host_token))
    assert client.get(f"/api/rooms/{code}").json()["version"] == 0


def act(state: dict[str, Any]) -> dict[str, Any]:
    return {"type": "act", "version": state["version"], "action": state["legal_actions"][0]}


@pytest.mark.parametrize("game_name", every_game())
def test_bots_alone_finish_every_game(client: TestClient, game_name: str) -> None:
    game = load_game(game_name)
    code, host_token, _ = new_room(client, game_name, 0)
    for _ in range(game.info.min_players):
        client.post(f"/api/rooms/{code}/bots", headers=host(host_token))
    client.post(f"/api/rooms/{code}/start", headers=host(host_token))
    with client.websocket_connect(f"/ws/{code}") as ws:
        table = Socket(ws)
        while table.recv_state()["status"] != "over":
            pass
    log = client.get(f"/api/rooms/{code}/log").json()
    final = replay(game, game.info.min_players, log["seed"], log["options"], log["log"])
    assert log["result"] == game.result(final) == table.state["result"]
    assert table.state["view"] == game.view(final, None)
