"""The 100 built-in sleeves: drawn by code, deterministically, in ten families, told apart."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from collections import Counter
from itertools import combinations

import numpy as np
import pytest
from PIL import Image, ImageFilter

from recordroom.games.disc_cover.sleeves import Sleeve, catalogue
from recordroom.media.sleeve_art import FAMILIES, UnknownFamily, builtin_svg, render_svg
from recordroom.media.sleeve_art.canvas import contrast, legible
from recordroom.media.sleeve_art.palette import MOODS

# --- the perceptual measure ------------------------------------------------------------------
#
# Two pictures are near-duplicates when they share BOTH their structure and their colours:
# - structure: a 63-bit perceptual hash (DCT of the 32 x 32 grey image, low 8 x 8 frequencies less
#   the DC term, each bit = above the median); distance = Hamming distance, 0..63.
# - colour: the mean absolute difference of the 8 x 8 RGB thumbnails, 0..255.
# A player tells two sleeves apart if either differs clearly: same layout in other colours reads
# as another sleeve (colour is what a glance takes in first), and so do the same colours in another
# layout.
#
# The thresholds are calibrated, not guessed: `test_measure_flags_a_sleeve_and_its_own_copy`
# makes a mild copy of every sleeve (3 % cropped off each side, scaled back, blurred by 1 px: what
# a re-scan or a re-encode does) and requires every copy to be flagged; with the art of this commit
# the largest copy distances, at the 96 px the test renders, are 20 bits and 17.5 levels. The
# thresholds (22 bits, 20 levels) sit just above those, and every one of the 4,950 pairs of distinct
# sleeves must stay outside them (the closest pairs are the same layout in other colours, e.g.
# 4 bits apart but 112 levels, or the same colours in another layout, e.g. 12 levels but 28 bits).
STRUCTURE_BITS = 22
COLOUR_LEVELS = 20.0

_N = 32
_K = np.arange(_N)
_DCT = np.sqrt(2 / _N) * np.cos(np.pi * (2 * _K[None, :] + 1) * _K[:, None] / (2 * _N))
_DCT[0] /= np.sqrt(2)


def phash(image: Image.Image) -> np.ndarray:
    """The 63-bit perceptual hash of an image."""
    grey = np.asarray(image.convert("L").resize((_N, _N), Image.Resampling.LANCZOS), dtype=float)
    low = (_DCT @ grey @ _DCT.T)[:8, :8].flatten()[1:]
    return np.asarray(low > np.median(low))


def colour_grid(image: Image.Image) -> np.ndarray:
    """The image as an 8 x 8 RGB grid of mean colours."""
    return np.asarray(image.convert("RGB").resize((8, 8), Image.Resampling.BOX), dtype=float)


def near_duplicates(a: Image.Image, b: Image.Image) -> tuple[bool, int, float]:
    """Whether two images are near-duplicates, with their structure and colour distances."""
    bits = int((phash(a) != phash(b)).sum())
    levels = float(np.abs(colour_grid(a) - colour_grid(b)).mean())
    return bits <= STRUCTURE_BITS and levels <= COLOUR_LEVELS, bits, levels


def mild_copy(image: Image.Image) -> Image.Image:
    """The image cropped by 3 % on each side, scaled back and slightly blurred."""
    w, h = image.size
    m = round(w * 0.03)
    return image.crop((m, m, w - m, h - m)).resize((w, h)).filter(ImageFilter.GaussianBlur(1))


def test_measure_flags_a_sleeve_and_its_own_copy(thumbnails: dict[int, Image.Image]) -> None:
    missed = []
    for sid, image in thumbnails.items():
        flagged, bits, levels = near_duplicates(image, mild_copy(image))
        if not flagged:
            missed.append((sid, bits, round(levels, 1)))
    assert not missed, f"copies the measure failed to flag (id, bits, levels): {missed}"


def test_no_two_sleeves_are_near_duplicates(thumbnails: dict[int, Image.Image]) -> None:
    hashes = {sid: phash(im) for sid, im in thumbnails.items()}
    grids = {sid: colour_grid(im) for sid, im in thumbnails.items()}
    close = []
    for a, b in combinations(sorted(thumbnails), 2):
        bits = int((hashes[a] != hashes[b]).sum())
        levels = float(np.abs(grids[a] - grids[b]).mean())
        if bits <= STRUCTURE_BITS and levels <= COLOUR_LEVELS:
            close.append((a, b, bits, round(levels, 1)))
    assert not close, f"near-duplicate sleeves (id, id, bits, levels): {close}"


# --- generation ------------------------------------------------------------------------------


def test_the_catalogue_holds_100_sleeves_in_ten_families_of_every_mood() -> None:
    sleeves = catalogue()
    assert [s.id for s in sleeves] == list(range(1, 101))
    assert len({s.title for s in sleeves}) == 100
    assert len({s.artist for s in sleeves}) == 100
    families = Counter(s.family for s in sleeves)
    assert len(families) >= 10
    assert set(families) <= set(FAMILIES)
    assert {s.mood for s in sleeves} == set(MOODS)


def test_every_sleeve_is_a_square_self_contained_svg() -> None:
    for sleeve in catalogue():
        svg = builtin_svg(sleeve.id)
        assert svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 400"')
        # type is drawn as outlines and nothing is fetched: the sleeve looks the same everywhere
        for forbidden in ("<text", "<image", "href", "<script", "@import", "url(http"):
            assert forbidden not in svg, (sleeve.id, forbidden)
        assert sleeve.title.replace("&", "&amp;").replace("'", "'") in svg  # the <title> element


def test_generation_is_deterministic_across_processes() -> None:
    ids = [1, 27, 45, 63, 79, 88, 100]
    here = {sid: hashlib.sha256(render_svg(_by_id(sid)).encode()).hexdigest() for sid in ids}
    code = (
        "import hashlib;from recordroom.media.sleeve_art import builtin_svg;"
        f"print(' '.join(hashlib.sha256(builtin_svg(i).encode()).hexdigest() for i in {ids}))"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    assert out.stdout.split() == [here[sid] for sid in ids]


def test_an_unknown_family_is_refused_by_name() -> None:
    with pytest.raises(UnknownFamily, match="watercolour"):
        render_svg(Sleeve(id=500, title="T", artist="A", family="watercolour", mood="calm"))


def test_a_sleeve_outside_the_catalogue_still_draws() -> None:
    svg = render_svg(Sleeve(id=500, title="Extra Track", artist="Guest", family="blobs", mood="x"))
    assert svg == render_svg(Sleeve(500, "Extra Track", "Guest", "blobs", "x"))


@pytest.mark.parametrize(("colour", "on"), [("#777777", "#707070"), ("#ffeeee", "#ffffff")])
def test_legible_reaches_the_contrast_asked(colour: str, on: str) -> None:
    assert contrast(legible(colour, on), on) >= 4.5


def _by_id(sid: int) -> Sleeve:
    return next(s for s in catalogue() if s.id == sid)
