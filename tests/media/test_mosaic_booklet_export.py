"""The mosaic PNG, the Artists Booklet (HTML and PDF), the export folder and the sleeves command."""

from __future__ import annotations

import io
import re
from datetime import date
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from recordroom.cli import main
from recordroom.games.disc_cover.sleeves import catalogue
from recordroom.media.booklet import render_booklet_html, render_booklet_pdf
from recordroom.media.export import export_sleeves, render_print_and_play_pdf
from recordroom.media.mosaic import MosaicError, evening_of, render_mosaic, render_mosaic_png
from recordroom.media.packs import FIRST_PACK_ID, SleeveSet, load_sleeve_set


def result_mosaic(ids: list[int]) -> list[dict[str, object]]:
    """The ``mosaic`` list as a Disc Cover result gives it."""
    return [{"sleeve": catalogue()[i - 1].to_json(), "points": i % 5} for i in ids]


def test_the_mosaic_is_one_png_of_nine_sleeves_with_points() -> None:
    entries = result_mosaic([3, 14, 25, 36, 47, 58, 69, 70, 91])
    data = render_mosaic_png(entries, tier="On the beat", caption="Friday night")
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "PNG"
        assert image.width == 36 * 2 + 3 * 300 + 2 * 18
        # the first sleeve's picture is in the top-left cell
        cell = image.convert("RGB").crop((36, 36, 336, 336))
        assert len(set(cell.resize((8, 8)).tobytes())) > 4


def test_the_mosaic_shows_a_pack_sleeve(tmp_path: Path) -> None:
    Image.new("RGB", (50, 50), (10, 200, 30)).save(tmp_path / "green.png")
    deck = load_sleeve_set(tmp_path)
    entry = {"sleeve": {"id": FIRST_PACK_ID, "title": "Green"}, "points": 4}
    image = render_mosaic([entry], deck)
    assert image.getpixel((150, 150)) == (10, 200, 30)


def footer_ink(image: Image.Image, top: int, bottom: int) -> int:
    """How many pixels between two heights differ from the sheet's background."""
    pixels = np.asarray(image.convert("RGB"))
    background = pixels[-2, 2]
    return int((pixels[top:bottom] != background).any(axis=2).sum())


def test_a_cooperative_mosaic_tells_the_score_tier_players_and_date() -> None:
    entries = result_mosaic([3, 14, 25, 36, 47, 58, 69, 70, 91])
    result = {"score": 19, "tier": "Right Notes", "mosaic": entries}
    evening = evening_of(result, ["Ann", "Bo", "Cem", "Dee"], date(2026, 12, 1))
    assert evening.lines() == ["19 points · Right Notes", "Ann, Bo, Cem and Dee · 1 December 2026"]
    bare = render_mosaic(entries)
    told = render_mosaic(entries, evening=evening)
    assert told.width == bare.width and told.height > bare.height
    grid = 36 + 3 * (300 + 64) + 2 * 18
    headline = (grid, grid + 56)
    signature = (told.height - 36 - 36, told.height - 36)
    assert footer_ink(told, *headline) > 500 and footer_ink(told, *signature) > 500
    # Different names draw a different last line; the grid above it is the same.
    other = render_mosaic(entries, evening=evening_of(result, ["Zoë"], date(2026, 12, 1)))
    assert (
        other.crop((0, 0, told.width, grid)).tobytes()
        == told.crop((0, 0, told.width, grid)).tobytes()
    )
    assert (
        other.crop((0, signature[0], told.width, signature[1])).tobytes()
        != told.crop((0, signature[0], told.width, signature[1])).tobytes()
    )


def test_a_competitive_mosaic_ranks_the_players_with_shared_places() -> None:
    entries = result_mosaic([1, 2, 3])
    result = {"points": [7, 9, 9, 4, 1], "winners": [1, 2], "mosaic": entries}
    names = ["Ann", "Bo", "Cem", "Dee", "Eli"]
    evening = evening_of(result, names, date(2026, 1, 9))
    assert evening.headline == "Bo and Cem share the victory with 9 points"
    assert evening.ranking == (
        "1. Bo · 9 points",
        "1. Cem · 9 points",
        "3. Ann · 7 points",
        "4. Dee · 4 points",
        "5. Eli · 1 point",
    )
    assert evening.signature() == "Ann, Bo, Cem, Dee and Eli · 9 January 2026"
    alone = evening_of({"points": [3, 1, 2]}, names[:3], date(2026, 1, 9))
    assert alone.headline == "Ann wins with 3 points"
    # Three ranking rows (two columns) make the footer taller than a cooperative one.
    coop = evening_of({"score": 5, "tier": "Tuning Up"}, names, date(2026, 1, 9))
    ranked, plain = render_mosaic(entries, evening=evening), render_mosaic(entries, evening=coop)
    assert ranked.height == plain.height + 3 * 36
    grid = 36 + 3 * (300 + 64) + 2 * 18
    for row in range(3):
        top = grid + 56 + row * 36
        assert footer_ink(ranked, top, top + 36) > 300, row


@pytest.mark.parametrize(
    "result",
    [{}, {"score": 3}, {"points": [1, 2]}, {"points": [1, "2", 3]}, {"points": []}],
)
def test_a_result_without_an_outcome_is_refused(result: dict[str, object]) -> None:
    with pytest.raises(MosaicError, match="score and a tier"):
        evening_of(result, ["Ann", "Bo", "Cem"], date(2026, 1, 9))


@pytest.mark.parametrize(
    ("entries", "message"),
    [
        ([], "1 to 9"),
        ([{"sleeve": {"id": 1}}], "points"),
        ([{"sleeve": {"id": 9999}, "points": 1}], "9999"),
    ],
)
def test_a_bad_mosaic_is_refused(entries: list[dict[str, object]], message: str) -> None:
    with pytest.raises(MosaicError, match=message):
        render_mosaic(entries)


def test_the_booklet_page_lists_every_sleeve_with_its_credits() -> None:
    html = render_booklet_html(image_url=lambda sid: f"/sleeves/{sid}", standalone=False)
    assert html.count("<li ") == 100
    for s in catalogue():
        assert f'src="/sleeves/{s.id}"' in html
        assert s.artist.replace("&", "&amp;") in html
    assert "Night city" in html and "dreamy" in html


def test_the_standalone_booklet_inlines_its_pictures_and_escapes_titles(tmp_path: Path) -> None:
    Image.new("RGB", (20, 20)).save(tmp_path / "x.png")
    (tmp_path / "manifest.toml").write_text('[[sleeve]]\nfile = "x.png"\ntitle = "<b>Bold</b>"\n')
    html = render_booklet_html(load_sleeve_set(tmp_path))
    assert html.startswith("<!doctype html>")
    assert "&lt;b&gt;Bold&lt;/b&gt;" in html and "<b>Bold" not in html
    assert html.count('src="data:image/png;base64,') == 1
    assert html.count('src="data:image/svg+xml;base64,') == 100


def pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page\b", pdf))


def small_set() -> SleeveSet:
    return SleeveSet(catalogue()[::8])  # 13 sleeves, one of every family at least


def test_the_booklet_pdf_has_a_cover_and_twenty_sleeves_a_page() -> None:
    pdf = render_booklet_pdf(small_set())
    assert pdf.startswith(b"%PDF")
    assert pages(pdf) == 2
    assert render_booklet_pdf(small_set()) == pdf  # no dates inside: same sleeves, same bytes


def test_the_print_and_play_pdf_holds_twelve_cards_a_page() -> None:
    pdf = render_print_and_play_pdf(small_set())
    assert pages(pdf) == 2
    assert len(re.findall(rb"/Subtype\s*/Image", pdf)) == 13


def test_export_writes_every_sleeve_and_the_documents(tmp_path: Path) -> None:
    report = export_sleeves(tmp_path, small_set(), size=64)
    assert (report.svg, report.png) == (13, 13)
    svgs = sorted(p.name for p in (tmp_path / "svg").iterdir())
    assert svgs[0] == "001-quiet-arithmetic.svg"
    with Image.open(tmp_path / "png" / "001-quiet-arithmetic.png") as image:
        assert image.size == (64, 64)
    for name in ("sleeves-print-and-play.pdf", "artists-booklet.pdf", "artists-booklet.html",
                 "contact-sheet.png"):  # fmt: skip
        assert (tmp_path / name).stat().st_size > 0
    assert 'src="png/001-quiet-arithmetic.png"' in (tmp_path / "artists-booklet.html").read_text()


def test_the_sleeves_command_checks_a_pack_and_writes_a_booklet(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pack = tmp_path / "pack"
    pack.mkdir()
    Image.new("RGB", (20, 20)).save(pack / "fine.png")
    (pack / "bad.jpg").write_text("nope")
    assert main(["sleeves", "check", str(pack)]) == 0
    out = capsys.readouterr()
    assert "1 usable sleeves" in out.out and "bad.jpg" in out.err
    (pack / "manifest.toml").write_text('mode = "replace"\n')
    assert main(["sleeves", "check", str(pack)]) == 1
    assert "at least 36" in capsys.readouterr().err
    assert main(["sleeves", "booklet", str(tmp_path / "b.html")]) == 0
    assert (tmp_path / "b.html").read_text().count("<li ") == 100


def test_the_sleeves_check_fails_a_pack_with_no_usable_sleeve(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A joining pack whose every file is bad would leave the deck as it was: the check says so
    # and fails, whatever the mode.
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "bad.jpg").write_text("nope")
    (pack / "notes.txt").write_text("not a picture")
    assert main(["sleeves", "check", str(pack)]) == 1
    said = capsys.readouterr()
    assert "no usable sleeve" in said.err and "bad.jpg" in said.err and "notes.txt" in said.err
    assert "usable sleeves (" not in said.out
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["sleeves", "check", str(empty)]) == 1
    assert "no picture" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("verb", "flag", "value", "said"),
    [
        ("export", "--size", "0", "must be at least 1 pixel"),
        ("export", "--size", "-8", "must be at least 1 pixel"),
        ("contact-sheet", "--thumb", "0", "must be at least 1 pixel"),
        # A typo of a few zeros: one error line, not minutes of drawing and gigabytes of memory.
        ("export", "--size", "100000", "must be at most 4096 pixels, not 100000"),
        ("contact-sheet", "--thumb", "4000", "must be at most 512 pixels, not 4000"),
    ],
)
def test_the_sleeves_command_refuses_a_side_it_cannot_draw(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], verb: str, flag: str, value: str, said: str
) -> None:
    target = tmp_path / ("sleeves" if verb == "export" else "sheet.png")
    with pytest.raises(SystemExit) as stopped:
        main(["sleeves", verb, str(target), flag, value])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert f"recordroom sleeves {verb}: error: argument {flag}: {said}" in err
    assert not target.exists()  # nothing half-written
