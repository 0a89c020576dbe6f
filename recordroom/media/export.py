"""``recordroom sleeves export DIR``: every sleeve as files, and the print-and-play sheets.

Writes into DIR::

    svg/001-quiet-arithmetic.svg ...   each built-in sleeve as drawn (pack sleeves have no SVG)
    png/001-quiet-arithmetic.png ...   each sleeve as a PNG (800 px by default)
    sleeves-print-and-play.pdf         A4 sheets of 63 mm card-sized sleeves with cut marks
    artists-booklet.pdf                the printable Artists Booklet
    artists-booklet.html               the booklet as a page, linking the PNGs
    contact-sheet.png                  every sleeve on one picture

The print-and-play sheets hold twelve cards a page (3 x 4), butted edge to edge so one cut serves
two cards, with cut marks in the margin at every card edge.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from pathlib import Path

from fpdf import FPDF
from PIL import Image

from recordroom.media.booklet import (
    new_pdf,
    render_booklet_html,
    render_booklet_pdf,
    sleeve_picture,
)
from recordroom.media.contact_sheet import contact_sheet
from recordroom.media.packs import SleeveSet, builtin_set

CARD_MM = 63.0
COLUMNS, ROWS = 3, 4
MARK_MM = 5.0
PRINT_PX = 640


@dataclass(frozen=True, slots=True)
class ExportReport:
    """What an export wrote."""

    folder: Path
    svg: int
    png: int
    files: tuple[Path, ...]


def slug(text: str) -> str:
    """A file-name-safe form of a title."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:48] or "sleeve"


def export_sleeves(folder: Path, sleeves: SleeveSet | None = None, size: int = 800) -> ExportReport:
    """Writes every sleeve as SVG (built-in ones) and PNG, plus the PDFs, booklet and sheet."""
    deck = sleeves or builtin_set()
    (folder / "svg").mkdir(parents=True, exist_ok=True)
    (folder / "png").mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    svg_count = png_count = 0
    names: dict[int, str] = {}
    for s in deck.sleeves:
        name = f"{s.id:03d}-{slug(s.title)}"
        names[s.id] = name
        image = deck.image(s.id)
        if image.content_type == "image/svg+xml":
            path = folder / "svg" / f"{name}.svg"
            path.write_bytes(image.data)
            written.append(path)
            svg_count += 1
        path = folder / "png" / f"{name}.png"
        picture(deck, s.id, size).save(path, format="PNG", optimize=True)
        written.append(path)
        png_count += 1
    outputs = {
        "sleeves-print-and-play.pdf": render_print_and_play_pdf(deck),
        "artists-booklet.pdf": render_booklet_pdf(deck),
        "artists-booklet.html": render_booklet_html(
            deck, image_url=lambda sid: f"png/{names[sid]}.png"
        ).encode("utf-8"),
    }
    for file_name, data in outputs.items():
        (folder / file_name).write_bytes(data)
        written.append(folder / file_name)
    sheet = folder / "contact-sheet.png"
    contact_sheet(deck.sleeves, picture=lambda sid, px: picture(deck, sid, px)).save(sheet)
    written.append(sheet)
    return ExportReport(folder, svg_count, png_count, tuple(written))


def picture(deck: SleeveSet, sid: int, size: int) -> Image.Image:
    """A sleeve of the set as an RGB image of size x size."""
    return sleeve_picture(deck, sid, size)


def render_print_and_play_pdf(sleeves: SleeveSet | None = None) -> bytes:
    """A4 sheets of card-sized sleeves (63 mm) with cut marks, twelve a page."""
    deck = sleeves or builtin_set()
    pdf = new_pdf()
    pdf.set_title("Record Room — print-and-play sleeves")
    left = (210 - COLUMNS * CARD_MM) / 2
    top = (297 - ROWS * CARD_MM) / 2
    per_page = COLUMNS * ROWS
    ids = [s.id for s in deck.sleeves]
    for start in range(0, len(ids), per_page):
        pdf.add_page()
        for index, sid in enumerate(ids[start : start + per_page]):
            row, col = divmod(index, COLUMNS)
            image = picture(deck, sid, PRINT_PX)
            out = io.BytesIO()
            image.save(out, format="JPEG", quality=90)
            out.seek(0)
            pdf.image(out, x=left + col * CARD_MM, y=top + row * CARD_MM, w=CARD_MM, h=CARD_MM)
        _cut_marks(pdf, left, top)
        pdf.set_font("DejaVu", "", 8)
        pdf.set_xy(0, 289)
        pdf.cell(210, 4, f"Record Room sleeves · sheet {pdf.page_no()} · cut along the marks",
                 align="C")  # fmt: skip
    return bytes(pdf.output())


def _cut_marks(pdf: FPDF, left: float, top: float) -> None:
    """Marks in the margins at every card edge, stopping 1.5 mm short of the cards."""
    pdf.set_draw_color(0, 0, 0)
    pdf.set_line_width(0.2)
    right, bottom = left + COLUMNS * CARD_MM, top + ROWS * CARD_MM
    for col in range(COLUMNS + 1):
        x = left + col * CARD_MM
        pdf.line(x, top - 1.5 - MARK_MM, x, top - 1.5)
        pdf.line(x, bottom + 1.5, x, bottom + 1.5 + MARK_MM)
    for row in range(ROWS + 1):
        y = top + row * CARD_MM
        pdf.line(left - 1.5 - MARK_MM, y, left - 1.5, y)
        pdf.line(right + 1.5, y, right + 1.5 + MARK_MM, y)
