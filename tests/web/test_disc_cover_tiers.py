"""The end screens' tier ladder (in the page's common.js) is the engine's score table."""

from __future__ import annotations

import json
import re
from pathlib import Path

from recordroom.games.disc_cover.scoring import TIER_FLOORS, TIERS

COMMON = Path(__file__).parents[2] / "recordroom" / "web" / "disc-cover" / "common.js"


def js_literal(text: str) -> object:
    """A JavaScript array or object literal of numbers and strings, as the formatter writes it
    (bare number keys, trailing commas), read as JSON."""
    text = re.sub(r"(\d+):", r'"\1":', text)
    return json.loads(re.sub(r",\s*([\]}])", r"\1", text))


def test_the_pages_tier_table_is_the_engines() -> None:
    text = COMMON.read_text()
    floors = re.search(r"export const TIER_FLOORS = (\{.*?\});", text, re.DOTALL)
    names = re.search(r"export const TIERS = (\[.*?\]);", text, re.DOTALL)
    assert floors and names, "common.js lost its tier table"
    assert js_literal(names.group(1)) == list(TIERS)
    table = js_literal(floors.group(1))
    assert isinstance(table, dict)
    page = {int(players): tuple(row) for players, row in table.items()}
    assert page == TIER_FLOORS
