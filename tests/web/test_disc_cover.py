"""Disc Cover in a real browser: one table screen and four phones play whole games.

The table is a 1280x720 page at ``/table``; each phone is a 360x640 touch context at
``/join/CODE``. The tests play a cooperative game with a tie-break, a phone reloaded in the middle
of a vote, the song really playing, and "play again"; and a competitive game with the Leader's tie
decision and a shared victory. With ``RECORDROOM_SCREENSHOTS=DIR`` they also photograph each phase
(that is how docs/screenshots/ is made).
"""

from __future__ import annotations

import os
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from .conftest import Server

pytestmark = pytest.mark.browser

NAMES = ("Ann", "Bea", "Cem", "Dov")
# How long the table shows a reveal: short in the tests, long enough to photograph it.
HOLD_MS = 4000 if os.environ.get("RECORDROOM_SCREENSHOTS") else 1500


class Players:
    """The table and the phones of one game night, and every page error they raise."""

    def __init__(self, browser: Browser, server: Server, shots: Path | None) -> None:
        self.browser = browser
        self.base = server.base
        self.shots = shots
        self.errors: list[str] = []
        self.contexts: list[BrowserContext] = []
        self.table = self._page({"width": 1280, "height": 720}, touch=False, label="table")
        self.phones: list[Page] = []
        self.code = ""

    def _page(self, viewport: dict[str, int], touch: bool, label: str) -> Page:
        context = self.browser.new_context(viewport=viewport, has_touch=touch, is_mobile=touch)
        self.contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.on("pageerror", lambda error: self.errors.append(f"{label}: {error}"))
        return page

    def shot(self, page: Page, name: str) -> None:
        if self.shots is not None:
            page.wait_for_timeout(1200)  # let the motion settle
            page.screenshot(path=str(self.shots / f"disc-cover-{name}.png"))

    def open_room(self, variant: str) -> str:
        table = self.table
        table.goto(f"{self.base}/table?hold={HOLD_MS}")
        # A server's first run makes the demo tracks before it lists the music.
        expect(table.locator("#sources[data-loaded]")).to_be_attached(timeout=90_000)
        label = "Together" if variant == "cooperative" else "Everyone for themselves"
        table.get_by_role("radio", name=re.compile(label)).check()
        expect(table.locator("input[name=source][value=demo]")).to_be_checked()
        if variant == "cooperative":
            self.shot(table, "table-setup")
        table.get_by_role("button", name="Open the room").click()
        expect(table.locator("#lobby")).to_be_visible()
        self.code = table.locator("#lobby-code").inner_text().strip()
        assert re.fullmatch(r"[A-Z]{4}", self.code)
        expect(table.locator("#join-url")).to_contain_text(f"/join/{self.code}")
        return self.code

    def join(self, name: str, by_link: bool = True) -> Page:
        phone = self._page({"width": 360, "height": 640}, touch=True, label=name)
        if by_link:
            phone.goto(f"{self.base}/join/{self.code}")
        else:
            phone.goto(f"{self.base}/join")
            phone.get_by_label("Room code").fill(self.code.lower())
        phone.get_by_label("Your name").fill(name)
        if self.shots is not None and not self.phones:
            self.shot(phone, "phone-join")
        phone.get_by_role("button", name="Take a seat").tap()
        expect(phone.locator("#seat-screen")).to_be_visible()
        expect(phone.locator("#me-name")).to_have_text(name)
        self.phones.append(phone)
        return phone

    def seat_everyone(self) -> None:
        for index, name in enumerate(NAMES):
            self.join(name, by_link=index != 3)
        expect(self.table.locator("#lobby-seats li")).to_have_count(len(NAMES))

    def start(self) -> None:
        self.table.get_by_role("button", name="Start the game").click()
        expect(self.table.locator("#game")).to_be_visible()
        for phone in self.phones:
            expect(phone.locator("#phase-title")).to_have_text("Turn 1 of 9")

    def vote(self, seat: int, card: int, last: bool = False) -> None:
        phone = self.phones[seat]
        phone.locator(f".pick[data-card='{card}']").tap()
        if not last:
            expect(phone.locator("#locked")).to_contain_text(f"Locked in: Record {card}")

    def vote_all(self, cards: list[int]) -> None:
        for seat, card in enumerate(cards):
            self.vote(seat, card, last=seat == len(cards) - 1)

    def wait_turn(self, turn: int) -> None:
        for phone in self.phones:
            expect(phone.locator("#phase-title")).to_have_text(f"Turn {turn} of 9")

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def night(browser: Browser, server: Server, screenshots: Path | None) -> Iterator[Players]:
    players = Players(browser, server, screenshots)
    yield players
    players.close()
    assert not players.errors, players.errors


def audio_time(table: Page) -> float:
    return float(table.evaluate("document.querySelector('#audio').currentTime"))


def test_cooperative_game_with_tiebreak_reload_music_and_play_again(night: Players) -> None:
    table = night.table
    night.open_room("cooperative")
    # A bot can be added and removed again before anyone arrives.
    table.get_by_role("button", name="Add a bot").click()
    expect(table.locator("#lobby-seats li")).to_have_count(1)
    table.get_by_role("button", name=re.compile("^Remove Bot")).click()
    expect(table.locator("#lobby-seats li")).to_have_count(0)
    night.seat_everyone()
    night.shot(table, "table-lobby")
    night.shot(night.phones[0], "phone-lobby")
    night.start()

    # The song plays: the table's audio element moves on.
    expect(table.locator("#audio")).to_have_attribute("src", re.compile(r"/api/music/tracks/\w+"))
    table.wait_for_function("document.querySelector('#audio').currentTime > 0.5", timeout=20_000)
    expect(table.locator("#now-title")).not_to_be_empty()
    night.shot(table, "table-voting")
    night.shot(night.phones[2], "phone-voting")

    # Turn 1: Bea changes her mind, Ann reloads mid-vote and keeps seat and vote, then a 2-2 tie.
    night.vote(1, 3)
    night.vote(1, 1)
    night.vote(0, 1)
    ann = night.phones[0]
    ann.reload()
    expect(ann.locator("#me-name")).to_have_text("Ann")
    expect(ann.locator("#locked")).to_contain_text("Locked in: Record 1")
    expect(ann.locator(".pick[data-card='1']")).to_have_attribute("aria-pressed", "true")
    night.vote(2, 2)
    expect(table.locator("#seats .seat.voted")).to_have_count(3)
    # The table tells who has voted, never what.
    expect(table.locator("#records .vote-row .disc")).to_have_count(0)
    night.shot(table, "table-locked-in")
    night.shot(ann, "phone-locked-in")
    night.vote(3, 2, last=True)

    # The tie: the first votes are revealed at once, and everyone votes again among 1 and 2.
    expect(table.locator("#banner")).to_contain_text("A tie between Record 1 and Record 2")
    expect(table.locator("#records .record.tied")).to_have_count(2)
    expect(table.locator("#records .vote-row .disc")).to_have_count(4)
    table.wait_for_function("document.querySelector('#audio').paused")  # stopped at the reveal
    for phone in night.phones:
        expect(phone.locator("#phase-title")).to_contain_text("A tie")
        expect(phone.locator(".pick[data-card='3']")).to_be_disabled()
    night.shot(table, "table-tiebreak")
    night.shot(night.phones[1], "phone-tiebreak")
    night.vote_all([2, 2, 2, 1])

    # The reveal: the tie-break chose Record 2, which scores its two first votes.
    expect(table.locator("#banner")).to_contain_text("Record 2")
    expect(table.locator("#records .record.winner")).to_have_count(1)
    night.shot(table, "table-reveal")
    night.wait_turn(2)
    expect(night.phones[0].locator("#locked")).to_contain_text("Last turn: Record 2")
    night.shot(night.phones[0], "phone-reveal")
    expect(table.locator("#mosaic .tile:not(.empty)")).to_have_count(1)
    expect(table.locator("#mosaic .tile .points-badge")).to_have_text("2")

    # A new song for the new turn, once the reveal is over.
    table.wait_for_function(
        "(a => !a.paused && a.currentTime > 0.2)(document.querySelector('#audio'))",
        timeout=20_000,
    )

    # Turns 2 to 9: three votes for one sleeve, one for another: 3 points a turn.
    for turn in range(2, 10):
        main = 1 + turn % 4
        other = 1 + (turn + 1) % 4
        night.vote_all([main, main, other, main])
        if turn < 9:
            night.wait_turn(turn + 1)
            expect(table.locator("#mosaic .tile:not(.empty)")).to_have_count(turn)

    expect(table.locator("#over")).to_be_visible(timeout=HOLD_MS + 10_000)
    expect(table.locator("#verdict")).to_contain_text("The team scored 26")
    expect(table.locator("#verdict .tier")).to_have_text("On the beat")
    expect(table.locator("#final-mosaic .tile:not(.empty)")).to_have_count(9)
    href = table.locator("#download").get_attribute("href")
    assert href == f"/api/rooms/{night.code}/mosaic.png"
    with urllib.request.urlopen(f"{night.base}{href}") as answer:
        assert answer.headers["content-type"] == "image/png"
        assert answer.read(8) == b"\x89PNG\r\n\x1a\n"
    for phone in night.phones:
        expect(phone.locator("#phase-title")).to_have_text("Game over")
        expect(phone.locator("#over-box")).to_contain_text("On the beat")
    night.shot(table, "table-over-cooperative")
    night.shot(night.phones[3], "phone-over-cooperative")

    # Play again: a new room, the same seats; every phone follows with its own seat.
    old = night.code
    table.get_by_role("button", name="Play again, same players").click()
    expect(table.locator("#game")).to_be_visible()
    expect(table.locator("#game-code")).not_to_have_text(old)
    for phone, name in zip(night.phones, NAMES, strict=True):
        expect(phone.locator("#phase-title")).to_have_text("Turn 1 of 9")
        expect(phone.locator("#me-name")).to_have_text(name)
        expect(phone.locator("#me-room")).not_to_have_text(old)
    night.vote(0, 4)
    expect(table.locator("#seats .seat.voted")).to_have_count(1)


def test_competitive_game_with_leader_decision_and_shared_victory(night: Players) -> None:
    table = night.table
    night.open_room("competitive")
    night.seat_everyone()
    night.start()
    expect(table.locator("#seats .seat.leader")).to_have_count(1)
    expect(table.locator("#seats .seat").nth(0)).to_have_class(re.compile(r"\bleader\b"))

    # Turn 1: a 2-2 tie; Ann, the Leader, decides for Record 2 (Bea and Dov score).
    night.vote_all([1, 2, 1, 2])
    expect(table.locator("#banner")).to_contain_text("Ann, the Leader, decides")
    ann, bea = night.phones[0], night.phones[1]
    expect(ann.locator("#phase-title")).to_contain_text("You're the Leader")
    expect(bea.locator("#phase-title")).to_contain_text("Ann decides")
    expect(bea.locator(".pick[data-card='2']")).to_be_disabled()
    night.shot(table, "table-leader")
    night.shot(ann, "phone-leader")
    ann.locator(".pick[data-card='2']").tap()
    expect(table.locator("#banner")).to_contain_text("chosen by the Leader, Ann")
    night.shot(table, "table-leader-reveal")
    night.wait_turn(2)
    expect(bea.locator("#points")).to_contain_text("1 point")
    expect(ann.locator("#points")).to_contain_text("0 points")
    expect(table.locator("#seats .seat").nth(1)).to_have_class(re.compile(r"\bleader\b"))
    expect(table.locator("#banner")).not_to_have_class(re.compile(r"\breveal\b"), timeout=10_000)
    night.vote(2, 3)
    night.shot(table, "table-competitive-voting")
    night.vote(2, 2)

    # Turns 2 to 9: everyone agrees: a point each (Cem has voted already in turn 2).
    for turn in range(2, 10):
        card = 2 if turn == 2 else 1 + turn % 4
        night.vote_all([card] * 4)
        if turn < 9:
            night.wait_turn(turn + 1)

    expect(table.locator("#over")).to_be_visible(timeout=HOLD_MS + 10_000)
    expect(table.locator("#verdict")).to_contain_text("Bea and Dov share the victory")
    expect(table.locator(".ranking li.won")).to_have_count(2)
    expect(table.locator(".ranking li").first).to_contain_text("9 points")
    expect(bea.locator("#phase-hint")).to_have_text("You share the victory!")
    expect(ann.locator("#phase-hint")).to_contain_text("Bea and Dov share the victory")
    night.shot(table, "table-over-competitive")
    night.shot(bea, "phone-over-competitive")


def open_with_bots(night: Players, source: str, party: bool) -> Page:
    """A cooperative room with the given music, one phone and two bots, started."""
    table = night.table
    table.goto(f"{night.base}/table?hold=3000")
    expect(table.locator("#sources[data-loaded]")).to_be_attached(timeout=90_000)
    table.locator(f"input[name=source][value={source}]").check()
    if party:
        table.get_by_label(re.compile("Party mode")).check()
    table.get_by_role("button", name="Open the room").click()
    expect(table.locator("#lobby")).to_be_visible()
    night.code = table.locator("#lobby-code").inner_text().strip()
    phone = night.join("Eve")
    for count in (2, 3):
        table.get_by_role("button", name="Add a bot").click()
        expect(table.locator("#lobby-seats li")).to_have_count(count)
    night.start()
    return phone


def test_party_mode_keeps_the_song_and_the_table_can_pause_and_skip(night: Players) -> None:
    table = night.table
    open_with_bots(night, "demo", party=True)
    table.wait_for_function("document.querySelector('#audio').currentTime > 0.3", timeout=20_000)
    table.get_by_role("button", name="Pause the song").click()
    table.wait_for_function("document.querySelector('#audio').paused")
    table.get_by_role("button", name="Play the song").click()
    table.wait_for_function("!document.querySelector('#audio').paused")
    first = table.locator("#audio").get_attribute("src")
    table.get_by_role("button", name="Skip to another song").click()
    expect(table.locator("#audio")).not_to_have_attribute("src", first or "")
    table.wait_for_function("document.querySelector('#audio').currentTime > 0.3", timeout=20_000)
    skipped = table.locator("#audio").get_attribute("src")
    # The bots have voted; Eve's vote ends the turn and the song plays on through the reveal.
    # (Random bots may tie with her: a tie is revealed too.)
    night.vote(0, 1, last=True)
    expect(table.locator("#banner")).to_have_class(re.compile(r"\b(reveal|tie)\b"))
    table.wait_for_timeout(500)
    assert not table.evaluate("document.querySelector('#audio').paused")
    assert table.locator("#audio").get_attribute("src") == skipped


def test_external_player_mode_has_no_audio_and_says_when_to_start_and_stop(night: Players) -> None:
    table = night.table
    open_with_bots(night, "external", party=False)
    expect(table.locator("#banner")).to_contain_text("Start the next song on your player now")
    expect(table.locator("#now-title")).to_have_text("External player")
    expect(table.get_by_role("button", name="Skip to another song")).to_be_hidden()
    assert not table.locator("#audio").get_attribute("src")
    night.vote(0, 2, last=True)
    expect(table.locator("#banner")).to_contain_text("Stop the song now.")


def test_a_dropped_phone_is_played_by_a_bot_then_given_back(night: Players) -> None:
    table = night.table
    phone = open_with_bots(night, "demo", party=False)
    # Eve's phone dies: the table shows her away and offers a bot for her seat.
    phone.context.close()
    night.contexts.remove(phone.context)
    hand_over = table.get_by_role("button", name="Let a bot play for Eve")
    expect(hand_over).to_be_visible()
    hand_over.click()
    # The bot plays Eve's seat: the game moves on without her.
    expect(table.locator("#turn")).to_have_text(re.compile(r"Turn [2-9] of 9"), timeout=30_000)
    give_back = table.get_by_role("button", name="Give Eve's seat back to Eve")
    expect(give_back).to_be_visible()
    give_back.click()
    expect(give_back).to_be_hidden()
    # The seat is Eve's again (her token holds it); while her phone is away the table offers the
    # bot again.
    expect(table.get_by_role("button", name="Let a bot play for Eve")).to_be_visible()
