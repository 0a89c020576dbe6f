"""The Artists Booklet: every sleeve with its title, artist, art family and mood.

The box has a little booklet crediting the artist of every sleeve; Record Room has two forms of it:

- :func:`render_booklet_html` — a page for the app (or a standalone file), sleeves grouped by art
  family, each with its picture, title, artist and mood. Pictures are linked through ``image_url``
  (the server passes its route for sleeve pictures), or inlined when ``image_url`` is None.
- :func:`render_booklet_pdf` — a printable A4 booklet: a cover, then twenty sleeves a page with a
  small picture of each.

Both speak a language of the catalogues (``lang``: the headings, family names, moods, the cover;
titles and artists are names and stay as they are). A Chinese PDF embeds the CJK font (a subset).
"""

from __future__ import annotations

import base64
import io
from collections.abc import Callable
from datetime import UTC, datetime
from html import escape
from itertools import groupby

from fpdf import FPDF
from PIL import Image

from recordroom import i18n
from recordroom.games.disc_cover.sleeves import Sleeve
from recordroom.media.fonts import cjk_font_path, font_path
from recordroom.media.packs import SleeveSet, builtin_set
from recordroom.media.raster import svg_to_image

FAMILY_NAMES = {
    "geometric": "Geometric modernist",
    "gradient": "Gradient fields",
    "halftone": "Halftone photographs",
    "typography": "Bold typography",
    "collage": "Collage and torn paper",
    "blobs": "Organic blobs",
    "night-city": "Night city",
    "psychedelic": "Psychedelic patterns",
    "line-art": "Minimal line art",
    "retro-sci-fi": "Retro science fiction",
    "custom": "From your own collection",
}

FIXED_DATE = datetime(2024, 1, 1, tzinfo=UTC)

_CSS = """
.booklet{font-family:system-ui,sans-serif;color:#ece8e0;background:#16141a;padding:1rem}
.booklet h1{font-size:1.6rem;margin:.2rem 0 1rem}
.booklet h2{font-size:1.1rem;margin:1.6rem 0 .6rem;color:#ffd666}
.booklet ol{list-style:none;margin:0;padding:0;display:grid;gap:.8rem;
  grid-template-columns:repeat(auto-fill,minmax(9.5rem,1fr))}
.booklet li{background:#221f28;border-radius:.4rem;padding:.5rem}
.booklet img{width:100%;aspect-ratio:1;display:block;border-radius:.2rem;background:#000}
.booklet .title{font-weight:700;margin-top:.4rem}
.booklet .artist{opacity:.85}
.booklet .mood{font-size:.8rem;opacity:.65}
""".strip()


def family_name(family: str, lang: str = i18n.DEFAULT) -> str:
    """The family as the booklet names it (a family of a custom pack by its own name)."""
    if family in FAMILY_NAMES and i18n.has(f"booklet.family.{family}"):
        return i18n.t(lang, f"booklet.family.{family}")
    return FAMILY_NAMES.get(family, family.replace("-", " ").capitalize())


def mood_name(mood: str, lang: str = i18n.DEFAULT) -> str:
    """A sleeve's mood in a language (a custom pack's own moods as written)."""
    return i18n.t(lang, f"booklet.mood.{mood}") if i18n.has(f"booklet.mood.{mood}") else mood


def _inline(sleeves: SleeveSet, sid: int) -> str:
    image = sleeves.image(sid)
    return f"data:{image.content_type};base64,{base64.b64encode(image.data).decode('ascii')}"


def render_booklet_html(
    sleeves: SleeveSet | None = None,
    image_url: Callable[[int], str] | None = None,
    standalone: bool = True,
    lang: str = i18n.DEFAULT,
) -> str:
    """The booklet as HTML: a whole page, or (standalone=False) a ``<section>`` for the app."""
    deck = sleeves or builtin_set()
    url = image_url or (lambda sid: _inline(deck, sid))
    title = escape(i18n.t(lang, "booklet.title"))
    parts = [f"<style>{_CSS}</style>", '<section class="booklet">', f"<h1>{title}</h1>"]
    if standalone:
        links = " · ".join(
            f'<a href="?lang={tag}" lang="{tag}">{escape(name)}</a>'
            for tag, name in i18n.LANGUAGES.items()
        )
        pdf = escape(i18n.t(lang, "booklet.pdf"))
        parts.append(
            f'<p class="links">{escape(i18n.t(lang, "booklet.languages"))} {links} · '
            f'<a href="/booklet.pdf?lang={lang}">{pdf}</a></p>'
        )
    ordered = sorted(deck.sleeves, key=lambda s: (_family_order(s.family), s.id))
    for family, group in groupby(ordered, key=lambda s: s.family):
        parts.append(f"<h2>{escape(family_name(family, lang))}</h2><ol>")
        for s in group:
            parts.append(
                f'<li id="sleeve-{s.id}"><img src="{escape(url(s.id))}" alt="" loading="lazy">'
                f'<div class="title">{escape(s.title)}</div>'
                f'<div class="artist">{escape(s.artist)}</div>'
                f'<div class="mood">#{s.id} · {escape(mood_name(s.mood, lang))}</div></li>'
            )
        parts.append("</ol>")
    parts.append("</section>")
    body = "\n".join(parts)
    if not standalone:
        return body
    return (
        f'<!doctype html>\n<html lang="{lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>{escape(i18n.t(lang, 'booklet.page_title'))}</title></head>"
        f'<body style="margin:0;background:#16141a">\n{body}\n</body></html>\n'
    )


def _family_order(family: str) -> int:
    names = list(FAMILY_NAMES)
    return names.index(family) if family in names else len(names)


def sleeve_picture(sleeves: SleeveSet, sid: int, size: int) -> Image.Image:
    """A sleeve's picture as an RGB image of size x size."""
    image = sleeves.image(sid)
    if image.content_type == "image/svg+xml":
        return svg_to_image(image.data.decode("utf-8"), size)
    with Image.open(io.BytesIO(image.data)) as picture:
        return picture.convert("RGB").resize((size, size), Image.Resampling.LANCZOS)


def new_pdf(cjk: bool = False) -> FPDF:
    """An A4 portrait PDF with the DejaVu fonts registered (so any title prints), and with
    ``cjk`` the CJK font as the fallback for what DejaVu cannot draw (Chinese)."""
    pdf = FPDF(orientation="portrait", unit="mm", format="A4")
    pdf.set_creator("Record Room")
    pdf.set_creation_date(FIXED_DATE)  # a fixed date: the same sleeves give the same bytes
    pdf.add_font("DejaVu", "", str(font_path("DejaVuSans.ttf")))
    pdf.add_font("DejaVu", "B", str(font_path("DejaVuSans-Bold.ttf")))
    if cjk:
        pdf.add_font("CJK", "", str(cjk_font_path()))
        pdf.add_font("CJK", "B", str(cjk_font_path()))
        pdf.set_fallback_fonts(["CJK"], exact_match=False)
    pdf.set_auto_page_break(False)
    return pdf


def render_booklet_pdf(sleeves: SleeveSet | None = None, lang: str = i18n.DEFAULT) -> bytes:
    """The booklet as a printable A4 PDF, in a language of the catalogues."""
    deck = sleeves or builtin_set()
    pdf = new_pdf(cjk=lang != i18n.DEFAULT)
    pdf.set_title(i18n.t(lang, "booklet.page_title"))
    pdf.add_page()
    pdf.set_font("DejaVu", "B", 30)
    pdf.set_xy(20, 60)
    pdf.cell(170, 14, i18n.t(lang, "booklet.title"), align="C")
    pdf.set_font("DejaVu", "", 13)
    pdf.set_xy(20, 80)
    intro = i18n.t(lang, "booklet.intro", count=len(deck.sleeves))
    pdf.multi_cell(170, 7, intro, align="C")
    ordered = sorted(deck.sleeves, key=lambda s: (_family_order(s.family), s.id))
    for start in range(0, len(ordered), 20):
        pdf.add_page()
        _booklet_page(pdf, deck, ordered[start : start + 20], lang)
        pdf.set_font("DejaVu", "", 8)
        pdf.set_xy(20, 285)
        pdf.cell(170, 5, i18n.t(lang, "booklet.footer", page=pdf.page_no()), align="C")
    return bytes(pdf.output())


def _booklet_page(
    pdf: FPDF, deck: SleeveSet, sleeves: list[Sleeve], lang: str = i18n.DEFAULT
) -> None:
    for index, s in enumerate(sleeves):
        col, row = divmod(index, 10)
        x, y = 15 + col * 93, 14 + row * 26.5
        pdf.image(sleeve_picture(deck, s.id, 160), x=x, y=y, w=23, h=23)
        pdf.set_xy(x + 26, y + 1)
        pdf.set_font("DejaVu", "B", 10)
        pdf.cell(64, 5, _clip(pdf, s.title, 64))
        pdf.set_xy(x + 26, y + 7)
        pdf.set_font("DejaVu", "", 9)
        pdf.cell(64, 5, _clip(pdf, s.artist, 64))
        pdf.set_xy(x + 26, y + 13)
        pdf.set_font("DejaVu", "", 8)
        pdf.set_text_color(90, 90, 90)
        line = f"#{s.id} · {family_name(s.family, lang)} · {mood_name(s.mood, lang)}"
        pdf.cell(64, 5, _clip(pdf, line, 64))
        pdf.set_text_color(0, 0, 0)


def _clip(pdf: FPDF, text: str, width: float) -> str:
    if pdf.get_string_width(text) <= width:
        return text
    while text and pdf.get_string_width(text + "…") > width:
        text = text[:-1]
    return text + "…"
