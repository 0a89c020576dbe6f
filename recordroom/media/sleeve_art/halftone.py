"""Halftone photo-like: a printed picture made of dots, as on a cheap seven-inch sleeve.

A grey-level "photograph" is a function of the position (a lit sphere, a mountain range under a
sun, a bust in profile, a rippling sea, a flower); dots grow with its darkness, on a grid turned
like a printer's screen, with a second ink offset for a duotone. The title sits in a label bar.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from recordroom.games.disc_cover.sleeves import Sleeve
from recordroom.media.sleeve_art.canvas import Canvas, Rng, fmt, legible
from recordroom.media.sleeve_art.palette import Palette

Field = Callable[[float, float], float]


def _sphere(rng: Rng) -> Field:
    cx, cy, r = rng.uniform(150, 250), rng.uniform(130, 190), rng.uniform(100, 130)
    lx, ly = rng.uniform(-0.8, 0.8), -0.6

    def field(x: float, y: float) -> float:
        dx, dy = (x - cx) / r, (y - cy) / r
        d2 = dx * dx + dy * dy
        if d2 > 1:
            return 0.08
        dz = math.sqrt(1 - d2)
        light = max(0.0, -(dx * lx + dy * ly) + dz * 0.5)
        return 1 - min(1.0, light)

    return field


def _mountains(rng: Rng) -> Field:
    peaks = [(rng.uniform(0, 400), rng.uniform(150, 230), rng.uniform(0.6, 1.4)) for _ in range(4)]
    sun_x = rng.uniform(100, 300)

    def field(x: float, y: float) -> float:
        ridge = min(300 - max(0.0, 300 - py - abs(x - px) * s) for px, py, s in peaks)
        if y > ridge:
            return 0.55 + 0.4 * min(1.0, (y - ridge) / 150)
        if math.hypot(x - sun_x, y - 110) < 50:
            return 0.0
        return 0.15 + 0.25 * (1 - y / 300)

    return field


def _bust(rng: Rng) -> Field:
    cx = rng.uniform(170, 230)
    facing = rng.pick([-1.0, 1.0])

    def field(x: float, y: float) -> float:
        head = ((x - cx) / 70) ** 2 + ((y - 150) / 88) ** 2
        nose = math.hypot(x - (cx + facing * 68), y - 160) < 16
        shoulders = y > 245 and abs(x - cx) < 40 + (y - 245) * 1.4
        if head < 1 or nose or shoulders:
            shade = 0.5 + 0.45 * max(0.0, min(1.0, (facing * (cx - x) + 60) / 130))
            return shade
        return 0.12 + 0.1 * math.sin(y / 9)

    return field


def _sea(rng: Rng) -> Field:
    k = rng.uniform(0.03, 0.05)
    phase = rng.uniform(0, 6)

    def field(x: float, y: float) -> float:
        wave = math.sin(x * k + math.sin(y * 0.05 + phase) * 2 + y * 0.02)
        return 0.15 + 0.35 * (y / 400) + 0.3 * (wave * 0.5 + 0.5) * (y / 400)

    return field


def _flower(rng: Rng) -> Field:
    petals = rng.integer(5, 8)
    cx, cy = rng.uniform(170, 230), rng.uniform(150, 190)

    def field(x: float, y: float) -> float:
        dx, dy = x - cx, y - cy
        rr = math.hypot(dx, dy)
        edge = 120 * (0.55 + 0.45 * abs(math.cos(petals * math.atan2(dy, dx) / 2)))
        if rr < 28:
            return 0.95
        if rr < edge:
            return 0.3 + 0.5 * rr / edge
        return 0.06

    return field


FIELDS = (_sphere, _mountains, _bust, _sea, _flower)


def _screen(cv: Canvas, field: Field, colour: str, step: float, angle: float, scale: float) -> None:
    """Dots on a grid turned by angle, each sized by the field's darkness at its centre."""
    ca, sa = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    parts = []
    n = int(300 / step)
    for i in range(-n, n + 1):
        for j in range(-n, n + 1):
            x = 200 + (i * ca - j * sa) * step
            y = 200 + (i * sa + j * ca) * step
            if not (-step < x < 400 + step and -step < y < 400 + step):
                continue
            r = step * 0.62 * math.sqrt(max(0.0, min(1.0, field(x, y)))) * scale
            if r > 0.5:
                parts.append(f"M{fmt(x - r)} {fmt(y)}a{fmt(r)} {fmt(r)} 0 1 0 {fmt(2 * r)} 0")
                parts.append(f"a{fmt(r)} {fmt(r)} 0 1 0 {fmt(-2 * r)} 0")
    cv.path("".join(parts), colour)


def draw(cv: Canvas, sleeve: Sleeve, pal: Palette, rng: Rng, variant: int) -> None:
    """Draws a halftone sleeve."""
    field = FIELDS[variant % len(FIELDS)](rng)
    paper, ink = (pal.pale, pal.deep) if not pal.dark_paper else (pal.paper, pal.ink)
    cv.rect(0, 0, 400, 400, paper)
    step = rng.uniform(9, 12)
    if variant >= len(FIELDS):
        _screen(cv, field, pal.a, step, 15, 1.0)
        _screen(cv, field, ink, step, 45, 0.75)
    else:
        _screen(cv, field, ink, step, 45, 1.0)
        cv.rect(0, 0, 400, 400, pal.a, opacity="0.25", style="mix-blend-mode:multiply")
    cv.rect(0, 326, 400, 74, ink)
    cv.text(sleeve.title.upper(), "mono-bold", 28, 20, 358, legible(paper, ink), max_width=360)
    cv.text(sleeve.artist, "mono", 16, 20, 384, legible(pal.a, ink, 3), max_width=360)
