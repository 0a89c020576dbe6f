"""The contact sheet: every built-in sleeve as a thumbnail on one PNG, in catalogue order.

It is how a maintainer sees the whole box at once (docs/sleeves.png is one), and how a player sees
what the 120 px phone thumbnails look like.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence

from PIL import Image

from recordroom.games.disc_cover.sleeves import Sleeve, catalogue
from recordroom.media.raster import svg_to_image
from recordroom.media.sleeve_art import render_svg


def contact_sheet(
    sleeves: Sequence[Sleeve] | None = None,
    thumb: int = 120,
    columns: int = 10,
    gap: int = 8,
    picture: Callable[[int, int], Image.Image] | None = None,
) -> Image.Image:
    """The sleeves as a grid of thumb-pixel squares on a dark ground.

    ``picture(sleeve_id, size)`` draws one sleeve; the default renders the sleeve's generated art.
    """
    chosen = list(catalogue() if sleeves is None else sleeves)
    rows = (len(chosen) + columns - 1) // columns
    width = columns * thumb + (columns + 1) * gap
    height = rows * thumb + (rows + 1) * gap
    sheet = Image.new("RGB", (width, height), (24, 24, 28))
    for index, sleeve in enumerate(chosen):
        row, col = divmod(index, columns)
        tile = picture(sleeve.id, thumb) if picture else svg_to_image(render_svg(sleeve), thumb)
        sheet.paste(tile, (gap + col * (thumb + gap), gap + row * (thumb + gap)))
    return sheet


def contact_sheet_png(sleeves: Sequence[Sleeve] | None = None, thumb: int = 120) -> bytes:
    """The contact sheet as PNG bytes."""
    out = io.BytesIO()
    contact_sheet(sleeves, thumb).save(out, format="PNG", optimize=True)
    return out.getvalue()
