"""Two servers on one Redis store shared by both (``--cluster``): any process serves any room.

Each app here is a whole server (hub, writer, peers) on its own event loop, as two processes
would be, on one real Redis: a room made on one is served by the other, seats joined on both are
all kept, an action that lost the race for its index is checked again against what the winner
did, and exactly one process drives a room's bots, another taking over when it goes.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from recordroom.server import create_app, serve
from recordroom.server.hub import Hub
from recordroom.server.peers import PRESENCE_EVERY
from recordroom.server.ratelimit import SharedWindow
from recordroom.server.redis_store import RedisStore

from .helpers import TOY_NAME, Socket, TestClient, host, settings
from .redis_fixture import RedisServer, redis_server

__all__ = ["redis_server"]

LEASE = 1.0
WAIT = 20.0


@pytest.fixture
def shared(redis_server: RedisServer, tmp_path: Path) -> Iterator[Callable[..., TestClient]]:
    """Starts servers that share the test's Redis (flushed first); stops them afterwards."""
    redis_server.flush()
    started: list[tuple[TestClient, RedisStore]] = []

    def start(**changes: Any) -> TestClient:
        store = RedisStore.from_url(redis_server.url)
        store.shared = True
        store.room_lease = LEASE
        folder = tmp_path / str(len(started))
        client = TestClient(create_app(settings(folder, store=store, **changes)))
        client.__enter__()
        started.append((client, store))
        return client

    yield start
    for client, store in reversed(started):
        client.__exit__(None, None, None)  # a second exit (a test stopped it) does nothing
        store.close()


def hub_of(client: TestClient) -> Hub:
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    return hub


def deafen(client: TestClient) -> None:
    """The server hears nothing more from the others: its rooms stay as they are until a change
    of its own, or a look at the store, brings them up to date."""
    hub_of(client).peers._hear = lambda heard: None  # type: ignore[attr-defined]


def until(check: Callable[[], Any], seconds: float = WAIT) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        value = check()
        if value:
            return value
        assert time.monotonic() < deadline, "waited too long"
        time.sleep(0.02)


def recv_version(socket: Socket, version: int) -> dict[str, Any]:
    """The last state read if it is of at least ``version``, else the next such state (an error
    fails the test)."""
    if socket.received and socket.state["version"] >= version:
        return socket.state
    while True:
        message = socket.recv()
        assert message["type"] == "state", message
        if message["version"] >= version:
            return message


def open_socket(client: TestClient, code: str, token: str, opened: list[Any]) -> Socket:
    context = client.websocket_connect(f"/ws/{code}?token={token}")
    opened.append(context)
    return Socket(context.__enter__())


def test_a_room_made_on_one_process_is_played_from_both(
    shared: Callable[..., TestClient],
) -> None:
    a, b = shared(), shared()
    made = a.post("/api/rooms", json={"game": TOY_NAME, "options": {"rounds": 2}}).json()
    code, host_token = made["code"], made["host_token"]
    tokens = []
    for i, server in enumerate([b, a, b]):  # seats joined on both, one after the other
        joined = server.post(f"/api/rooms/{code}/seats", json={"name": f"P{i}"})
        assert joined.status_code == 200, joined.text
        assert joined.json()["seat"] == i
        tokens.append(joined.json()["token"])

    # Both processes list the same three seats (the one B seated last reaches A a moment later).
    def seats_on(server: TestClient) -> list[dict[str, Any]]:
        listed: list[dict[str, Any]] = server.get(f"/api/rooms/{code}").json()["seats"]
        return listed

    until(lambda: len(seats_on(a)) == 3 and seats_on(a) == seats_on(b))
    assert [(s["seat"], s["name"]) for s in seats_on(a)] == [(i, f"P{i}") for i in range(3)]
    assert a.post(f"/api/rooms/{code}/start", headers=host(host_token)).is_success

    opened: list[Any] = []
    try:
        table = open_socket(a, code, host_token, opened)
        on = [b, a, b]
        phones = [open_socket(on[i], code, t, opened) for i, t in enumerate(tokens)]
        for socket in [table, *phones]:  # B may hear of the start a moment later
            while socket.recv_state()["status"] != "playing":
                pass
        # Every phone shows as connected on both processes (phones on B are present on A).
        until(lambda: all(s["connected"] for s in a.get(f"/api/rooms/{code}").json()["seats"]))
        acted: list[dict[str, Any]] = []
        while True:
            states = [recv_version(phone, len(acted)) for phone in phones]
            assert {state["version"] for state in states} == {len(acted)}
            if states[0]["status"] == "over":
                break
            seat = next(i for i, state in enumerate(states) if state["legal_actions"])
            action = states[seat]["legal_actions"][0]
            phones[seat].send({"type": "act", "version": len(acted), "action": action})
            acted.append({"seat": seat, "action": action})
        assert recv_version(table, len(acted))["status"] == "over"
        assert a.get(f"/api/rooms/{code}/log").json()["log"] == acted
        assert b.get(f"/api/rooms/{code}/log").json()["log"] == acted
        assert hub_of(a).store.store.read_log(code) == acted  # type: ignore[attr-defined]
    finally:
        for context in opened:
            context.__exit__(None, None, None)


def test_an_action_that_lost_its_index_is_checked_again_against_the_winner(
    shared: Callable[..., TestClient],
) -> None:
    a, b = shared(), shared()
    made = a.post("/api/rooms", json={"game": TOY_NAME, "options": {}}).json()
    code, host_token = made["code"], made["host_token"]
    tokens = [a.post(f"/api/rooms/{code}/seats", json={"name": n}).json()["token"] for n in "xy"]
    assert a.post(f"/api/rooms/{code}/start", headers=host(host_token)).is_success
    until(lambda: b.get(f"/api/rooms/{code}").json()["status"] == "playing")
    # B hears nothing from now on: its room stays at version 0 until an action of its own.
    deafen(b)
    opened: list[Any] = []
    try:
        on_a = [open_socket(a, code, t, opened) for t in tokens]
        on_b = [open_socket(b, code, t, opened) for t in tokens]
        for phone in on_a + on_b:
            phone.recv_state()
        first = on_a[0].state["legal_actions"][0]
        on_a[0].send({"type": "act", "version": 0, "action": first})
        recv_version(on_a[0], 1)
        assert hub_of(b).rooms[code].version == 0

        # Seat 1 on B, looking at version 0: index 0 is taken, B catches up, and seat 1's
        # choices are the same (a simultaneous round), so its bid lands as action 1.
        second = on_b[1].state["legal_actions"][0]
        on_b[1].send({"type": "act", "version": 0, "action": second})
        assert recv_version(on_b[1], 2)["version"] == 2
        store = hub_of(a).store.store  # type: ignore[attr-defined]
        assert store.read_log(code) == [
            {"seat": 0, "action": first},
            {"seat": 1, "action": second},
        ]

        # Seat 0 bids on A in the next round; its phone on B, which still shows version 2,
        # bids too: B finds index 2 taken, catches up, and the bid is stale. Nothing is stored.
        third = recv_version(on_a[0], 2)["legal_actions"][0]
        on_a[0].send({"type": "act", "version": 2, "action": third})
        recv_version(on_a[0], 3)
        old = recv_version(on_b[0], 2)
        assert old["version"] == 2 and hub_of(b).rooms[code].version == 2
        on_b[0].send({"type": "act", "version": 2, "action": old["legal_actions"][-1]})
        while (told := on_b[0].recv())["type"] != "error":
            pass
        assert told["code"] == "action/stale", told
        assert len(store.read_log(code)) == 3
        assert hub_of(b).rooms[code].log == store.read_log(code)
    finally:
        for context in opened:
            context.__exit__(None, None, None)


def test_a_phone_that_joined_on_one_process_connects_to_another_that_has_not_heard_yet(
    shared: Callable[..., TestClient],
) -> None:
    """Its join went to A, its socket to B (another connection: with ``--workers`` the kernel
    picks the process), before B heard of the new seat. B reads the store before it refuses the
    token: the phone gets its seat, not ``auth/bad_token`` (after which it would forget its
    token and ask for a name again). A token that holds nothing is still refused."""
    a, b = shared(), shared()
    made = a.post("/api/rooms", json={"game": TOY_NAME, "options": {}}).json()
    code = made["code"]
    first = a.post(f"/api/rooms/{code}/seats", json={"name": "Ann"}).json()["token"]
    until(lambda: len(b.get(f"/api/rooms/{code}").json()["seats"]) == 1)
    deafen(b)
    joined = a.post(f"/api/rooms/{code}/seats", json={"name": "Bo"}).json()
    assert joined["seat"] == 1
    assert len(hub_of(b).rooms[code].seats) == 1  # B has not heard
    opened: list[Any] = []
    try:
        phone = open_socket(b, code, joined["token"], opened)
        state = phone.recv()
        assert state["type"] == "state", state
        assert (state["role"], state["seat"]) == ("seat", 1)
        assert [s["name"] for s in state["seats"]] == ["Ann", "Bo"]
        assert open_socket(b, code, first, opened).recv_state()["seat"] == 0
        assert phone.recv_state()["seats"][0]["connected"]  # told of Ann's phone
        # A token that holds nothing, looked up in the store, changes nothing and tells the
        # room's clients nothing (strangers cannot make a room's phones busy).
        for _ in range(3):
            stranger = open_socket(b, code, "not-a-token", opened)
            assert stranger.recv()["code"] == "auth/bad_token"
        phone.send({"type": "ping"})
        assert phone.recv() == {"type": "pong"}
    finally:
        for context in opened:
            context.__exit__(None, None, None)


def test_a_seat_added_on_one_process_is_known_to_a_host_call_on_another(
    shared: Callable[..., TestClient],
) -> None:
    """A bot added on A, removed by a host call that reaches B before B heard of it: B reads the
    store before it answers ``seat/not_found``. A seat nobody added is still not found."""
    a, b = shared(), shared()
    made = a.post("/api/rooms", json={"game": TOY_NAME, "options": {}}).json()
    code, host_token = made["code"], made["host_token"]
    a.post(f"/api/rooms/{code}/seats", json={"name": "me"})
    until(lambda: len(b.get(f"/api/rooms/{code}").json()["seats"]) == 1)
    deafen(b)
    assert a.post(f"/api/rooms/{code}/bots", headers=host(host_token)).json()["seat"] == 1
    assert len(hub_of(b).rooms[code].seats) == 1  # B has not heard

    removed = b.delete(f"/api/rooms/{code}/seats/1", headers=host(host_token))
    assert removed.status_code == 204, removed.text
    assert [s["name"] for s in b.get(f"/api/rooms/{code}").json()["seats"]] == ["me"]
    missing = b.delete(f"/api/rooms/{code}/seats/5", headers=host(host_token))
    assert missing.status_code == 404 and missing.json()["code"] == "seat/not_found"


def test_the_end_asked_of_a_process_that_has_not_heard_of_it_yet(
    shared: Callable[..., TestClient],
) -> None:
    """The table saw a Disc Cover game end on A; its mosaic download and its "play again"
    reach B (other connections, another process) before B heard of the last action. B reads the
    store first: the mosaic and the new game, not ``room/not_over`` for a game that is over."""
    a, b = shared(), shared()
    made = a.post("/api/rooms", json={"game": "disc-cover", "options": {}}).json()
    code, host_token = made["code"], made["host_token"]
    names = ["Ann", "Bo", "Cy"]
    tokens = [a.post(f"/api/rooms/{code}/seats", json={"name": n}).json()["token"] for n in names]
    assert a.post(f"/api/rooms/{code}/start", headers=host(host_token)).is_success
    until(lambda: b.get(f"/api/rooms/{code}").json()["status"] == "playing")
    deafen(b)
    opened: list[Any] = []
    try:
        phones = [open_socket(a, code, t, opened) for t in tokens]
        version = 0
        while (states := [recv_version(p, version) for p in phones])[0]["status"] != "over":
            seat = next(i for i, state in enumerate(states) if state["legal_actions"])
            action = states[seat]["legal_actions"][0]
            phones[seat].send({"type": "act", "version": version, "action": action})
            version += 1
        assert hub_of(b).rooms[code].status == "playing"  # B has not heard

        mosaic = b.get(f"/api/rooms/{code}/mosaic.png")
        assert mosaic.status_code == 200, mosaic.text
        assert mosaic.headers["content-type"] == "image/png"
        answer = b.post(f"/api/rooms/{code}/again", headers=host(host_token))
        assert answer.status_code == 200, answer.text
        new = answer.json()["code"]
        assert new != code
        for phone in phones:  # A's phones are told of the new game
            while (message := phone.recv())["type"] != "again":
                pass
            assert message["code"] == new
        started = a.get(f"/api/rooms/{new}").json()
        assert started["status"] == "playing"
        assert [s["name"] for s in started["seats"]] == names
        assert b.get(f"/api/rooms/{code}").json()["status"] == "over"
    finally:
        for context in opened:
            context.__exit__(None, None, None)


def test_one_process_drives_a_rooms_bots_and_another_takes_over_when_it_stops(
    shared: Callable[..., TestClient],
) -> None:
    a, b = shared(), shared()
    made = a.post("/api/rooms", json={"game": TOY_NAME, "options": {"rounds": 4}}).json()
    code, host_token = made["code"], made["host_token"]
    token = a.post(f"/api/rooms/{code}/seats", json={"name": "me"}).json()["token"]
    assert a.post(f"/api/rooms/{code}/bots", headers=host(host_token)).is_success
    b.get(f"/api/rooms/{code}")  # B serves the room too
    assert a.post(f"/api/rooms/{code}/start", headers=host(host_token)).is_success
    hubs = [hub_of(a), hub_of(b)]
    drivers = until(lambda: [h for h in hubs if code in h.rooms and h.peers.drives(h.rooms[code])])
    time.sleep(LEASE)  # a second process never takes a held lease
    assert len([h for h in hubs if code in h.rooms and h.peers.drives(h.rooms[code])]) == 1
    driver, other = (a, b) if drivers[0] is hubs[0] else (b, a)

    opened: list[Any] = []
    try:
        phone = open_socket(other, code, token, opened)
        state = phone.recv_state()
        action = state["legal_actions"][0]
        phone.send({"type": "act", "version": state["version"], "action": action})
        assert recv_version(phone, 2)["version"] == 2  # the bot answered (driven elsewhere)

        driver.__exit__(None, None, None)  # lets its leases go; the other takes over
        until(lambda: hub_of(other).peers.drives(hub_of(other).rooms[code]))
        sent = 1
        while (state := phone.recv())["type"] == "error" or state["status"] != "over":
            if state["type"] == "error":
                # A bid sent on a state the bot moved on from before the bid itself landed.
                assert state["code"] == "action/stale", state
            elif state["legal_actions"] and state["version"] > sent:
                action = state["legal_actions"][0]
                phone.send({"type": "act", "version": state["version"], "action": action})
                sent = state["version"]
        log = other.get(f"/api/rooms/{code}/log").json()["log"]
        assert len(log) == 8 and sorted(e["seat"] for e in log) == [0] * 4 + [1] * 4
    finally:
        for context in opened:
            context.__exit__(None, None, None)


@pytest.mark.parametrize("store", [None, "sqlite:rooms.sqlite3"])
def test_cluster_needs_a_redis_store(store: str | None, capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser()
    serve.register(parser.add_subparsers())
    argv = ["serve", "--no-qr", "--cluster", *(["--store", store] if store else [])]
    assert serve.run(parser.parse_args(argv)) == 2
    assert "--cluster needs --store redis://HOST:PORT/DB" in capsys.readouterr().err


def test_the_room_cap_counts_the_rooms_of_every_process(
    shared: Callable[..., TestClient],
) -> None:
    a, b = shared(), shared()
    hub_of(a).max_rooms = hub_of(b).max_rooms = 2
    assert a.post("/api/rooms", json={"game": TOY_NAME, "options": {}}).status_code == 201
    assert b.post("/api/rooms", json={"game": TOY_NAME, "options": {}}).status_code == 201
    refused = a.post("/api/rooms", json={"game": TOY_NAME, "options": {}})
    assert refused.status_code == 503 and refused.json()["code"] == "room/limit"
    assert len(hub_of(a).rooms) == 1  # A alone holds one room: the cap counted B's too


def test_the_store_holds_the_room_cap_when_two_processes_count_at_once(
    shared: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    """B counted the rooms just before A's last one landed: the store, which checks the cap as
    it keeps a room, refuses B's and keeps nothing of it."""
    a, b = shared(), shared()
    hub_of(a).max_rooms = hub_of(b).max_rooms = 2
    for _ in range(2):
        assert a.post("/api/rooms", json={"game": TOY_NAME, "options": {}}).status_code == 201
    monkeypatch.setattr(hub_of(b).peers, "room_count", lambda: 1)  # the count it read earlier
    refused = b.post("/api/rooms", json={"game": TOY_NAME, "options": {}})
    assert refused.status_code == 503 and refused.json()["code"] == "room/limit"
    assert hub_of(b).rooms == {} and hub_of(a).peers.room_count() == 2


def test_a_room_made_elsewhere_is_read_from_redis_off_the_event_loop(
    shared: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first look at a room another process made (or at a code nobody made) reads Redis on
    a thread: a slow or lost Redis holds up that request, not every room of the process."""
    a, b = shared(), shared()
    made = a.post("/api/rooms", json={"game": TOY_NAME, "options": {}}).json()
    code, host_token = made["code"], made["host_token"]
    peers = hub_of(b).peers
    read = peers.read
    on_the_loop: list[bool] = []

    def watched(asked: str) -> Any:
        try:
            asyncio.get_running_loop()
            on_the_loop.append(True)
        except RuntimeError:
            on_the_loop.append(False)
        return read(asked)

    monkeypatch.setattr(peers, "read", watched)
    nobody = hub_of(a)._free_code()
    assert b.get(f"/api/rooms/{nobody}").status_code == 404
    assert b.post(f"/api/rooms/{code}/start", headers=host("wrong")).status_code == 403
    assert b.post(f"/api/rooms/{code}/seats", json={"name": "Ann"}).status_code == 200
    assert b.get(f"/api/rooms/{code}").json()["seats"][0]["name"] == "Ann"
    assert b.post(f"/api/rooms/{code}/bots", headers=host(host_token)).is_success
    assert on_the_loop == [False, False]  # the unknown code, then the room (then in memory)


def test_the_table_opens_the_turn_on_one_process_and_phones_vote_on_the_other(
    shared: Callable[..., TestClient],
) -> None:
    a, b = shared(open_after=20.0), shared(open_after=20.0)
    made = a.post("/api/rooms", json={"game": "disc-cover", "options": {}}).json()
    code, host_token = made["code"], made["host_token"]
    tokens = [b.post(f"/api/rooms/{code}/seats", json={"name": n}).json()["token"] for n in "xyz"]
    assert a.post(f"/api/rooms/{code}/start", headers=host(host_token)).is_success
    opened: list[Any] = []
    try:
        table = open_socket(a, code, host_token, opened)
        phones = [open_socket(b, code, t, opened) for t in tokens]
        for socket in [table, *phones]:
            while not (socket.recv_state()["status"] == "playing" and socket.state["listening"]):
                pass
        phones[0].send({"type": "act", "version": 0, "action": {"type": "vote", "card": 1}})
        while (told := phones[0].recv())["type"] != "error":
            pass
        assert told["code"] == "turn/not_open"  # on B too, before the table on A hears the song

        table.send({"type": "playing", "turn": table.state["view"]["turn"]})
        for phone in phones:
            while phone.recv_state()["listening"]:
                pass
            assert phone.state["legal_actions"]
        vote = phones[1].state["legal_actions"][0]
        phones[1].send({"type": "act", "version": phones[1].state["version"], "action": vote})
        assert recv_version(table, 1)["version"] == 1  # a vote on B, on the table on A
    finally:
        for context in opened:
            context.__exit__(None, None, None)


def test_the_phones_of_a_process_gone_silent_are_forgotten(
    shared: Callable[..., TestClient],
) -> None:
    a = shared()
    made = a.post("/api/rooms", json={"game": TOY_NAME, "options": {}}).json()
    code = made["code"]
    a.post(f"/api/rooms/{code}/seats", json={"name": "x"})
    room, peers = hub_of(a).rooms[code], hub_of(a).peers

    def heard(seconds_ago: float) -> tuple[bool, int]:
        """A process with one phone on seat 0 last spoke that long ago."""
        peers._presence[code] = {"other": (time.monotonic() - seconds_ago, [1])}  # type: ignore[attr-defined]
        changed: bool = peers._count_elsewhere(room)  # type: ignore[attr-defined]
        return changed, room.seats[0].elsewhere

    assert a.portal.call(heard, 1.0) == (True, 1)  # type: ignore[union-attr]
    assert a.get(f"/api/rooms/{code}").json()["seats"][0]["connected"] is True
    assert a.portal.call(heard, 3 * PRESENCE_EVERY + 1) == (True, 0)  # type: ignore[union-attr]
    assert a.get(f"/api/rooms/{code}").json()["seats"][0]["connected"] is False


def test_a_rate_limit_is_counted_across_the_processes(redis_server: RedisServer) -> None:
    redis_server.flush()
    stores = [RedisStore.from_url(redis_server.url) for _ in range(2)]
    # Exchanges only when the test says (sync), not on their own thread's clock.
    one, two = (SharedWindow(3, 60.0, s.client, "rr:limit:test", every=3600.0) for s in stores)
    try:
        assert one.allow("c") and one.allow("c")
        one.sync()
        two.sync()
        assert two.elsewhere("c") == 2
        assert two.allow("c")  # 2 elsewhere + 1 here = 3: the limit
        assert not two.allow("c")
        two.sync()
        one.sync()
        assert one.elsewhere("c") == 1
        assert not one.allow("c")  # 2 here + 1 elsewhere
        assert one.allow("d") and two.allow("d")  # other clients are counted apart
    finally:
        one.close()
        two.close()
        for store in stores:
            store.close()


def test_joins_on_two_processes_share_one_limit(shared: Callable[..., TestClient]) -> None:
    a, b = shared(join_limit=(3, 60.0)), shared(join_limit=(3, 60.0))
    code = a.post("/api/rooms", json={"game": TOY_NAME, "options": {}}).json()["code"]
    assert a.post(f"/api/rooms/{code}/seats", json={"name": "x"}).status_code == 200
    assert a.post(f"/api/rooms/{code}/seats", json={"name": "y"}).status_code == 200
    until(lambda: hub_of(b) and b.app.state.services.joins.elsewhere("testclient") >= 3)  # type: ignore[attr-defined]
    refused = b.post(f"/api/rooms/{code}/seats", json={"name": "z"})
    assert refused.status_code == 429 and refused.json()["code"] == "rate/limited"


def test_a_start_on_a_process_that_has_not_yet_heard_of_the_seats_joined_on_the_other(
    shared: Callable[..., TestClient],
) -> None:
    """The host starts on A right after the phones joined on B, before A heard of them: A looks
    at the store's room again before refusing ("needs 3 players, the room has 0")."""
    a, b = shared(), shared()
    made = a.post("/api/rooms", json={"game": "disc-cover", "options": {}}).json()
    code, host_token = made["code"], made["host_token"]
    deafen(a)
    for name in "xyz":
        assert b.post(f"/api/rooms/{code}/seats", json={"name": name}).status_code == 200
    assert len(hub_of(a).rooms[code].seats) == 0
    started = a.post(f"/api/rooms/{code}/start", headers=host(host_token))
    assert started.status_code == 200, started.text
    assert [s["name"] for s in started.json()["seats"]] == ["x", "y", "z"]
    until(lambda: b.get(f"/api/rooms/{code}").json()["status"] == "playing")  # B hears of it
