"""How a server is set up (:class:`Settings`), and where it keeps its files by default."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from recordroom import games
from recordroom.engine.game import Game
from recordroom.server.store import Store


def default_cache_dir() -> Path:
    """The user's cache folder for Record Room (the demo playlist lives there)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "recordroom"


DB_NAME = "recordroom.sqlite3"


@dataclass
class Settings:
    """How a server is set up; every field has the default ``recordroom serve`` uses."""

    data_dir: Path = Path("data")
    bot_delay: float = 0.8
    max_message_bytes: int = 64 * 1024
    join_limit: tuple[int, float] = (30, 60.0)
    """Room creations and joins per client: (count, seconds)."""
    lookup_limit: tuple[int, float] = (240, 60.0)
    """Room look-ups (info, log, WebSocket connects) per client: (count, seconds)."""
    game_names: tuple[str, ...] | None = None
    """The games served (default: every registered game)."""
    load_game: Callable[[str], Game] = games.load
    store: Store | None = None
    """A store to use instead of SQLite in ``data_dir`` (the caller closes it)."""
    music_dirs: tuple[Path, ...] = ()
    """Music folders (``--music DIR``), scanned on first use."""
    cache_dir: Path | None = None
    """Where the demo playlist is cached (default: the user's cache folder)."""
    sleeves_dir: Path | None = None
    """A custom sleeve pack (``--sleeves DIR``) that joins or replaces the built-in sleeves."""
    public_url: str | None = None
    """The address phones open (default: the address the request came to)."""
    open_after: float = 20.0
    """Seconds after a turn of a game with music began when it opens without the table (0: at
    once, the vote never waits for the song)."""
    max_rooms: int = 10_000
    """Rooms served at most; creating one more answers ``room/limit`` (503)."""
    lobby_idle: float = 24 * 3600.0
    """Seconds after which a lobby nobody touched is deleted."""
    finished_age: float = 30 * 24 * 3600.0
    """Seconds after which a finished game is deleted (``--keep-days``)."""
