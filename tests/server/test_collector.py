"""The garbage collector of a long-running server: what survives a full collection is set aside
(so the next full collection, a pause of every room, walks only what came after), and the hourly
collection of everything frees the cycles that became garbage once set aside."""

from __future__ import annotations

import gc
import time
import weakref
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from recordroom.server.frames import DirectTextFrames
from recordroom.server.serve import collect_everything, freeze_after_full, tune_collector

from .helpers import toy_room_served


class Node:
    """An object that can take part in a reference cycle."""

    me: Node | None = None


@pytest.fixture
def frozen_state() -> Iterator[None]:
    """The test process's collector as it was (nothing set aside, no callback of ours), and only
    the test's own collections while it runs."""
    gc.unfreeze()
    gc.disable()
    thresholds = gc.get_threshold()
    yield
    gc.set_threshold(*thresholds)
    if freeze_after_full in gc.callbacks:
        gc.callbacks.remove(freeze_after_full)
    gc.unfreeze()
    gc.enable()


@pytest.mark.usefixtures("frozen_state")
def test_what_survives_a_full_collection_is_set_aside() -> None:
    gc.callbacks.append(freeze_after_full)
    kept = [Node() for _ in range(2000)]
    gc.collect(1)  # a younger collection sets nothing aside
    assert gc.get_freeze_count() == 0
    gc.collect()
    assert gc.get_freeze_count() >= len(kept)


@pytest.mark.usefixtures("frozen_state")
def test_a_cycle_set_aside_is_freed_by_the_collection_of_everything() -> None:
    node = Node()
    node.me = node
    seen = weakref.ref(node)
    gc.collect()
    gc.freeze()  # as after a full collection of the server
    del node
    gc.collect()
    assert seen() is not None, "a full collection freed an object set aside"
    collect_everything(0.0, rounds=1)
    assert seen() is None, "the collection of everything left the cycle"
    assert gc.get_freeze_count() > 0  # the survivors are set aside again


@pytest.mark.usefixtures("frozen_state")
def test_a_server_walks_its_young_objects_after_thousands_of_them_not_hundreds() -> None:
    # A young collection walks every young object still alive (a busy server's open sockets
    # keep thousands waiting): Python's default of 700 made the collector take about a tenth
    # of the event loop's time under bench/server_load.py.
    gc.set_threshold(700, 10, 10)
    tune_collector()
    assert gc.get_threshold() == (10_000, 10, 10)
    assert freeze_after_full in gc.callbacks
    tune_collector()  # twice is once
    assert gc.callbacks.count(freeze_after_full) == 1


@pytest.mark.parametrize("ws", ["auto", DirectTextFrames])
def test_a_room_socket_that_ends_leaves_nothing_for_the_collector(
    tmp_path: Path, ws: type[DirectTextFrames] | str
) -> None:
    # A game's end closes six sockets and opens six more. Whatever of a closed socket was held
    # in a reference cycle (the HTTP protocol and its parser, the WebSocket protocol and the
    # scope that kept its send) waited for a collection to be freed: about 13,000 objects a
    # second in the closed loop of bench/server_load.py, all freed inside the event loop's
    # pauses for the collector.
    with (
        toy_room_served(tmp_path, ("Ann",), ws=ws) as (port, code, (token,)),
        httpx.Client() as http,
    ):
        api = f"http://127.0.0.1:{port}/api/rooms"
        gc.collect()
        gc.disable()
        try:
            for _ in range(5):
                with connect(f"ws://127.0.0.1:{port}/ws/{code}?token={token}") as phone:
                    assert '"type":"state"' in str(phone.recv(timeout=5))
                deadline = time.monotonic() + 5
                while http.get(f"{api}/{code}").json()["seats"][0]["connected"]:
                    assert time.monotonic() < deadline, "the server never saw the phone go"
                    time.sleep(0.02)
            gc.set_debug(gc.DEBUG_SAVEALL)
            gc.collect()
            ours = ("recordroom", "uvicorn", "httptools")
            left = sorted(
                {
                    f"{type(o).__module__}.{type(o).__qualname__}"
                    for o in gc.garbage
                    if type(o).__module__.partition(".")[0] in ours
                }
            )
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
            gc.enable()
    assert left == []
