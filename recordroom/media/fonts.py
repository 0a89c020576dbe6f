"""The fonts the media code draws with: the DejaVu family that Matplotlib ships (a free licence),
and for Chinese a CJK font from a system package (WenQuanYi Micro Hei, fonts-wqy-microhei).

Using these files rather than whatever the system offers keeps every picture and PDF the same on
every machine; the CJK font is embedded (subset) in each PDF that uses it.
"""

from __future__ import annotations

import os
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


# -- Chinese ------------------------------------------------------------------------------------

CJK_FONT_FILES = (
    # Debian's fonts-wqy-microhei (installed by scripts/system-deps.sh from `make test`).
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    # Other packages that carry Simplified Chinese, in case that one is absent.
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
)
"""Where the CJK font the media code embeds is looked for, first found wins."""


class FontMissing(RuntimeError):
    """No font that draws Chinese is installed (``make system-deps`` installs one)."""

    code = "media/font_missing"


@cache
def cjk_font_path() -> Path:
    """The installed font that draws Simplified Chinese (see ``CJK_FONT_FILES``)."""
    override = os.environ.get("RECORDROOM_CJK_FONT")
    for candidate in ((override,) if override else ()) + CJK_FONT_FILES:
        if Path(candidate).is_file():
            return Path(candidate)
    raise FontMissing(
        "no font for Chinese text: install the Debian package fonts-wqy-microhei "
        "(make system-deps) or name a .ttf/.ttc in RECORDROOM_CJK_FONT"
    )


def needs_cjk(text: str) -> bool:
    """Whether ``text`` holds characters beyond what the DejaVu fonts draw (CJK, full-width)."""
    return any(ord(ch) >= 0x2E80 for ch in text)


@cache
def pil_cjk_font(size: int) -> ImageFont.FreeTypeFont:
    """The CJK font at a pixel size, for Pillow (it draws Latin letters too)."""
    return ImageFont.truetype(str(cjk_font_path()), size, index=0)


def pil_font_for(text: str, size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu for Latin text, the CJK font for text that needs it."""
    return pil_cjk_font(size) if needs_cjk(text) else pil_font(size, bold)


def missing_glyphs(path: Path, text: str, index: int = 0) -> set[str]:
    """The characters of ``text`` (spaces aside) that the font's cmap has no glyph for."""
    from fontTools.ttLib import TTCollection, TTFont  # type: ignore[import-untyped]

    if path.suffix.lower() == ".ttc":
        collection = TTCollection(str(path))
        cmap = collection.fonts[index].getBestCmap()
        collection.close()
    else:
        with TTFont(str(path)) as font:
            cmap = font.getBestCmap()
    return {ch for ch in text if not ch.isspace() and ord(ch) not in cmap}
