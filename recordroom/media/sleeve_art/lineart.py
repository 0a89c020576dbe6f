"""Minimal line art: one line on a lot of paper, a contour, a horizon, a wave, a spiral, an eye.

The quietest family: ten single-line drawings, one per sleeve, in one ink with one accent. The
title is lowercase typewriter type at the foot, under a short accent rule.
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
    smooth_d,
)
from recordroom.media.sleeve_art.palette import Palette


def _contours(rng: Rng) -> list[str]:
    out = []
    for k in range(12):
        pts: list[Point] = [
            (
                x,
                280
                - k * 15
                - 100 * math.exp(-(((x - 200) / (80 + k * 5)) ** 2)) * (1 - k / 14)
                + rng.uniform(-3, 3),
            )
            for x in range(40, 361, 20)
        ]
        out.append(smooth_d(pts, closed=False))
    return out


def _sun(rng: Rng) -> list[str]:
    r = rng.uniform(60, 90)
    out = [f"M{fmt(200 - r)} 240A{fmt(r)} {fmt(r)} 0 0 1 {fmt(200 + r)} 240", "M40 240H360"]
    out += [f"M{100 + k * 22} {258 + k * 14}H{300 - k * 22}" for k in range(5)]
    return out


def _wave(rng: Rng) -> list[str]:
    k = rng.uniform(30, 45)
    pts = [
        (x, 180 + 80 * math.sin(x / k) * math.exp(-(((x - 200) / 150) ** 2)))
        for x in range(30, 371, 5)
    ]
    return [path_d(pts, closed=False)]


def _scribble(rng: Rng) -> list[str]:
    pts: list[Point] = []
    for k in range(18):
        a = k * math.tau / 6.4
        r = 50 + 60 * abs(math.sin(k * 1.3))
        pts.append(
            (
                200 + r * math.cos(a) + rng.uniform(-20, 20),
                175 + r * math.sin(a) + rng.uniform(-20, 20),
            )
        )
    return [smooth_d(pts, closed=False)]


def _stairs(rng: Rng) -> list[str]:
    x, y = 50.0, 70.0
    d = f"M{fmt(x)} {fmt(y)}"
    while x < 330:
        step = rng.uniform(26, 42)
        d += f"H{fmt(x + step)}V{fmt(y + step * 0.85)}"
        x, y = x + step, y + step * 0.85
    return [d]


def _rings(rng: Rng) -> list[str]:
    cx, cy = rng.uniform(170, 230), rng.uniform(160, 190)
    out = []
    for r in range(12, 150, 13):
        rr = r + rng.uniform(-3, 3)
        out.append(
            f"M{fmt(cx - rr)} {fmt(cy)}a{fmt(rr)} {fmt(rr * 0.95)} 0 1 0 {fmt(2 * rr)} 0"
            f"a{fmt(rr)} {fmt(rr * 0.95)} 0 1 0 {fmt(-2 * rr)} 0"
        )
    return out


def _spiral(rng: Rng) -> list[str]:
    turns = rng.uniform(4, 6)
    pts = []
    for s in range(400):
        t = s / 399
        a = t * turns * math.tau
        pts.append((200 + 140 * t * math.cos(a), 175 + 140 * t * math.sin(a)))
    return [path_d(pts, closed=False)]


def _bend(rng: Rng) -> list[str]:
    out = []
    bent = rng.integer(3, 7)
    for k in range(11):
        y = 50 + k * 24
        if k == bent:
            out.append(f"M40 {y}H170Q200 {y - 70} 230 {y}H360")
        else:
            out.append(f"M40 {y}H360")
    return out


def _eye(rng: Rng) -> list[str]:
    w = rng.uniform(130, 160)
    return [
        f"M{fmt(200 - w)} 180Q200 {fmt(180 - w * 0.9)} {fmt(200 + w)} 180"
        f"Q200 {fmt(180 + w * 0.9)} {fmt(200 - w)} 180Z",
        "M148 180a52 52 0 1 0 104 0a52 52 0 1 0 -104 0",
    ] + [
        f"M{fmt(200 + 70 * math.cos(a))} {fmt(120 + 40 * math.sin(a))}l{fmt(-20 * math.cos(a))} "
        f"{fmt(-30)}"
        for a in (-2.4, -1.9, -1.2, -0.7)
    ]


def _bars(rng: Rng) -> list[str]:
    return [f"M{x} 300V{fmt(300 - rng.uniform(40, 240))}" for x in range(60, 341, 28)]


def _colour_shape(cv: Canvas, variant: int, colour: str) -> None:
    """One flat shape of colour behind the line, placed differently on every sleeve."""
    match variant % 5:
        case 0:
            cv.rect(0, 0, 400, 120 + variant * 8, colour)
        case 1:
            cv.circle(300 - variant * 10, 120, 110, colour)
        case 2:
            cv.rect(0, 0, 150 + variant * 6, 310, colour)
        case 3:
            cv.path("M0 310L400 40V310Z", colour)
        case _:
            cv.rect(200, 0, 200, 310, colour)


DRAWINGS = (_contours, _sun, _wave, _scribble, _bars, _stairs, _rings, _spiral, _bend, _eye)


def draw(cv: Canvas, sleeve: Sleeve, pal: Palette, rng: Rng, variant: int) -> None:
    """Draws a minimal line-art sleeve."""
    paper = pal.pale if not pal.dark_paper else pal.paper
    line = legible(pal.deep if not pal.dark_paper else pal.ink, paper, 5)
    accent = legible(pal.a, paper, 3)
    cv.rect(0, 0, 400, 400, paper)
    _colour_shape(cv, variant, mix(pal.b, paper, 0.35))
    paths = DRAWINGS[variant % len(DRAWINGS)](rng)
    for k, d in enumerate(paths):
        colour = accent if k == len(paths) // 2 and len(paths) > 2 else line
        cv.path(
            d,
            "none",
            stroke=colour,
            stroke_width="4.5",
            stroke_linecap="round",
            stroke_linejoin="round",
        )
    if len(paths) <= 2:
        cv.circle(rng.uniform(70, 330), rng.uniform(50, 90), 11, accent)
    title = sleeve.title.lower()
    spaced = " ".join(title) if len(title) <= 12 else title
    cv.add("line", x1=30.0, y1=326.0, x2=70.0, y2=326.0, stroke=accent, stroke_width="4")
    cv.text(spaced, "typewriter", 30, 30, 362, line, max_width=340)
    cv.text(sleeve.artist.lower(), "typewriter", 18, 30, 386, accent, max_width=340)
