"""Disc Cover in Simplified Chinese, in a real browser: a whole game of each variant (cooperative
and competitive) with the table switched to 简体中文 at setup, two phones whose browsers ask for
Chinese, one English phone and a bot. Every screen a Chinese reader sees is scanned for Latin words
that are not names; the English phone stays English throughout (a room mixes languages). With
``RECORDROOM_SCREENSHOTS=DIR`` the Chinese table and phone are photographed (``*-zh.png``; the
competitive game's vote and end as ``*-competitive-zh.png``)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from .zh_text import FastServer, latin_labels, latin_words, save_small, sleeve_words

# A fresh cache makes the demo playlist before the first room: room for it beside the game.
pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(480)]

NAMES = ("Ann", "Bea", "Cem")
TIERS_ZH = ("一片嘈杂", "错音连连", "音准到位", "踩准节拍", "默契同步", "完美和鸣")


@pytest.fixture(scope="module")
def fast_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FastServer]:
    running = FastServer(tmp_path_factory.mktemp("zh-server"))
    try:
        yield running
    finally:
        running.stop()


class Night:
    def __init__(self, browser: Browser, shots: Path | None) -> None:
        self.browser = browser
        self.shots = shots
        # The competitive game photographs its own vote and end only (the rest is alike).
        self.variant = "cooperative"
        self.contexts: list[BrowserContext] = []
        self.errors: list[str] = []

    def page(self, locale: str, width: int, height: int, label: str) -> Page:
        context = self.browser.new_context(
            locale=locale, viewport={"width": width, "height": height}, has_touch=width < 500
        )
        self.contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(20_000)
        page.on("pageerror", lambda error: self.errors.append(f"{label}: {error}"))
        return page

    def shot(self, page: Page, name: str) -> None:
        if self.shots is None:
            return
        if self.variant != "cooperative":
            if name not in ("table-voting", "table-over", "phone-over"):
                return
            name = f"{name}-{self.variant}"
        page.wait_for_timeout(800)
        save_small(page, self.shots / f"disc-cover-{name}-zh.png")


@pytest.fixture
def night(browser: Browser, screenshots: Path | None) -> Iterator[Night]:
    running = Night(browser, screenshots)
    yield running
    for context in running.contexts:
        context.close()
    assert not running.errors, running.errors


# The table's reveal of a turn in Chinese, with its help link to the rules' reveal.
REVEAL = """() => (document.querySelector("#banner")?.textContent || "").includes("进入拼贴墙")
  && document.querySelector("#banner-help")?.getAttribute("href")
     === "/how-to-play/disc-cover#reveal" """


def foreign(page: Page, names: set[str]) -> list[str]:
    """Latin words of a Chinese page, in its text and in its titles and aria-labels."""
    return latin_words(page, names) + latin_labels(page, names)


def turn_title(lang: str, turn: int) -> str:
    return f"第 {turn} 轮 / 共 9 轮" if lang == "zh" else f"Turn {turn} of 9"


def test_a_whole_game_with_a_chinese_table_and_mixed_phones(
    night: Night, fast_server: FastServer
) -> None:
    whole_game(night, fast_server, "cooperative")


def test_a_whole_competitive_game_with_a_chinese_table_and_mixed_phones(
    night: Night, fast_server: FastServer
) -> None:
    whole_game(night, fast_server, "competitive")


def whole_game(night: Night, fast_server: FastServer, variant: str) -> None:
    """Nine turns in which the three people agree (3 of 4 votes: never a tie), to the end screen
    of the variant, every Chinese screen scanned on the way."""
    night.variant = variant
    base = fast_server.base
    names = set(NAMES) | sleeve_words(base) | {"Bot"}

    # The table's browser speaks English; the host switches the screen to Chinese at setup.
    table = night.page("en-US", 1280, 720, "table")
    table.goto(f"{base}/table?hold=1200")
    expect(table.locator("#sources[data-loaded]")).to_be_attached(timeout=90_000)
    expect(table.locator("#create")).to_have_text("Open the room")
    table.locator("#setup select.lang-switch").select_option("zh-CN")
    expect(table.locator("#create")).to_have_text("开设房间")
    expect(table.locator("html")).to_have_attribute("lang", "zh-CN")
    # A fresh cache makes the demo playlist first ("示范播放列表还在生成"), then its count.
    expect(table.locator("#music-note")).to_contain_text("首歌", timeout=240_000)
    assert foreign(table, names) == []
    night.shot(table, "table-setup")
    table.locator(f"input[name=variant][value={variant}]").check()
    table.locator("#create").click()
    expect(table.locator("#lobby")).to_be_visible()
    code = table.locator("#lobby-code").inner_text().strip()
    assert re.fullmatch(r"[A-Z]{4}", code)

    # Two phones ask for Chinese, one for English.
    phones: list[tuple[Page, str]] = []
    for name, lang in zip(NAMES, ("zh", "zh", "en"), strict=True):
        phone = night.page("zh-CN" if lang == "zh" else "en-US", 360, 640, name)
        phone.goto(f"{base}/join/{code}")
        expect(phone.locator("#join-button")).to_have_text(
            "入座" if lang == "zh" else "Take a seat"
        )
        if lang == "zh":
            assert foreign(phone, names | {code}) == []
        phone.locator("#join-name").fill(name)
        phone.locator("#join-button").click()
        expect(phone.locator("#seat-screen")).to_be_visible()
        phones.append((phone, lang))
    table.locator("#add-bot").click()
    expect(table.locator("#lobby-seats li")).to_have_count(4)
    expect(table.locator("#lobby-hint")).to_have_text("人都到齐了？倒好饮料就开始吧。")
    assert foreign(table, names | {code}) == []
    night.shot(table, "table-lobby")
    expect(phones[0][0].locator("#phase-title")).to_have_text("你已入座，Ann！")
    expect(phones[2][0].locator("#phase-title")).to_have_text("You're in, Cem!")
    table.locator("#start").click()
    expect(table.locator("#game")).to_be_visible()

    # Nine turns: the three people agree (3 of 4 votes: never a tie).
    for turn in range(1, 10):
        for phone, lang in phones:
            # A new turn comes after the table's reveal of the last one (about 5 s) and its song.
            expect(phone.locator("#phase-title")).to_have_text(
                turn_title(lang, turn), timeout=30_000
            )
        if turn == 2:
            expect(table.locator("#turn")).to_have_text(turn_title("zh", turn))
            for phone, lang in phones:
                if lang == "zh":
                    assert foreign(phone, names | {code}) == [], turn
                else:
                    expect(phone.locator("#phase-hint")).to_contain_text("Which sleeve fits")
            expect(phones[0][0].locator("#phase-help")).to_have_attribute(
                "href", "/how-to-play/disc-cover#vote"
            )
            night.shot(phones[0][0], "phone-voting")
        card = 1 + turn % 4
        for index, (phone, _lang) in enumerate(phones):
            phone.locator(f".pick[data-card='{card}']").click()
            if index == 0:
                expect(phone.locator("#locked")).to_contain_text(f"已锁定：唱片 {card}")
                if turn == 2:
                    assert foreign(table, names | {code}) == []
                    night.shot(table, "table-voting")
        if turn == 4:
            # The reveal lasts the table's hold (1.2 s): its banner and help link are read together
            # on every frame (two expects one after the other could miss it on a loaded machine).
            table.wait_for_function(REVEAL, polling="raf", timeout=30_000)
            assert foreign(table, names | {code}) == []
            night.shot(table, "table-reveal")

    expect(table.locator("#over")).to_be_visible(timeout=20_000)
    ann, cem = phones[0][0], phones[2][0]
    if variant == "cooperative":
        verdict = table.locator("#verdict .tier").inner_text()
        assert verdict in TIERS_ZH, verdict
        expect(table.locator("#over-explain")).to_contain_text("等级怎么看")
        expect(table.locator("#ladder li")).to_have_count(6)
    else:
        # Ann, Bea and Cem agreed every turn: 9 points each, the bot at most as many.
        expect(table.locator("#verdict")).to_contain_text(re.compile("Ann.*Bea.*Cem.*共享胜利"))
        expect(table.locator("#over-explain")).to_contain_text("排名怎么算")
        expect(table.locator(".ranking li")).to_have_count(4)
        expect(table.locator(".ranking li").first).to_contain_text("9 分")
        expect(table.locator("#ladder")).to_be_hidden()
    assert foreign(table, names | {code}) == []
    night.shot(table, "table-over")
    expect(ann.locator("#phase-title")).to_have_text("游戏结束")
    if variant == "cooperative":
        expect(ann.locator("#over-box .tier")).to_have_text(verdict)
    else:
        expect(ann.locator("#phase-hint")).to_have_text("你们共享胜利！")
        # "第 1 名" stays on one line (a column as narrow as "1st" broke it character by character).
        tall = ann.locator("#over-box .ranking .place").evaluate_all(
            "(n) => n.filter((x) => x.offsetHeight > 2 * parseFloat(getComputedStyle(x).fontSize))"
            ".map((x) => x.textContent)"
        )
        assert tall == [], tall
    assert foreign(ann, names | {code}) == []
    night.shot(ann, "phone-over")
    expect(cem.locator("#phase-title")).to_have_text("Game over")
    if variant == "cooperative":
        english_tier = cem.locator("#over-box .tier").inner_text()
        assert english_tier in (
            "Cacophony",
            "Wrong Notes",
            "Right Notes",
            "On the beat",
            "In sync",
            "Perfect harmony",
        )
    else:
        expect(cem.locator("#phase-hint")).to_have_text("You share the victory!")

    # The language switch of a phone: Cem turns his page to Chinese and back, without a reload.
    cem.locator("#seat-screen select.lang-switch").select_option("zh-CN")
    expect(cem.locator("#phase-title")).to_have_text("游戏结束")
    cem.locator("#seat-screen select.lang-switch").select_option("en")
    expect(cem.locator("#phase-title")).to_have_text("Game over")
