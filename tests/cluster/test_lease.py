"""Leases in a real Redis, and the store's writes fenced by the server lease."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
import redis

from recordroom.server.cluster import Lease, LeaseKeeper
from recordroom.server.redis_store import RedisStore, StoreUnavailable
from recordroom.server.store import AppendAction, RoomRecord, SeatRecord

from .redis_tools import RedisServer, redis_server

__all__ = ["redis_server"]


@pytest.fixture
def client(redis_server: RedisServer) -> Iterator[redis.Redis]:
    redis_server.flush()
    connection = redis.Redis.from_url(redis_server.url)
    yield connection
    connection.close()


def test_one_holder_at_a_time_and_only_the_holder_renews_or_releases(
    client: redis.Redis,
) -> None:
    first = Lease(client, "rr:lease:x", 5.0, holder="A")
    second = Lease(client, "rr:lease:x", 5.0, holder="B")
    assert first.acquire()
    assert first.acquire()  # already ours
    assert not second.acquire()
    assert not second.renew()
    assert not second.release()
    assert first.current_holder() == "A" == second.current_holder()
    assert first.renew()
    assert 4000 < int(client.pttl("rr:lease:x")) <= 5000
    assert first.release()
    assert first.current_holder() is None
    assert second.acquire() and second.current_holder() == "B"
    with pytest.raises(ValueError):
        Lease(client, "rr:lease:y", 0)


def test_a_lease_nobody_renews_ends_and_another_takes_it(client: redis.Redis) -> None:
    first = Lease(client, "rr:lease:x", 1.0, holder="A")
    second = Lease(client, "rr:lease:x", 1.0, holder="B")
    assert first.acquire()
    assert not second.acquire()
    time.sleep(1.3)
    assert second.acquire()
    assert not first.renew()  # A's time is over: it cannot extend B's lease
    assert second.current_holder() == "B"


def test_a_keeper_holds_the_lease_past_its_time_and_gives_it_up_when_stopped(
    client: redis.Redis,
) -> None:
    lease = Lease(client, "rr:lease:x", 1.5, holder="A")
    assert lease.acquire()
    keeper = LeaseKeeper(lease).start()
    time.sleep(4.0)  # well past the lease's time to live: renewed meanwhile
    assert lease.current_holder() == "A"
    assert not Lease(client, "rr:lease:x", 1.5, holder="B").acquire()
    keeper.stop()
    assert lease.current_holder() is None


def test_a_keeper_says_when_another_holds_the_lease(client: redis.Redis) -> None:
    lease = Lease(client, "rr:lease:x", 0.3, holder="A")
    assert lease.acquire()
    lost: list[str | None] = []
    keeper = LeaseKeeper(lease, lost.append).start()
    client.set("rr:lease:x", "B", px=5000)  # as if A had been paused past its time
    deadline = time.monotonic() + 3
    while not lost and time.monotonic() < deadline:
        time.sleep(0.02)
    assert lost == ["B"] and keeper.lost
    keeper.stop()
    assert client.get("rr:lease:x") == b"B"  # a lost lease is not released


def seatless(code: str) -> RoomRecord:
    return RoomRecord(code, "toy", {}, 1, "h", seats=[SeatRecord("A", "t", False)])


def test_one_server_per_store_and_a_process_that_lost_its_lease_writes_nothing(
    redis_server: RedisServer,
) -> None:
    redis_server.flush()
    first = RedisStore.from_url(redis_server.url)
    second = RedisStore.from_url(redis_server.url)
    try:
        lease = first.hold_server(1.0)
        first.create_room(seatless("ABCD"))
        with pytest.raises(StoreUnavailable, match=f"another server process \\({lease.holder}\\)"):
            second.hold_server(1.0)
        # A pause longer than the lease: the renewals stop, the lease ends, B takes over.
        assert first._keeper is not None
        first._keeper.stop(release=False)
        time.sleep(1.3)
        second.hold_server(1.0)
        with pytest.raises(StoreUnavailable, match="no longer holds rr:server"):
            first.commit([[AppendAction("ABCD", 0, 0, {"late": True})]])
        assert second.read_log("ABCD") == []
        second.append_action("ABCD", 0, 0, {"on": "B"})
        assert second.read_log("ABCD") == [{"seat": 0, "action": {"on": "B"}}]
    finally:
        first.close()
        second.close()
    probe = redis.Redis.from_url(redis_server.url)
    assert probe.get("rr:server") is None  # B released it on close
    probe.close()
