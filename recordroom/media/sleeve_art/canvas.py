"""The drawing kit every art family shares: a seeded random source, an SVG builder and text.

Sleeves are drawn on a 400 x 400 user-space square. Everything a family draws goes through
:class:`Canvas`, which writes numbers with one decimal, so the same sleeve gives the same bytes.
Titles are drawn as outlines (glyph paths from the DejaVu, STIX and Computer Modern fonts that
Matplotlib ships), so a sleeve looks the same in every browser and rasteriser and needs no font.
"""

from __future__ import annotations

import colorsys
import math
import random
import zlib
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import TypeVar
from xml.sax.saxutils import escape

SIZE = 400.0

Point = tuple[float, float]
T = TypeVar("T")
Stop = tuple[float, str] | tuple[float, str, float]
"""A gradient stop: offset, colour and, optionally, opacity."""


def _stops(stops: Sequence[Stop]) -> str:
    out = []
    for stop in stops:
        opacity = f' stop-opacity="{fmt(stop[2])}"' if len(stop) == 3 else ""
        out.append(f'<stop offset="{fmt(stop[0])}" stop-color="{stop[1]}"{opacity}/>')
    return "".join(out)


class Rng:
    """A seeded random source that uses only ``random()``, whose sequence Python guarantees."""

    def __init__(self, *keys: object) -> None:
        seed = zlib.crc32("/".join(str(k) for k in keys).encode("utf-8"))
        self._random = random.Random(seed)

    def uniform(self, low: float, high: float) -> float:
        """A float in [low, high)."""
        return low + (high - low) * self._random.random()

    def integer(self, low: int, high: int) -> int:
        """An int in [low, high] inclusive."""
        return min(high, low + int((high - low + 1) * self._random.random()))

    def chance(self, p: float) -> bool:
        """True with probability p."""
        return self._random.random() < p

    def pick(self, items: Sequence[T]) -> T:
        """One of the items."""
        return items[self.integer(0, len(items) - 1)]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """The items in a random order (Fisher-Yates over ``random()``)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.integer(0, i)
            out[i], out[j] = out[j], out[i]
        return out


def fmt(value: float) -> str:
    """A number as SVG wants it: one decimal at most, no trailing zeros, no negative zero."""
    text = f"{value:.1f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def hsl(hue: float, sat: float, light: float) -> str:
    """A ``#rrggbb`` colour from hue in degrees and saturation, lightness in 0..1."""
    r, g, b = colorsys.hls_to_rgb((hue % 360) / 360, min(1.0, max(0.0, light)), min(1.0, sat))
    return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"


def mix(a: str, b: str, t: float) -> str:
    """The colour t of the way from a to b."""
    ca = [int(a[i : i + 2], 16) for i in (1, 3, 5)]
    cb = [int(b[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * t):02x}" for x, y in zip(ca, cb, strict=True))


def luminance(colour: str) -> float:
    """The relative luminance of a ``#rrggbb`` colour (WCAG 2)."""
    channels = []
    for i in (1, 3, 5):
        c = int(colour[i : i + 2], 16) / 255
        channels.append(c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4)
    return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]


def contrast(a: str, b: str) -> float:
    """The WCAG contrast ratio of two colours (1 to 21)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def legible(colour: str, on: str, ratio: float = 4.5) -> str:
    """The colour, pushed towards black or white until it reads on the background."""
    target = "#000000" if luminance(on) > 0.18 else "#ffffff"
    for step in range(11):
        candidate = mix(colour, target, step / 10)
        if contrast(candidate, on) >= ratio:
            return candidate
    return target


def attrs(values: dict[str, object]) -> str:
    """SVG attributes: underscores in names become dashes, floats are formatted, None is dropped."""
    parts = []
    for key, value in values.items():
        if value is None:
            continue
        name = key.rstrip("_").replace("_", "-")
        text = fmt(value) if isinstance(value, float) else str(value)
        parts.append(f'{name}="{escape(text, {chr(34): "&quot;"})}"')
    return " ".join(parts)


def path_d(points: Sequence[Point], closed: bool = True) -> str:
    """A polyline path through the points."""
    head, *rest = points
    d = f"M{fmt(head[0])} {fmt(head[1])}" + "".join(f"L{fmt(x)} {fmt(y)}" for x, y in rest)
    return d + ("Z" if closed else "")


def smooth_d(points: Sequence[Point], closed: bool = True) -> str:
    """A smooth path through the points (Catmull-Rom turned into cubic Béziers)."""
    n = len(points)
    pts = list(points)
    count = n if closed else n - 1

    def get(i: int) -> Point:
        return pts[i % n] if closed else pts[max(0, min(n - 1, i))]

    d = f"M{fmt(pts[0][0])} {fmt(pts[0][1])}"
    for i in range(count):
        p0, p1, p2, p3 = get(i - 1), get(i), get(i + 1), get(i + 2)
        c1 = (p1[0] + (p2[0] - p0[0]) / 6, p1[1] + (p2[1] - p0[1]) / 6)
        c2 = (p2[0] - (p3[0] - p1[0]) / 6, p2[1] - (p3[1] - p1[1]) / 6)
        d += f"C{fmt(c1[0])} {fmt(c1[1])} {fmt(c2[0])} {fmt(c2[1])} {fmt(p2[0])} {fmt(p2[1])}"
    return d + ("Z" if closed else "")


class Canvas:
    """An SVG document under construction; ``svg()`` gives the finished text."""

    def __init__(self, title: str, artist: str) -> None:
        self.title = title
        self.artist = artist
        self._defs: list[str] = []
        self._body: list[str] = []
        self._ids = 0

    def new_id(self, stem: str) -> str:
        """A document-unique id for a gradient, filter or clip path."""
        self._ids += 1
        return f"{stem}{self._ids}"

    def defs(self, markup: str) -> None:
        """Adds markup to ``<defs>``."""
        self._defs.append(markup)

    def raw(self, markup: str) -> None:
        """Adds markup to the body."""
        self._body.append(markup)

    def add(self, tag: str, **values: object) -> None:
        """Adds one empty element to the body."""
        if "opacity" in values and "filter" not in values:
            # fill- and stroke-opacity draw straight onto the canvas, where a plain opacity makes
            # renderers paint the shape on a layer of its own first: many times slower.
            opacity = values.pop("opacity")
            values["fill_opacity"] = opacity
            if "stroke" in values:
                values["stroke_opacity"] = opacity
        self._body.append(f"<{tag} {attrs(values)}/>")

    def open(self, tag: str, **values: object) -> None:
        """Opens a group-like element; close it with :meth:`close`."""
        self._body.append(f"<{tag} {attrs(values)}>")

    def close(self, tag: str) -> None:
        """Closes an element opened with :meth:`open`."""
        self._body.append(f"</{tag}>")

    def rect(self, x: float, y: float, w: float, h: float, fill: str, **more: object) -> None:
        """A rectangle."""
        self.add("rect", x=float(x), y=float(y), width=float(w), height=float(h), fill=fill, **more)

    def circle(self, cx: float, cy: float, r: float, fill: str, **more: object) -> None:
        """A circle."""
        self.add("circle", cx=float(cx), cy=float(cy), r=float(r), fill=fill, **more)

    def path(self, d: str, fill: str, **more: object) -> None:
        """A path."""
        self.add("path", d=d, fill=fill, **more)

    def linear(self, stops: Sequence[Stop], x2: float = 0, y2: float = 1) -> str:
        """Defines a linear gradient from the top-left corner towards (x2, y2); returns its url."""
        gid = self.new_id("g")
        body = _stops(stops)
        self.defs(
            f'<linearGradient id="{gid}" x1="0" y1="0" x2="{fmt(x2)}" y2="{fmt(y2)}">'
            f"{body}</linearGradient>"
        )
        return f"url(#{gid})"

    def radial(
        self, stops: Sequence[Stop], cx: float = 0.5, cy: float = 0.5, r: float = 0.5
    ) -> str:
        """Defines a radial gradient in object-bounding-box units; returns its url."""
        gid = self.new_id("g")
        body = _stops(stops)
        self.defs(
            f'<radialGradient id="{gid}" cx="{fmt(cx)}" cy="{fmt(cy)}" r="{fmt(r)}">'
            f"{body}</radialGradient>"
        )
        return f"url(#{gid})"

    def blur(self, deviation: float) -> str:
        """Defines a Gaussian blur filter; returns its url."""
        fid = self.new_id("f")
        self.defs(
            f'<filter id="{fid}" x="-50%" y="-50%" width="200%" height="200%">'
            f'<feGaussianBlur stdDeviation="{fmt(deviation)}"/></filter>'
        )
        return f"url(#{fid})"

    def clip(self, markup: str) -> str:
        """Defines a clip path from shape markup; returns its url."""
        cid = self.new_id("c")
        self.defs(f'<clipPath id="{cid}">{markup}</clipPath>')
        return f"url(#{cid})"

    def text(
        self,
        text: str,
        font: str,
        size: float,
        x: float,
        y: float,
        fill: str,
        anchor: str = "start",
        max_width: float | None = None,
        **more: object,
    ) -> float:
        """Draws text as outlines with its baseline at y; returns the drawn width."""
        d, width = text_outline(text, font, size, x, y, anchor, max_width)
        if d:
            self.path(d, fill, **more)
        return width

    def svg(self) -> str:
        """The finished document."""
        label = escape(f"{self.title} — {self.artist}")
        defs = f"<defs>{''.join(self._defs)}</defs>" if self._defs else ""
        return (
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 400" width="400" '
            f'height="400"><title>{label}</title>{defs}{"".join(self._body)}</svg>\n'
        )


# Fonts Matplotlib ships (DejaVu, STIX, Computer Modern: free licences), by the role they play.
FONTS = {
    "sans": "DejaVuSans.ttf",
    "sans-bold": "DejaVuSans-Bold.ttf",
    "sans-oblique": "DejaVuSans-BoldOblique.ttf",
    "mono": "DejaVuSansMono.ttf",
    "mono-bold": "DejaVuSansMono-Bold.ttf",
    "serif": "DejaVuSerif.ttf",
    "serif-bold": "DejaVuSerif-Bold.ttf",
    "serif-italic": "DejaVuSerif-Italic.ttf",
    "roman": "STIXGeneral.ttf",
    "roman-bold": "STIXGeneralBol.ttf",
    "roman-italic": "STIXGeneralItalic.ttf",
    "roman-bold-italic": "STIXGeneralBolIta.ttf",
    "book": "cmr10.ttf",
    "book-italic": "cmti10.ttf",
    "book-sans": "cmss10.ttf",
    "typewriter": "cmtt10.ttf",
}


@cache
def _font_file(font: str) -> str:
    import matplotlib

    return str(Path(matplotlib.get_data_path()) / "fonts" / "ttf" / FONTS[font])


@cache
def _glyph_outline(text: str, font: str) -> tuple[tuple[tuple[int, tuple[Point, ...]], ...], float]:
    """The outline of text at size 100 with the baseline at 0 (y down) and its advance width."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextPath, TextToPath

    prop = FontProperties(fname=_font_file(font))
    width, _height, _descent = TextToPath().get_text_width_height_descent(text, prop, ismath=False)
    advance = float(width) * 100 / prop.get_size_in_points()
    if not text.strip():
        return (), advance
    path = TextPath((0, 0), text, size=100, prop=prop)
    segments: list[tuple[int, tuple[Point, ...]]] = []
    for vertices, code in path.iter_segments(simplify=False, curves=True):
        pts = tuple(
            (float(vertices[i]), -float(vertices[i + 1])) for i in range(0, len(vertices), 2)
        )
        segments.append((int(code), pts))
    return tuple(segments), advance


def text_width(text: str, font: str, size: float) -> float:
    """The advance width of text at a size."""
    return _glyph_outline(text, font)[1] * size / 100


def text_outline(
    text: str,
    font: str,
    size: float,
    x: float,
    y: float,
    anchor: str = "start",
    max_width: float | None = None,
) -> tuple[str, float]:
    """Path data for text at (x, baseline y), shrunk to fit max_width; returns (d, width)."""
    segments, advance = _glyph_outline(text, font)
    scale = size / 100
    if max_width is not None and advance * scale > max_width:
        scale = max_width / advance
    width = advance * scale
    left = x - {"start": 0.0, "middle": width / 2, "end": width}[anchor]
    out: list[str] = []
    letters = {1: "M", 2: "L", 3: "Q", 4: "C"}
    for code, pts in segments:
        if code == 79:
            out.append("Z")
            continue
        coords = " ".join(f"{fmt(left + px * scale)} {fmt(y + py * scale)}" for px, py in pts)
        out.append(letters[code] + coords)
    return "".join(out), width


def polar(cx: float, cy: float, r: float, degrees: float) -> Point:
    """The point at radius r and angle (degrees, clockwise from the x axis) around a centre."""
    a = math.radians(degrees)
    return (cx + r * math.cos(a), cy + r * math.sin(a))


def wrap_words(text: str, per_line: int) -> list[str]:
    """Splits a title into lines of about per_line characters at word boundaries."""
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= per_line:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines
