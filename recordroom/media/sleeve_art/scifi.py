"""Retro science fiction: chrome-striped suns over perspective grids, ringed planets, starfields.

Five scenes (a sun setting on an endless grid, a ringed planet with moons, a rocket trail over a
crater field, a saucer's beam over the hills, a space station's orbits); the title is a heavy
oblique face filled with a chrome gradient over a dark outline.
"""

from __future__ import annotations

import math

from recordroom.games.disc_cover.sleeves import Sleeve
from recordroom.media.sleeve_art.canvas import Canvas, Rng, fmt, legible, mix, text_outline
from recordroom.media.sleeve_art.palette import Palette


def draw(cv: Canvas, sleeve: Sleeve, pal: Palette, rng: Rng, variant: int) -> None:
    """Draws a retro sci-fi sleeve."""
    space = mix(pal.deep, "#000010", 0.6)
    cv.rect(0, 0, 400, 400, cv.linear([(0, space), (0.7, mix(pal.a, space, 0.5)), (1, pal.a)]))
    stars = "".join(
        f"M{fmt(rng.uniform(0, 400))} {fmt(rng.uniform(0, 260))}h2v2h-2Z" for _ in range(70)
    )
    cv.path(stars, "#ffffff", opacity="0.8")
    kind = variant % 5
    if kind == 0:
        sun = cv.linear([(0, pal.c), (1, pal.b)])
        cx = 200.0
        cv.circle(cx, 210, 95, sun)
        for k in range(6):
            cv.rect(90, 215 + k * 14, 220, 3 + k * 1.4, space)
        cv.rect(0, 250, 400, 150, mix(space, "#000000", 0.3))
        grid = "".join(
            f"M{fmt(cx + (x - cx) * 0.08)} 250L{fmt(x)} 400" for x in range(-800, 1201, 80)
        )
        y, gap = 252.0, 3.0
        while y < 400:
            grid += f"M0 {fmt(y)}H400"
            gap *= 1.35
            y += gap
        cv.path(grid, "none", stroke=pal.b, stroke_width="1.6")
    elif kind == 1:
        px, py = rng.uniform(140, 260), rng.uniform(150, 200)
        ring = cv.linear([(0, pal.pale), (1, pal.c)], 1, 0)
        tilt = rng.uniform(-25, -8)
        cv.add(
            "ellipse",
            cx=px,
            cy=py,
            rx=160.0,
            ry=36.0,
            fill="none",
            stroke=ring,
            stroke_width="14",
            transform=f"rotate({fmt(tilt)} {fmt(px)} {fmt(py)})",
        )
        cv.circle(px, py, 88, cv.radial([(0, pal.c), (0.7, pal.b), (1, pal.deep)], 0.35, 0.3, 0.8))
        cv.path(
            f"M{fmt(px - 160)} {fmt(py)}A160 36 0 0 0 {fmt(px + 160)} {fmt(py)}",
            "none",
            stroke=ring,
            stroke_width="14",
            transform=f"rotate({fmt(tilt)} {fmt(px)} {fmt(py)})",
        )
        for _ in range(2):
            cv.circle(rng.uniform(30, 370), rng.uniform(30, 110), rng.uniform(8, 16), pal.pale)
    elif kind == 2:
        cv.path("M0 300Q100 270 200 290T400 280V400H0Z", mix(pal.deep, "#000000", 0.2))
        for _ in range(5):
            x, y = rng.uniform(20, 380), rng.uniform(310, 380)
            cv.add("ellipse", cx=x, cy=y, rx=26.0, ry=7.0, fill=mix(pal.deep, "#000000", 0.5))
        sx, sy = rng.uniform(240, 330), rng.uniform(130, 170)
        cv.path(
            f"M60 300Q{fmt(sx - 80)} {fmt(sy + 140)} {fmt(sx)} {fmt(sy)}",
            "none",
            stroke=pal.c,
            stroke_width="6",
            stroke_dasharray="2 10",
            stroke_linecap="round",
        )
        cv.path(
            f"M{fmt(sx)} {fmt(sy - 40)}l16 40l-8 30h-16l-8 -30Z",
            pal.pale,
            transform=f"rotate(40 {fmt(sx)} {fmt(sy)})",
        )
        cv.circle(rng.uniform(40, 140), 150, 34, pal.b)
    elif kind == 3:
        cv.path("M0 320Q80 280 160 310T320 300T400 310V400H0Z", mix(pal.deep, "#000000", 0.3))
        ux, uy = rng.uniform(150, 250), rng.uniform(150, 180)
        beam = cv.linear([(0, pal.c, 0.8), (1, pal.c, 0.1)])
        cv.path(
            f"M{fmt(ux - 20)} {fmt(uy)}L{fmt(ux - 90)} 350H{fmt(ux + 90)}L{fmt(ux + 20)} "
            f"{fmt(uy)}Z",
            beam,
        )
        cv.add("ellipse", cx=ux, cy=uy - 10, rx=34.0, ry=26.0, fill=pal.pale, opacity="0.8")
        cv.add(
            "ellipse",
            cx=ux,
            cy=uy,
            rx=90.0,
            ry=20.0,
            fill=cv.linear([(0, "#ffffff"), (0.5, pal.b), (1, pal.deep)]),
        )
        for k in range(5):
            cv.circle(ux - 60 + k * 30, uy + 4, 5, pal.c)
        cv.circle(rng.uniform(300, 370), 120, 22, pal.pale)
    else:
        px, py = rng.uniform(150, 250), 190.0
        for k, r in enumerate((70, 105, 140)):
            cv.add(
                "ellipse",
                cx=px,
                cy=py,
                rx=float(r * 1.3),
                ry=float(r * 0.55),
                fill="none",
                stroke=pal.pale,
                stroke_width="2",
                stroke_dasharray="6 6",
                opacity="0.7",
                transform=f"rotate({-12 + k * 8} {fmt(px)} {fmt(py)})",
            )
        cv.circle(px, py, 46, cv.radial([(0, pal.c), (1, pal.b)], 0.35, 0.35, 0.7))
        for k in range(3):
            ang = rng.uniform(0, math.tau)
            r = (70, 105, 140)[k]
            sx, sy = px + r * 1.3 * math.cos(ang), py + r * 0.55 * math.sin(ang)
            cv.rect(sx - 14, sy - 3, 28, 6, pal.pale)
            cv.rect(sx - 4, sy - 7, 8, 14, pal.c)
    light = mix(pal.c, "#ffffff", 0.45)
    chrome = cv.linear([(0, "#ffffff"), (0.5, light), (0.52, mix(light, pal.b, 0.5)), (1, light)])
    d, _ = text_outline(sleeve.title.upper(), "sans-oblique", 40, 200, 64, "middle", max_width=370)
    cv.path(d, space, stroke=space, stroke_width="7", stroke_linejoin="round")
    cv.path(d, chrome)
    cv.text(
        sleeve.artist.upper(),
        "mono-bold",
        16,
        200,
        90,
        legible(pal.pale, space),
        anchor="middle",
        max_width=360,
    )
