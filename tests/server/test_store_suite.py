"""One suite, three stores: every Store method behaves the same on SQLite (in the server's
process, or in a process of its own) and on a real Redis."""

from __future__ import annotations

import sqlite3
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from recordroom.server.redis_store import RedisStore, StoreUnavailable
from recordroom.server.store import (
    AppendAction,
    DamagedRoom,
    DeleteRoom,
    NewRoom,
    RoomLimit,
    RoomRecord,
    SaveSeats,
    SeatRecord,
    SetStatus,
    SqliteStore,
    Store,
    StoreRefused,
    Write,
)
from recordroom.server.store_process import StoreProcess

from .redis_fixture import RedisServer, free_port, redis_server

__all__ = ["redis_server"]

REFUSED = (StoreRefused, sqlite3.IntegrityError)
"""What a store raises for a job it refuses (SQLite's own constraint error, or ours)."""

OpenStore = Callable[[], Store]


@pytest.fixture(params=["sqlite", "sqlite-process", "redis"])
def open_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[OpenStore]:
    """Opens store objects on one fresh database (each call: a new object, as after a restart)."""
    opened: list[Store] = []
    if request.param == "sqlite":

        def make() -> Store:
            store = SqliteStore(tmp_path / "rooms.sqlite3")
            opened.append(store)
            return store

    elif request.param == "sqlite-process":

        def make() -> Store:
            store = StoreProcess(tmp_path / "rooms.sqlite3")
            opened.append(store)
            return store

    else:
        server: RedisServer = request.getfixturevalue("redis_server")
        server.flush()

        def make() -> Store:
            store = RedisStore.from_url(server.url)
            opened.append(store)
            return store

    yield make
    for store in opened:
        store.close()


def room(code: str, seats: int = 3, **changes: Any) -> RoomRecord:
    fields: dict[str, Any] = {
        "code": code,
        "game": "toy",
        "options": {"rounds": 2, "names": ["a", "b"]},
        "seed": 2**62 + 7,
        "host_token": f"host-{code}",
        "seats": [
            SeatRecord(f"P{i}", f"tok-{code}-{i}", bot=i == 2, level="hard" if i == 2 else None)
            for i in range(seats)
        ],
    }
    fields.update(changes)
    return RoomRecord(**fields)


def rooms_of(store: Store) -> dict[str, RoomRecord]:
    loaded = list(store.load_rooms())
    assert all(isinstance(r, RoomRecord) for r in loaded), loaded
    return {r.code: r for r in loaded if isinstance(r, RoomRecord)}


def without_touched(record: RoomRecord) -> RoomRecord:
    return RoomRecord(**{**record.__dict__, "touched": None})


def test_a_new_room_comes_back_as_it_was_given(open_store: OpenStore) -> None:
    store = open_store()
    given = room("ABCD", music={"source": "demo", "skips": [1]}, settings={"timer": 30})
    assert not store.code_taken("ABCD")
    store.create_room(given)
    assert store.code_taken("ABCD")
    assert not store.code_taken("ABCE")
    (loaded,) = store.load_rooms()
    assert isinstance(loaded, RoomRecord)
    assert loaded.touched is not None
    assert without_touched(loaded) == given


def test_a_taken_code_is_refused_and_the_first_room_stays(open_store: OpenStore) -> None:
    store = open_store()
    store.create_room(room("ABCD"))
    with pytest.raises(REFUSED):
        store.create_room(room("ABCD", seats=1, host_token="other"))
    assert without_touched(rooms_of(store)["ABCD"]) == room("ABCD")


def test_seats_status_music_and_settings_are_replaced(open_store: OpenStore) -> None:
    store = open_store()
    store.create_room(room("ABCD"))
    seats = [SeatRecord("Ann", "t1", bot=False), SeatRecord("Bot", None, bot=True, level="easy")]
    store.save_seats("ABCD", seats)
    store.set_status("ABCD", "playing")
    store.set_music("ABCD", {"source": "folder", "skips": []})
    store.set_settings("ABCD", {"timer": 45})
    loaded = rooms_of(store)["ABCD"]
    assert loaded.seats == seats
    assert (loaded.status, loaded.result) == ("playing", None)
    assert loaded.music == {"source": "folder", "skips": []}
    assert loaded.settings == {"timer": 45}

    store.set_status("ABCD", "over", {"winners": [0], "scores": [3, 1]})
    store.set_music("ABCD", None)
    store.set_settings("ABCD", {})
    loaded = rooms_of(store)["ABCD"]
    assert (loaded.status, loaded.result) == ("over", {"winners": [0], "scores": [3, 1]})
    assert loaded.music is None
    assert loaded.settings == {}


def test_writes_to_a_room_that_is_not_stored_are_refused(open_store: OpenStore) -> None:
    store = open_store()
    store.create_room(room("ABCD"))
    writes: list[Callable[[], None]] = [
        lambda: store.save_seats("NONE", [SeatRecord("x", None, bot=True)]),
        lambda: store.set_status("NONE", "playing"),
        lambda: store.set_music("NONE", None),
        lambda: store.set_settings("NONE", {"timer": 1}),
        lambda: store.append_action("NONE", 0, 0, {"vote": 1}),
    ]
    for write in writes:
        with pytest.raises(REFUSED):
            write()
    assert not store.code_taken("NONE")
    assert list(rooms_of(store)) == ["ABCD"]


def test_actions_are_appended_in_order_only_at_the_next_index(open_store: OpenStore) -> None:
    store = open_store()
    store.create_room(room("ABCD"))
    before = rooms_of(store)["ABCD"].touched
    actions: list[Any] = [{"vote": 1}, [0, "a", None], {"nested": {"deep": [1.5, True]}}]
    for index, action in enumerate(actions):
        store.append_action("ABCD", index, index % 3, action)
    with pytest.raises(REFUSED):
        store.append_action("ABCD", 1, 0, {"vote": 99})
    loaded = rooms_of(store)["ABCD"]
    assert loaded.log == [{"seat": i % 3, "action": a} for i, a in enumerate(actions)]
    assert before is not None and loaded.touched is not None and loaded.touched >= before


def test_every_change_of_a_room_dates_it_for_expiry(
    open_store: OpenStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A lobby whose seats were taken yesterday was not idle since its creation: after a
    restart, expiry must count from its last change of any kind, as it does while running."""
    if isinstance(open_store(), StoreProcess):
        pytest.skip("the clock is the child process's, out of this test's reach")
    clock = [1_000.0]
    monkeypatch.setattr(time, "time", lambda: clock[0])
    store = open_store()
    store.create_room(room("ABCD"))
    assert rooms_of(store)["ABCD"].touched == 1_000.0
    changes = [
        lambda: store.save_seats("ABCD", [SeatRecord("Ann", "t", bot=False)]),
        lambda: store.set_settings("ABCD", {"timer": 30}),
        lambda: store.set_music("ABCD", {"source": "demo", "skips": []}),
        lambda: store.set_status("ABCD", "playing"),
        lambda: store.append_action("ABCD", 0, 0, {"vote": 1}),
        lambda: store.set_status("ABCD", "over", {"winners": [0]}),
    ]
    for step, change in enumerate(changes, start=2):
        clock[0] = step * 1_000.0
        change()
        assert rooms_of(store)["ABCD"].touched == clock[0], step
    clock[0] = 99_000.0
    with pytest.raises(REFUSED):
        store.save_seats("NONE", [SeatRecord("x", None, bot=True)])
    assert rooms_of(store)["ABCD"].touched == 7_000.0


def test_a_job_is_all_or_nothing_and_a_refused_job_spares_its_group(open_store: OpenStore) -> None:
    store = open_store()
    store.create_room(room("ABCD"))
    store.append_action("ABCD", 0, 0, {"vote": 1})
    errors = store.commit(
        [
            [AppendAction("ABCD", 1, 1, {"vote": 2}), SetStatus("ABCD", "over", {"w": 1})],
            # the status would be fine, the append is not: neither is kept
            [
                SetStatus("ABCD", "over", {"w": 2}),
                SaveSeats("ABCD", []),
                AppendAction("ABCD", 1, 2, {"vote": 3}),
            ],
            [NewRoom(room("EFGH")), AppendAction("EFGH", 0, 1, {"vote": 4})],
            [NewRoom(room("ABCD"))],
        ]
    )
    assert errors[0] is None and errors[2] is None
    assert isinstance(errors[1], REFUSED) and isinstance(errors[3], REFUSED)
    rooms = rooms_of(store)
    assert rooms["ABCD"].log == [
        {"seat": 0, "action": {"vote": 1}},
        {"seat": 1, "action": {"vote": 2}},
    ]
    assert (rooms["ABCD"].status, rooms["ABCD"].result) == ("over", {"w": 1})
    assert rooms["ABCD"].seats == room("ABCD").seats
    assert rooms["EFGH"].log == [{"seat": 1, "action": {"vote": 4}}]
    assert store.commit([]) == []


def test_a_new_room_with_a_limit_is_kept_only_below_it(open_store: OpenStore) -> None:
    """The cap of rooms is checked by the store as it keeps the room (processes sharing it
    cannot together pass it); a room's own resend and rooms without a limit are not refused."""
    store = open_store()
    store.create_room(room("ABCD"))
    errors = store.commit(
        [
            [NewRoom(room("EFGH"), limit=2)],
            [NewRoom(room("IJKL"), limit=2), AppendAction("IJKL", 0, 1, {"vote": 1})],
            [NewRoom(room("MNPQ"), limit=3)],
            [NewRoom(room("RSTU"))],
        ]
    )
    assert errors[0] is None and errors[2] is None and errors[3] is None
    assert isinstance(errors[1], RoomLimit) and "limit of 2 rooms" in str(errors[1])
    assert sorted(rooms_of(store)) == ["ABCD", "EFGH", "MNPQ", "RSTU"]  # nothing of IJKL
    assert store.commit([[DeleteRoom("ABCD")]]) == [None]
    assert store.commit([[NewRoom(room("IJKL"), limit=4)]]) == [None]
    refused = store.commit([[NewRoom(room("VWXY"), limit=4)]])[0]
    assert isinstance(refused, RoomLimit) and "VWXY" not in rooms_of(store)


def test_a_group_of_actions_only_keeps_each_good_one_and_refuses_each_bad_one(
    open_store: OpenStore,
) -> None:
    """What a busy night commits: many rooms' actions in one group, a few of them refused."""
    store = open_store()
    codes = ["ABCD", "EFGH", "JKLM"]
    for code in codes:
        store.create_room(room(code))
    good = [[AppendAction(code, i, i % 3, {"vote": i})] for i in range(150) for code in codes]
    assert store.commit(good) == [None] * len(good)  # 450 actions: more than one statement's rows
    errors = store.commit(
        [
            [AppendAction("ABCD", 150, 0, {"vote": "late"})],
            [AppendAction("EFGH", 149, 1, {"vote": "taken"})],  # that index is taken
            [AppendAction("NOPE", 0, 0, {"vote": "lost"})],  # no such room
            [AppendAction("EFGH", 150, 2, {"vote": "next"})],
        ]
    )
    assert errors[0] is None and errors[3] is None
    assert isinstance(errors[1], REFUSED) and isinstance(errors[2], REFUSED)
    rooms = rooms_of(store)
    assert "NOPE" not in rooms
    assert rooms["ABCD"].log[-1] == {"seat": 0, "action": {"vote": "late"}}
    assert rooms["EFGH"].log[149:] == [
        {"seat": 149 % 3, "action": {"vote": 149}},
        {"seat": 2, "action": {"vote": "next"}},
    ]
    assert [len(rooms[code].log) for code in codes] == [151, 151, 150]


def test_a_deleted_room_is_gone_and_its_code_free_again(open_store: OpenStore) -> None:
    store = open_store()
    store.create_room(room("ABCD"))
    store.create_room(room("EFGH"))
    store.append_action("ABCD", 0, 0, {"vote": 1})
    assert store.commit([[DeleteRoom("ABCD")], [DeleteRoom("ZZZZ")]]) == [None, None]
    assert not store.code_taken("ABCD")
    assert list(rooms_of(store)) == ["EFGH"]
    store.create_room(room("ABCD", seats=1))
    again = rooms_of(store)["ABCD"]
    assert again.log == [] and len(again.seats) == 1


def test_a_new_store_object_gives_back_rooms_seats_and_logs_oldest_first(
    open_store: OpenStore,
) -> None:
    store = open_store()
    codes = ["QQQQ", "AAAA", "MMMM"]
    for n, code in enumerate(codes):
        store.create_room(room(code, seats=n + 1))
        store.set_status(code, "playing")
        for index in range(n * 4):
            store.append_action(code, index, index % (n + 1), {"i": index})
    store.save_seats("AAAA", [SeatRecord("Zed", "zz", bot=False), SeatRecord("B", None, True)])
    before = rooms_of(store)
    store.close()

    again = open_store()
    after = list(again.load_rooms())
    assert [r.code for r in after] == codes
    assert {r.code: r for r in after if isinstance(r, RoomRecord)} == before
    assert before["MMMM"].log[7] == {"seat": 1, "action": {"i": 7}}
    assert again.code_taken("AAAA")


def test_of_a_racing_pair_offered_the_same_index_exactly_one_wins(open_store: OpenStore) -> None:
    first, second = open_store(), open_store()
    first.create_room(room("ABCD"))

    def offer(
        store: Store,
        seat: int,
        index: int,
        barrier: threading.Barrier,
        outcomes: dict[int, Exception | None],
    ) -> None:
        barrier.wait()
        (outcomes[seat],) = store.commit([[AppendAction("ABCD", index, seat, {"by": seat})]])

    for index in range(12):
        barrier = threading.Barrier(2)
        outcomes: dict[int, Exception | None] = {}
        pair = [
            threading.Thread(target=offer, args=(store, n, index, barrier, outcomes))
            for n, store in enumerate((first, second))
        ]
        for thread in pair:
            thread.start()
        for thread in pair:
            thread.join()
        winners = [seat for seat, error in outcomes.items() if error is None]
        assert len(winners) == 1, outcomes
        loser = 1 - winners[0]
        assert isinstance(outcomes[loser], REFUSED)
        log = rooms_of(first)["ABCD"].log
        assert len(log) == index + 1
        assert log[index] == {"seat": winners[0], "action": {"by": winners[0]}}


# -- Redis only ------------------------------------------------------------------------------


@pytest.fixture
def redis_store(redis_server: RedisServer) -> Iterator[RedisStore]:
    redis_server.flush()
    store = RedisStore.from_url(redis_server.url)
    yield store
    store.close()


def test_redis_refuses_an_action_that_would_skip_one(redis_store: RedisStore) -> None:
    redis_store.create_room(room("ABCD"))
    with pytest.raises(StoreRefused, match="skip"):
        redis_store.append_action("ABCD", 1, 0, {"vote": 1})
    assert redis_store.read_log("ABCD") == []


def test_a_job_sent_twice_lands_once(redis_store: RedisStore) -> None:
    """What makes the client's retries after a lost answer safe."""
    job: list[Write] = [NewRoom(room("ABCD")), AppendAction("ABCD", 0, 1, {"vote": 1})]
    argv = redis_store._arguments(job, 1000.0)
    assert redis_store._run([argv, argv]) == ["OK", "OK"]
    append = redis_store._arguments([AppendAction("ABCD", 1, 2, {"vote": 2})], 1001.0)
    assert redis_store._run([append]) == ["OK"]
    assert redis_store._run([append]) == ["OK"]
    assert redis_store.read_log("ABCD") == [
        {"seat": 1, "action": {"vote": 1}},
        {"seat": 2, "action": {"vote": 2}},
    ]
    # another job at a taken index is still refused
    other = redis_store._arguments([AppendAction("ABCD", 1, 0, {"vote": 3})], 1002.0)
    (answer,) = redis_store._run([other])
    assert answer.startswith("REFUSED action 1 of room ABCD is already stored")
    assert len(redis_store.read_log("ABCD")) == 2


def test_a_room_redis_cannot_read_is_set_aside_and_the_others_load(
    redis_store: RedisStore,
) -> None:
    redis_store.create_room(room("AAAA"))
    redis_store.create_room(room("BBBB"))
    redis_store.create_room(room("CCCC"))
    redis_store.client.hset("rr:room:BBBB", "options", "{not json")
    redis_store.client.rpush("rr:log:CCCC", "garbage")
    loaded = {r.code: r for r in redis_store.load_rooms()}
    assert isinstance(loaded["AAAA"], RoomRecord)
    assert isinstance(loaded["BBBB"], DamagedRoom) and "JSON" in loaded["BBBB"].why
    assert isinstance(loaded["CCCC"], DamagedRoom)


def test_an_unreachable_redis_is_told_at_once() -> None:
    with pytest.raises(StoreUnavailable, match="cannot reach Redis"):
        RedisStore.from_url(f"redis://127.0.0.1:{free_port()}/0")
    with pytest.raises(StoreUnavailable, match="not a Redis address"):
        RedisStore.from_url("http://127.0.0.1:1/0")


def test_redis_lost_refuses_whole_groups_and_serves_again_when_back() -> None:
    with tempfile.TemporaryDirectory() as folder:
        server = RedisServer(free_port(), Path(folder))
        server.start()
        store = RedisStore.from_url(server.url)
        try:
            store.create_room(room("ABCD"))
            store.append_action("ABCD", 0, 0, {"vote": 1})
            server.stop()
            with pytest.raises(StoreUnavailable):
                store.commit([[AppendAction("ABCD", 1, 1, {"vote": 2})], [NewRoom(room("EFGH"))]])
            with pytest.raises(StoreUnavailable):
                store.code_taken("ABCD")
            server.start()  # the same folder: the append-only file brings everything back
            assert store.code_taken("ABCD") and not store.code_taken("EFGH")
            store.append_action("ABCD", 1, 1, {"vote": 2})
            assert store.read_log("ABCD") == [
                {"seat": 0, "action": {"vote": 1}},
                {"seat": 1, "action": {"vote": 2}},
            ]
        finally:
            store.close()
            server.stop()
