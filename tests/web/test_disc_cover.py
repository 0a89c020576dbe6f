"""Disc Cover in a real browser: one table screen and four phones play whole games.

The table is a 1280x720 page at ``/table``; each phone is a 360x640 touch context at
``/join/CODE``. Every turn begins with its song: the phones say "Listen…" and show the last turn's
result until the table's audio element plays the new song and the table opens the vote. The tests
play a cooperative game with a tie-break, a phone reloaded in the middle of a vote, the song really
playing, and "play again"; and a competitive game with the Leader's tie decision and a shared
victory of three. With ``RECORDROOM_SCREENSHOTS=DIR`` they also photograph each phase, the table
at 1280x720 and 1920x1080 (that is how docs/screenshots/ is made).
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
HOLD_MS = 9000 if os.environ.get("RECORDROOM_SCREENSHOTS") else 2500
# Screenshots stay small: at most this many bytes each (docs/screenshots/ is in the repository).
SHOT_LIMIT = 300_000


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
        """Photographs a page (the table at 1280x720 and 1920x1080) when screenshots are asked."""
        if self.shots is None:
            return
        page.wait_for_timeout(1200)  # let the motion settle
        save_small(page, self.shots / f"disc-cover-{name}.png")
        if page == self.table:
            page.set_viewport_size({"width": 1920, "height": 1080})
            page.wait_for_timeout(900)
            save_small(page, self.shots / f"disc-cover-{name}-1080p.png")
            page.set_viewport_size({"width": 1280, "height": 720})

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

    def start(self, opened: bool = True) -> None:
        """Starts the game; with ``opened`` waits until the first song has opened the vote."""
        self.table.get_by_role("button", name="Start the game").click()
        expect(self.table.locator("#game")).to_be_visible()
        if opened:
            for phone in self.phones:
                expect(phone.locator("#phase-title")).to_have_text("Turn 1 of 9", timeout=30_000)

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
            # The table shows its reveal, then the next song opens the turn.
            title = phone.locator("#phase-title")
            expect(title).to_have_text(f"Turn {turn} of 9", timeout=HOLD_MS + 20_000)

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def night(browser: Browser, server: Server, screenshots: Path | None) -> Iterator[Players]:
    players = Players(browser, server, screenshots)
    yield players
    players.close()
    assert not players.errors, players.errors


# Computed sizes on the table screen, in CSS pixels.
SIZES = """() => {
  const px = (sel) => parseFloat(getComputedStyle(document.querySelector(sel)).fontSize);
  return {name: px(".seat-text b"), status: px(".seat-status"), points: px(".seat-points"),
          code: px(".room-tag .code"), banner: px("#banner"),
          sleeve: document.querySelector(".record .sleeve-art").getBoundingClientRect().width,
          titleLine: px(".record .sleeve-title") * 1.15,
          titleLines: Math.max(...[...document.querySelectorAll(".record .sleeve-title")].map(
            (title) => Math.round(title.offsetHeight / (px(".record .sleeve-title") * 1.15))))};
}"""


def save_small(page: Page, path: Path) -> None:
    """A screenshot as a PNG of at most 256 colours, so it stays well under the size limit."""
    from io import BytesIO

    from PIL import Image

    picture = Image.open(BytesIO(page.screenshot())).convert("RGB")
    for colours in (256, 128, 64):
        quantized = picture.quantize(
            colors=colours, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
        )
        quantized.save(path, optimize=True)
        if path.stat().st_size < SHOT_LIMIT:
            break
    assert path.stat().st_size < SHOT_LIMIT, f"{path.name} is {path.stat().st_size} bytes"


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
    # While the table shows its reveal, the phones show it too: no new sleeves before the song.
    ann = night.phones[0]
    for phone in night.phones:
        expect(phone.locator("#phase-title")).to_have_text("Listen…")
        expect(phone.locator("#result")).to_contain_text("Turn 1: Record 2 goes into the mosaic")
        expect(phone.locator(".pick")).to_have_count(0)
    expect(ann.locator("#result")).to_contain_text("You picked Record 1: +2 for the team")
    expect(ann.locator("#result li.won")).to_contain_text("Record 2: Cem and Dov")
    night.shot(ann, "phone-reveal")
    night.shot(table, "table-reveal")
    night.wait_turn(2)
    expect(ann.locator("#locked")).to_contain_text("Last turn: Record 2")
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
    # The ladder of four players' tiers, and what the next one needed.
    expect(table.locator("#ladder li")).to_have_count(6)
    expect(table.locator("#ladder li.current")).to_contain_text("On the beat")
    next_tier = "3 points more would have reached In sync (29)"
    expect(table.locator("#verdict")).to_contain_text(next_tier)
    expect(table.locator("#final-mosaic .tile:not(.empty)")).to_have_count(9)
    href = table.locator("#download").get_attribute("href")
    assert href == f"/api/rooms/{night.code}/mosaic.png?lang=en"  # the table's language
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
    # During the Leader's reveal the token stays with Ann, who decided; then it moves to Bea.
    expect(table.locator("#seats .seat.leader")).to_have_count(1)
    expect(table.locator("#seats .seat").nth(0)).to_have_class(re.compile(r"\bleader\b"))
    night.shot(table, "table-leader-reveal")
    night.wait_turn(2)
    expect(bea.locator("#points")).to_contain_text("1 point")
    expect(ann.locator("#points")).to_contain_text("0 points")
    expect(table.locator("#seats .seat").nth(1)).to_have_class(re.compile(r"\bleader\b"))
    expect(table.locator("#banner")).not_to_have_class(re.compile(r"\breveal\b"), timeout=10_000)
    night.vote(2, 3)
    night.shot(table, "table-competitive-voting")
    # Readable from a sofa: at 1920x1080 names, statuses and scores are 24 px or more, the room
    # code and the banner larger, and the sleeves large: 360 px or more, less the height a
    # title's second line takes under them (the sleeves' fit; a deal with one of the deck's
    # longer titles needs it here: 334 px).
    table.set_viewport_size({"width": 1920, "height": 1080})
    sizes = table.evaluate(SIZES)
    table.set_viewport_size({"width": 1280, "height": 720})
    assert min(sizes["name"], sizes["status"], sizes["points"]) >= 24, sizes
    assert min(sizes["code"], sizes["banner"]) > 30, sizes
    assert sizes["titleLines"] <= 2, sizes
    assert sizes["sleeve"] >= 360 - (sizes["titleLines"] - 1) * sizes["titleLine"] - 1, sizes
    night.vote(2, 2)

    # Turns 2 to 9: three agree (a point each) and, in turns 3 to 5, one votes apart: Bea once,
    # Dov twice (Cem has voted already in turn 2). Ann, Bea and Cem end on 8 points, Dov on 7.
    apart = {3: 1, 4: 3, 5: 3}
    for turn in range(2, 10):
        card = 2 if turn == 2 else 1 + turn % 4
        cards = [card] * 4
        if turn in apart:
            cards[apart[turn]] = 1 + card % 4
        night.vote_all(cards)
        if turn < 9:
            night.wait_turn(turn + 1)

    expect(table.locator("#over")).to_be_visible(timeout=HOLD_MS + 10_000)
    expect(table.locator("#verdict")).to_contain_text("Ann, Bea and Cem share the victory")
    expect(table.locator(".ranking li.won")).to_have_count(3)
    expect(table.locator(".ranking li").first).to_contain_text("8 points")
    expect(table.locator("#ladder")).to_be_hidden()
    expect(bea.locator("#phase-hint")).to_have_text("You share the victory!")
    dov = night.phones[3]
    expect(dov.locator("#phase-hint")).to_contain_text("Ann, Bea and Cem share the victory")
    night.shot(table, "table-over-competitive")
    night.shot(bea, "phone-over-competitive")


def open_with_bots(
    night: Players, source: str, party: bool, timer: int = 0, opened: bool = True
) -> Page:
    """A cooperative room with the given music, one phone (Eve) and two bots, started."""
    table = night.table
    table.goto(f"{night.base}/table?hold=3000")
    expect(table.locator("#sources[data-loaded]")).to_be_attached(timeout=90_000)
    table.locator(f"input[name=source][value={source}]").check()
    if party:
        table.get_by_label(re.compile("Party mode")).check()
    if timer:
        table.get_by_label("Vote timer").select_option(str(timer))
    table.get_by_role("button", name="Open the room").click()
    expect(table.locator("#lobby")).to_be_visible()
    night.code = table.locator("#lobby-code").inner_text().strip()
    phone = night.join("Eve")
    for count in (2, 3):
        table.get_by_role("button", name="Add a bot").click()
        expect(table.locator("#lobby-seats li")).to_have_count(count)
    night.start(opened=opened)
    return phone


def test_external_player_mode_opens_each_turn_when_the_host_says_the_song_plays(
    night: Players,
) -> None:
    table = night.table
    phone = open_with_bots(night, "external", party=False, opened=False)
    expect(table.locator("#banner")).to_contain_text("Start turn 1's song on your player now")
    expect(table.locator("#now-title")).to_have_text("External player")
    expect(table.get_by_role("button", name="Skip to another song")).to_be_hidden()
    assert not table.locator("#audio").get_attribute("src")
    # Until the host says the song plays, Eve listens and has nothing to pick.
    expect(phone.locator("#phase-title")).to_have_text("Listen…")
    expect(phone.locator(".pick")).to_have_count(0)
    night.shot(table, "table-external-listening")
    table.get_by_role("button", name="The song is playing").click()
    expect(phone.locator("#phase-title")).to_have_text("Turn 1 of 9")
    expect(table.get_by_role("button", name="The song is playing")).to_be_hidden()
    night.vote(0, 2, last=True)
    expect(table.locator("#banner")).to_contain_text("Stop the song now.")


def test_a_phone_keeps_its_buttons_while_another_seat_votes(night: Players) -> None:
    """Another seat's vote redraws every phone. A tap that began on a pick button must end on the
    same element (else the browser calls it no click and the tap is lost), so the buttons of the
    same cards are kept and only their state changes."""
    night.open_room("cooperative")
    night.join("Ann")
    night.join("Bea")
    night.join("Cem")
    night.start()
    ann, bea = night.phones[0], night.phones[1]
    button = bea.locator(".pick[data-card='2']").element_handle()
    assert button is not None
    # The host's seat buttons on the table are kept too (a click there opens the seat menu).
    seat = night.table.locator("#seats .seat").nth(2).element_handle()
    night.vote(0, 3)
    # Bea's phone has drawn Ann's vote: Ann is no longer among those it waits for.
    expect(bea.locator("#locked")).not_to_contain_text("Ann")
    expect(ann.locator(".pick[data-card='3']")).to_have_attribute("aria-pressed", "true")
    assert button.evaluate("b => b.isConnected"), "Bea's button 2 was replaced by a new element"
    # The kept button still votes, for the card it shows.
    button.tap()
    expect(bea.locator("#locked")).to_contain_text("Locked in: Record 2")
    expect(bea.locator(".pick[data-card='2']")).to_have_attribute("aria-pressed", "true")
    expect(night.table.locator("#seats .seat.voted")).to_have_count(2)
    assert seat.evaluate("s => s.isConnected"), "Cem's seat on the table was replaced"
    seat.click()
    expect(night.table.locator("#seat-menu")).to_contain_text("Cem")
