"""Every page in Simplified Chinese: a browser that asks for zh-CN sees no Latin word on any
page but names (games, players, rooms, sleeves, songs) and the language switch's "English"; the
"How to play" pages' parts are where the help links point; the switch keeps its choice."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from .zh_text import FastServer, latin_labels, latin_words, save_small, sleeve_words

# A fresh cache makes the demo playlist before the first room: room for it beside the game.
pytestmark = [pytest.mark.browser, pytest.mark.timeout(480)]


@pytest.fixture(scope="module")
def fast_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FastServer]:
    running = FastServer(tmp_path_factory.mktemp("zh-pages"))
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def chinese(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(locale="zh-CN", viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, errors


PAGES = [
    ("/", "#open-disc-cover", "打开 Disc Cover 桌面"),
    ("/table", "#create", "开设房间"),
    ("/join", "#join-button", "入座"),
    ("/how-to-play/disc-cover", "#tiers h2", "等级表（合作）"),
    ("/how-to-play/records", "#area-fail", "作废"),
    ("/booklet", "h1", "艺术家手册"),
]


@pytest.mark.parametrize(("path", "selector", "text"), PAGES, ids=[p[0] for p in PAGES])
def test_each_page_speaks_chinese(
    chinese: Page,
    fast_server: FastServer,
    screenshots: Path | None,
    path: str,
    selector: str,
    text: str,
) -> None:
    chinese.goto(f"{fast_server.base}{path}")
    expect(chinese.locator(selector)).to_contain_text(text)
    if path == "/table":
        expect(chinese.locator("#sources[data-loaded]")).to_be_attached(timeout=90_000)
        expect(chinese.locator("#music-note")).to_contain_text("首歌", timeout=240_000)
    if path == "/how-to-play/records":
        expect(chinese.locator("#intro")).to_contain_text("标准版")
    assert latin_words(chinese, sleeve_words(fast_server.base)) == [], path
    assert latin_labels(chinese, sleeve_words(fast_server.base)) == [], path
    if screenshots is not None and path.startswith("/how-to-play"):
        name = path.rsplit("/", 1)[1]
        save_small(chinese, screenshots / f"how-to-play-{name}-zh.png")


def test_the_rules_have_every_part_a_help_link_points_to(
    chinese: Page, fast_server: FastServer
) -> None:
    chinese.goto(f"{fast_server.base}/how-to-play/disc-cover#leader")
    for part in (
        "setup",
        "turn",
        "vote",
        "tiebreak",
        "leader",
        "reveal",
        "end",
        "tiers",
        "ranking",
    ):
        expect(chinese.locator(f"section#{part} h2")).not_to_be_empty()
    expect(chinese.locator("#tier-table tr")).to_have_count(7)
    expect(chinese.locator("#toc li")).to_have_count(9)


def test_the_switch_keeps_the_choice_across_pages(chinese: Page, fast_server: FastServer) -> None:
    chinese.goto(f"{fast_server.base}/")
    expect(chinese.locator("h1")).to_have_text("唱片室")
    chinese.locator("select.lang-switch").select_option("en")
    expect(chinese.locator("h1")).to_have_text("Record Room")
    expect(chinese.locator("html")).to_have_attribute("lang", "en")
    chinese.goto(f"{fast_server.base}/how-to-play/disc-cover")
    expect(chinese.locator("h1")).to_have_text("How to play Disc Cover")
    chinese.locator("select.lang-switch").select_option("zh-CN")
    expect(chinese.locator("h1")).to_have_text("Disc Cover 玩法说明")
