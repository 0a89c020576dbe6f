"""The mosaic: the nine sleeves a Disc Cover table chose, with their points, as one PNG to keep.

At the end of a game the table can download it. The input is the ``mosaic`` list of the game's
result (``[{"sleeve": {"id": ..., "title": ..., "artist": ...}, "points": 3}, ...]``, in the order
the sleeves were placed), so the server passes the result through unchanged. Each sleeve sits in
the 3 x 3 grid with its title beneath and its points on a token beside it.

The footer tells the night: given an :class:`Evening` (made from the game's result with
:func:`evening_of`), the score and tier of a cooperative table or the ranking of a competitive one,
then the players' names and the date; the footer grows to hold them. Without one, it gives the
total and, when given, the tier and a caption.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date

from PIL import Image, ImageDraw

from recordroom import i18n
from recordroom.media.fonts import pil_font_for
from recordroom.media.packs import SleeveSet, builtin_set
from recordroom.media.raster import svg_to_image

MosaicEntry = Mapping[str, object]
"""One placed sleeve as the result gives it: ``{"sleeve": {"id", "title", ...}, "points": n}``."""

CELL = 300
GAP = 18
CAPTION = 64
MARGIN = 36
FOOTER = 84


HEADLINE = 56
"""Height of the footer's first line (score and tier, or who won)."""
ROW = 36
"""Height of a ranking row and of the players-and-date line."""


class MosaicError(ValueError):
    """The entries do not describe a mosaic; the message names the entry."""


@dataclass(frozen=True)
class Evening:
    """What the mosaic's footer tells of the night: the outcome, the players and the date."""

    headline: str
    """``14 points · Right Notes`` (cooperative) or ``Ann wins with 9 points`` (competitive)."""
    ranking: tuple[str, ...]
    """Competitive: one line per player, best first (``1. Ann · 9 points``); empty otherwise."""
    players: tuple[str, ...]
    day: date
    lang: str = i18n.DEFAULT
    """The language of the footer's words (names stay as typed)."""

    def lines(self) -> list[str]:
        """Every line of text the footer draws, in order."""
        return [self.headline, *self.ranking, self.signature()]

    def signature(self) -> str:
        """The last line: who played, and when."""
        names, when = _and(self.players, self.lang), _date(self.day, self.lang)
        return i18n.t(self.lang, "media.signature", names=names, date=when)


def evening_of(
    result: Mapping[str, object], players: Sequence[str], day: date, lang: str = i18n.DEFAULT
) -> Evening:
    """The footer of a finished Disc Cover game, from its result and the seats' names."""
    names = tuple(players)
    score, tier, points = result.get("score"), result.get("tier"), result.get("points")
    if isinstance(score, int) and isinstance(tier, str):
        tier_name = i18n.t(lang, f"dc.tier.{tier}") if i18n.has(f"dc.tier.{tier}") else tier
        headline = i18n.t(lang, "media.coop_headline", points=_points(score, lang), tier=tier_name)
        return Evening(headline, (), names, day, lang)
    if (
        isinstance(points, list)
        and len(points) == len(names)
        and all(isinstance(p, int) for p in points)
        and points
    ):
        order = sorted(range(len(names)), key=lambda seat: (-points[seat], seat))
        ranking = []
        for seat in order:
            place = 1 + sum(1 for p in points if p > points[seat])
            ranking.append(
                i18n.t(
                    lang,
                    "media.rank_line",
                    place=place,
                    name=names[seat],
                    points=_points(points[seat], lang),
                )
            )
        best = max(points)
        winners = [names[seat] for seat in order if points[seat] == best]
        headline = (
            i18n.t(lang, "media.wins", name=winners[0], points=_points(best, lang))
            if len(winners) == 1
            else i18n.t(lang, "media.share", names=_and(winners, lang), points=_points(best, lang))
        )
        return Evening(headline, tuple(ranking), names, day, lang)
    raise MosaicError(
        "the result needs a score and a tier (cooperative) or one integer of points per player"
    )


def _points(n: int, lang: str = i18n.DEFAULT) -> str:
    return i18n.t(lang, "media.points", count=n)


def _and(names: Sequence[str], lang: str = i18n.DEFAULT) -> str:
    """ "Ann", "Ann and Bo", "Ann, Bo and Cem" (安、博和杰姆 in Chinese)."""
    if len(names) <= 1:
        return "".join(names)
    first = i18n.t(lang, "common.list_sep").join(names[:-1])
    return i18n.t(lang, "common.and_list", first=first, last=names[-1])


def _date(day: date, lang: str) -> str:
    month = i18n.t(lang, f"media.month.{day.month}")
    return i18n.t(lang, "media.date", day=day.day, month=month, year=day.year)


def render_mosaic(
    entries: Sequence[MosaicEntry],
    sleeves: SleeveSet | None = None,
    tier: str | None = None,
    caption: str | None = None,
    evening: Evening | None = None,
) -> Image.Image:
    """The mosaic as a Pillow image (up to nine sleeves, row by row)."""
    if not 1 <= len(entries) <= 9:
        raise MosaicError(f"a mosaic holds 1 to 9 sleeves, got {len(entries)}")
    deck = sleeves or builtin_set()
    side = MARGIN * 2 + 3 * CELL + 2 * GAP
    footer = FOOTER if evening is None else footer_height(evening)
    height = MARGIN * 2 + 3 * (CELL + CAPTION) + 2 * GAP + footer
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
            fill=(236, 232, 224), font=pil_font_for(title, 20, bold=True), anchor="lm",
        )  # fmt: skip
    if evening is not None:
        _draw_evening(draw, evening, height - MARGIN - footer, side)
        return sheet
    footer_y = height - MARGIN - FOOTER / 2
    label = f"{total} point{'s' if total != 1 else ''}" + (f" · {tier}" if tier else "")
    font = pil_font_for(label, 38, True)
    draw.text((MARGIN, footer_y), label, fill=(255, 214, 102), font=font, anchor="lm")
    if caption:
        draw.text(
            (side - MARGIN, footer_y), _fit(draw, caption, 22, side // 2), fill=(180, 176, 170),
            font=pil_font_for(caption, 22), anchor="rm",
        )  # fmt: skip
    return sheet


def render_mosaic_png(
    entries: Sequence[MosaicEntry],
    sleeves: SleeveSet | None = None,
    tier: str | None = None,
    caption: str | None = None,
    evening: Evening | None = None,
) -> bytes:
    """The mosaic as PNG bytes, for the table's download."""
    out = io.BytesIO()
    render_mosaic(entries, sleeves, tier, caption, evening).save(out, format="PNG", optimize=True)
    return out.getvalue()


def footer_height(evening: Evening) -> int:
    """Pixels the footer of this evening takes: the headline, two ranking columns, the names."""
    rows = (len(evening.ranking) + 1) // 2
    return HEADLINE + rows * ROW + ROW + 12


def _draw_evening(draw: ImageDraw.ImageDraw, evening: Evening, top: int, side: int) -> None:
    width = side - 2 * MARGIN
    y = top + HEADLINE // 2
    draw.text(
        (MARGIN, y), _fit(draw, evening.headline, 38, width), fill=(255, 214, 102),
        font=pil_font_for(evening.headline, 38, True), anchor="lm",
    )  # fmt: skip
    y = top + HEADLINE
    column = width // 2
    for index, line in enumerate(evening.ranking):
        row, col = divmod(index, 2)
        draw.text(
            (MARGIN + col * column, y + row * ROW + ROW // 2), _fit(draw, line, 26, column - 16),
            fill=(236, 232, 224), font=pil_font_for(line, 26, True), anchor="lm",
        )  # fmt: skip
    y += (len(evening.ranking) + 1) // 2 * ROW + 12
    draw.text(
        (MARGIN, y + ROW // 2), _fit(draw, evening.signature(), 22, width), fill=(180, 176, 170),
        font=pil_font_for(evening.signature(), 22), anchor="lm",
    )  # fmt: skip


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
    draw.text(
        (cx, cy), str(points), fill=(30, 26, 20), font=pil_font_for("", 30, True), anchor="mm"
    )


def _fit(draw: ImageDraw.ImageDraw, text: str, size: int, width: int) -> str:
    """The text, cut with an ellipsis so it fits the width."""
    font = pil_font_for(text, size, True)
    if draw.textlength(text, font=font) <= width:
        return text
    while text and draw.textlength(text + "…", font=font) > width:
        text = text[:-1]
    return text.rstrip() + "…"
