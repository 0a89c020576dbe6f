"""The end screens' tier ladder (in the page's common.js) is the engine's score table."""

from __future__ import annotations

import json
import re
from pathlib import Path

from recordroom.games.disc_cover.scoring import TIER_FLOORS, TIERS

COMMON = Path(__file__).parents[2] / "recordroom" / "web" / "disc-cover" / "common.js"


def test_the_pages_tier_table_is_the_engines() -> None:
    text = COMMON.read_text()
    floors = re.search(r"export const TIER_FLOORS = (\{.*?\});", text)
    names = re.search(r"export const TIERS = (\[.*?\]);", text)
    assert floors and names, "common.js lost its tier table"
    assert json.loads(names.group(1)) == list(TIERS)
    page = {int(players): tuple(row) for players, row in json.loads(floors.group(1)).items()}
    assert page == TIER_FLOORS
