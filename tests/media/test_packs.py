"""Custom sleeve packs: images in, square PNGs out; bad files named and skipped; SVG made safe."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from recordroom.games.disc_cover.sleeves import catalogue
from recordroom.media.packs import (
    FIRST_PACK_ID,
    MIN_SLEEVES,
    PackError,
    UnsafeSvg,
    builtin_set,
    load_pack,
    load_sleeve_set,
    sanitise_svg,
)


def picture(path: Path, fmt: str, size: tuple[int, int] = (40, 30), hue: int = 0) -> None:
    image = Image.new("RGB", size, ((hue * 37) % 256, (hue * 91) % 256, (hue * 53) % 256))
    image.save(path, format=fmt)


GOOD_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="50" height="50">'
    '<rect width="50" height="50" fill="#c33"/><text x="5" y="30">Hi</text></svg>'
)


def test_a_mixed_pack_keeps_the_good_files_and_names_the_bad_ones(tmp_path: Path) -> None:
    picture(tmp_path / "a_beach-day.png", "PNG")
    picture(tmp_path / "b.jpg", "JPEG", (300, 500))
    picture(tmp_path / "c.webp", "WEBP")
    (tmp_path / "d.svg").write_text(GOOD_SVG, encoding="utf-8")
    (tmp_path / "e.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 40)  # a broken PNG
    (tmp_path / "f.jpg").write_text("not a picture at all")
    picture(tmp_path / "g.jpeg", "PNG")  # a PNG wearing a JPEG name
    (tmp_path / "h.svg").write_text("<svg><unclosed></svg>")
    (tmp_path / "i.webp").write_bytes(b"")
    (tmp_path / "notes.txt").write_text("hello")
    (tmp_path / "manifest.toml").write_text(
        'artist = "Our Crew"\n'
        '[[sleeve]]\nfile = "b.jpg"\ntitle = "Sunburn Sunday"\n'
        'artist = "Aunt Jo"\nmood = "joyful"\n'
        '[[sleeve]]\nfile = "missing.png"\ntitle = "Ghost"\n',
        encoding="utf-8",
    )
    pack = load_pack(tmp_path)
    assert pack.mode == "join"
    assert [pack.sources[s.id] for s in pack.sleeves] == [
        "a_beach-day.png",
        "b.jpg",
        "c.webp",
        "d.svg",
    ]
    assert [s.id for s in pack.sleeves] == list(range(FIRST_PACK_ID, FIRST_PACK_ID + 4))
    first, second = pack.sleeves[0], pack.sleeves[1]
    assert (first.title, first.artist, first.family) == ("A Beach Day", "Our Crew", "custom")
    assert (second.title, second.artist, second.mood) == ("Sunburn Sunday", "Aunt Jo", "joyful")
    skipped = {p.file: p.reason for p in pack.problems}
    assert set(skipped) == {
        "e.png",
        "f.jpg",
        "g.jpeg",
        "h.svg",
        "i.webp",
        "notes.txt",
        "missing.png",
    }
    assert "PNG, not JPEG" in skipped["g.jpeg"]
    assert "empty" in skipped["i.webp"]
    assert "manifest" in skipped["missing.png"]
    for sid, image in pack.images.items():
        assert image.content_type == "image/png"
        with Image.open(io.BytesIO(image.data)) as decoded:
            assert decoded.format == "PNG"
            assert decoded.width == decoded.height, sid


def test_a_joining_pack_adds_to_the_built_in_deck(tmp_path: Path) -> None:
    picture(tmp_path / "one.png", "PNG")
    deck = load_sleeve_set(tmp_path)
    assert deck.ids() == (*range(1, 101), FIRST_PACK_ID)
    assert deck.image(FIRST_PACK_ID).content_type == "image/png"
    assert deck.image(7).content_type == "image/svg+xml"
    assert deck.sleeve(7) == catalogue()[6]


def test_a_replacing_pack_needs_36_usable_sleeves(tmp_path: Path) -> None:
    (tmp_path / "manifest.toml").write_text('mode = "replace"\n')
    for k in range(MIN_SLEEVES - 1):
        picture(tmp_path / f"p{k:02d}.png", "PNG", hue=k)
    (tmp_path / "zz.png").write_text("broken")
    with pytest.raises(PackError, match=r"only 35 usable.*zz\.png"):
        load_sleeve_set(tmp_path)
    picture(tmp_path / "zz.png", "PNG", hue=99)
    deck = load_sleeve_set(tmp_path)
    assert len(deck.sleeves) == MIN_SLEEVES
    assert min(deck.ids()) == FIRST_PACK_ID


def test_no_pack_means_the_built_in_set() -> None:
    assert load_sleeve_set(None) == builtin_set()


@pytest.mark.parametrize(
    ("manifest", "message"),
    [('mode = "swap"', "mode"), ("[[sleeve]]\ntitle = 'x'", "file"), ("not toml [", "TOML")],
)
def test_a_bad_manifest_is_refused_with_the_reason(
    tmp_path: Path, manifest: str, message: str
) -> None:
    (tmp_path / "manifest.toml").write_text(manifest)
    with pytest.raises(PackError, match=message):
        load_pack(tmp_path)


def test_a_missing_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(PackError, match="not a folder"):
        load_pack(tmp_path / "nowhere")


HOSTILE_SVG = """<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
  viewBox="0 0 10 10" onload="alert(1)">
  <style>@import url(http://evil.example/x.css); rect { fill: url(http://evil.example/p#g) }</style>
  <script>alert(2)</script>
  <foreignObject><div xmlns="http://www.w3.org/1999/xhtml">hi</div></foreignObject>
  <image href="file:///etc/passwd" width="5" height="5"/>
  <image xlink:href="http://evil.example/x.png" width="5" height="5"/>
  <use href="other.svg#shape"/>
  <rect width="10" height="10" onclick="steal()" style="fill:url(https://evil.example/a)"/>
  <circle cx="5" cy="5" r="2" fill="url(#local)"/>
  <image href="data:image/png;base64,iVBORw0KGgo=" width="1" height="1"/>
</svg>"""


def test_a_hostile_svg_loses_every_active_and_external_part() -> None:
    clean = sanitise_svg(HOSTILE_SVG).lower()
    for bad in ("script", "onload", "onclick", "foreignobject", "evil.example", "file:", "@import",
                "other.svg", "alert"):  # fmt: skip
        assert bad not in clean, bad
    assert "url(#local)" in clean
    assert "data:image/png" in clean


@pytest.mark.parametrize(
    "text",
    [
        '<!DOCTYPE svg [<!ENTITY x "xxxxxxxx">]><svg xmlns="http://www.w3.org/2000/svg">&x;</svg>',
        "<html><body/></html>",
        "<svg",
    ],
)
def test_svg_that_is_not_plain_svg_is_refused(text: str) -> None:
    with pytest.raises(UnsafeSvg):
        sanitise_svg(text)


def test_a_hostile_svg_in_a_pack_becomes_a_plain_png(tmp_path: Path) -> None:
    (tmp_path / "x.svg").write_text(HOSTILE_SVG, encoding="utf-8")
    pack = load_pack(tmp_path)
    assert not pack.problems
    image = pack.images[FIRST_PACK_ID]
    assert image.content_type == "image/png"
    assert image.data.startswith(b"\x89PNG")
