"""Geometric modernist: flat circles, arcs and bars on a paper ground, like a 1920s poster.

Four compositions (a tile grid of quarter circles, a big disc crossed by a bar, stacked arches, and
left-aligned bars with a sun); the title sits in lowercase bold sans under the art.
"""

from __future__ import annotations

from recordroom.games.disc_cover.sleeves import Sleeve
from recordroom.media.sleeve_art.canvas import Canvas, Rng, fmt, legible
from recordroom.media.sleeve_art.palette import Palette


def draw(cv: Canvas, sleeve: Sleeve, pal: Palette, rng: Rng, variant: int) -> None:
    """Draws a geometric modernist sleeve."""
    cv.rect(0, 0, 400, 400, pal.paper)
    colours = [pal.a, pal.b, pal.c, pal.ink, pal.deep]
    kind = variant % 4
    if kind == 0:
        n = rng.pick([4, 5])
        cell = 340 / n
        for row in range(n - 1):
            for col in range(n):
                x, y = 30 + col * cell, 30 + row * cell
                colour = rng.pick(colours)
                shape = rng.integer(0, 3)
                if shape == 0:
                    corner = rng.integer(0, 3)
                    cx = x + (cell if corner in (1, 2) else 0)
                    cy = y + (cell if corner >= 2 else 0)
                    sx, sy = (x + cell if cx == x else x), cy
                    ex, ey = cx, (y + cell if cy == y else y)
                    d = (
                        f"M{fmt(cx)} {fmt(cy)}L{fmt(sx)} {fmt(sy)}"
                        f"A{fmt(cell)} {fmt(cell)} 0 0 {1 if corner in (0, 2) else 0} "
                        f"{fmt(ex)} {fmt(ey)}Z"
                    )
                    cv.path(d, colour)
                elif shape == 1:
                    cv.circle(x + cell / 2, y + cell / 2, cell / 2 - 3, colour)
                elif shape == 2:
                    cv.rect(x, y, cell, cell, colour)
                    cv.circle(x + cell / 2, y + cell / 2, cell / 4, pal.paper)
                else:
                    d = f"M{fmt(x)} {fmt(y + cell)}L{fmt(x + cell / 2)} {fmt(y)}"
                    d += f"L{fmt(x + cell)} {fmt(y + cell)}Z"
                    cv.path(d, colour)
    elif kind == 1:
        cx, cy = rng.uniform(150, 250), rng.uniform(130, 190)
        r = rng.uniform(95, 130)
        cv.circle(cx, cy, r, pal.a)
        angle = rng.uniform(-35, 35)
        cv.rect(-50, cy - 18, 500, 36, pal.ink, transform=f"rotate({fmt(angle)} 200 {fmt(cy)})")
        cv.rect(rng.uniform(40, 280), rng.uniform(40, 220), 60, 60, pal.b)
        cv.circle(rng.uniform(60, 340), rng.uniform(60, 240), 22, pal.c)
    elif kind == 2:
        base = 300.0
        widths = [150.0, 118.0, 86.0, 54.0, 22.0]
        cx = rng.uniform(150, 250)
        for i, w in enumerate(widths):
            colour = colours[i % len(colours)] if i % 2 == 0 else pal.paper
            cv.path(
                f"M{fmt(cx - w)} {fmt(base)}A{fmt(w)} {fmt(w)} 0 0 1 {fmt(cx + w)} {fmt(base)}Z",
                colour,
            )
        cv.rect(30, base, 340, 14, pal.ink)
        cv.circle(rng.uniform(60, 340), 70, 26, pal.b)
    else:
        y = 40.0
        for _ in range(6):
            h = rng.uniform(18, 40)
            cv.rect(30, y, rng.uniform(90, 340), h, rng.pick(colours))
            y += h + rng.uniform(6, 14)
        cv.circle(rng.uniform(250, 330), rng.uniform(110, 200), 56, pal.a, opacity="0.9")
    cv.text(
        sleeve.title.lower(), "sans-bold", 34, 30, 364, legible(pal.ink, pal.paper), max_width=340
    )
    cv.text(sleeve.artist, "sans", 16, 30, 386, legible(pal.deep, pal.paper), max_width=340)
