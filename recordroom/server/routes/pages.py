"""Pages: the lobby, each game's table and phone pages, the rules, the catalogues, ``/docs``."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse

from recordroom import i18n
from recordroom.server.codes import normalise_code
from recordroom.server.deps import WEB_DIR
from recordroom.server.docs_page import DOCS_HTML
from recordroom.server.errors import ServerError
from recordroom.server.protocol import ErrorCode

router = APIRouter(include_in_schema=False)


@router.get("/docs")
async def api_docs() -> HTMLResponse:
    return HTMLResponse(DOCS_HTML)


@router.get("/")
async def lobby() -> FileResponse:
    return FileResponse(WEB_DIR / "lobby" / "index.html")


def page_of(request: Request, code: str | None, page: str) -> FileResponse:
    """The page of the room's game (Disc Cover's for no room or an unknown one)."""
    folder = "disc-cover"
    room = request.app.state.hub.rooms.get(normalise_code(code or ""))
    if room is not None and room.game_name == "records":
        folder = "records"
    return FileResponse(WEB_DIR / folder / page)


@router.get("/i18n/{lang}.json")
async def catalogue(lang: str) -> JSONResponse:
    if lang not in i18n.LANGUAGES:
        raise ServerError(ErrorCode.REQUEST_INVALID, "no catalogue for that language", 404)
    return JSONResponse(i18n.catalogue(lang), headers={"Cache-Control": "no-cache"})


@router.get("/how-to-play/{game}")
async def how_to_play(game: str) -> FileResponse:
    if game not in ("disc-cover", "records"):
        raise ServerError(ErrorCode.GAME_UNKNOWN, "no such game", 404)
    return FileResponse(WEB_DIR / "rules" / f"{game}.html")


@router.get("/table")
async def table_page(request: Request, room: str | None = None) -> FileResponse:
    return page_of(request, room, "table.html")


@router.get("/records")
@router.get("/records/table")
async def records_table_page() -> FileResponse:
    return FileResponse(WEB_DIR / "records" / "table.html")


@router.get("/join")
@router.get("/join/{code}")
async def phone_page(request: Request, code: str = "") -> FileResponse:
    return page_of(request, code, "phone.html")
