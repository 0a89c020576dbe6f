"""What telling a room's clients of a change costs, in the server's process, without sockets.

Usage::

    python bench/room_fanout.py [--games 150]

Plays ``--games`` Disc Cover games of 5 seats with random legal moves, each in a room with the
built-in demo playlist (the song leads each turn; the turn opens at once), its five phones and
its table connected. Each action goes through ``Room.act``: its checks, the rules, a store that
keeps nothing, then a state message for each of the six clients (the views, the music, the
seats, the JSON). At each game's end the six clients leave and the next game's six connect, as
the players of ``bench/server_load.py`` do when a game ends. It prints the process CPU time
per action, everything included; what ``bench/server_load.py`` adds to it is the sockets, the
HTTP and WebSocket layers and the writer's disk.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import time
from collections.abc import Sequence

from recordroom import games
from recordroom.engine.game import JSONDict, Seat
from recordroom.server.music import Jukebox, RoomMusic
from recordroom.server.protocol import MusicSettings
from recordroom.server.room import Role, Room
from recordroom.server.settings import default_cache_dir
from recordroom.server.store import Write

SEATS = 5


class Nowhere:
    """A store that accepts every write and keeps none (the disk is not what is measured)."""

    def commit(self, jobs: Sequence[Sequence[Write]]) -> list[Exception | None]:
        return [None] * len(jobs)


class Listener:
    """A client that counts the bytes it is told."""

    def __init__(self, role: Role, seat: Seat | None) -> None:
        self.role: Role = role
        self.seat = seat
        self.received = 0

    def send(self, message: JSONDict) -> None:
        self.received += 1

    def send_text(self, text: str) -> None:
        self.received += len(text)

    def close(self, code: str, message: str) -> None:
        pass


async def one_game(number: int, jukebox: Jukebox) -> int:
    """One game from the lobby to its end; the number of actions taken."""
    game = games.load("disc-cover")
    room = Room(
        code=f"R{number:05d}",
        game_name="disc-cover",
        game=game,
        options={},
        seed=number,
        host_token="table",
        store=Nowhere(),  # type: ignore[arg-type]
        jukebox=jukebox,
        open_after=0,
    )
    room.music = RoomMusic.build(jukebox, MusicSettings(), number)
    for i in range(SEATS):
        await room.join(f"P{i}")
    await room.start()
    clients = [Listener("seat", i) for i in range(SEATS)] + [Listener("host", None)]
    for client in clients:
        room.connect(client)
    rng = random.Random(number)
    actions = 0
    while room.status == "playing":
        # What each phone was told it may do (asked of the game, as a phone reads its message).
        legal = [room.game.legal_actions(room.state, seat) for seat in range(SEATS)]
        seat = rng.choice([seat for seat in range(SEATS) if legal[seat]])
        await room.act(seat, rng.choice(legal[seat]), room.version)
        actions += 1
    for client in clients:
        room.disconnect(client)
    return actions


async def run(count: int) -> tuple[int, float]:
    jukebox = Jukebox(default_cache_dir())
    jukebox.warm()  # the demo playlist (kept where the server keeps it), made before any timing
    await one_game(count, jukebox)  # the first game's imports and caches, not timed
    gc.collect()
    gc.freeze()
    started = time.process_time()
    actions = 0
    for number in range(count):
        actions += await one_game(number, jukebox)
    return actions, time.process_time() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=150, help="games to play")
    args = parser.parse_args()
    actions, seconds = asyncio.run(run(args.games))
    print(
        f"{args.games} games, {actions} actions: {1e6 * seconds / actions:.1f} us of CPU an action"
        " (its checks, the rules, six state messages; six clients leaving and six coming at"
        " each game's end)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
