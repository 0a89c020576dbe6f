"""The game server: rooms and seats over HTTP and one WebSocket per client.

A room holds one game of any registered game. The table screen holds the room's host token, each
player a seat token; spectators need none. Every message out is built from ``game.view`` for its
receiver. Every accepted action is committed to the store (SQLite by default) before anyone is
told, and rooms are rebuilt from their logs when the server starts, so a crash loses nothing.

Modules: :mod:`.protocol` (the wire messages), :mod:`.store` (where rooms live on disk),
:mod:`.store_process` (that store kept by a process of its own, as ``recordroom serve`` runs it),
:mod:`.writer` (the one writer), :mod:`.room` (one room's seats, state and rules of who may do
what), :mod:`.hub` (all rooms, bots),
:mod:`.app` (the FastAPI application), :mod:`.routes` (its HTTP routes, one router per concern),
:mod:`.sockets` (the room socket), :mod:`.frames` (its text frames, written straight out),
:mod:`.deps` (what the routes share), :mod:`.serve` (the
``recordroom serve`` command). The server knows no game by name: what it needs from a game comes
from the engine contract (``GameInfo`` and optional methods, docs/architecture.md).
The wire protocol is documented in docs/protocol.md.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from recordroom.server.app import Settings, create_app

__all__ = ["Settings", "create_app"]


def __getattr__(name: str) -> Any:
    """``Settings`` and ``create_app``, from :mod:`.app` when first asked for: a module of the
    package (the store's process runs :mod:`.store_process` alone) does not load the web app."""
    if name in __all__:
        return getattr(importlib.import_module("recordroom.server.app"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
