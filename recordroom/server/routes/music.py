"""Music: the jukebox's catalogue, checking a room's music settings, streaming a track, and
skipping the track of a room's turn."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter
from fastapi.responses import FileResponse

from recordroom.server.deps import (
    ERRORS,
    LOOKUPS,
    MAX_MUSIC_BYTES,
    HostToken,
    HubDep,
    ServicesDep,
    cap,
)
from recordroom.server.protocol import MusicSettings

router = APIRouter()


@router.post("/api/rooms/{code}/music/skip", responses=ERRORS, dependencies=[LOOKUPS])
async def skip_track(code: str, hub: HubDep, token: HostToken) -> dict[str, Any]:
    """(host) Plays another track for the current turn."""
    room = await hub.hosted_room(code, token)
    await room.skip_track()
    view = room.game.view(room.state, None) if room.state is not None else None
    return room.music_message(view) or {}


@router.get("/api/music")
async def music_catalogue(services: ServicesDep) -> dict[str, Any]:
    """The music the table can choose from: each source with its themes, and the playlists."""
    return await asyncio.to_thread(services.jukebox.catalogue)


@router.post("/api/music/check", responses=ERRORS)
async def music_check(body: MusicSettings, services: ServicesDep) -> dict[str, Any]:
    """Checks music settings as room creation would; says how many tracks and if they repeat."""
    cap("music", body.model_dump(), MAX_MUSIC_BYTES)
    return await asyncio.to_thread(services.jukebox.check, body)


@router.get("/api/music/tracks/{track_id}", responses=ERRORS)
async def stream_track(track_id: str, services: ServicesDep) -> FileResponse:
    """A track's audio, by id (HTTP Range requests are answered with 206)."""
    jukebox = services.jukebox
    path = await asyncio.to_thread(jukebox.path_of, track_id)
    track = jukebox.track(track_id)
    return FileResponse(path, media_type=track.media_type, content_disposition_type="inline")
