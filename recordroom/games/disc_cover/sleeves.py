"""The sleeve catalogue: the 100 Record Sleeve cards of the box, as data.

Each sleeve has a stable integer id, a title, a fictional artist, the art family it is drawn in and
the mood it aims to evoke. The rules need only ids (the deck is a shuffle of them); the titles feed
the views, and :mod:`recordroom.media` draws the art from the same entries.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources


@dataclass(frozen=True, slots=True)
class Sleeve:
    """One Record Sleeve card."""

    id: int
    title: str
    artist: str
    family: str
    mood: str

    def to_json(self) -> dict[str, object]:
        """The sleeve as shown to players."""
        return {"id": self.id, "title": self.title, "artist": self.artist}


class CatalogueError(ValueError):
    """The sleeve catalogue data is not valid; the message names the entry."""


def parse_catalogue(text: str) -> tuple[Sleeve, ...]:
    """Sleeves from the TOML text of a catalogue, validated."""
    data = tomllib.loads(text)
    entries = data.get("sleeve")
    if not isinstance(entries, list) or not entries:
        raise CatalogueError("the catalogue has no [[sleeve]] entries")
    sleeves: list[Sleeve] = []
    seen: set[int] = set()
    for index, entry in enumerate(entries, start=1):
        where = f"sleeve entry {index}"
        if not isinstance(entry, dict):
            raise CatalogueError(f"{where}: not a table")
        sid = entry.get("id")
        if not isinstance(sid, int) or isinstance(sid, bool) or sid < 1:
            raise CatalogueError(f"{where}: id must be a positive integer, got {sid!r}")
        if sid in seen:
            raise CatalogueError(f"{where}: duplicate id {sid}")
        seen.add(sid)
        fields = {}
        for name in ("title", "artist", "family", "mood"):
            value = entry.get(name)
            if not isinstance(value, str) or not value.strip():
                raise CatalogueError(f"{where} (id {sid}): {name} must be a non-empty string")
            fields[name] = value
        sleeves.append(Sleeve(id=sid, **fields))
    return tuple(sleeves)


@cache
def catalogue() -> tuple[Sleeve, ...]:
    """The built-in catalogue, in id order."""
    text = resources.files(__package__).joinpath("sleeves.toml").read_text(encoding="utf-8")
    return tuple(sorted(parse_catalogue(text), key=lambda s: s.id))


@cache
def by_id() -> dict[int, Sleeve]:
    """The built-in sleeves keyed by id."""
    return {s.id: s for s in catalogue()}
