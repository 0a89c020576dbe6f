"""The fonts the media code draws with: the DejaVu family that Matplotlib ships (a free licence).

Using these files rather than system fonts keeps every picture and PDF the same on every machine.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from PIL import ImageFont


@cache
def font_path(name: str = "DejaVuSans.ttf") -> Path:
    """The path of one of Matplotlib's bundled fonts."""
    import matplotlib

    return Path(matplotlib.get_data_path()) / "fonts" / "ttf" / name


@cache
def pil_font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans (or Sans Bold) at a pixel size, for Pillow."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(font_path(name)), size)
