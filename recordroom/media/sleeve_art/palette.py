"""Palettes chosen by mood: what players read first on a sleeve is its colour.

Each mood has its own ranges of hue, saturation and lightness; a sleeve's palette is drawn from its
mood's ranges with the sleeve's own random source, so two sleeves of one mood are related but not
alike. The roles: ``paper`` (background), ``ink`` (the strongest contrast, for type), and three
accents ``a``, ``b``, ``c`` from most to least prominent, plus ``deep`` and ``pale`` variants.
"""

from __future__ import annotations

from dataclasses import dataclass

from recordroom.media.sleeve_art.canvas import Rng, hsl

MOODS = (
    "calm",
    "aggressive",
    "joyful",
    "melancholic",
    "nostalgic",
    "dreamy",
    "mysterious",
    "romantic",
    "energetic",
    "dark",
)


@dataclass(frozen=True, slots=True)
class Palette:
    """The colours of one sleeve."""

    paper: str
    ink: str
    a: str
    b: str
    c: str
    deep: str
    pale: str
    dark_paper: bool


def palette_for(mood: str, rng: Rng) -> Palette:
    """A palette that evokes the mood, varied by the random source."""
    u = rng.uniform
    match mood:
        case "calm":
            h = u(165, 215)
            return Palette(
                hsl(h, 0.25, 0.9), hsl(h + 10, 0.45, 0.22), hsl(h, 0.4, 0.55),
                hsl(h - 30, 0.35, 0.72), hsl(h + 160, 0.35, 0.75), hsl(h + 15, 0.5, 0.3),
                hsl(h, 0.3, 0.96), False,
            )  # fmt: skip
        case "aggressive":
            h = u(-12, 12)
            return Palette(
                hsl(h, 0.05, 0.08), hsl(50, 0.1, 0.95), hsl(h, 0.9, 0.5), hsl(h + 40, 1.0, 0.55),
                hsl(0, 0, 0.95), hsl(h, 0.8, 0.25), hsl(h + 10, 0.3, 0.85), True,
            )  # fmt: skip
        case "joyful":
            h = u(35, 55)
            return Palette(
                hsl(h + 5, 0.95, 0.62), hsl(h + 200, 0.8, 0.25), hsl(h - 40, 0.95, 0.55),
                hsl(h + 150, 0.75, 0.5), hsl(h + 290, 0.8, 0.65), hsl(h - 30, 0.9, 0.35),
                hsl(h + 10, 1.0, 0.9), False,
            )  # fmt: skip
        case "melancholic":
            h = u(205, 235)
            return Palette(
                hsl(h, 0.18, 0.42), hsl(h, 0.15, 0.9), hsl(h + 10, 0.25, 0.62),
                hsl(h - 15, 0.2, 0.28), hsl(h + 170, 0.25, 0.7), hsl(h, 0.3, 0.18),
                hsl(h, 0.12, 0.78), True,
            )  # fmt: skip
        case "nostalgic":
            h = u(22, 40)
            return Palette(
                hsl(h + 10, 0.45, 0.84), hsl(h - 10, 0.45, 0.2), hsl(h - 15, 0.65, 0.52),
                hsl(h + 155, 0.35, 0.45), hsl(h + 20, 0.7, 0.6), hsl(h - 20, 0.5, 0.32),
                hsl(h + 15, 0.5, 0.93), False,
            )  # fmt: skip
        case "dreamy":
            h = u(265, 320)
            return Palette(
                hsl(h, 0.55, 0.86), hsl(h + 10, 0.4, 0.3), hsl(h + 45, 0.7, 0.76),
                hsl(h - 70, 0.6, 0.78), hsl(h - 130, 0.55, 0.85), hsl(h, 0.35, 0.55),
                hsl(h + 20, 0.8, 0.95), False,
            )  # fmt: skip
        case "mysterious":
            h = u(250, 285)
            return Palette(
                hsl(h, 0.5, 0.12), hsl(h - 90, 0.6, 0.75), hsl(h - 100, 0.7, 0.42),
                hsl(h + 15, 0.55, 0.35), hsl(h - 60, 0.3, 0.6), hsl(h, 0.6, 0.05),
                hsl(h - 80, 0.5, 0.85), True,
            )  # fmt: skip
        case "romantic":
            h = u(335, 355)
            return Palette(
                hsl(h + 10, 0.45, 0.88), hsl(h, 0.7, 0.22), hsl(h, 0.65, 0.55),
                hsl(h - 10, 0.6, 0.32), hsl(h + 30, 0.8, 0.75), hsl(h, 0.7, 0.18),
                hsl(h + 20, 0.7, 0.95), False,
            )  # fmt: skip
        case "energetic":
            h = u(0, 360)
            return Palette(
                hsl(h, 0.9, 0.5), hsl(h + 180, 0.2, 0.07), hsl(h + 180, 1.0, 0.55),
                hsl(h + 90, 1.0, 0.55), hsl(h + 270, 1.0, 0.62), hsl(h, 0.9, 0.25),
                hsl(h + 30, 1.0, 0.88), False,
            )  # fmt: skip
        case _:  # dark, and any mood a catalogue invents
            h = u(0, 360)
            return Palette(
                hsl(h, 0.15, 0.07), hsl(h, 0.1, 0.85), hsl(h, 0.7, 0.45), hsl(h + 20, 0.3, 0.22),
                hsl(h - 20, 0.5, 0.6), hsl(h, 0.2, 0.03), hsl(h, 0.2, 0.6), True,
            )  # fmt: skip
