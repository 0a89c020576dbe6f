"""Disc Cover's lobby on the table: eight players of long names fit the screen.

In a module of its own, so that its eight joins have a server (and a join limit per address) to
themselves.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from .conftest import Server
from .test_disc_cover_sofa import LONG_NAMES, Pages, fully_shown, new_room

pytestmark = pytest.mark.browser


@pytest.fixture
def pages(browser: Browser, server: Server) -> Iterator[Pages]:
    opened = Pages(browser, server)
    yield opened
    for context in opened.contexts:
        context.close()
    assert not opened.errors, opened.errors


def test_the_lobby_of_eight_long_names_fits_the_table(
    pages: Pages, server: Server, screenshots: Path | None
) -> None:
    """Eight 24-character names in the lobby, at 1280x720 and 1920x1080: the page does not
    scroll sideways, every seat and the first Leader's choice are wholly on screen, and a name
    too long for its place is cut with an ellipsis rather than widening the lobby."""
    code, host = new_room(server, "competitive")
    for name in LONG_NAMES:
        server.call("POST", f"/api/rooms/{code}/seats", {"name": name})
    table = pages.open({"width": 1280, "height": 720}, "table")
    table.goto(f"{pages.base}/table")
    table.evaluate("([c, t]) => localStorage.setItem(`recordroom.host.${c}`, t)", [code, host])
    table.goto(f"{pages.base}/table?room={code}")
    expect(table.locator("#lobby-seats .seat-chip")).to_have_count(8)
    expect(table.locator("#leader-box")).to_be_visible()
    for width, height in ((1280, 720), (1920, 1080)):
        table.set_viewport_size({"width": width, "height": height})
        wide = table.evaluate("document.documentElement.scrollWidth")
        assert wide <= width, f"the lobby is {wide} px wide on a {width} px screen"
        for seat in range(1, 9):
            fully_shown(table, f"#lobby-seats .seat-chip:nth-child({seat})")
        fully_shown(table, "#first-leader")
        if screenshots is not None:
            table.screenshot(path=str(screenshots / f"disc-cover-lobby-long-names-{width}.png"))
    name = table.locator("#lobby-seats .seat-name").first
    assert name.evaluate("n => n.scrollWidth > n.clientWidth")  # cut, not spilling over
    expect(name).to_have_attribute("title", LONG_NAMES[0])  # whole on a hover
