"""The room's clocks beyond the song: a choice the timer gave to a bot stays made, and a seat
with no phone plays its one forced action by itself after the same delay a phone waits."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from recordroom.server.hub import FORCED_DELAY

from .helpers import TOY_NAME, Socket, TestClient, host, new_room


def _next_error(sock: Socket) -> str:
    while True:
        message = sock.recv()
        if message["type"] == "error":
            return str(message["code"])


def _state_where(sock: Socket, check: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    while True:
        message = sock.recv()
        if message["type"] == "state" and check(message):
            return message


def _timed_room(client: TestClient, game: str, bots: int, seconds: int) -> tuple[str, str]:
    """A started room of ``game``: one person, ``bots`` bot seats, a decision timer of
    ``seconds``; its code and the person's seat token."""
    code, host_token, tokens = new_room(client, game, 1)
    for _ in range(bots):
        client.post(f"/api/rooms/{code}/bots", headers=host(host_token))
    client.post(f"/api/rooms/{code}/timer", json={"seconds": seconds}, headers=host(host_token))
    client.post(f"/api/rooms/{code}/start", headers=host(host_token))
    return code, tokens[0]


def test_a_choice_the_timer_gave_to_the_bot_cannot_be_changed(
    make_client: Callable[..., TestClient],
) -> None:
    client = make_client(bot_delay=60.0)  # the two bot seats take their time
    code, token = _timed_room(client, "disc-cover", 2, 15)
    with client.websocket_connect(f"/ws/{code}?token={token}") as ws:
        phone = Socket(ws)
        first = phone.recv_state()
        assert first["timer"]["seconds"] == 15
        decided = _state_where(phone, lambda m: m["view"]["my_vote"] is not None)
        assert decided["version"] == 1 and decided["view"]["turn"] == 1  # the bots still think
        phone.send({"type": "act", "version": 0, "action": {"type": "vote", "card": 1}})
        assert _next_error(phone) == "turn/timed_out"
        phone.send({"type": "act", "version": 1, "action": {"type": "vote", "card": 1}})
        assert _next_error(phone) == "turn/timed_out"
        assert client.get(f"/api/rooms/{code}").json()["version"] == 1


def test_a_seat_without_a_phone_plays_its_only_action_by_itself(client: TestClient) -> None:
    code, host_token, tokens = new_room(client, TOY_NAME, 2, {"rounds": 4})
    client.post(f"/api/rooms/{code}/start", headers=host(host_token))
    with client.websocket_connect(f"/ws/{code}?token={tokens[0]}") as ws0:
        first = Socket(ws0)
        first.recv_state()
        with client.websocket_connect(f"/ws/{code}?token={tokens[1]}") as ws1:
            second = Socket(ws1)
            second.recv_state()
            version = 0
            for _ in range(3):  # three rounds: each hand keeps one card
                for sock in (first, second):
                    state = sock.state
                    if state["version"] != version:
                        state = _state_where(sock, lambda m, v=version: m["version"] == v)
                    action = state["legal_actions"][0]
                    sock.send({"type": "act", "version": version, "action": action})
                    version += 1
        # Seat 1's phone is gone; its one card is bid for it, after the delay phones wait too.
        gone = time.monotonic()
        after = _state_where(first, lambda m: m["version"] == 7)
        assert time.monotonic() - gone >= FORCED_DELAY - 0.1
        assert len(after["legal_actions"]) == 1  # seat 0 has its phone: it bids itself
        first.send({"type": "act", "version": 7, "action": after["legal_actions"][0]})
        assert _state_where(first, lambda m: m["status"] == "over")["version"] == 8


def test_a_late_tap_after_the_timer_ended_the_round_is_told_it_timed_out(
    client: TestClient,
) -> None:
    """The bots vote at once; the phone does not. When its timer runs out (made to run out at
    once here), its bot votes for it and the round ends; the phone's vote, made on the state it
    still shows, is then a late tap: ``turn/timed_out``, not a stale action."""
    code, token = _timed_room(client, "disc-cover", 2, 60)
    hub = client.app.state.hub  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/{code}?token={token}") as ws:
        phone = Socket(ws)
        phone.recv_state()
        waiting = _state_where(phone, lambda m: m["version"] == 2)  # both bots have voted
        assert waiting["view"]["turn"] == 1 and waiting["legal_actions"]
        room = hub.get(code)
        hub._loop.call_soon_threadsafe(hub._timer_ran_out, room, room.round_no)
        ended = _state_where(phone, lambda m: m["version"] == 3)
        assert ended["view"]["turn"] == 2 or ended["view"]["phase"] != waiting["view"]["phase"]
        phone.send({"type": "act", "version": 2, "action": waiting["legal_actions"][0]})
        assert _next_error(phone) == "turn/timed_out"
        # Nothing changed: seat 0's one action is its bot's (the bots may play on meanwhile).
        assert [i for i, entry in enumerate(room.log) if entry["seat"] == 0] == [2]


def test_the_records_pick_timer_times_the_picks_and_never_marks_a_sheet(
    make_client: Callable[..., TestClient],
) -> None:
    """Records' timer is a pick timer (docs/web.md): it counts down while a seat has a secret
    choice to make, and its bot makes that choice when time is up; marking one's sheet takes
    thought and stays the player's own, so no countdown shows and no bot marks for them."""
    client = make_client(bot_delay=0.0)
    code, token = _timed_room(client, "records", 1, 15)
    hub = client.app.state.hub  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/{code}?token={token}") as ws:
        phone = Socket(ws)
        state = phone.recv_state()
        chose = 0
        while state["view"]["phase"] != "mark" or not state["legal_actions"]:
            if state["legal_actions"]:  # a secret choice of the setup or the first pick
                assert state["timer"] is not None and state["timer"]["seconds"] == 15, state
                action = state["legal_actions"][0]
                phone.send({"type": "act", "version": state["version"], "action": action})
                chose += 1
            version = state["version"]
            state = _state_where(phone, lambda m, v=version: m["version"] > v)
        assert chose >= 2  # the lead singer, the goal kept, ... and a pick
        assert state["timer"] is None  # marking: no countdown
        room = hub.get(code)
        deadline = time.monotonic() + 10
        while room.state.active != {0} and time.monotonic() < deadline:
            time.sleep(0.05)  # the bot marks its own sheet
        assert room.state.active == {0} and room.timer_remaining() is None
        version, legal = room.version, room.seat_view(0)[1]
        # Even a timer made to run out now hands nothing to the seat's bot.
        hub._loop.call_soon_threadsafe(hub._timer_ran_out, room, room.round_no)
        time.sleep(0.5)
        assert room.version == version and room.undecided_seats() == []
        assert room.seat_view(0)[1] == legal  # the card is still the player's to place
