"""Bold typography: the title is the picture, set huge, stacked, outlined and turned.

Four layouts: words stacked edge to edge, one giant initial behind the title, the title repeated
in rows with one row lit, and a vertical title beside colour blocks.
"""

from __future__ import annotations

from recordroom.games.disc_cover.sleeves import Sleeve
from recordroom.media.sleeve_art.canvas import (
    Canvas,
    Rng,
    fmt,
    legible,
    text_outline,
    text_width,
)
from recordroom.media.sleeve_art.palette import Palette


def draw(cv: Canvas, sleeve: Sleeve, pal: Palette, rng: Rng, variant: int) -> None:
    """Draws a bold-typography sleeve."""
    words = sleeve.title.upper().split()
    kind = variant % 4
    font = rng.pick(["sans-bold", "serif-bold", "roman-bold", "mono-bold", "book-sans"])
    cv.rect(0, 0, 400, 400, pal.paper)
    if kind == 0:
        lines = words[:4] if len(words) <= 4 else [*words[:3], " ".join(words[3:])]
        sizes = [360 / max(1.0, text_width(word, font, 1)) for word in lines]
        gap = 10.0
        natural = sum(size * 0.73 for size in sizes) + gap * (len(lines) - 1)
        stretch = min(2.6, 318 / natural)
        cv.open("g", transform=f"translate(0 24) scale(1 {fmt(stretch)})")
        y = 0.0
        for i, (word, size) in enumerate(zip(lines, sizes, strict=True)):
            y += size * 0.73
            colour = legible([pal.ink, pal.a, pal.b, pal.c][i % 4], pal.paper, 2.2)
            if i % 2 == 1 and variant >= 4:
                d, _ = text_outline(word, font, size, 20, y, max_width=360)
                cv.path(d, "none", stroke=colour, stroke_width=fmt(3 / stretch + 1))
            else:
                cv.text(word, font, size, 20, y, colour, max_width=360)
            y += gap / stretch
        cv.close("g")
        cv.text(
            sleeve.artist.upper(),
            "sans-bold",
            15,
            380,
            388,
            legible(pal.ink, pal.paper),
            anchor="end",
        )
    elif kind == 1:
        initial = words[0][0]
        cv.text(initial, font, 380, 200, 292, pal.a, anchor="middle", opacity="0.9")
        cv.rect(0, 300, 400, 100, pal.ink)
        cv.text(
            sleeve.title,
            "sans-bold",
            40,
            200,
            352,
            legible(pal.paper, pal.ink),
            anchor="middle",
            max_width=370,
        )
        cv.text(sleeve.artist, "sans", 16, 200, 380, legible(pal.b, pal.ink), anchor="middle")
    elif kind == 2:
        line = sleeve.title.upper()
        size = min(60.0, 380 / max(1.0, text_width(line, font, 1)))
        lit = rng.integer(2, 5)
        for row in range(9):
            y = 10 + (row + 1) * 42
            colour = legible(pal.a, pal.paper, 3) if row == lit else pal.ink
            cv.text(
                line,
                font,
                size,
                10 - (row % 2) * 30,
                y,
                colour,
                opacity=None if row == lit else fmt(0.25 + 0.08 * row),
            )
        cv.text(
            sleeve.artist.upper(),
            "sans-bold",
            16,
            390,
            392,
            legible(pal.a, pal.paper, 3),
            anchor="end",
        )
    else:
        blocks = [pal.a, pal.b, pal.c, pal.deep]
        for i in range(4):
            cv.rect(250, i * 100, 150, 100, blocks[(i + variant) % 4])
        title = sleeve.title.upper()
        size = min(110.0, 380 / max(1.0, text_width(title, font, 1)))
        d, _ = text_outline(title, font, size, 0, 0, max_width=380)
        cv.path(
            d,
            legible(pal.ink, pal.paper),
            transform=f"translate({fmt(30 + size * 0.75)} 390) rotate(-90)",
        )
        cv.text(
            sleeve.artist,
            "sans-bold",
            18,
            265,
            385,
            legible(pal.paper, blocks[(3 + variant) % 4]),
            max_width=125,
        )
