"""The built-in sleeve art: each sleeve of the catalogue drawn as a square SVG, by code.

``render_svg(sleeve)`` looks up the sleeve's art family, seeds a random source with the sleeve's id
and family, picks a palette from its mood and lets the family draw. Nothing else goes in: the same
catalogue entry always gives the same bytes. A sleeve's *variant* (its place among the sleeves of
its family in the catalogue) picks the family's composition, so the ten sleeves of a family are
built differently, not only coloured differently.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from recordroom.games.disc_cover.sleeves import Sleeve, catalogue
from recordroom.media.sleeve_art import (
    blobs,
    collage,
    geometric,
    gradient,
    halftone,
    lineart,
    nightcity,
    psychedelic,
    scifi,
    typography,
)
from recordroom.media.sleeve_art.canvas import Canvas, Rng
from recordroom.media.sleeve_art.palette import Palette, palette_for

Draw = Callable[[Canvas, Sleeve, Palette, Rng, int], None]

FAMILIES: dict[str, Draw] = {
    "geometric": geometric.draw,
    "gradient": gradient.draw,
    "halftone": halftone.draw,
    "typography": typography.draw,
    "collage": collage.draw,
    "blobs": blobs.draw,
    "night-city": nightcity.draw,
    "psychedelic": psychedelic.draw,
    "line-art": lineart.draw,
    "retro-sci-fi": scifi.draw,
}
"""Art family name (as written in the catalogue) -> the function that draws it."""


class UnknownFamily(ValueError):
    """A sleeve names an art family that no module draws."""


def variant_of(sleeve: Sleeve) -> int:
    """The sleeve's place among the built-in sleeves of its family (its id for other sleeves)."""
    same = [s.id for s in catalogue() if s.family == sleeve.family]
    return same.index(sleeve.id) if sleeve.id in same else sleeve.id


def render_svg(sleeve: Sleeve) -> str:
    """The sleeve's art as a standalone 400 x 400 SVG document."""
    draw = FAMILIES.get(sleeve.family)
    if draw is None:
        raise UnknownFamily(
            f"sleeve {sleeve.id} ({sleeve.title!r}) names family {sleeve.family!r}; "
            f"known families: {', '.join(FAMILIES)}"
        )
    rng = Rng(sleeve.id, sleeve.family, sleeve.title)
    canvas = Canvas(sleeve.title, sleeve.artist)
    draw(canvas, sleeve, palette_for(sleeve.mood, rng), rng, variant_of(sleeve))
    return canvas.svg()


@cache
def builtin_svg(sleeve_id: int) -> str:
    """The SVG of a built-in sleeve by id (cached)."""
    sleeve = next((s for s in catalogue() if s.id == sleeve_id), None)
    if sleeve is None:
        raise KeyError(f"no built-in sleeve with id {sleeve_id}")
    return render_svg(sleeve)
