"""Media: the server's sleeves and their pictures, the Artists Booklet and a finished game's
mosaic (heavy pages are made once, on their own thread: :mod:`recordroom.server.pages`)."""

from __future__ import annotations

from datetime import date
from typing import Any

from fastapi import APIRouter, Request, Response

from recordroom import i18n
from recordroom.media.booklet import render_booklet_html, render_booklet_pdf
from recordroom.media.mosaic import MosaicError, evening_of, render_mosaic_png
from recordroom.server.deps import ERRORS, LOOKUPS, HubDep, ServicesDep, lang_of
from recordroom.server.errors import ServerError
from recordroom.server.protocol import ErrorCode

router = APIRouter()


@router.get("/api/sleeves")
async def list_sleeves(services: ServicesDep) -> list[dict[str, Any]]:
    """Every sleeve of this server's deck with its title, artist, family and mood."""
    return [
        {"id": s.id, "title": s.title, "artist": s.artist, "family": s.family, "mood": s.mood}
        for s in services.sleeve_set.sleeves
    ]


@router.get("/api/sleeves/{sleeve_id}", responses=ERRORS)
async def sleeve_image(sleeve_id: int, services: ServicesDep) -> Response:
    """A sleeve's picture (SVG for a built-in sleeve, PNG for a pack's)."""
    try:
        image = services.sleeve_set.image(sleeve_id)
    except KeyError:
        raise ServerError(ErrorCode.SLEEVE_NOT_FOUND, f"no sleeve {sleeve_id}", 404) from None
    headers = {"Cache-Control": "public, max-age=86400"}
    return Response(image.data, media_type=image.content_type, headers=headers)


@router.get("/booklet", include_in_schema=False)
async def booklet(request: Request, services: ServicesDep) -> Response:
    """The Artists Booklet: every sleeve with its title, artist, family and mood."""
    lang = lang_of(request)
    sleeve_set = services.sleeve_set
    # English is the booklet's default: its call stays the plain one.
    make = (
        (lambda: render_booklet_html(sleeve_set))
        if lang == i18n.DEFAULT
        else (lambda: render_booklet_html(sleeve_set, lang=lang))
    )
    html = await services.pages.get(("booklet.html", lang), make)
    return Response(html, media_type="text/html")


@router.get("/booklet.pdf", include_in_schema=False)
async def booklet_pdf(request: Request, services: ServicesDep) -> Response:
    """The Artists Booklet, printable."""
    lang = lang_of(request)
    sleeve_set = services.sleeve_set
    make = (
        (lambda: render_booklet_pdf(sleeve_set))
        if lang == i18n.DEFAULT
        else (lambda: render_booklet_pdf(sleeve_set, lang))
    )
    pdf = await services.pages.get(("booklet.pdf", lang), make)
    return Response(pdf, media_type="application/pdf")


@router.get("/api/rooms/{code}/mosaic.png", responses=ERRORS, dependencies=[LOOKUPS])
async def room_mosaic(code: str, hub: HubDep, request: Request, services: ServicesDep) -> Response:
    """The 3 x 3 mosaic of a finished game that has one (Disc Cover): the sleeves with their
    points, then the score and tier (or the ranking), the players' names and the date."""
    room = await hub.room(code)
    if room.status != "over":
        await room.look_again()  # the table that asks may have seen the end on another process
    if room.status != "over" or not isinstance(room.result, dict):
        raise ServerError(ErrorCode.ROOM_NOT_OVER, "the mosaic is ready once the game is over")
    entries = room.result.get("mosaic")
    if not isinstance(entries, list):
        raise ServerError(ErrorCode.ROOM_NOT_OVER, f"{room.game.info.title} has no mosaic")
    try:
        lang = lang_of(request)
        evening = evening_of(room.result, [s.name for s in room.seats], date.today(), lang)
    except MosaicError as error:
        raise ServerError(ErrorCode.ROOM_NOT_OVER, f"no mosaic to draw: {error}") from error
    sleeve_set = services.sleeve_set
    png = await services.pages.get(
        ("mosaic", room.code, date.today(), lang),
        lambda: render_mosaic_png(entries, sleeve_set, None, None, evening),
    )
    headers = {"Content-Disposition": f'attachment; filename="mosaic-{room.code}.png"'}
    return Response(png, media_type="image/png", headers=headers)
