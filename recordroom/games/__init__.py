"""The games of Record Room, by name.

``load("disc-cover")`` returns the Disc Cover game object (the module's ``GAME``). Games are
imported on first use so that loading one does not pay for the others.
"""

from __future__ import annotations

import importlib

from recordroom.engine.game import Game

_MODULES: dict[str, str] = {
    "disc-cover": "recordroom.games.disc_cover",
    "records": "recordroom.games.records",
}


def names() -> tuple[str, ...]:
    """The names of every registered game."""
    return tuple(_MODULES)


def load(name: str) -> Game:
    """The game registered under ``name``; ``KeyError`` naming the known games otherwise."""
    try:
        module_name = _MODULES[name]
    except KeyError:
        known = ", ".join(_MODULES)
        raise KeyError(f"unknown game {name!r}; known games: {known}") from None
    game: Game = importlib.import_module(module_name).GAME
    return game
