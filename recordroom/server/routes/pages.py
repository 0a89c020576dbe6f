"""Pages: the lobby, each game's table and phone pages, the rules, the catalogues, ``/docs``.

The server knows no game's pages by name: a game names its folder of the web pages
(``GameInfo.pages``) and any further addresses of them (``GameInfo.extra_pages``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse

from recordroom import i18n
from recordroom.engine.game import Game
from recordroom.server.codes import normalise_code
from recordroom.server.deps import WEB_DIR, ServicesDep, count_lookup, services_of
from recordroom.server.docs_page import DOCS_HTML
from recordroom.server.errors import ServerError
from recordroom.server.protocol import ErrorCode

router = APIRouter(include_in_schema=False)


def default_pages(served: Mapping[str, Game]) -> str | None:
    """The pages shown for no room or an unknown one: the first served game's with pages."""
    return next((g.info.pages for g in served.values() if g.info.pages is not None), None)


def page_file(folder: str | None, page: str) -> FileResponse:
    """A page of a game's folder; 404 ``game/unknown`` when there is none."""
    if folder is None or not (WEB_DIR / folder / page).is_file():
        raise ServerError(ErrorCode.GAME_UNKNOWN, "no pages for that game", 404)
    return FileResponse(WEB_DIR / folder / page)


def page_of(request: Request, code: str | None, page: str) -> FileResponse:
    """The page of the room's game (the default pages for no room, an unknown one, or a game
    without pages of its own)."""
    if code:
        count_lookup(request)  # a page that depends on the room is a look-up like any other
    room = request.app.state.hub.rooms.get(normalise_code(code or ""))
    folder = room.game.info.pages if room is not None else None
    return page_file(folder or default_pages(services_of(request).games), page)


@router.get("/docs")
async def api_docs() -> HTMLResponse:
    return HTMLResponse(DOCS_HTML)


@router.get("/")
async def lobby() -> FileResponse:
    return FileResponse(WEB_DIR / "lobby" / "index.html")


@router.get("/i18n/{lang}.json")
async def catalogue(lang: str) -> JSONResponse:
    if lang not in i18n.LANGUAGES:
        raise ServerError(ErrorCode.REQUEST_INVALID, "no catalogue for that language", 404)
    return JSONResponse(i18n.catalogue(lang), headers={"Cache-Control": "no-cache"})


@router.get("/how-to-play/{game}")
async def how_to_play(game: str, services: ServicesDep) -> FileResponse:
    path = WEB_DIR / "rules" / f"{game}.html"
    if game not in services.games or not path.is_file():
        raise ServerError(ErrorCode.GAME_UNKNOWN, "no such game", 404)
    return FileResponse(path)


@router.get("/table")
async def table_page(request: Request, room: str | None = None) -> FileResponse:
    return page_of(request, room, "table.html")


@router.get("/table/{game}")
async def game_table_page(game: str, services: ServicesDep) -> FileResponse:
    """A game's table page with no room yet (its setup)."""
    found = services.games.get(game)
    return page_file(found.info.pages if found is not None else None, "table.html")


@router.get("/join")
@router.get("/join/{code}")
async def phone_page(request: Request, code: str = "") -> FileResponse:
    return page_of(request, code, "phone.html")


def extra_pages(served: Mapping[str, Game]) -> APIRouter:
    """The further addresses the served games give their pages (Records: ``/records``)."""
    extra = APIRouter(include_in_schema=False)
    for game in served.values():
        for path, page in game.info.extra_pages:
            extra.add_api_route(path, _serve(game.info.pages, page), methods=["GET"])
    return extra


def _serve(folder: str | None, page: str) -> Callable[[], Awaitable[FileResponse]]:
    async def serve() -> FileResponse:
        return page_file(folder, page)

    return serve
