"""SVG to PNG, through ``resvg`` (a self-contained renderer: no system library, no network).

Built-in sleeves draw their type as outlines, so they need no font. For SVG that does use ``<text>``
(a custom pack's), the DejaVu fonts that Matplotlib ships stand in for every generic family and
system fonts are not consulted, so a file renders the same on every machine.
"""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path

import resvg_py
from PIL import Image


class RasterError(ValueError):
    """An SVG could not be rendered; the message says why."""


@cache
def _fonts() -> tuple[str, ...]:
    import matplotlib

    folder = Path(matplotlib.get_data_path()) / "fonts" / "ttf"
    names = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSerif.ttf", "DejaVuSansMono.ttf")
    return tuple(str(folder / name) for name in names)


def svg_to_png(svg: str, size: int) -> bytes:
    """The SVG rendered as a size x size PNG (the SVG is scaled to fit the square)."""
    try:
        data = resvg_py.svg_to_bytes(
            svg_string=svg,
            width=size,
            height=size,
            skip_system_fonts=True,
            font_files=list(_fonts()),
            font_family="DejaVu Sans",
            sans_serif_family="DejaVu Sans",
            serif_family="DejaVu Serif",
            monospace_family="DejaVu Sans Mono",
        )
    except Exception as error:  # the binding raises ValueError, or a panic on odd input
        raise RasterError(f"cannot render SVG: {error}") from error
    return bytes(data)


def svg_to_image(svg: str, size: int) -> Image.Image:
    """The SVG rendered as an RGB Pillow image of size x size."""
    with Image.open(io.BytesIO(svg_to_png(svg, size))) as image:
        return image.convert("RGB")
