"""Themes: the rulebook's "themed playlist" suggestion, made from the tracks' own tags.

A theme is a decade (from the year tag: "80s", "2000s") or a genre (from the genre tag, with
common spellings folded together: "Soundtrack" and "Film Score" are both "Film scores"). The
table picks one or more themes at setup; the game plays the tracks of any of them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from recordroom.media.music.library import Track

# Genre tags that mean the same theme, folded to the name the table shows.
_GENRE_FOLDS: dict[str, str] = {
    "soundtrack": "Film scores",
    "film score": "Film scores",
    "film scores": "Film scores",
    "score": "Film scores",
    "ost": "Film scores",
    "children's": "Kids' music",
    "children's music": "Kids' music",
    "kids": "Kids' music",
    "kids' music": "Kids' music",
    "hip hop": "Hip-hop",
    "hip-hop": "Hip-hop",
    "rap": "Hip-hop",
    "r&b": "R&B",
    "rnb": "R&B",
    "electronica": "Electronic",
    "electronic": "Electronic",
    "edm": "Electronic",
    "game": "Video game",
    "video game": "Video game",
    "videogame": "Video game",
}


@dataclass(frozen=True)
class Theme:
    """A named set of tracks."""

    name: str
    kind: str
    """``decade`` or ``genre``."""
    track_ids: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        """The theme as the setup screen lists it."""
        return {"name": self.name, "kind": self.kind, "tracks": len(self.track_ids)}


def decade_of(year: int | None) -> str | None:
    """ "80s" for 1980-1989, "2000s" for 2000-2009; None without a year."""
    if year is None:
        return None
    start = year - year % 10
    return f"{start % 100:02d}s" if start < 2000 else f"{start}s"


def genre_of(genre: str) -> str | None:
    """The theme name of a genre tag, or None for an empty tag."""
    text = genre.strip()
    if not text:
        return None
    folded = _GENRE_FOLDS.get(text.lower())
    if folded:
        return folded
    return " ".join(word[:1].upper() + word[1:] for word in text.split())


def themes(tracks: Iterable[Track]) -> list[Theme]:
    """Every theme the tracks make, decades first (in time order), then genres by name."""
    decades: dict[str, list[str]] = defaultdict(list)
    genres: dict[str, list[str]] = defaultdict(list)
    for track in tracks:
        decade = decade_of(track.year)
        if decade:
            decades[decade].append(track.id)
        for part in track.genre.replace(";", "/").split("/"):
            name = genre_of(part)
            if name:
                genres[name].append(track.id)

    def decade_key(name: str) -> int:
        digits = int(name[:-1])
        return digits if digits >= 1000 else 1900 + digits

    out = [Theme(n, "decade", tuple(decades[n])) for n in sorted(decades, key=decade_key)]
    out += [Theme(n, "genre", tuple(genres[n])) for n in sorted(genres)]
    return out


def select(tracks: Iterable[Track], names: Sequence[str]) -> list[str]:
    """Ids of the tracks in any of the named themes, in library order; KeyError for unknown."""
    pool = list(tracks)
    by_name = {theme.name.lower(): theme for theme in themes(pool)}
    wanted: set[str] = set()
    for name in names:
        theme = by_name.get(name.strip().lower())
        if theme is None:
            known = ", ".join(t.name for t in themes(pool)) or "none"
            raise KeyError(f"no theme named {name!r}; themes here: {known}")
        wanted.update(theme.track_ids)
    return [track.id for track in pool if track.id in wanted]
