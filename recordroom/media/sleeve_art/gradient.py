"""Gradient fields: soft colour washes, glowing orbs and blurred bands, the calm of a late sky.

Four compositions (an orb over a horizon, stacked soft colour fields, aurora bands, a diagonal
split); the title is a small italic serif line, as quiet as the art.
"""

from __future__ import annotations

from recordroom.games.disc_cover.sleeves import Sleeve
from recordroom.media.sleeve_art.canvas import Canvas, Rng, fmt, legible, mix, smooth_d
from recordroom.media.sleeve_art.palette import Palette


def draw(cv: Canvas, sleeve: Sleeve, pal: Palette, rng: Rng, variant: int) -> None:
    """Draws a gradient-field sleeve."""
    kind = variant % 4
    if kind == 0:
        sky = cv.linear([(0, pal.deep), (0.6, pal.a), (1, pal.c)])
        cv.rect(0, 0, 400, 400, sky)
        glow = cv.radial([(0, pal.pale), (0.35, pal.b), (1, mix(pal.b, pal.a, 0.5), 0.0)])
        cx = rng.uniform(120, 280)
        cv.circle(cx, 230, 150, glow, opacity="0.9")
        cv.circle(cx, 230, 52, pal.pale)
        sea = cv.linear([(0, pal.deep), (1, mix(pal.deep, "#000000", 0.4))])
        cv.rect(0, 250, 400, 150, sea)
        for i in range(6):
            w = 110 - i * 14
            cv.rect(cx - w / 2, 262 + i * 14, w, 3, pal.pale, opacity=fmt(0.7 - i * 0.1))
    elif kind == 1:
        cv.rect(0, 0, 400, 400, pal.deep)
        blur = cv.blur(9)
        cv.rect(40, 40, 320, 150, pal.a, filter=blur)
        cv.rect(40, 210, 320, 70, pal.b, filter=blur)
        cv.rect(40, 296, 320, 40, pal.c, filter=blur, opacity="0.8")
    elif kind == 2:
        cv.rect(0, 0, 400, 400, cv.linear([(0, pal.deep), (1, mix(pal.deep, pal.b, 0.3))]))
        blur = cv.blur(14)
        for i, colour in enumerate((pal.a, pal.b, pal.c)):
            pts = [(x, 110 + i * 55 + rng.uniform(-45, 45)) for x in range(-40, 481, 80)]
            d = smooth_d(pts, closed=False) + "L440 -40L-40 -40Z"
            cv.path(d, "none", stroke=colour, stroke_width="28", filter=blur, opacity="0.85")
        for _ in range(40):
            cv.circle(rng.uniform(0, 400), rng.uniform(0, 220), rng.uniform(0.6, 1.6), pal.pale)
    else:
        angle = rng.uniform(0.6, 1.4)
        cv.rect(0, 0, 400, 400, cv.linear([(0, pal.a), (0.5, pal.b), (1, pal.deep)], 1, angle))
        glow = cv.radial([(0, pal.pale), (1, pal.pale, 0.0)])
        cv.circle(rng.uniform(80, 320), rng.uniform(80, 200), 120, glow)
        cv.path("M0 400L400 0L400 400Z", pal.c, opacity="0.35")
    cv.text(
        sleeve.title,
        "serif-italic",
        32,
        200,
        362,
        legible(pal.pale, pal.deep),
        anchor="middle",
        max_width=340,
    )
    cv.text(
        sleeve.artist.upper(),
        "sans",
        13,
        200,
        384,
        legible(pal.pale, pal.deep),
        anchor="middle",
        opacity="0.8",
    )
