"""The music a room plays: the server's jukebox, and each room's queue of tracks.

The :class:`Jukebox` holds every track the server may play: the built-in demo playlist (made on
first use and cached) and the music folders named with ``recordroom serve --music DIR``, with their
M3U playlists and tag themes. A room of a game that plays music (``GameInfo.music``) picks a
source at creation (``demo``, ``library``, ``playlist`` or ``external``) and optional themes; its
:class:`RoomMusic` shuffles that pool with the room's seed and plays the next track at every turn.
The host may skip a track; the number of skips is stored with the room, so a restarted server
plays the same track again. Clients only ever see track ids and the streaming URL, never a path.
"""

from __future__ import annotations

import logging
import random
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from recordroom.games.disc_cover.bots import senses as senses_entry
from recordroom.media.music.demo import demo_library
from recordroom.media.music.features import AudioError, TrackFeatures, analyse
from recordroom.media.music.library import Library, Track, scan
from recordroom.media.music.themes import select, themes
from recordroom.media.packs import SleeveSet
from recordroom.media.sleeve_features import SleeveFeatures, measure_image
from recordroom.server.errors import ServerError
from recordroom.server.protocol import ErrorCode, MusicSettings

log = logging.getLogger("recordroom.server")


class Jukebox:
    """Every playable track of the server, loaded once on first use."""

    def __init__(self, cache_dir: Path, folders: tuple[Path, ...] = ()) -> None:
        self.cache_dir = cache_dir
        self.folders = folders
        self._lock = threading.Lock()
        self._demo: Library | None = None
        self._library: Library | None = None
        self._features: dict[str, TrackFeatures | None] = {}

    def _load(self) -> tuple[Library, Library]:
        with self._lock:
            if self._demo is None or self._library is None:
                self._demo = demo_library(self.cache_dir)
                self._library = scan(self.folders) if self.folders else Library()
                for problem in self._library.problems:
                    log.warning("music: skipped %s (%s)", problem.name, problem.reason)
            return self._demo, self._library

    @property
    def demo(self) -> Library:
        """The built-in demo playlist."""
        return self._load()[0]

    @property
    def library(self) -> Library:
        """The tracks of the music folders (empty without ``--music``)."""
        return self._load()[1]

    def track(self, track_id: str) -> Track:
        """A track of either source; ``ServerError`` (404) for an unknown id."""
        demo, library = self._load()
        for source in (demo, library):
            if isinstance(track_id, str) and track_id in source.tracks:
                return source.tracks[track_id]
        raise ServerError(ErrorCode.MUSIC_NOT_FOUND, f"no track with id {track_id!r}", 404)

    def path_of(self, track_id: str) -> Path:
        """The file to stream for a track id, checked to be still inside its folder."""
        demo, library = self._load()
        for source in (demo, library):
            try:
                return source.path_of(track_id)
            except KeyError:
                continue
        raise ServerError(ErrorCode.MUSIC_NOT_FOUND, f"no track with id {track_id!r}", 404)

    def features(self, track_id: str) -> TrackFeatures | None:
        """What a track sounds like (measured once); None if it cannot be decoded."""
        if track_id not in self._features:
            try:
                self._features[track_id] = analyse(self.path_of(track_id))
            except (AudioError, ServerError) as error:
                log.warning("music: cannot listen to track %s: %s", track_id, error)
                self._features[track_id] = None
        return self._features[track_id]

    def catalogue(self) -> dict[str, Any]:
        """What the setup screen offers: sources, playlists and themes."""
        demo, library = self._load()
        return {
            "sources": [
                {"id": "demo", "name": "Demo playlist", "tracks": len(demo)},
                {"id": "library", "name": "Music folders", "tracks": len(library)},
            ],
            "playlists": [
                {"id": p.id, "name": p.name, "tracks": len(p.track_ids)}
                for p in library.playlists.values()
            ],
            "themes": [t.to_json() for t in themes([*demo, *library])],
        }

    def pool(self, settings: MusicSettings) -> tuple[str, ...]:
        """The track ids a room with these settings plays from; ``ServerError`` if none."""
        if settings.source == "external":
            return ()
        demo, library = self._load()
        if settings.source == "demo":
            tracks = list(demo)
        elif settings.source == "library":
            tracks = list(library)
        else:
            playlist = library.playlists.get(settings.playlist or "")
            if playlist is None:
                raise ServerError(
                    ErrorCode.MUSIC_INVALID, f"no playlist with id {settings.playlist!r}", 422
                )
            tracks = [library.tracks[i] for i in playlist.track_ids]
        if settings.themes:
            try:
                wanted = set(select(tracks, settings.themes))
            except KeyError as error:
                raise ServerError(ErrorCode.MUSIC_INVALID, str(error.args[0]), 422) from error
            tracks = [t for t in tracks if t.id in wanted]
        if not tracks:
            raise ServerError(
                ErrorCode.MUSIC_INVALID,
                f"the {settings.source} source has no track to play"
                + (f" in the themes {', '.join(settings.themes)}" if settings.themes else ""),
                422,
            )
        return tuple(dict.fromkeys(t.id for t in tracks))


@dataclass
class RoomMusic:
    """One room's music: its settings, its shuffled queue and how often the host skipped."""

    settings: MusicSettings
    queue: tuple[str, ...]
    skips: int = 0

    @classmethod
    def build(
        cls, jukebox: Jukebox, settings: MusicSettings, seed: int, skips: int = 0
    ) -> RoomMusic:
        """The queue for a room: the pool shuffled by the room's seed (shuffle is always on)."""
        queue = list(jukebox.pool(settings))
        random.Random(f"music:{seed}").shuffle(queue)
        return cls(settings, tuple(queue), skips)

    def track_id(self, turn: int) -> str | None:
        """The track of a (1-based) turn, or None in external-player mode."""
        if not self.queue:
            return None
        return self.queue[(turn - 1 + self.skips) % len(self.queue)]

    def stored(self) -> dict[str, Any]:
        """What the store keeps of it."""
        return {"settings": self.settings.model_dump(), "skips": self.skips}

    def message(self, jukebox: Jukebox, view: dict[str, Any] | None) -> dict[str, Any]:
        """The music part of a state message for the table (host or spectator)."""
        turn = view.get("turn") if view else None
        playing = view is not None and view.get("phase") != "over"
        track = None
        if playing and isinstance(turn, int):
            track_id = self.track_id(turn)
            if track_id is not None:
                track = jukebox.track(track_id).to_json()
        return {
            "source": self.settings.source,
            "play_to_end": self.settings.play_to_end,
            "themes": list(self.settings.themes),
            "track": track,
            "url": f"/api/music/tracks/{track['id']}" if track else None,
            "turn": turn if playing else None,
            "skips": self.skips,
        }


class Senses:
    """What a listening bot at a table hears and sees: the track's sound, the sleeves' looks."""

    def __init__(self, jukebox: Jukebox, sleeves: SleeveSet) -> None:
        self.jukebox = jukebox
        self.sleeves = sleeves
        self._looks: dict[int, SleeveFeatures] = {}
        self._lock = threading.Lock()
        self._stopping = threading.Event()

    def look(self, sleeve_id: int) -> SleeveFeatures | None:
        """A sleeve's visual features (measured once), None for a sleeve not in the set."""
        with self._lock:
            if sleeve_id not in self._looks:
                try:
                    self._looks[sleeve_id] = measure_image(self.sleeves.image(sleeve_id))
                except KeyError:
                    return None
            return self._looks[sleeve_id]

    def warm(self) -> None:
        """Measures every sleeve ahead of the first game (run in the background at start)."""
        for sleeve_id in self.sleeves.ids():
            if self._stopping.is_set():
                return
            self.look(sleeve_id)

    def stop(self) -> None:
        """Ends :meth:`warm` early (the server is shutting down)."""
        self._stopping.set()

    def for_view(self, music: RoomMusic | None, view: dict[str, Any]) -> dict[str, Any]:
        """The ``senses`` entry for a bot's view of a Disc Cover table."""
        heard = None
        turn = view.get("turn")
        if music is not None and isinstance(turn, int):
            track_id = music.track_id(turn)
            features = self.jukebox.features(track_id) if track_id else None
            heard = features.to_json() if features else None
        seen = {}
        for record in view.get("records", []):
            sid = record["sleeve"]["id"]
            look = self.look(sid)
            if look is not None:
                seen[sid] = look.to_json()
        return senses_entry(heard, seen)
