"""Collage and torn paper: scraps of coloured, striped and dotted paper, taped down at odd angles.

Each scrap is a rectangle whose edges are torn (jittered), turned a little; some carry stripes or
dots. The title is a ransom note: every letter cut from a different scrap, in a different type.
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
    path_d,
    text_width,
)
from recordroom.media.sleeve_art.palette import Palette

RANSOM_FONTS = ("sans-bold", "serif-bold", "roman-bold-italic", "mono-bold", "book", "book-sans")


def _torn(rng: Rng, x: float, y: float, w: float, h: float, angle: float) -> list[Point]:
    """The outline of a torn rectangle, turned by angle degrees around its centre."""
    pts: list[Point] = []
    corners = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
    for k in range(4):
        (x0, y0), (x1, y1) = corners[k], corners[(k + 1) % 4]
        steps = max(2, int(math.hypot(x1 - x0, y1 - y0) / 9))
        for s in range(steps):
            t = s / steps
            pts.append(
                (x0 + (x1 - x0) * t + rng.uniform(-3, 3), y0 + (y1 - y0) * t + rng.uniform(-3, 3))
            )
    cx, cy = x + w / 2, y + h / 2
    ca, sa = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    return [
        (cx + (px - cx) * ca - (py - cy) * sa, cy + (px - cx) * sa + (py - cy) * ca)
        for px, py in pts
    ]


def draw(cv: Canvas, sleeve: Sleeve, pal: Palette, rng: Rng, variant: int) -> None:
    """Draws a collage sleeve."""
    ground = pal.pale if not pal.dark_paper else pal.paper
    cv.rect(0, 0, 400, 400, ground)
    for i in range(0, 400, 6):
        cv.rect(0, i, 400, 1, pal.ink, opacity="0.04")
    colours = [pal.a, pal.b, pal.c, pal.deep, pal.ink, pal.paper]
    count = 5 + variant % 3
    for k in range(count):
        w, h = rng.uniform(120, 260), rng.uniform(80, 200)
        x, y = rng.uniform(-40, 400 - w + 40), rng.uniform(-30, 300 - h)
        pts = _torn(rng, x, y, w, h, rng.uniform(-25, 25))
        d = path_d(pts)
        colour = colours[(k + variant) % len(colours)]
        cv.path(d, "#000000", opacity="0.18", transform="translate(3 4)")
        cv.path(d, colour)
        pattern = (k + variant) % 3
        clip = cv.clip(f'<path d="{d}"/>')
        if pattern == 1:
            cv.open("g", clip_path=clip)
            for sx in range(-400, 800, 14):
                cv.path(f"M{sx} 0l400 400l6 0l-400 -400Z", pal.paper, opacity="0.55")
            cv.close("g")
        elif pattern == 2:
            cv.open("g", clip_path=clip, fill=pal.ink, opacity="0.5")
            dots = "".join(
                f"M{fmt(px)} {fmt(py)}h3v3h-3Z"
                for px in range(int(x) - 40, int(x + w) + 40, 10)
                for py in range(int(y) - 40, int(y + h) + 40, 10)
            )
            cv.path(dots, pal.ink)
            cv.close("g")
    if variant % 2 == 0:
        cx, cy = rng.uniform(100, 300), rng.uniform(90, 200)
        cv.circle(cx, cy, rng.uniform(45, 75), pal.a, stroke=pal.paper, stroke_width="5")
    for _ in range(2):
        tx, ty = rng.uniform(40, 330), rng.uniform(20, 260)
        cv.rect(
            tx,
            ty,
            70,
            22,
            pal.pale,
            opacity="0.6",
            transform=f"rotate({fmt(rng.uniform(-40, 40))} {fmt(tx + 35)} {fmt(ty + 11)})",
        )
    _ransom(cv, sleeve.title, pal, rng)
    cv.rect(14, 374, 20 + text_width(sleeve.artist, "typewriter", 17), 22, ground)
    cv.text(sleeve.artist, "typewriter", 17, 24, 390, legible(pal.ink, ground), max_width=360)


def _ransom(cv: Canvas, title: str, pal: Palette, rng: Rng) -> None:
    """The title as letters cut from magazines, on two lines at most, along the bottom."""
    words = title.split()
    lines = (
        [" ".join(words)]
        if len(title) <= 13
        else [" ".join(words[: (len(words) + 1) // 2]), " ".join(words[(len(words) + 1) // 2 :])]
    )
    size = 34.0
    for row, line in enumerate(lines):
        widths = [text_width(ch, "sans-bold", size) * 1.25 + 6 for ch in line]
        scale = min(1.0, 370 / sum(widths))
        x = 200 - sum(widths) * scale / 2
        y = 372 - (len(lines) - 1 - row) * 46 - 10
        for ch, w in zip(line, widths, strict=True):
            if ch != " ":
                back = rng.pick([pal.paper, pal.pale, pal.a, pal.b, pal.ink, pal.c])
                fore = legible(rng.pick([pal.ink, pal.deep, pal.pale, pal.a]), back)
                angle = rng.uniform(-9, 9)
                cx = x + w * scale / 2
                cv.open("g", transform=f"rotate({fmt(angle)} {fmt(cx)} {fmt(y - 12)})")
                cv.rect(x + 1, y - size * scale * 0.95, w * scale - 2, size * scale * 1.25, back)
                cv.text(ch, rng.pick(RANSOM_FONTS), size * scale, cx, y, fore, anchor="middle")
                cv.close("g")
            x += w * scale
