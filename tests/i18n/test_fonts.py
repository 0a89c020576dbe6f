"""Chinese shows in the files we make: every character of the Chinese catalogue has a glyph in the
CJK font, the mosaic draws Chinese with real glyphs (never the empty box of .notdef), and the
Chinese booklet PDF embeds the CJK font."""

from __future__ import annotations

import re
from datetime import date

from PIL import Image, ImageDraw

from recordroom import i18n
from recordroom.media.booklet import render_booklet_html, render_booklet_pdf
from recordroom.media.fonts import (
    cjk_font_path,
    font_path,
    missing_glyphs,
    needs_cjk,
    pil_cjk_font,
)
from recordroom.media.mosaic import evening_of, render_mosaic

NOT_A_CHARACTER = "\U0010fffd"  # a private-use code point no font draws: its .notdef box


def chinese_text() -> str:
    messages = i18n.catalogue("zh-CN").values()
    return "".join(m if isinstance(m, str) else "".join(m.values()) for m in messages)


def test_the_cjk_font_has_a_glyph_for_every_character_of_the_chinese_catalogue() -> None:
    text = re.sub(r"\{[A-Za-z_]+\}", "", chinese_text())
    assert needs_cjk(text)
    # What DejaVu (the Latin faces) cannot draw, the CJK font must: the PDFs fall back that way.
    lacking = missing_glyphs(cjk_font_path(), text) & missing_glyphs(font_path(), text)
    assert lacking == set()
    assert missing_glyphs(cjk_font_path(), re.sub(r"[\x00-\u2e7f]", "", text)) == set()


def test_the_check_finds_a_character_the_font_lacks() -> None:
    assert missing_glyphs(cjk_font_path(), "作废" + NOT_A_CHARACTER) == {NOT_A_CHARACTER}


def glyph(text: str, size: int = 40) -> bytes:
    picture = Image.new("L", (size * 2, size * 2), 0)
    ImageDraw.Draw(picture).text((4, 4), text, fill=255, font=pil_cjk_font(size))
    return picture.tobytes()


def test_chinese_characters_are_drawn_with_real_glyphs_not_boxes() -> None:
    box = glyph(NOT_A_CHARACTER)
    evening = evening_of({"score": 31, "tier": "In sync"}, ["安", "Bo"], date(2026, 12, 2), "zh-CN")
    text = "".join(evening.lines())
    assert "默契同步" in text and "2026年12月2日" in text
    for ch in {c for c in text if needs_cjk(c)}:
        drawn = glyph(ch)
        assert drawn != box, f"{ch!r} is drawn as the .notdef box"
        assert any(drawn), f"{ch!r} draws nothing"


def test_the_mosaic_footer_in_chinese_has_ink() -> None:
    entries = [{"sleeve": {"id": i, "title": f"Song {i}"}, "points": 3} for i in range(1, 10)]
    result = {"points": [5, 9, 9], "winners": [1, 2]}
    chinese = evening_of(result, ["Ann", "Bo", "Cem"], date(2026, 12, 2), "zh-CN")
    english = evening_of(result, ["Ann", "Bo", "Cem"], date(2026, 12, 2))
    assert chinese.headline == "Bo和Cem 以 9 分 共享胜利"
    assert english.headline == "Bo and Cem share the victory with 9 points"
    zh, en = render_mosaic(entries, evening=chinese), render_mosaic(entries, evening=english)
    footer = (0, zh.height - 150, zh.width, zh.height)
    assert zh.crop(footer).tobytes() != en.crop(footer).tobytes()


def test_the_chinese_booklet_pdf_embeds_the_cjk_font() -> None:
    pdf = render_booklet_pdf(lang="zh-CN")
    assert pdf.startswith(b"%PDF")
    assert b"FontFile2" in pdf
    names = set(re.findall(rb"/BaseFont\s*/([A-Z]{6}\+)?([A-Za-z0-9-]+)", pdf))
    assert any(b"WenQuanYi" in name or b"CJK" in name for _, name in names), names
    english = render_booklet_pdf()
    assert not any(
        b"WenQuanYi" in n for _, n in re.findall(rb"/BaseFont\s*/([A-Z]{6}\+)?(\S+)", english)
    )


def test_the_booklet_page_speaks_the_asked_language() -> None:
    page = render_booklet_html(lang="zh-CN")
    assert '<html lang="zh-CN">' in page
    assert "<h1>艺术家手册</h1>" in page and "几何现代主义" in page and "平静" in page
    assert "<h1>Artists Booklet</h1>" in render_booklet_html()
