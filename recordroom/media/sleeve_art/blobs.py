"""Organic blobs: soft cut-paper shapes that drift and overlap, like leaves on a pond.

Each blob is a closed smooth curve through points at a wobbling radius. Four arrangements: a drift
of many blobs, one big blob with seeds, a stack of ripples, and cut-out leaves; the title is a
lowercase serif that floats where the shapes leave room.
"""

from __future__ import annotations

import math

from recordroom.games.disc_cover.sleeves import Sleeve
from recordroom.media.sleeve_art.canvas import Canvas, Point, Rng, fmt, legible, smooth_d
from recordroom.media.sleeve_art.palette import Palette


def _blob(rng: Rng, cx: float, cy: float, r: float, wobble: float = 0.3, n: int = 7) -> str:
    phase = rng.uniform(0, 360)
    pts: list[Point] = []
    for k in range(n):
        a = math.radians(phase + k * 360 / n)
        rr = r * (1 + rng.uniform(-wobble, wobble))
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return smooth_d(pts)


def _leaf(cx: float, cy: float, length: float, angle: float) -> str:
    w = length * 0.35
    return (
        f"M{fmt(cx)} {fmt(cy)}"
        f"C{fmt(cx + w)} {fmt(cy - length * 0.3)} {fmt(cx + w)} {fmt(cy - length * 0.7)} "
        f"{fmt(cx)} {fmt(cy - length)}"
        f"C{fmt(cx - w)} {fmt(cy - length * 0.7)} {fmt(cx - w)} {fmt(cy - length * 0.3)} "
        f"{fmt(cx)} {fmt(cy)}Z"
    )


def draw(cv: Canvas, sleeve: Sleeve, pal: Palette, rng: Rng, variant: int) -> None:
    """Draws an organic-blob sleeve."""
    cv.rect(0, 0, 400, 400, pal.paper)
    colours = [pal.a, pal.b, pal.c, pal.deep]
    kind = variant % 4
    title_y = 365.0
    if kind == 0:
        for k in range(9):
            cv.path(
                _blob(rng, rng.uniform(40, 360), rng.uniform(40, 300), rng.uniform(30, 90)),
                colours[k % 4],
                opacity="0.85",
            )
    elif kind == 1:
        cx, cy = rng.uniform(170, 230), 175.0
        cv.path(_blob(rng, cx, cy, 140, 0.18, 9), pal.a)
        cv.path(_blob(rng, cx + 20, cy - 10, 80, 0.25, 6), pal.b)
        for _ in range(14):
            cv.circle(
                rng.uniform(cx - 110, cx + 110),
                rng.uniform(cy - 110, cy + 110),
                rng.uniform(4, 9),
                pal.ink,
            )
    elif kind == 2:
        cx, cy = rng.uniform(120, 280), rng.uniform(140, 200)
        for k, r in enumerate((190, 150, 112, 78, 46)):
            cv.path(_blob(rng, cx, cy, r, 0.12, 10), colours[k % 4] if k % 2 == 0 else pal.pale)
        title_y = 370
    else:
        for _ in range(7):
            angle = rng.uniform(-70, 70)
            x, y = rng.uniform(60, 340), rng.uniform(170, 330)
            cv.path(
                _leaf(x, y, rng.uniform(110, 190), angle),
                rng.pick(colours),
                transform=f"rotate({fmt(angle)} {fmt(x)} {fmt(y)})",
            )
        cv.circle(rng.uniform(80, 320), 80, 40, pal.c)
    band = pal.pale if kind != 2 else pal.paper
    cv.rect(0, title_y - 38, 400, 72, band, opacity="0.85")
    cv.text(
        sleeve.title.lower(),
        "serif-bold",
        36,
        200,
        title_y,
        legible(pal.ink, band),
        anchor="middle",
        max_width=360,
    )
    cv.text(
        sleeve.artist.lower(),
        "serif-italic",
        17,
        200,
        title_y + 24,
        legible(pal.deep, band),
        anchor="middle",
        max_width=360,
    )
