"""Psychedelic patterns: wavy rings, sunbursts, spirals and moiré in colours that clash on purpose.

The title runs round an arc in a fat face on a disc at the centre, like a late-sixties poster.
"""

from __future__ import annotations

import math

from recordroom.games.disc_cover.sleeves import Sleeve
from recordroom.media.sleeve_art.canvas import (
    Canvas,
    Point,
    Rng,
    fmt,
    legible,
    mix,
    path_d,
    text_outline,
    text_width,
)
from recordroom.media.sleeve_art.palette import Palette


def _rings(cv: Canvas, rng: Rng, colours: list[str], cx: float, cy: float) -> None:
    lobes = rng.integer(5, 11)
    amp = rng.uniform(0.05, 0.12)
    for k, r in enumerate(range(330, 10, -22)):
        pts: list[Point] = []
        for s in range(90):
            a = s * math.tau / 90
            rr = r * (1 + amp * math.sin(lobes * a + k * 0.5))
            pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
        cv.path(path_d(pts), colours[k % len(colours)])


def _burst(cv: Canvas, rng: Rng, colours: list[str], cx: float, cy: float) -> None:
    n = rng.integer(14, 24)
    twist = rng.uniform(-25, 25)
    for k in range(n):
        a0, a1 = k * 360 / n, (k + 1) * 360 / n
        pts: list[Point] = [(cx, cy)]
        for s in range(6):
            r = 60 + s * 80
            a = math.radians(a0 + twist * s / 5)
            pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
        for s in range(5, -1, -1):
            r = 60 + s * 80
            a = math.radians(a1 + twist * s / 5)
            pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
        cv.path(path_d(pts), colours[k % len(colours)])


def _spiral(cv: Canvas, rng: Rng, colours: list[str], cx: float, cy: float) -> None:
    cv.rect(0, 0, 400, 400, colours[1])
    arms = rng.integer(2, 4)
    for arm in range(arms):
        pts: list[Point] = []
        for s in range(160):
            t = s / 159
            a = math.radians(arm * 360 / arms + t * 900)
            r = 6 + t * 300
            pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
        d = path_d(pts, closed=False)
        cv.path(d, "none", stroke=colours[(arm % 2) * 2], stroke_width="26", stroke_linecap="round")


def _moire(cv: Canvas, rng: Rng, colours: list[str], cx: float, cy: float) -> None:
    cv.rect(0, 0, 400, 400, colours[0])
    for centre, colour in (((cx - 40, cy), colours[2]), ((cx + 40, cy + 20), colours[3])):
        d = "".join(
            f"M{fmt(centre[0] - r)} {fmt(centre[1])}"
            f"a{r} {r} 0 1 0 {2 * r} 0a{r} {r} 0 1 0 {-2 * r} 0"
            for r in range(8, 420, 12)
        )
        cv.path(d, "none", stroke=colour, stroke_width="5")


def draw(cv: Canvas, sleeve: Sleeve, pal: Palette, rng: Rng, variant: int) -> None:
    """Draws a psychedelic sleeve."""
    colours = [pal.a, pal.paper, pal.b, pal.c, pal.deep]
    cv.rect(0, 0, 400, 400, pal.paper)
    cx, cy = rng.uniform(170, 230), rng.uniform(170, 230)
    (_rings, _burst, _spiral, _moire)[variant % 4](cv, rng, colours, cx, cy)
    r = 118.0
    disc = mix(pal.pale, "#fffaf0", 0.4)
    cv.circle(cx, cy, r + 7, legible(pal.deep, disc))
    cv.circle(cx, cy, r, disc)
    _arc_text(cv, sleeve.title.upper(), "sans-bold", cx, cy, r - 32, legible(pal.deep, disc), 28)
    cv.text(
        sleeve.artist,
        "roman-bold-italic",
        24,
        cx,
        cy + 26,
        legible(pal.a, disc),
        anchor="middle",
        max_width=160,
    )


def _arc_text(
    cv: Canvas, text: str, font: str, cx: float, cy: float, radius: float, fill: str, size: float
) -> None:
    """Text set letter by letter round the top of a circle, centred on its top."""
    widths = [text_width(ch, font, size) for ch in text]
    total = sum(widths)
    span = total / radius
    if span > math.radians(250):
        size *= math.radians(250) / span
        widths = [w * math.radians(250) / span for w in widths]
        total = sum(widths)
    a = -math.pi / 2 - total / radius / 2
    for ch, w in zip(text, widths, strict=True):
        mid = a + w / 2 / radius
        if ch != " ":
            d, _ = text_outline(ch, font, size, 0, 0, "middle")
            x, y = cx + radius * math.cos(mid), cy + radius * math.sin(mid)
            cv.path(
                d,
                fill,
                transform=f"translate({fmt(x)} {fmt(y)}) rotate({fmt(math.degrees(mid) + 90)})",
            )
        a += w / radius
