"""Games: the games this server hosts, and the documents a game offers (a Records edition)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from recordroom.games.records.edition import EditionError
from recordroom.server.deps import ERRORS, HubDep
from recordroom.server.errors import ServerError
from recordroom.server.hub import game_summary
from recordroom.server.protocol import ErrorCode, GameOut
from recordroom.server.records_edition import records_edition as document

router = APIRouter()


@router.get("/api/games")
async def list_games(hub: HubDep) -> list[GameOut]:
    """The games this server hosts."""
    return [GameOut(**game_summary(hub.game(name))) for name in hub.game_names]


@router.get("/api/games/records/edition", responses=ERRORS)
async def records_edition(edition: str = "standard") -> dict[str, Any]:
    """The board layout, cards and goals of a Records edition, for drawing the sheet."""
    try:
        return document(edition)
    except EditionError as error:
        raise ServerError(ErrorCode.GAME_UNKNOWN, str(error), 404) from None
