"""The mosaic: the nine sleeves a Disc Cover table chose, with their points, as one PNG to keep.

At the end of a game the table can download it. The input is the ``mosaic`` list of the game's
result (``[{"sleeve": {"id": ..., "title": ..., "artist": ...}, "points": 3}, ...]``, in the order
the sleeves were placed), so the server passes the result through unchanged. Each sleeve sits in
the 3 x 3 grid with its title beneath and its points on a token beside it; the footer gives the
total and, when given, the tier and a caption.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw

from recordroom.media.fonts import pil_font
from recordroom.media.packs import SleeveSet, builtin_set
from recordroom.media.raster import svg_to_image

MosaicEntry = Mapping[str, object]
"""One placed sleeve as the result gives it: ``{"sleeve": {"id", "title", ...}, "points": n}``."""

CELL = 300
GAP = 18
CAPTION = 64
MARGIN = 36
FOOTER = 84


class MosaicError(ValueError):
    """The entries do not describe a mosaic; the message names the entry."""


def render_mosaic(
    entries: Sequence[MosaicEntry],
    sleeves: SleeveSet | None = None,
    tier: str | None = None,
    caption: str | None = None,
) -> Image.Image:
    """The mosaic as a Pillow image (up to nine sleeves, row by row)."""
    if not 1 <= len(entries) <= 9:
        raise MosaicError(f"a mosaic holds 1 to 9 sleeves, got {len(entries)}")
    deck = sleeves or builtin_set()
    side = MARGIN * 2 + 3 * CELL + 2 * GAP
    height = MARGIN * 2 + 3 * (CELL + CAPTION) + 2 * GAP + FOOTER
    sheet = Image.new("RGB", (side, height), (22, 20, 26))
    draw = ImageDraw.Draw(sheet)
    total = 0
    for index, entry in enumerate(entries):
        sid, title, points = _read(entry, index)
        total += points
        row, col = divmod(index, 3)
        x = MARGIN + col * (CELL + GAP)
        y = MARGIN + row * (CELL + CAPTION + GAP)
        sheet.paste(_picture(deck, sid), (x, y))
        _token(draw, x + CELL - 28, y + CELL + CAPTION // 2 + 2, points)
        draw.text(
            (x, y + CELL + CAPTION // 2 + 2), _fit(draw, title, 20, CELL - 66),
            fill=(236, 232, 224), font=pil_font(20, bold=True), anchor="lm",
        )  # fmt: skip
    footer_y = height - MARGIN - FOOTER / 2
    label = f"{total} point{'s' if total != 1 else ''}" + (f" · {tier}" if tier else "")
    draw.text((MARGIN, footer_y), label, fill=(255, 214, 102), font=pil_font(38, True), anchor="lm")
    if caption:
        draw.text(
            (side - MARGIN, footer_y), _fit(draw, caption, 22, side // 2), fill=(180, 176, 170),
            font=pil_font(22), anchor="rm",
        )  # fmt: skip
    return sheet


def render_mosaic_png(
    entries: Sequence[MosaicEntry],
    sleeves: SleeveSet | None = None,
    tier: str | None = None,
    caption: str | None = None,
) -> bytes:
    """The mosaic as PNG bytes, for the table's download."""
    out = io.BytesIO()
    render_mosaic(entries, sleeves, tier, caption).save(out, format="PNG", optimize=True)
    return out.getvalue()


def _read(entry: MosaicEntry, index: int) -> tuple[int, str, int]:
    sleeve = entry.get("sleeve")
    points = entry.get("points")
    if not isinstance(sleeve, Mapping) or not isinstance(points, int):
        raise MosaicError(f"mosaic entry {index + 1} needs a 'sleeve' object and integer 'points'")
    sid = sleeve.get("id")
    if not isinstance(sid, int):
        raise MosaicError(f"mosaic entry {index + 1}: the sleeve has no integer id")
    title = sleeve.get("title")
    return sid, title if isinstance(title, str) else f"Sleeve {sid}", points


def _picture(deck: SleeveSet, sid: int) -> Image.Image:
    try:
        image = deck.image(sid)
    except KeyError as error:
        raise MosaicError(f"sleeve {sid} is not in the sleeve set") from error
    if image.content_type == "image/svg+xml":
        return svg_to_image(image.data.decode("utf-8"), CELL)
    with Image.open(io.BytesIO(image.data)) as picture:
        return picture.convert("RGB").resize((CELL, CELL), Image.Resampling.LANCZOS)


def _token(draw: ImageDraw.ImageDraw, cx: int, cy: int, points: int) -> None:
    """A round points token, like the box's cardboard ones."""
    r = 26
    draw.ellipse((cx - r - 3, cy - r - 3, cx + r + 3, cy + r + 3), fill=(22, 20, 26))
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(255, 214, 102))
    draw.text((cx, cy), str(points), fill=(30, 26, 20), font=pil_font(30, True), anchor="mm")


def _fit(draw: ImageDraw.ImageDraw, text: str, size: int, width: int) -> str:
    """The text, cut with an ellipsis so it fits the width."""
    font = pil_font(size, True)
    if draw.textlength(text, font=font) <= width:
        return text
    while text and draw.textlength(text + "…", font=font) > width:
        text = text[:-1]
    return text.rstrip() + "…"
