"""Night city: a skyline after dark, windows lit, a moon, sometimes rain or a river that mirrors it.

Two rows of towers (far ones paler), windows lit at random, a sky gradient from the mood's palette,
with a river, rain, a crescent or a suspension bridge on some; the title glows like a neon sign.
"""

from __future__ import annotations

from recordroom.games.disc_cover.sleeves import Sleeve
from recordroom.media.sleeve_art.canvas import Canvas, Rng, fmt, mix, text_outline
from recordroom.media.sleeve_art.palette import Palette


def _skyline(
    cv: Canvas, rng: Rng, base: float, low: float, high: float, colour: str, lights: str, lit: float
) -> None:
    x = -10.0
    windows: list[str] = []
    while x < 410:
        w = rng.uniform(28, 62)
        h = rng.uniform(low, high)
        top = base - h
        cv.rect(x, top, w, h + 1, colour)
        if rng.chance(0.3):
            cv.rect(x + w / 2 - 1.5, top - 24, 3, 24, colour)
        for wy in range(int(top) + 8, int(base) - 6, 11):
            for wx in range(int(x) + 5, int(x + w) - 6, 9):
                if rng.chance(lit):
                    windows.append(f"M{wx} {wy}h4v6h-4Z")
        x += w + rng.uniform(0, 6)
    cv.path("".join(windows), lights)


def _wall_y(t: float, row: float) -> float:
    """The height on a wall at depth t (0 near, 1 far) of a window row (0 top, 14 bottom)."""
    top, bottom = 120 * t, 400 - 150 * t
    return top + (row / 14) * (bottom - top)


def _canyon(cv: Canvas, rng: Rng, night: str, pal: Palette) -> None:
    """A street between two walls of windows, running to a vanishing point."""
    wall = mix(night, "#000000", 0.45)
    road = mix(night, "#000000", 0.7)
    cv.path("M150 250L250 250L400 400H0Z", road)
    cv.path("M200 252L200 400", "none", stroke=pal.c, stroke_width="4", stroke_dasharray="14 12")
    for side in (-1, 1):
        outer, inner = 200 + side * 200, 200 + side * 50
        cv.path(f"M{outer} 0L{inner} 120L{inner} 250L{outer} 400Z", wall)
        lights = []
        for row in range(14):
            for col in range(5):
                if not rng.chance(0.45):
                    continue
                t0, t1 = col / 5 + 0.03, (col + 1) / 5 - 0.05
                xa, xb = outer + (inner - outer) * t0, outer + (inner - outer) * t1
                y0, y1 = _wall_y(t0, row + 0.2), _wall_y(t1, row + 0.2)
                y2, y3 = _wall_y(t1, row + 0.8), _wall_y(t0, row + 0.8)
                lights.append(
                    f"M{fmt(xa)} {fmt(y0)}L{fmt(xb)} {fmt(y1)}L{fmt(xb)} {fmt(y2)}"
                    f"L{fmt(xa)} {fmt(y3)}Z"
                )
        cv.path("".join(lights), rng.pick([pal.c, pal.b, mix(pal.c, "#ffffff", 0.5)]))


def draw(cv: Canvas, sleeve: Sleeve, pal: Palette, rng: Rng, variant: int) -> None:
    """Draws a night-city sleeve."""
    night = mix(pal.deep, "#05050f", 0.55)
    horizon = mix(pal.a, pal.deep, 0.35) if variant % 3 != 2 else mix(pal.b, pal.c, 0.4)
    cv.rect(0, 0, 400, 400, cv.linear([(0, night), (0.75, horizon), (1, pal.a)]))
    stars = "".join(
        f"M{fmt(rng.uniform(0, 400))} {fmt(rng.uniform(0, 200))}h1.6v1.6h-1.6Z" for _ in range(60)
    )
    cv.path(stars, "#ffffff", opacity="0.7")
    moon_x = rng.uniform(60, 340)
    moon_r = 26.0 if variant < 5 else 48.0
    cv.circle(moon_x, 70, moon_r, mix(pal.pale, "#ffffff", 0.5))
    if variant % 3 == 1:
        cv.circle(moon_x + moon_r * 0.42, 70 - moon_r * 0.3, moon_r * 0.92, night)
    water = variant % 2 == 1 and variant % 5 != 4
    base = 300.0 if water else 400.0
    if variant % 5 == 4:
        _canyon(cv, rng, night, pal)
    else:
        far, near = mix(pal.deep, night, 0.3), mix(night, "#000000", 0.5)
        tall = (1.0, 0.6, 1.35, 0.8, 1.0)[variant % 5]
        _skyline(cv, rng, base, 120 * tall, 230 * tall, far, mix(pal.b, "#000000", 0.2), 0.12)
        _skyline(cv, rng, base, 50 * tall, 150 * tall, near, pal.c, 0.3)
    if water:
        cv.rect(0, base, 400, 100, mix(night, "#000000", 0.3))
        for k in range(14):
            y = base + 5 + k * 7
            cv.rect(
                rng.uniform(0, 200), y, rng.uniform(60, 200), 2, pal.c, opacity=fmt(0.5 - k * 0.03)
            )
            cv.rect(moon_x - 20 + rng.uniform(-8, 8), y, 40 - k * 2, 2, "#ffffff", opacity="0.5")
    if variant % 5 == 3:
        deck = base - 46
        pylon = mix(night, "#000000", 0.6)
        for tx in (110, 290):
            cv.rect(tx - 7, deck - 120, 14, 166, pylon)
        cables = (
            f"M-20 {fmt(deck - 20)}Q50 {fmt(deck)} 110 {fmt(deck - 118)}"
            f"Q200 {fmt(deck + 10)} 290 {fmt(deck - 118)}Q350 {fmt(deck)} 420 {fmt(deck - 20)}"
        )
        cv.path(cables, "none", stroke=pal.c, stroke_width="3")
        cv.rect(0, deck, 400, 9, pylon)
        lamps = "".join(f"M{x} {fmt(deck - 2)}h3v3h-3Z" for x in range(6, 400, 16))
        cv.path(lamps, mix(pal.c, "#ffffff", 0.6))
    if variant % 4 == 2:
        rain = "".join(
            f"M{fmt(rng.uniform(-40, 400))} {fmt(rng.uniform(0, 400))}l12 -30" for _ in range(120)
        )
        cv.path(rain, "none", stroke=pal.pale, stroke_width="1", opacity="0.35")
    neon = pal.b if not pal.dark_paper else pal.ink
    title = sleeve.title
    size = 42.0 if len(title) < 14 else 34.0
    font = ("sans-oblique", "serif-bold", "roman-bold-italic")[variant % 3]
    d, _ = text_outline(title, font, size, 200, 150, "middle", max_width=360)
    glow = cv.blur(6)
    cv.path(d, "none", stroke=neon, stroke_width="7", filter=glow, opacity="0.9")
    cv.path(d, mix(neon, "#ffffff", 0.7), stroke=neon, stroke_width="1.5")
    cv.text(
        sleeve.artist.upper(),
        "sans-bold",
        16,
        200,
        180,
        mix(neon, "#ffffff", 0.5),
        anchor="middle",
        max_width=340,
    )
