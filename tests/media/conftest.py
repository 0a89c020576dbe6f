"""Shared fixtures for the media tests: the built-in sleeves rendered once per session."""

from __future__ import annotations

import pytest
from PIL import Image

from recordroom.games.disc_cover.sleeves import catalogue
from recordroom.media.raster import svg_to_image
from recordroom.media.sleeve_art import builtin_svg


@pytest.fixture(scope="session")
def thumbnails() -> dict[int, Image.Image]:
    """Every built-in sleeve rasterised at 96 px (between the phone's and the table's sizes)."""
    return {s.id: svg_to_image(builtin_svg(s.id), 96) for s in catalogue()}
