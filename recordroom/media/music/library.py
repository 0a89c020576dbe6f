"""The music library: the tracks the table may play, each known by an id, never by a path.

:func:`scan` walks the music folders a host named (``recordroom serve --music DIR``), reads each
audio file's tags with mutagen, and indexes every playable track under a short stable id derived
from the folder and the file's place in it. Clients only ever see ids; :meth:`Library.path_of`
is the one way back to a file, and it only knows files that the scan found inside a folder.

What the scan refuses, with a warning and never a crash: files it cannot read as audio, symlinks
(file or folder) whose target lies outside the music folder, and anything that is not a regular
file. Untagged files get their title from the file name.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import mutagen

log = logging.getLogger(__name__)

AUDIO_TYPES: dict[str, str] = {
    ".mp3": "audio/mpeg",
    ".ogg": "audio/ogg",
    ".oga": "audio/ogg",
    ".opus": "audio/ogg",
    ".flac": "audio/flac",
    ".wav": "audio/wav",
    ".m4a": "audio/mp4",
    ".mp4": "audio/mp4",
    ".aac": "audio/aac",
}
PLAYLIST_SUFFIXES = (".m3u", ".m3u8")

_LEADING_NUMBER = re.compile(r"^\s*\d{1,3}(?:\s*[-._)]+\s*|\s+)(?=\S)")


@dataclass(frozen=True)
class Track:
    """One playable track."""

    id: str
    title: str
    artist: str
    album: str
    genre: str
    year: int | None
    duration: float
    """Seconds."""
    media_type: str
    source: str
    """The name of the folder (or ``demo``) the track came from."""
    path: Path = field(repr=False, compare=False)
    """Server-side only: never sent to a client."""
    root: Path = field(default=Path("/"), repr=False, compare=False)
    """Server-side only: the music folder the file must stay inside."""
    mood: str = ""
    """For generated tracks, the mood they were made to carry."""

    def to_json(self) -> dict[str, Any]:
        """What a client may know of the track: everything but where it lives."""
        return {
            "id": self.id,
            "title": self.title,
            "artist": self.artist,
            "album": self.album,
            "genre": self.genre,
            "year": self.year,
            "duration": round(self.duration, 2),
            "source": self.source,
        }


@dataclass(frozen=True)
class Playlist:
    """An M3U/M3U8 playlist found in a music folder, as track ids."""

    id: str
    name: str
    track_ids: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        """The playlist as a client sees it."""
        return {"id": self.id, "name": self.name, "tracks": list(self.track_ids)}


@dataclass(frozen=True)
class ScanProblem:
    """A file the scan skipped, and why (shown to the host as a warning)."""

    name: str
    reason: str


@dataclass
class Library:
    """Tracks and playlists by id, with the problems met while scanning."""

    tracks: dict[str, Track] = field(default_factory=dict)
    playlists: dict[str, Playlist] = field(default_factory=dict)
    problems: list[ScanProblem] = field(default_factory=list)

    def add(self, track: Track) -> None:
        """Indexes a track (a later track with the same id replaces an earlier one)."""
        self.tracks[track.id] = track

    def merge(self, other: Library) -> None:
        """Takes every track, playlist and problem of another library."""
        self.tracks.update(other.tracks)
        self.playlists.update(other.playlists)
        self.problems.extend(other.problems)

    def get(self, track_id: str) -> Track:
        """The track with that id; ``KeyError`` for an id the library does not hold."""
        if not isinstance(track_id, str) or track_id not in self.tracks:
            raise KeyError(f"no track with id {track_id!r}")
        return self.tracks[track_id]

    def path_of(self, track_id: str) -> Path:
        """The file behind a track id, checked again at the moment it is served."""
        track = self.get(track_id)
        if not _inside(track.path, track.root) or not track.path.is_file():
            raise KeyError(f"track {track_id!r} is no longer a playable file in its folder")
        return track.path

    def __len__(self) -> int:
        return len(self.tracks)

    def __iter__(self) -> Iterator[Track]:
        return iter(self.tracks.values())


def track_id(source_key: str, relative: str) -> str:
    """A short id for a file, stable across scans of the same folder."""
    digest = hashlib.blake2b(f"{source_key}\0{relative}".encode(), digest_size=8)
    return digest.hexdigest()


def title_from_name(path: Path) -> str:
    """A readable title from a file name: ``03_-_night_drive.mp3`` reads "night drive"."""
    stem = path.stem.replace("_", " ").strip()
    cleaned = _LEADING_NUMBER.sub("", stem).strip(" -.")
    return re.sub(r"\s+", " ", cleaned or stem)


def _first(tags: Any, *keys: str) -> str:
    if tags is None:
        return ""
    for key in keys:
        try:
            value = tags.get(key)
        except (KeyError, ValueError, TypeError):
            continue
        if value:
            text = value[0] if isinstance(value, list) else value
            text = str(text).strip()
            if text:
                return text
    return ""


def _year(text: str) -> int | None:
    match = re.search(r"(1[89]\d\d|20\d\d)", text)
    return int(match.group(1)) if match else None


def read_track(path: Path, *, track_id_: str, source: str, root: Path) -> Track:
    """A track from an audio file's tags; ``ValueError`` when it is not readable audio."""
    try:
        audio = mutagen.File(path, easy=True)
    except Exception as error:  # mutagen raises many types for a damaged file
        raise ValueError(f"unreadable audio ({type(error).__name__}: {error})") from error
    if audio is None or getattr(audio, "info", None) is None:
        raise ValueError("not an audio file mutagen can read")
    duration = float(getattr(audio.info, "length", 0.0) or 0.0)
    if duration <= 0:
        raise ValueError("the file has no playable length")
    tags = audio.tags
    return Track(
        id=track_id_,
        title=_first(tags, "title") or title_from_name(path),
        artist=_first(tags, "artist", "albumartist") or "Unknown artist",
        album=_first(tags, "album"),
        genre=_first(tags, "genre"),
        year=_year(_first(tags, "date", "year", "originaldate")),
        duration=duration,
        media_type=AUDIO_TYPES[path.suffix.lower()],
        source=source,
        path=path,
        root=root,
    )


def _inside(path: Path, root: Path) -> bool:
    try:
        path.resolve(strict=True).relative_to(root)
    except (ValueError, OSError):
        return False
    return True


def _walk(root: Path, problems: list[ScanProblem]) -> Iterable[Path]:
    """Regular files below root whose real place is inside root, in a stable order."""
    for folder, dirs, files in os.walk(root, followlinks=True):
        here = Path(folder)
        kept = []
        for name in sorted(dirs):
            if _inside(here / name, root):
                kept.append(name)
            else:
                problems.append(
                    ScanProblem(str((here / name).relative_to(root)), "leaves the folder")
                )
        dirs[:] = kept
        for name in sorted(files):
            path = here / name
            relative = str(path.relative_to(root))
            if not _inside(path, root):
                problems.append(ScanProblem(relative, "a link that leaves the music folder"))
                continue
            if not path.is_file():
                continue
            yield path


def scan(folders: Sequence[Path | str]) -> Library:
    """Scans music folders into a library; never raises for a bad file, only records it."""
    library = Library()
    for index, folder in enumerate(folders):
        root = Path(folder).expanduser()
        try:
            root = root.resolve(strict=True)
        except OSError:
            library.problems.append(ScanProblem(str(folder), "no such folder"))
            log.warning("music folder %s does not exist", folder)
            continue
        if not root.is_dir():
            library.problems.append(ScanProblem(str(folder), "not a folder"))
            continue
        source = root.name or f"folder {index + 1}"
        key = str(root)
        playlists: list[Path] = []
        for path in _walk(root, library.problems):
            relative = path.relative_to(root).as_posix()
            suffix = path.suffix.lower()
            if suffix in PLAYLIST_SUFFIXES:
                playlists.append(path)
                continue
            if suffix not in AUDIO_TYPES:
                continue
            try:
                track = read_track(
                    path, track_id_=track_id(key, relative), source=source, root=root
                )
            except ValueError as error:
                library.problems.append(ScanProblem(relative, str(error)))
                log.warning("skipping %s: %s", relative, error)
                continue
            library.add(track)
        by_path = {t.path.resolve(): t.id for t in library if t.source == source}
        for path in playlists:
            playlist = read_playlist(path, root, by_path, key, library.problems)
            if playlist is not None:
                library.playlists[playlist.id] = playlist
    return library


def read_playlist(
    path: Path,
    root: Path,
    by_path: dict[Path, str],
    key: str,
    problems: list[ScanProblem],
) -> Playlist | None:
    """An M3U/M3U8 playlist as the ids of the library tracks it names.

    Entries are paths relative to the playlist (or absolute); an entry that leaves the music
    folder, is a URL, or names no scanned track is skipped and reported.
    """
    relative = path.relative_to(root).as_posix()
    try:
        raw = path.read_bytes()
    except OSError as error:
        problems.append(ScanProblem(relative, f"unreadable playlist ({error})"))
        return None
    text = raw.decode("utf-8", errors="replace") if path.suffix.lower() == ".m3u8" else None
    if text is None:
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            text = raw.decode("latin-1")
    name = title_from_name(path)
    ids: list[str] = []
    for line in text.splitlines():
        entry = line.strip().lstrip("\ufeff")
        if entry.startswith("#PLAYLIST:"):
            name = entry.split(":", 1)[1].strip() or name
            continue
        if not entry or entry.startswith("#"):
            continue
        if "://" in entry:
            problems.append(ScanProblem(f"{relative}: {entry}", "a URL, not a file"))
            continue
        target = Path(entry.replace("\\", "/"))
        target = target if target.is_absolute() else path.parent / target
        try:
            resolved = target.resolve(strict=True)
            resolved.relative_to(root)
        except (OSError, ValueError):
            problems.append(ScanProblem(f"{relative}: {entry}", "not a track in the music folder"))
            continue
        found = by_path.get(resolved)
        if found is None:
            problems.append(ScanProblem(f"{relative}: {entry}", "not a playable track"))
            continue
        ids.append(found)
    if not ids:
        problems.append(ScanProblem(relative, "playlist names no playable track"))
        return None
    return Playlist(id=track_id(key, relative), name=name, track_ids=tuple(ids))
