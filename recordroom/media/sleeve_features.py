"""What a sleeve looks like, in four numbers a listening bot can match against a song.

Each sleeve's picture is rendered small (64 x 64) and measured:

- ``brightness``: mean lightness, 0 (black) to 1 (white);
- ``saturation``: mean colourfulness, 0 (grey) to 1 (vivid);
- ``warmth``: 0 (blue, cold) to 1 (red and orange, warm), from the red-blue balance of the
  coloured pixels;
- ``busyness``: how much happens, 0 (flat fields) to 1 (dense detail), from the mean luminance
  gradient.

The numbers are plain floats in 0..1, kept per sleeve set (built-in or a custom pack) after the
first measure.
"""

from __future__ import annotations

import io
from dataclasses import asdict, dataclass
from functools import cache

import numpy as np
from PIL import Image

from recordroom.media.packs import SleeveImage, SleeveSet, builtin_set
from recordroom.media.raster import svg_to_png

SIDE = 64
LOOKS_RANGE = ("brightness", "saturation", "warmth", "busyness")
"""The four features, each in 0..1."""


@dataclass(frozen=True)
class SleeveFeatures:
    """The four numbers a listening bot sees."""

    brightness: float
    saturation: float
    warmth: float
    busyness: float

    def to_json(self) -> dict[str, float]:
        """The features as a JSON object, rounded for reading."""
        return {k: round(v, 3) for k, v in asdict(self).items()}


def measure_rgb(pixels: np.typing.NDArray[np.float64]) -> SleeveFeatures:
    """Features of an RGB image given as floats in 0..1 (height x width x 3)."""
    red, green, blue = pixels[..., 0], pixels[..., 1], pixels[..., 2]
    high = pixels.max(axis=2)
    low = pixels.min(axis=2)
    lightness = 0.2126 * red + 0.7152 * green + 0.0722 * blue
    chroma = high - low
    saturation = np.where(high > 0, chroma / np.maximum(high, 1e-9), 0.0)
    # Warmth: red against blue, weighted by how coloured each pixel is (grey pixels say nothing).
    weight = chroma.sum()
    balance = float(((red - blue) * chroma).sum() / weight) if weight > 1e-6 else 0.0
    dy = np.abs(np.diff(lightness, axis=0)).mean()
    dx = np.abs(np.diff(lightness, axis=1)).mean()
    return SleeveFeatures(
        brightness=float(lightness.mean()),
        saturation=float(saturation.mean()),
        warmth=float(np.clip(0.5 + 0.5 * balance, 0, 1)),
        busyness=float(np.clip((dx + dy) * 4, 0, 1)),
    )


def measure_image(image: SleeveImage) -> SleeveFeatures:
    """Features of a sleeve picture (SVG or raster)."""
    if image.content_type == "image/svg+xml":
        data = svg_to_png(image.data.decode("utf-8"), SIDE)
    else:
        data = image.data
    with Image.open(io.BytesIO(data)) as opened:
        rgb = opened.convert("RGB").resize((SIDE, SIDE), Image.Resampling.BILINEAR)
    pixels = np.asarray(rgb, dtype=np.float64) / 255.0
    return measure_rgb(pixels)


def measure_set(sleeves: SleeveSet) -> dict[int, SleeveFeatures]:
    """Features of every sleeve of a set, by id."""
    return {sid: measure_image(sleeves.image(sid)) for sid in sleeves.ids()}


@cache
def builtin_features() -> dict[int, SleeveFeatures]:
    """Features of the 100 built-in sleeves (measured once per process)."""
    return measure_set(builtin_set())
