"""The song leads the Disc Cover turn: nobody votes before the table hears it, bots wait, the
turn opens by itself when the table is gone, and the decision timer lets bots decide for people.
Also: phones take their seat back from a bot, bots get a level during the game."""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from .helpers import Socket, TestClient, host, new_room


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> TestClient:
    """An app whose Disc Cover turns wait for their song, as `recordroom serve` does."""
    return make_client(open_after=20.0)


def _room(client: TestClient, players: int = 3, **body: Any) -> tuple[str, str, list[str]]:
    code, host_token, tokens = new_room(client, "disc-cover", players)
    if body:
        answer = client.post(f"/api/rooms/{code}/timer", json=body, headers=host(host_token))
        assert answer.status_code == 200, answer.text
    assert client.post(f"/api/rooms/{code}/start", headers=host(host_token)).status_code == 200
    return code, host_token, tokens


def _vote(sock: Socket, card: int = 1) -> None:
    version = sock.state["version"]
    sock.send({"type": "act", "version": version, "action": {"type": "vote", "card": card}})


def _until(sock: Socket, check: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """Reads a socket until a message passes ``check`` (the last state may already do)."""
    if sock.received and check(sock.received[-1]):
        return sock.received[-1]
    while True:
        message = sock.recv()
        if check(message):
            return message


def _error(sock: Socket) -> str:
    """The code of the next error the socket receives."""
    while True:
        message = sock.recv()
        if message["type"] == "error":
            return str(message["code"])


def _state(check: Callable[[dict[str, Any]], bool]) -> Callable[[dict[str, Any]], bool]:
    return lambda m: m["type"] == "state" and check(m)


def _wait_for(client: TestClient, code: str, check: Callable[[dict[str, Any]], bool]) -> None:
    deadline = time.monotonic() + 20
    while not check(client.get(f"/api/rooms/{code}").json()):
        assert time.monotonic() < deadline, "the room never got there"
        time.sleep(0.05)


def test_no_vote_before_the_table_hears_the_song(client: TestClient) -> None:
    code, host_token, tokens = _room(client)
    with ExitStack() as stack:
        table = Socket(
            stack.enter_context(client.websocket_connect(f"/ws/{code}?token={host_token}"))
        )
        phones = [
            Socket(stack.enter_context(client.websocket_connect(f"/ws/{code}?token={t}")))
            for t in tokens
        ]
        first = _until(phones[0], _state(lambda m: True))
        assert first["listening"] is True
        assert first["legal_actions"] == []
        assert 0 < first["opens_in"] <= 20
        table_state = _until(table, _state(lambda m: True))
        assert table_state["listening"] is True and table_state["view"]["turn"] == 1

        # A vote now is refused and changes nothing.
        phones[0].send({"type": "act", "version": 0, "action": {"type": "vote", "card": 1}})
        assert _error(phones[0]) == "turn/not_open"

        # Only the table may open a turn, and only the current one.
        phones[1].send({"type": "playing", "turn": 1})
        assert _error(phones[1]) == "message/invalid"
        table.send({"type": "playing", "turn": 2})
        assert _error(table) == "message/invalid"
        table.send({"type": "playing", "turn": "1"})
        assert _error(table) == "message/malformed"
        with client.websocket_connect(f"/ws/{code}") as spectator_ws:
            spectator = Socket(spectator_ws)
            spectator.send({"type": "playing", "turn": 1})
            assert _error(spectator) == "message/invalid"
        assert client.get(f"/api/rooms/{code}").json()["version"] == 0

        # The song plays: the vote opens for everyone.
        table.send({"type": "playing", "turn": 1})
        for sock in phones:
            opened = _until(sock, _state(lambda m: not m["listening"]))
            assert opened["legal_actions"] and opened["opens_in"] is None
        for sock in phones:
            version = sock.state["version"]
            _vote(sock)
            for reader in phones:
                _until(reader, _state(lambda m, v=version: m["version"] > v))
        # Turn 2 begins: listening again until its song plays.
        after = _until(phones[0], _state(lambda m: m["view"]["turn"] == 2))
        assert after["listening"] is True and after["legal_actions"] == []
        assert after["view"]["last_turn"]["turn"] == 1  # the reveal stays on the phones meanwhile


def test_bots_wait_for_the_song(make_client: Callable[..., TestClient]) -> None:
    client = make_client(open_after=60.0)
    code, host_token, _ = new_room(client, "disc-cover", 0)
    for _ in range(3):
        client.post(f"/api/rooms/{code}/bots", json={"level": "easy"}, headers=host(host_token))
    client.post(f"/api/rooms/{code}/start", headers=host(host_token))
    with client.websocket_connect(f"/ws/{code}?token={host_token}") as ws:
        table = Socket(ws)
        _until(table, _state(lambda m: m["listening"]))
        time.sleep(0.5)  # bots move at once in these tests; they must not while listening
        assert client.get(f"/api/rooms/{code}").json()["version"] == 0
        table.send({"type": "playing", "turn": 1})
        done = _until(table, _state(lambda m: m["view"]["turn"] == 2))
        # A whole table of bots finished turn 1 only after its song, and waits for turn 2's.
        # (a tie adds tie-break votes to turn 1, heard over the same song)
        assert done["version"] >= 3 and done["listening"] is True
        time.sleep(0.3)
        assert client.get(f"/api/rooms/{code}").json()["version"] == done["version"]


def test_the_turn_opens_by_itself_when_the_table_is_gone(
    make_client: Callable[..., TestClient],
) -> None:
    client = make_client(open_after=0.6)
    code, _, tokens = _room(client)
    with client.websocket_connect(f"/ws/{code}?token={tokens[0]}") as ws:
        phone = Socket(ws)
        assert _until(phone, _state(lambda m: True))["listening"] is True
        began = time.monotonic()
        opened = _until(phone, _state(lambda m: not m["listening"]))
        assert opened["legal_actions"]
        assert time.monotonic() - began < 5


def test_a_held_turn_waits_for_the_previous_song(make_client: Callable[..., TestClient]) -> None:
    client = make_client(open_after=3.0)
    code, host_token, tokens = _room(client)
    with (
        client.websocket_connect(f"/ws/{code}?token={host_token}") as table_ws,
        client.websocket_connect(f"/ws/{code}?token={tokens[0]}") as phone_ws,
    ):
        table, phone = Socket(table_ws), Socket(phone_ws)
        _until(phone, _state(lambda m: m["listening"]))
        began = time.monotonic()
        for _ in range(8):  # the previous song goes on for 4 s: the turn stays closed
            table.send({"type": "hold", "turn": 1})
            time.sleep(0.5)
        assert client.get(f"/api/rooms/{code}").json()["version"] == 0
        phone.send({"type": "act", "version": 0, "action": {"type": "vote", "card": 1}})
        assert _error(phone) == "turn/not_open"
        _until(phone, _state(lambda m: not m["listening"]))
        assert time.monotonic() - began >= 4.0


def test_the_timer_lets_the_listening_bot_vote_for_a_slow_seat(client: TestClient) -> None:
    code, host_token, tokens = _room(client, seconds=15)
    with ExitStack() as stack:
        table = Socket(
            stack.enter_context(client.websocket_connect(f"/ws/{code}?token={host_token}"))
        )
        phones = [
            Socket(stack.enter_context(client.websocket_connect(f"/ws/{code}?token={t}")))
            for t in tokens
        ]
        _until(table, _state(lambda m: m["listening"]))
        assert _until(table, _state(lambda m: True))["timer"] is None  # not before the song
        table.send({"type": "playing", "turn": 1})
        opened = _until(phones[0], _state(lambda m: not m["listening"]))
        assert opened["timer"]["seconds"] == 15 and 10 < opened["timer"]["remaining"] <= 15
        _vote(phones[0], 2)
        _until(table, _state(lambda m: m["version"] == 1))
        began = time.monotonic()
        # Seats 1 and 2 never vote: when the timer runs out their bots do, and the turn resolves.
        done = _until(table, _state(lambda m: m["version"] == 3))
        assert 10 < time.monotonic() - began < 25
        votes = done["view"]["votes"] or done["view"]["last_turn"]["votes"]
        assert votes[0] == 2 and all(1 <= v <= 4 for v in votes)
        # The seats are still people's seats.
        assert [s["bot"] for s in done["seats"]] == [False, False, False]


def test_a_phone_takes_its_seat_back_and_bots_get_levels(
    make_client: Callable[..., TestClient], tmp_path: Path
) -> None:
    client = make_client(open_after=20.0)
    code, host_token, tokens = _room(client)
    with client.websocket_connect(f"/ws/{code}?token={tokens[1]}") as ws:
        phone = Socket(ws)
        _until(phone, _state(lambda m: True))
        phone.send({"type": "take_back"})
        assert _error(phone) == "seat/not_bot"
        bad = client.post(
            f"/api/rooms/{code}/seats/1/bot", json={"level": "genius"}, headers=host(host_token)
        )
        assert bad.status_code == 422
        handed = client.post(
            f"/api/rooms/{code}/seats/1/bot", json={"level": "easy"}, headers=host(host_token)
        )
        assert handed.status_code == 200
        assert handed.json()["bot"] is True and handed.json()["level"] == "easy"
        seat = _until(phone, _state(lambda m: m["seats"][1]["bot"]))["seats"][1]
        assert seat["level"] == "easy"
    # The level is the seat's: kept across a restart.
    again = make_client(tmp_path, open_after=20.0)
    assert again.get(f"/api/rooms/{code}").json()["seats"][1]["level"] == "easy"
    with again.websocket_connect(f"/ws/{code}?token={tokens[1]}") as ws:
        phone = Socket(ws)
        _until(phone, _state(lambda m: m["seats"][1]["bot"]))
        phone.send({"type": "take_back"})
        back = _until(phone, _state(lambda m: not m["seats"][1]["bot"]))
        assert back["seats"][1]["level"] is None and back["seats"][1]["connected"] is True


def test_a_dropped_phone_shows_how_long_it_has_been_away(client: TestClient) -> None:
    code, host_token, tokens = _room(client)
    with client.websocket_connect(f"/ws/{code}?token={host_token}") as table_ws:
        table = Socket(table_ws)
        with client.websocket_connect(f"/ws/{code}?token={tokens[0]}") as phone_ws:
            Socket(phone_ws).recv_state()
            here = _until(table, _state(lambda m: m["seats"][0]["connected"]))
            assert here["seats"][0]["away"] is None
        time.sleep(0.3)
        table.send({"type": "hold", "turn": 1})  # any change sends the seats again
        gone = _until(table, _state(lambda m: not m["seats"][0]["connected"]))
        gone = _until(table, _state(lambda m: (m["seats"][0]["away"] or 0) >= 0.2))
        assert gone["seats"][0]["away"] < 10


def test_a_room_without_music_never_listens(client: TestClient) -> None:
    code, host_token, tokens = new_room(client, "records", 1)
    client.post(f"/api/rooms/{code}/start", headers=host(host_token))
    with client.websocket_connect(f"/ws/{code}?token={tokens[0]}") as ws:
        state = Socket(ws).recv_state()
        assert state["listening"] is False and state["legal_actions"]


def test_after_a_restart_the_turn_under_way_is_open(
    make_client: Callable[..., TestClient], tmp_path: Path
) -> None:
    client = make_client(open_after=20.0)
    code, host_token, tokens = _room(client)
    with client.websocket_connect(f"/ws/{code}?token={host_token}") as ws:
        table = Socket(ws)
        table.send({"type": "playing", "turn": 1})
        _until(table, _state(lambda m: not m["listening"]))
    again = make_client(tmp_path, open_after=20.0)
    with again.websocket_connect(f"/ws/{code}?token={tokens[0]}") as ws:
        state = Socket(ws).recv_state()
        assert state["listening"] is False and state["legal_actions"]
