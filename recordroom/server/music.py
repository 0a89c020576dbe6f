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

import json
import logging
import os
import random
import threading
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from recordroom.engine.game import JSONDict, Listening
from recordroom.media.music.cue import cue_point
from recordroom.media.music.demo import PIECES, demo_library
from recordroom.media.music.features import AudioError, TrackFeatures, analyse
from recordroom.media.music.library import Library, Track, scan
from recordroom.media.music.themes import select, themes
from recordroom.media.packs import SleeveSet
from recordroom.media.sleeve_features import SleeveFeatures, measure_image
from recordroom.server.errors import ServerError
from recordroom.server.protocol import ErrorCode, MusicSettings

log = logging.getLogger("recordroom.server")


LONG_TRACK = 90.0
"""Seconds: a longer track starts at its cue point (when the room's ``skip_intro`` is on)."""
CUE_CACHE = "cues-v1.json"
"""The file, in the cache folder, that keeps every track's cue point across restarts."""
SOURCES = ("demo", "library", "playlist", "external")
AHEAD = 3
"""Tracks past the current turn whose cue points are found ahead of time."""
FIRST_CUES = 12
"""Tracks whose cue points a new room asks for at once, in playing order: a night's songs and a
few skips (each later turn asks for the next ``AHEAD`` as it comes)."""


class DemoInterrupted(RuntimeError):
    """The server stopped while the demo playlist was being made (the next start goes on)."""


class Jukebox:
    """Every playable track of the server.

    The music folders are scanned on first use. The demo playlist is made (synthesised on the
    first run, read from the cache after) by :meth:`warm`, which the server runs in the background
    at start; until it is ready the catalogue says how far it got and the folders can be used.
    Cue points (where a long track's music starts) are found by one background thread, in the
    order rooms will play them, and kept in memory and in the cache folder.
    """

    def __init__(self, cache_dir: Path, folders: tuple[Path, ...] = (), songs: int = 0) -> None:
        self.cache_dir = cache_dir
        self.folders = folders
        self.songs = songs
        """Songs one game plays (the most of the served games with music, ``GameInfo.songs``)."""
        self._demo_lock = threading.Lock()
        self._library_lock = threading.Lock()
        self._demo: Library | None = None
        self._demo_progress = (0, len(PIECES))
        self._demo_error: str | None = None
        self._library: Library | None = None
        self._features: dict[str, TrackFeatures | None] = {}
        self._cue_lock = threading.Condition()
        self._cues: dict[str, float] = {}
        self._cue_queue: deque[str] = deque()
        self._cue_worker: threading.Thread | None = None
        self._stopping = threading.Event()

    # -- the two sources -------------------------------------------------------------------------

    def _progress(self, done: int, total: int) -> None:
        if self._stopping.is_set() and done < total:
            raise DemoInterrupted(f"the server stopped after {done} of {total} demo tracks")
        self._demo_progress = (done, total)

    def warm(self) -> None:
        """Scans the folders, then makes the demo playlist (run in the background at start).

        Logs instead of raising: a source that cannot be read is reported when it is asked for.
        """
        try:
            self._folders()
            self._demo_library()
        except DemoInterrupted as stopped:
            log.info("music: %s", stopped)
        except (OSError, RuntimeError, ValueError) as error:
            self._demo_error = str(error)
            log.error("music: cannot make the demo playlist: %s", error)

    def _demo_library(self) -> Library:
        """The demo playlist, made now if nobody has made it yet (waits for one being made)."""
        with self._demo_lock:
            if self._demo is None:
                self._demo = demo_library(self.cache_dir, self._progress)
                self._demo_error = None
            return self._demo

    def _folders(self) -> Library:
        with self._library_lock:
            if self._library is None:
                self._library = scan(self.folders) if self.folders else Library()
                for problem in self._library.problems:
                    log.warning("music: skipped %s (%s)", problem.name, problem.reason)
            return self._library

    @property
    def demo(self) -> Library:
        """The built-in demo playlist (waits while it is being made)."""
        return self._demo_library()

    @property
    def library(self) -> Library:
        """The tracks of the music folders (empty without ``--music``)."""
        return self._folders()

    def _ready(self) -> tuple[Library, ...]:
        """The sources that are ready now, never waiting for the demo."""
        demo = self._demo
        return (self._folders(),) if demo is None else (demo, self._folders())

    def _find(self, track_id: str) -> Track | None:
        for source in self._ready():
            if isinstance(track_id, str) and track_id in source.tracks:
                return source.tracks[track_id]
        return None

    def track(self, track_id: str) -> Track:
        """A track of either source; ``ServerError`` (404) for an unknown id."""
        found = self._find(track_id)
        if found is None:
            raise ServerError(ErrorCode.MUSIC_NOT_FOUND, f"no track with id {track_id!r}", 404)
        return found

    def path_of(self, track_id: str) -> Path:
        """The file to stream for a track id, checked to be still inside its folder."""
        for source in self._ready():
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

    # -- what the setup screen offers ------------------------------------------------------------

    def catalogue(self) -> dict[str, Any]:
        """What the setup screen offers: each source with its own themes, and the playlists.

        Never waits for the demo playlist: while it is being made, its entry says so
        (``ready: false``) with its progress.
        """
        library = self._folders()
        demo = self._demo
        done, total = self._demo_progress
        demo_entry: dict[str, Any] = {
            "id": "demo",
            "name": "Demo playlist",
            "tracks": len(demo) if demo is not None else None,
            "ready": demo is not None,
            "progress": {"done": total if demo is not None else done, "total": total},
            "error": self._demo_error,
            "themes": _themes_json(demo or Library()),
        }
        return {
            "sources": [
                demo_entry,
                {
                    "id": "library",
                    "name": "Music folders",
                    "tracks": len(library),
                    "ready": True,
                    "themes": _themes_json(library),
                },
            ],
            "playlists": [
                {
                    "id": p.id,
                    "name": p.name,
                    "tracks": len(p.track_ids),
                    "themes": _themes_json(library.tracks[i] for i in p.track_ids),
                }
                for p in library.playlists.values()
            ],
            "turns": self.songs,
        }

    def check(self, settings: MusicSettings) -> dict[str, Any]:
        """What a room with these settings would play: the pool's size and any warning.

        ``ServerError`` (``music/invalid``) for settings no room could play, exactly as
        :meth:`pool` refuses them when the room is created.
        """
        if settings.source == "external":
            return {"tracks": None, "turns": self.songs, "repeats": False, "warning": None}
        count = len(self.pool(settings))
        turns = self.songs
        repeats = count < turns
        warning = (
            f"Only {count} track{'s' if count != 1 else ''} for {turns} turns: songs will repeat."
            if repeats
            else None
        )
        return {"tracks": count, "turns": turns, "repeats": repeats, "warning": warning}

    def pool(self, settings: MusicSettings) -> tuple[str, ...]:
        """The track ids a room with these settings plays from; ``ServerError`` if none."""
        if settings.source not in SOURCES:
            raise ServerError(
                ErrorCode.MUSIC_INVALID,
                f"no music source {settings.source!r}; sources: {', '.join(SOURCES)}",
                422,
            )
        if settings.source == "external":
            return ()
        if settings.source == "demo":
            tracks = list(self._demo_library())
        elif settings.source == "library":
            tracks = list(self._folders())
            if not self.folders:
                raise ServerError(
                    ErrorCode.MUSIC_INVALID,
                    "this server has no music folder (start it with --music DIR)",
                    422,
                )
        else:
            library = self._folders()
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

    # -- cue points ------------------------------------------------------------------------------

    def start_of(self, track: Track, settings: MusicSettings) -> float:
        """Where a turn starts playing a track, in seconds; never waits.

        0 unless ``skip_intro`` is on and the track is longer than :data:`LONG_TRACK`; then its
        cue point, moved earlier if needed so that a whole ``length`` still fits before the end.
        A cue not found yet counts as 0 (and is asked for).
        """
        if not settings.skip_intro or track.duration <= LONG_TRACK:
            return 0.0
        with self._cue_lock:
            cue = self._cues.get(track.id)
        if cue is None:
            self.prepare((track.id,))
            return 0.0
        room = track.duration if settings.play_to_end else track.duration - settings.length
        return round(max(0.0, min(cue, room)), 1)

    def start_settled(self, track: Track, settings: MusicSettings) -> bool:
        """Whether :meth:`start_of` gives its last word for the track (no cue still to find)."""
        if not settings.skip_intro or track.duration <= LONG_TRACK:
            return True
        with self._cue_lock:
            return track.id in self._cues

    def prepare(self, track_ids: Iterable[str]) -> None:
        """Finds the cue points of these tracks in the background, in this order."""
        with self._cue_lock:
            for track_id in track_ids:
                track = self._find(track_id)
                if (
                    track is None
                    or track.duration <= LONG_TRACK
                    or track_id in self._cues
                    or track_id in self._cue_queue
                ):
                    continue
                self._cue_queue.append(track_id)
            if self._cue_queue and self._cue_worker is None and not self._stopping.is_set():
                self._cue_worker = threading.Thread(
                    target=self._find_cues, name="recordroom-cues", daemon=True
                )
                self._cue_worker.start()

    def cue(self, track_id: str) -> float | None:
        """A track's cue point if it has been found (None before)."""
        with self._cue_lock:
            return self._cues.get(track_id)

    def settle(self, timeout: float) -> bool:
        """Waits until every asked cue point is found; False if the time ran out first."""
        with self._cue_lock:
            return self._cue_lock.wait_for(
                lambda: self._cue_worker is None and not self._cue_queue, timeout
            )

    def stop(self) -> None:
        """Ends the background work: the cue search, and the demo after its current track."""
        self._stopping.set()

    def _find_cues(self) -> None:
        kept = self._read_cue_cache()
        unsaved = 0  # cue points found since the cache file was last written
        while True:
            with self._cue_lock:
                if not self._cue_queue or self._stopping.is_set():
                    # Saved before anyone waiting in settle() hears that the work is done.
                    if unsaved:
                        self._write_cue_cache(kept)
                    self._cue_queue.clear()
                    self._cue_worker = None
                    self._cue_lock.notify_all()
                    return
                track_id = self._cue_queue[0]
            cue = 0.0
            try:
                path = self.path_of(track_id)
                stat = path.stat()
                key = f"{stat.st_size}:{stat.st_mtime_ns}"
                cached = kept.get(track_id)
                if isinstance(cached, dict) and cached.get("file") == key:
                    cue = float(cached["cue"])
                else:
                    cue = cue_point(path)
                    kept[track_id] = {"file": key, "cue": cue}
                    unsaved += 1
            except (AudioError, ServerError, OSError, KeyError, TypeError, ValueError) as error:
                log.warning("music: no cue point for track %s: %s", track_id, error)
            with self._cue_lock:
                self._cues[track_id] = cue
                if self._cue_queue and self._cue_queue[0] == track_id:
                    self._cue_queue.popleft()
                if unsaved >= 16:
                    self._write_cue_cache(kept)
                    unsaved = 0

    def _read_cue_cache(self) -> dict[str, Any]:
        try:
            data = json.loads((self.cache_dir / CUE_CACHE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def _write_cue_cache(self, kept: dict[str, Any]) -> None:
        # Only the tracks this server still has: a file moved or a folder gone leaves no entry.
        for gone in [track_id for track_id in kept if self._find(track_id) is None]:
            del kept[gone]
        path = self.cache_dir / CUE_CACHE
        # A name of its own per writer: two servers may share one cache folder.
        temporary = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.part")
        try:
            self.cache_dir.mkdir(parents=True, exist_ok=True)
            temporary.write_text(json.dumps(kept, separators=(",", ":")), encoding="utf-8")
            temporary.replace(path)
        except OSError as error:
            log.warning("music: cannot keep the cue points: %s", error)


def _themes_json(tracks: Iterable[Track]) -> list[dict[str, Any]]:
    return [t.to_json() for t in themes(tracks)]


@dataclass
class RoomMusic:
    """One room's music: its settings, its shuffled queue and how often the host skipped."""

    settings: MusicSettings
    queue: tuple[str, ...]
    skips: int = 0
    _told: tuple[tuple[int | None, int], dict[str, Any]] | None = field(
        default=None, init=False, repr=False, compare=False
    )
    """The last music message and the (turn, skips) it was made for."""

    @classmethod
    def build(
        cls, jukebox: Jukebox, settings: MusicSettings, seed: int, skips: int = 0
    ) -> RoomMusic:
        """The queue for a room: the pool shuffled by the room's seed (shuffle is always on)."""
        queue = list(jukebox.pool(settings))
        random.Random(f"music:{seed}").shuffle(queue)
        music = cls(settings, tuple(queue), skips)
        if settings.skip_intro and queue:
            # Cue points in the order the turns will play them (a few more for skips); never the
            # whole of a large library, of which a game plays a handful of tracks.
            jukebox.prepare(music.upcoming(1, FIRST_CUES))
        return music

    def upcoming(self, turn: int, count: int) -> list[str]:
        """The tracks of ``count`` turns from ``turn`` on (each once), in playing order."""
        ids = (self.track_id(t) for t in range(turn, turn + count))
        return list(dict.fromkeys(i for i in ids if i is not None))

    def track_id(self, turn: int) -> str | None:
        """The track of a (1-based) turn, or None in external-player mode."""
        if not self.queue:
            return None
        return self.queue[(turn - 1 + self.skips) % len(self.queue)]

    def stored(self) -> dict[str, Any]:
        """What the store keeps of it."""
        return {"settings": self.settings.model_dump(), "skips": self.skips}

    def message(self, jukebox: Jukebox, view: dict[str, Any] | None) -> dict[str, Any]:
        """The music part of a state message for the table (host or spectator).

        Made once per turn and skip, and then told again as it is (read, never changed in
        place): every change of a room sends it. Not kept while the turn's track still waits
        for its cue point (``skip_intro``), whose start it gives once found.
        """
        turn = view.get("turn") if view else None
        playing = view is not None and view.get("phase") != "over"
        key = (turn if playing and isinstance(turn, int) else None, self.skips)
        if self._told is not None and self._told[0] == key:
            return self._told[1]
        track = None
        start = 0.0
        settled = True
        if playing and isinstance(turn, int):
            track_id = self.track_id(turn)
            if track_id is not None:
                found = jukebox.track(track_id)
                track = found.to_json()
                start = jukebox.start_of(found, self.settings)
                settled = jukebox.start_settled(found, self.settings)
                if self.settings.skip_intro:
                    jukebox.prepare(self.upcoming(turn, AHEAD + 1))  # after skips, or a restart
        message = {
            "source": self.settings.source,
            "play_to_end": self.settings.play_to_end,
            "themes": list(self.settings.themes),
            "track": track,
            "url": f"/api/music/tracks/{track['id']}" if track else None,
            "turn": turn if playing else None,
            "skips": self.skips,
            "start": start,
            "length": None if self.settings.play_to_end else self.settings.length,
        }
        self._told = (key, message) if settled else None
        return message


class Senses:
    """What a listening bot at a table hears and sees: the track's sound, the sleeves' looks."""

    def __init__(self, jukebox: Jukebox, sleeves: SleeveSet) -> None:
        self.jukebox = jukebox
        self.sleeves = sleeves
        self._looks: dict[int, SleeveFeatures] = {}
        self._lock = threading.Lock()

    def look(self, sleeve_id: int) -> SleeveFeatures | None:
        """A sleeve's visual features, None for a sleeve not in the set.

        Measured the first time a bot looks at it (some 30 ms of CPU, on the bot's thread), then
        kept: a server whose tables have no listening bot never spends it, and one whose bots
        listen spends it once per sleeve shown, not for the whole set at every start.
        """
        with self._lock:
            if sleeve_id not in self._looks:
                try:
                    self._looks[sleeve_id] = measure_image(self.sleeves.image(sleeve_id))
                except KeyError:
                    return None
            return self._looks[sleeve_id]

    def for_view(self, game: Listening, music: RoomMusic | None, view: JSONDict) -> JSONDict:
        """The ``senses`` entry for a bot's view of the table, as the game tells it
        (:class:`~recordroom.engine.game.Listening`): the room's songs, the server's sleeves."""

        def hear(turn: int) -> JSONDict | None:
            track_id = music.track_id(turn) if music is not None else None
            features = self.jukebox.features(track_id) if track_id else None
            return features.to_json() if features else None

        def look(sleeve_id: int) -> JSONDict | None:
            found = self.look(sleeve_id)
            return found.to_json() if found is not None else None

        return game.senses(view, hear, look)
