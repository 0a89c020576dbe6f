"""Games: the games this server hosts, and the editions a game offers its pages."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from recordroom.engine.game import Editions
from recordroom.server.deps import ERRORS, HubDep, ServicesDep
from recordroom.server.errors import ServerError
from recordroom.server.hub import game_summary
from recordroom.server.protocol import ErrorCode, GameOut

router = APIRouter()


@router.get("/api/games")
async def list_games(hub: HubDep) -> list[GameOut]:
    """The games this server hosts."""
    return [GameOut(**game_summary(hub.game(name))) for name in hub.game_names]


@router.get("/api/games/{game}/edition", responses=ERRORS)
async def game_edition(
    game: str, services: ServicesDep, edition: str = "standard"
) -> dict[str, Any]:
    """A game's named edition as its pages draw it (Records: the board layout, cards and goals,
    for drawing the sheet); 404 ``game/unknown`` for a game or an edition there is not."""
    found = services.games.get(game)
    if not isinstance(found, Editions):
        raise ServerError(ErrorCode.GAME_UNKNOWN, f"no game {game!r} with editions here", 404)
    try:
        return found.edition(edition)
    except ValueError as error:
        raise ServerError(ErrorCode.GAME_UNKNOWN, str(error), 404) from None
