"""Disc Cover's table opened without the room's host token: a spectator's screen.

A host types the room's table address on a second screen (the TV), or a friend opens the link:
``/table?room=CODE`` in a browser that does not hold the host token shows that room, read-only,
as a spectator of the socket (docs/protocol.md, "Who holds what"). It follows the game (the
lobby, the turns, who voted, the reveal, the mosaic, the end, "play again"), says in a line that
the host's screen plays the music, plays nothing itself, opens no turn, and draws none of the
host's controls. A code no room holds says so instead of offering the setup of a new room, and
``/table`` alone is the setup as before. With ``RECORDROOM_SCREENSHOTS=DIR`` the spectator's
screens are photographed at 1280x720 and 1920x1080 (``disc-cover-spectator-*.png``).
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect

from .conftest import Server
from .test_disc_cover_night import finish_turn
from .zh_text import latin_labels, latin_words, save_small

pytestmark = pytest.mark.browser

TABLE: ViewportSize = {"width": 1280, "height": 720}
PHONE: ViewportSize = {"width": 360, "height": 640}
HOLD_MS = 2500  # the host's reveal, short in the tests
# The host's controls: none of them is on a spectator's screen (each would answer 403).
HOST_CONTROLS = (
    "#player", "#pause", "#skip", "#unmute", "#next-song", "#song-playing", "#away-banner",
    "#add-bot", "#bot-level", "#start", "#first-leader", "#again",
)  # fmt: skip

# Put in a spectator's page before its scripts: counts every sound it starts (the audio element's
# play(), a Web Audio tone), keeps every message it sends on a socket, and counts the frames in
# which the setup form of a new room was on screen (none: not even while the page loads).
PROBE = """
window.probe = { plays: 0, tones: 0, sent: [], setupShown: 0 };
const look = () => {
  if (document.querySelector("#setup")?.checkVisibility()) window.probe.setupShown += 1;
  requestAnimationFrame(look);
};
requestAnimationFrame(look);
const play = HTMLMediaElement.prototype.play;
HTMLMediaElement.prototype.play = function (...args) {
  window.probe.plays += 1;
  return play.apply(this, args);
};
const start = AudioScheduledSourceNode.prototype.start;
AudioScheduledSourceNode.prototype.start = function (...args) {
  window.probe.tones += 1;
  return start.apply(this, args);
};
const send = WebSocket.prototype.send;
WebSocket.prototype.send = function (data) {
  window.probe.sent.push(String(data));
  return send.call(this, data);
};
"""


class Screens:
    """The browser contexts of one test (each its own localStorage), and their page errors."""

    def __init__(self, browser: Browser, server: Server, shots: Path | None) -> None:
        self.browser = browser
        self.base = server.base
        self.shots = shots
        self.contexts: list[BrowserContext] = []
        self.errors: list[str] = []

    def open(self, viewport: ViewportSize, label: str, locale: str = "en-GB") -> Page:
        touch = viewport["width"] < 500
        context = self.browser.new_context(
            viewport=viewport, has_touch=touch, is_mobile=touch, locale=locale
        )
        self.contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(20_000)
        page.on("pageerror", lambda error: self.errors.append(f"{label}: {error}"))
        return page

    def spectator(self, code: str, locale: str = "en-GB") -> Page:
        """A table screen of room ``code`` in a browser that never held its host token."""
        page = self.open(TABLE, "spectator", locale)
        page.add_init_script(PROBE)
        page.goto(f"{self.base}/table?room={code}")
        return page

    def setup_shown(self, page: Page) -> int:
        """In how many frames this page showed the setup form (with the probe)."""
        return int(page.evaluate("window.probe.setupShown"))

    def shot(self, page: Page, name: str) -> None:
        """Photographs the page at 1280x720 and at 1920x1080, when screenshots are asked for."""
        if self.shots is None:
            return
        page.wait_for_timeout(900)  # let the motion settle
        save_small(page, self.shots / f"disc-cover-spectator-{name}.png")
        page.set_viewport_size({"width": 1920, "height": 1080})
        page.wait_for_timeout(700)
        save_small(page, self.shots / f"disc-cover-spectator-{name}-1080p.png")
        page.set_viewport_size(TABLE)


@pytest.fixture
def screens(browser: Browser, server: Server, screenshots: Path | None) -> Iterator[Screens]:
    opened = Screens(browser, server, screenshots)
    yield opened
    for context in opened.contexts:
        context.close()
    assert not opened.errors, opened.errors


def assert_silent(spectator: Page) -> None:
    """The spectator's screen started no sound and sent nothing but pings: no `playing`, no
    `hold`, no act."""
    probe = spectator.evaluate("window.probe")
    assert probe["plays"] == 0, "the spectator's screen played the song"
    assert probe["tones"] == 0, "the spectator's screen chimed"
    sent = [json.loads(message)["type"] for message in probe["sent"]]
    assert set(sent) <= {"ping"}, sent
    audio = spectator.evaluate(
        "(a => ({paused: a.paused, src: a.currentSrc, time: a.currentTime}))"
        "(document.querySelector('#audio'))"
    )
    assert audio == {"paused": True, "src": "", "time": 0}, audio


def assert_no_host_controls(spectator: Page) -> None:
    for selector in HOST_CONTROLS:
        expect(spectator.locator(selector)).to_be_hidden()
    expect(spectator.locator("#lobby-seats button, #seats button")).to_have_count(0)


def watch_note(spectator: Page, code: str) -> None:
    """The visible line that says whose screen plays the music."""
    note = spectator.locator(".watch-note:visible")
    expect(note).to_have_count(1)
    expect(note).to_contain_text(f"Watching room {code}")
    expect(note).to_contain_text("The host's screen plays the music; this one stays silent.")
    expect(note).to_be_in_viewport(ratio=1)


def test_a_second_screen_watches_the_game_without_playing_it(
    screens: Screens, server: Server
) -> None:
    # The host's table opens a room on the demo playlist: a room with real music.
    host = screens.open(TABLE, "host")
    host.goto(f"{screens.base}/table?hold={HOLD_MS}")
    expect(host.locator("#sources[data-loaded]")).to_be_attached(timeout=90_000)
    expect(host.locator("input[name=source][value=demo]")).to_be_checked()
    host.get_by_role("button", name="Open the room").click()
    expect(host.locator("#lobby")).to_be_visible()
    code = host.locator("#lobby-code").inner_text().strip()
    assert re.fullmatch(r"[A-Z]{4}", code)
    token = str(host.evaluate("(c) => localStorage.getItem(`recordroom.host.${c}`)", code))
    expect(host.locator(".watch-note:visible")).to_have_count(0)  # the host's is as it was

    # The TV opens the room's table address: the lobby of that room, not a setup form.
    tv = screens.spectator(code)
    expect(tv.locator("#lobby")).to_be_visible()
    expect(tv.locator("#setup")).to_be_hidden()
    expect(tv.locator("#setup-form")).to_be_hidden()
    expect(tv.locator("#lobby-code")).to_have_text(code)
    expect(tv.locator("#qr")).to_be_visible()
    expect(tv.locator("#join-url")).to_contain_text(f"/join/{code}")
    watch_note(tv, code)
    assert tv.evaluate("(c) => localStorage.getItem(`recordroom.host.${c}`)", code) is None
    assert screens.setup_shown(tv) == 0

    # Players arrive: a phone and two bots the host adds; the TV sees each one come.
    ann = screens.open(PHONE, "Ann")
    ann.goto(f"{screens.base}/join/{code}")
    ann.get_by_label("Your name").fill("Ann")
    ann.get_by_role("button", name="Take a seat").tap()
    expect(ann.locator("#me-name")).to_have_text("Ann")
    expect(tv.locator("#lobby-seats li")).to_have_count(1)
    expect(tv.locator("#lobby-seats li")).to_contain_text("Ann")
    for count in (2, 3):
        host.get_by_role("button", name="Add a bot").click()
        expect(tv.locator("#lobby-seats li")).to_have_count(count)
    expect(tv.locator("#lobby-hint")).to_have_text(
        "The host's screen starts the game once everyone is in."
    )
    assert_no_host_controls(tv)
    screens.shot(tv, "lobby")

    # The host starts: its song plays and opens the vote; the TV shows the turn's four records.
    host.get_by_role("button", name="Start the game").click()
    host.wait_for_function("document.querySelector('#audio').currentTime > 0.3", timeout=30_000)
    expect(ann.locator("#phase-title")).to_have_text("Turn 1 of 9", timeout=30_000)
    expect(tv.locator("#game")).to_be_visible()
    expect(tv.locator("#game-code")).to_have_text(code)
    expect(tv.locator("#turn")).to_have_text("Turn 1 of 9")
    expect(tv.locator("#records .record:not(.covered)")).to_have_count(4)
    titles = host.locator("#records .sleeve-title").all_inner_texts()
    assert len(titles) == 4 and all(titles)
    expect(tv.locator("#records .sleeve-title")).to_have_text(titles)
    watch_note(tv, code)
    expect(tv.locator("#banner")).to_contain_text("pick the sleeve that fits")
    # Who voted: the bots at once, Ann still choosing.
    expect(tv.locator("#seats .seat.voted")).to_have_count(2)
    expect(tv.locator("#seats .seat", has_text="Ann")).to_contain_text("thinking")
    assert_no_host_controls(tv)
    tv.locator("#seats .seat", has_text="Ann").click()  # a spectator's seat opens no menu
    expect(tv.locator("dialog[open]")).to_have_count(0)
    screens.shot(tv, "voting")

    # Ann's vote ends the turn: the TV shows the reveal and the mosaic's first tile, then turn 2.
    finish_turn(ann)
    expect(tv.locator("#banner.reveal")).to_contain_text("goes into the mosaic")
    expect(tv.locator("#banner")).not_to_contain_text("Stop the song")
    expect(tv.locator("#mosaic .tile:not(.empty)")).to_have_count(1)
    expect(tv.locator("#seats .seat", has_text="Ann")).to_contain_text(re.compile(r"picked \d"))
    screens.shot(tv, "reveal")
    expect(tv.locator("#turn")).to_have_text("Turn 2 of 9", timeout=30_000)
    expect(ann.locator("#phase-title")).to_have_text("Turn 2 of 9", timeout=30_000)
    expect(tv.locator("#records .record:not(.covered)")).to_have_count(4)
    titles = host.locator("#records .sleeve-title").all_inner_texts()
    expect(tv.locator("#records .sleeve-title")).to_have_text(titles)
    # The host's screen played turn 2's song; the TV played nothing and opened nothing.
    assert not host.evaluate("document.querySelector('#audio').paused")
    assert_silent(tv)

    # A bot plays Ann's seat to the end: the TV shows the end, without "Play again".
    server.call("POST", f"/api/rooms/{code}/seats/0/bot", {}, token)
    expect(tv.locator("#over")).to_be_visible(timeout=150_000)
    expect(tv.locator("#final-mosaic .tile:not(.empty)")).to_have_count(9)
    expect(tv.locator("#download")).to_be_visible()
    watch_note(tv, code)
    assert_no_host_controls(tv)
    screens.shot(tv, "over")
    assert_silent(tv)

    # "Play again" on the host's screen: the TV follows to the new room, still a spectator.
    expect(host.locator("#over")).to_be_visible(timeout=30_000)
    host.get_by_role("button", name="Play again, same players").click()
    expect(host.locator("#game-code")).not_to_have_text(code, timeout=20_000)
    again = host.locator("#game-code").inner_text().strip()
    expect(tv.locator("#game")).to_be_visible(timeout=20_000)
    expect(tv.locator("#game-code")).to_have_text(again)
    expect(tv).to_have_url(re.compile(rf"/table\?room={again}$"))
    watch_note(tv, again)
    assert tv.evaluate("(c) => localStorage.getItem(`recordroom.host.${c}`)", again) is None
    expect(tv.locator("#records .record:not(.covered)")).to_have_count(4, timeout=30_000)
    assert_no_host_controls(tv)
    assert_silent(tv)


def test_a_code_no_room_holds_says_so_and_table_alone_is_the_setup(
    screens: Screens, server: Server
) -> None:
    with pytest.raises(urllib.error.HTTPError) as refused:
        server.call("GET", "/api/rooms/ZZZZ")
    refused.value.close()  # its socket, else closed by whichever later test collects it
    assert refused.value.code == 404
    page = screens.spectator("ZZZZ")
    expect(page.locator("#missing")).to_be_visible()
    expect(page.locator("#missing-title")).to_have_text("No room ZZZZ")
    expect(page.locator("#missing-text")).to_contain_text("No room on this server has the code")
    for screen in ("#setup", "#setup-form", "#lobby", "#game", "#over"):
        expect(page.locator(screen)).to_be_hidden()
    expect(page.locator(".watch-note:visible")).to_have_count(0)
    assert screens.setup_shown(page) == 0
    screens.shot(page, "no-room")

    # Another code typed there opens that room's table (a spectator's: this browser holds no
    # token). A code of three letters is refused in words.
    body = {"game": "disc-cover", "options": {"variant": "cooperative"}}
    room = server.call("POST", "/api/rooms", {**body, "music": {"source": "external"}})
    page.locator("#missing-code").fill("ab")
    page.get_by_role("button", name="Open this room").click()
    expect(page.locator("#missing-error")).to_have_text("A room code has 4 letters.")
    page.locator("#missing-code").fill(room["code"].lower())
    page.get_by_role("button", name="Open this room").click()
    expect(page.locator("#lobby")).to_be_visible()
    expect(page.locator("#lobby-code")).to_have_text(room["code"])
    watch_note(page, room["code"])
    assert screens.setup_shown(page) == 0

    # /table alone: the setup of a new room, as before.
    page.goto(f"{server.base}/table")
    expect(page.locator("#setup")).to_be_visible()
    expect(page.locator("#sources[data-loaded]")).to_be_attached(timeout=90_000)
    expect(page.get_by_role("button", name="Open the room")).to_be_visible()
    for screen in ("#missing", "#lobby", "#game", "#over"):
        expect(page.locator(screen)).to_be_hidden()
    expect(page.locator(".watch-note:visible")).to_have_count(0)


def test_a_host_token_another_room_had_for_this_code_watches_instead(
    screens: Screens, server: Server
) -> None:
    """A browser that kept a host token for this code from an older room (long gone, its code
    given again) opens the table: the server refuses that token, so the screen forgets it and
    watches the room, as any screen without the host token does, with no error and no setup."""
    body = {"game": "disc-cover", "options": {"variant": "cooperative"}}
    room = server.call("POST", "/api/rooms", {**body, "music": {"source": "external"}})
    code = room["code"]
    key = f"recordroom.host.{code}"
    page = screens.open(TABLE, "old host")
    page.add_init_script(PROBE)
    page.add_init_script(f"localStorage.setItem({key!r}, 'a-token-of-an-older-room')")
    page.goto(f"{server.base}/table?room={code}")
    expect(page.locator("#lobby")).to_be_visible()
    expect(page.locator("#lobby-code")).to_have_text(code)
    watch_note(page, code)
    assert_no_host_controls(page)
    expect(page.locator("#lobby-error")).to_be_empty()
    expect(page.locator("#missing")).to_be_hidden()
    assert page.evaluate(f"localStorage.getItem({key!r})") is None
    assert screens.setup_shown(page) == 0
    assert_silent(page)
    # The room's real host is untouched: its token still starts the room's controls.
    info = server.call("GET", f"/api/rooms/{code}")
    assert info["code"] == code


def test_a_spectators_screen_speaks_chinese(screens: Screens, server: Server) -> None:
    """The spectator's line, its lobby and the not-found screen in Chinese, with no Latin word
    that is not a name."""
    body = {"game": "disc-cover", "options": {"variant": "cooperative"}}
    room = server.call("POST", "/api/rooms", {**body, "music": {"source": "external"}})
    code = str(room["code"])
    server.call("POST", f"/api/rooms/{code}/seats", {"name": "Ann"})
    page = screens.spectator(code, locale="zh-CN")
    expect(page.locator("#lobby")).to_be_visible()
    note = page.locator(".watch-note:visible")
    expect(note).to_contain_text(f"正在观看房间 {code}")
    expect(note).to_contain_text("音乐由开房间的桌面屏幕播放，这块屏幕不出声。")
    expect(page.locator("#lobby-seats li")).to_have_count(1)
    assert latin_words(page, {"Ann"}) == []
    assert latin_labels(page, {"Ann"}) == []

    page.goto(f"{server.base}/table?room=ZZZZ")
    expect(page.locator("#missing-title")).to_have_text("没有房间 ZZZZ")
    expect(page.locator("#missing-text")).to_contain_text("这台服务器上没有代码为")
    assert latin_words(page, set()) == []
    assert latin_labels(page, set()) == []
