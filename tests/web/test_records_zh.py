"""Draft & Write Records in Simplified Chinese, in a real browser: a shorter check than a whole
game. A solo game on a laptop whose browser asks for Chinese is set up and played for a dozen
turns with option A and option B; the phase banner, the help link, the goal row, the tabs of the
sheet's areas and the game log are in Chinese with the rulebook's words, and the whole page, its
drawn sheet, titles and aria-labels included, shows no Latin word but names. (A whole game with
phones, to its end screens, is in test_records_game_zh.py.)"""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import Error as PlaywrightError

from .zh_text import FastServer, latin_labels, latin_words, save_small

pytestmark = pytest.mark.browser

OFFER = """() => ({
  version: Number(document.body.dataset.version || -1),
  acts: [...document.querySelectorAll("[data-act]")].filter((n) => n.checkVisibility())
    .map((n) => n.dataset.act),
})"""
MOVED = "(before) => Number(document.body.dataset.version || -1) > before.version"
# The parts of the page this check covers (their text is scanned for Latin words).
PARTS = "#status, #log-box, #goals, #tabs, #panel .option-b, #me-round, #players"


@pytest.fixture(scope="module")
def fast_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FastServer]:
    running = FastServer(tmp_path_factory.mktemp("zh-records"))
    try:
        yield running
    finally:
        running.stop()


def step(page: Page, option_b: bool) -> None:
    """Takes the first choice offered (option B when asked), never failing a card nor undoing
    unless nothing else is offered; a confirmation asked is given."""
    before = page.evaluate(OFFER)
    keys = [k for k in before["acts"] if k not in ("undo",)]
    if "confirm" in keys:
        order = ["confirm"]
    elif option_b and "draw" in keys:
        order = ["draw"]
    else:
        order = [k for k in keys if k not in ("fail", "draw")] or [k for k in keys if k == "fail"]
    if not order:
        page.wait_for_timeout(50)
        return
    with contextlib.suppress(PlaywrightError):
        page.locator(f'[data-act="{order[0]}"]:visible').first.click(timeout=2000)
        page.wait_for_function(MOVED, arg=before, timeout=5000)


def parts_text_latin(page: Page) -> list[str]:
    """Latin words in the covered parts (goal names are translated; no names appear there but
    the player's own)."""
    words = page.evaluate(
        """(sel) => [...document.querySelectorAll(sel)].map((n) => n.innerText).join(" ")""",
        PARTS,
    )
    found = {w for w in re.findall(r"[A-Za-z][A-Za-z'’]+", words)}
    return sorted(found - {"Sol", "LP", "Records"})


def test_a_solo_game_in_chinese(
    browser: Browser, fast_server: FastServer, screenshots: Path | None
) -> None:
    context = browser.new_context(locale="zh-CN", viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(f"{fast_server.base}/records")
        expect(page.locator("#solo-start")).to_have_text("开始单人游戏")
        assert latin_words(page, set()) == []
        page.fill("#solo-name", "Sol")
        page.click("#solo-start")
        page.wait_for_function("document.body.dataset.phase === 'lead_singer'")
        expect(page.locator("#phase-title")).to_have_text("选择你的主唱颜色")
        expect(page.locator("#phase-help")).to_have_attribute("href", "/how-to-play/records#setup")
        seen: set[str] = set()
        turns = 0
        started = time.monotonic()
        while turns < 12 and time.monotonic() - started < 120:
            phase = str(page.evaluate("document.body.dataset.phase || ''"))
            if phase == "over":
                break
            if phase == "turn" and phase + str(turns) not in seen:
                seen.add(phase + str(turns))
                turns += 1
                expect(page.locator("#phase-title")).to_contain_text("单人 · 第")
                assert parts_text_latin(page) == [], phase
                assert latin_words(page, {"Sol", "LP"}) == [], phase
                assert latin_labels(page, {"Sol", "LP"}) == [], phase
            if phase == "third":
                expect(page.locator("#phase-title")).to_contain_text("选项 B")
            step(page, option_b=phase == "turn" and turns % 2 == 0)
        assert turns >= 6, f"only {turns} turns were played"
        log = page.locator("#log-box").inner_text()
        assert "打出" in log and "回合" in log, log
        tabs = page.locator("#tabs").inner_text()
        for term in ("乐团成员", "日程", "和声", "巡演", "发行", "资产", "乘数", "作废"):
            assert term in tabs, (term, tabs)
        assert parts_text_latin(page) == []
        if screenshots is not None:
            save_small(page, screenshots / "records-laptop-solo-zh.png")
    finally:
        context.close()
    assert not errors, errors


def test_the_table_screen_in_chinese_through_a_game_of_bots(
    browser: Browser, fast_server: FastServer, screenshots: Path | None
) -> None:
    """The table screen in Chinese: a room of three bots plays to its end (bots act at once);
    the chips, the goals, the log, the end screen's score table and the replay's caption and log
    show no Latin word but the bots' names. (The compact boards of the table are not scanned.)"""
    context = browser.new_context(locale="zh-CN", viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(30_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(f"{fast_server.base}/records")
        page.click("#open-room")
        expect(page.locator("#lobby")).to_be_visible()
        for count in (1, 2, 3):
            page.click("#add-bot")
            expect(page.locator("#seats li")).to_have_count(count)
        assert latin_words(page, {"Bot", "Records"}) == []
        page.click("#start")
        expect(page.locator("#table-over")).to_be_visible(timeout=120_000)
        expect(page.locator("#verdict")).to_contain_text(re.compile("获胜|共享胜利"))
        expect(page.locator(".score-table")).to_contain_text("总分")
        text = page.evaluate(
            """() => ["#round-info", "#table-goals", "#table-log", "#table-over .results",
                      "#table-over .replay-caption", "#table-over .replay-log"]
                .map((s) => document.querySelector(s)?.innerText || "").join(" ")"""
        )
        found = {w for w in re.findall(r"[A-Za-z][A-Za-z'’]+", text)}
        assert sorted(found - {"Bot", "LP"}) == []
        # The whole end screen, the sheets of the replay and what a screen reader reads included.
        assert latin_words(page, {"Bot", "LP"}) == []
        assert latin_labels(page, {"Bot", "LP"}) == []
        if screenshots is not None:
            save_small(page, screenshots / "records-table-end-zh.png")
    finally:
        context.close()
    assert not errors, errors
