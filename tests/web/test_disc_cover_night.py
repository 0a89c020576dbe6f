"""Disc Cover's game night in a real browser: the song leads every turn, and the night never stalls.

A vote before the table's song plays is refused while the phone says "Listen…"; a table of bots
that vote at once still hears every turn's song; party mode plays one song per turn; a phone that
drops out is named on the table, a bot votes for it and the phone takes its seat back; a new phone
takes a seat from the table's seat menu; the vote timer lets a listening bot vote; and the landing
page leads to each game's own table screen.
"""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from .conftest import Server
from .test_disc_cover import Players, open_with_bots, save_small

pytestmark = pytest.mark.browser

# Every `playing` event of the table's audio element, with the source that played: the songs the
# room really heard, in order.
PROBES = """
window.heard = [];
document.addEventListener("playing", (event) => {
  if (event.target.id === "audio") window.heard.push(event.target.getAttribute("src"));
}, true);
window.buzzes = [];
navigator.vibrate = (pattern) => { window.buzzes.push(pattern); return true; };
window.wakeLocks = 0;
window.chimes = 0;
for (const Maker of [window.AudioContext, window.webkitAudioContext]) {
  if (!Maker) continue;
  const make = Maker.prototype.createOscillator;
  Maker.prototype.createOscillator = function () { window.chimes += 1; return make.call(this); };
}
Object.defineProperty(navigator, "wakeLock", { value: { request: async () => {
  window.wakeLocks += 1;
  return { release: async () => {}, addEventListener: () => {} };
} } });
"""


class ProbedPlayers(Players):
    """Players whose pages record the songs heard, the phone's buzzes and its wake locks."""

    def _page(self, viewport: dict[str, int], touch: bool, label: str) -> Page:
        page = super()._page(viewport, touch, label)
        page.context.add_init_script(PROBES)
        return page


@pytest.fixture
def night(browser: Browser, server: Server, screenshots: Path | None) -> Iterator[Players]:
    players = ProbedPlayers(browser, server, screenshots)
    yield players
    players.close()
    assert not players.errors, players.errors


def heard(table: Page) -> list[str]:
    songs: list[str] = table.evaluate("window.heard")
    return songs


def post(server: Server, path: str, body: object, token: str | None = None) -> dict[str, object]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(
        f"{server.base}{path}", data=json.dumps(body).encode(), headers=headers, method="POST"
    )
    # The first room with music on a fresh machine waits for the demo playlist to be made.
    with urllib.request.urlopen(request, timeout=150) as answer:
        data: dict[str, object] = json.loads(answer.read() or b"null") or {}
        return data


def finish_turn(phone: Page) -> None:
    """Votes until the turn is over: the phone says "Listen…" (or the game is over)."""
    title = phone.locator("#phase-title")
    phone.locator(".pick:not([disabled])").first.tap()
    for _ in range(5):
        ended_or_tied = re.compile(r"Listen…|A tie|Still tied|Game over")
        expect(title).to_have_text(ended_or_tied, timeout=20_000)
        if not re.search(r"tie|tied", title.inner_text()):
            return
        phone.locator(".pick:not([disabled])").first.tap()
        phone.wait_for_timeout(300)
    raise AssertionError("the turn did not end")


def test_a_vote_before_the_table_opens_the_turn_is_refused_and_the_phone_listens(
    night: Players, server: Server
) -> None:
    # A room made over HTTP: no table page plays its song yet.
    room = post(server, "/api/rooms", {"game": "disc-cover", "options": {"variant": "cooperative"}})
    code, host = str(room["code"]), str(room["host_token"])
    night.code = code
    phone = night.join("Eve")
    for _ in range(2):
        post(server, f"/api/rooms/{code}/bots", {"level": "normal"}, host)
    post(server, f"/api/rooms/{code}/start", {}, host)
    expect(phone.locator("#phase-title")).to_have_text("Listen…")
    expect(phone.locator("#phase-hint")).to_contain_text("Turn 1 of 9")
    expect(phone.locator(".pick")).to_have_count(0)
    # A vote sent anyway (straight on a socket with Eve's token) is refused and changes nothing.
    answer = phone.evaluate(
        """([code]) => new Promise((done) => {
          const token = localStorage.getItem(`recordroom.seat.${code}`);
          const socket = new WebSocket(`ws://${location.host}/ws/${code}?token=${token}`);
          let version = null;
          socket.onmessage = (event) => {
            const message = JSON.parse(event.data);
            if (message.type === "state" && version === null) {
              version = message.version;
              socket.send(JSON.stringify({type: "act", version, action: {type: "vote", card: 1}}));
            } else if (message.type === "error") { socket.close(); done(message.code); }
          };
          setTimeout(() => done("no answer"), 10000);
        })""",
        [code],
    )
    assert answer == "turn/not_open"
    expect(phone.locator("#phase-title")).to_have_text("Listen…")
    # The table comes: its song plays and opens the vote.
    table = night.table
    table.goto(night.base)
    table.evaluate(f"localStorage.setItem('recordroom.host.{code}', '{host}')")
    table.goto(f"{night.base}/table?room={code}&hold=2000")
    expect(phone.locator("#phase-title")).to_have_text("Turn 1 of 9", timeout=20_000)
    assert heard(table), "the table opened the turn without its song playing"
    expect(phone.locator(".pick:not([disabled])")).to_have_count(4)
    assert phone.evaluate("window.wakeLocks") >= 1  # the screen stays on during the game


def test_a_fast_table_of_bots_hears_every_turns_song(night: Players) -> None:
    table = night.table
    table.goto(f"{night.base}/table?hold=800")
    expect(table.locator("#sources[data-loaded]")).to_be_attached(timeout=90_000)
    table.get_by_role("button", name="Open the room").click()
    expect(table.locator("#lobby")).to_be_visible()
    for count in (1, 2, 3):
        table.get_by_role("button", name="Add a bot").click()
        expect(table.locator("#lobby-seats li")).to_have_count(count)
    table.get_by_role("button", name="Start the game").click()
    # Bots vote the moment a turn opens (no delay): still, every turn waits for its song.
    expect(table.locator("#over")).to_be_visible(timeout=150_000)
    songs = heard(table)
    assert len(songs) >= 9
    turns = list(dict.fromkeys(songs))
    assert len(turns) == 9, songs  # nine different songs, one per turn, none skipped
    assert table.evaluate("window.chimes") >= 3 * 9  # a three-note chime at each reveal
    expect(table.locator("#final-mosaic .tile:not(.empty)")).to_have_count(9)


def test_party_mode_plays_one_song_per_turn(night: Players) -> None:
    table = night.table
    phone = open_with_bots(night, "demo", party=True)
    table.wait_for_function("document.querySelector('#audio').currentTime > 0.3", timeout=20_000)
    table.get_by_role("button", name="Pause the song").click()
    table.wait_for_function("document.querySelector('#audio').paused")
    table.get_by_role("button", name="Play the song").click()
    table.wait_for_function("!document.querySelector('#audio').paused")
    first = table.locator("#audio").get_attribute("src")
    table.get_by_role("button", name="Skip to another song").click()
    expect(table.locator("#audio")).not_to_have_attribute("src", first or "")
    table.wait_for_function("document.querySelector('#audio').currentTime > 0.3", timeout=20_000)
    song1 = table.locator("#audio").get_attribute("src")
    # Eve's vote ends turn 1 (the bots have voted): the song plays on through the reveal, and
    # turn 2 waits for it: Eve listens, the banner never says "listen" over turn 1's song.
    finish_turn(phone)
    expect(table.locator("#banner")).to_contain_text("plays to its end", timeout=10_000)
    expect(table.locator("#banner")).not_to_contain_text("Listen")
    expect(phone.locator("#result")).to_contain_text("Turn 1: Record")
    # Longer than the 20 s after which a turn opens by itself: the table's holds keep it waiting
    # while the song plays (it is sent back to its start so that it lasts).
    table.evaluate("document.querySelector('#audio').currentTime = 0")
    table.wait_for_timeout(23_000)
    assert not table.evaluate("document.querySelector('#audio').paused")
    assert table.locator("#audio").get_attribute("src") == song1
    expect(phone.locator("#phase-title")).to_have_text("Listen…")
    expect(phone.locator(".pick")).to_have_count(0)
    night.shot(table, "table-party-waiting")
    # "Next song" starts turn 2's song, which opens its vote.
    table.get_by_role("button", name="Next song").click()
    expect(phone.locator("#phase-title")).to_have_text("Turn 2 of 9", timeout=20_000)
    song2 = table.locator("#audio").get_attribute("src")
    assert song2 != song1
    # Turn 3 begins when turn 2's song ends by itself.
    finish_turn(phone)
    expect(table.locator("#banner")).to_contain_text("plays to its end", timeout=10_000)
    table.evaluate("(a => { a.currentTime = a.duration - 0.4; })(document.querySelector('#audio'))")
    expect(phone.locator("#phase-title")).to_have_text("Turn 3 of 9", timeout=20_000)
    songs = list(dict.fromkeys(heard(table)))
    assert songs[-3:] == [song1, song2, table.locator("#audio").get_attribute("src")]


def test_a_dropped_phone_is_named_a_bot_votes_and_the_phone_takes_its_seat_back(
    night: Players,
) -> None:
    table = night.table
    phone = open_with_bots(night, "demo", party=False)
    # Eve's phone goes away in the middle of the vote (the bots have voted).
    phone.goto("about:blank")
    away = table.locator("#away-banner")
    expect(away).to_contain_text("Eve's phone has been away", timeout=25_000)
    night.shot(table, "table-away")
    table.get_by_role("button", name="Let a bot vote for Eve").click()
    expect(away).to_be_hidden()
    # The bot votes for her: the turn ends without her.
    expect(table.locator("#banner")).to_have_class(re.compile(r"\b(reveal|tie|listening)\b"))
    expect(table.locator("#seats .seat").nth(0)).to_contain_text("bot plays")
    # Eve is back: her phone says a bot plays for her, and she takes her seat back.
    phone.goto(f"{night.base}/join/{night.code}")
    expect(phone.locator("#phase-title")).to_have_text("A bot is playing for you")
    expect(phone.locator("#locked")).not_to_contain_text("Locked in")
    night.shot(phone, "phone-bot-plays")
    phone.get_by_role("button", name="Take my seat back").tap()
    expect(phone.locator("#take-back")).to_be_hidden()
    expect(phone.locator("#phase-title")).to_have_text(re.compile(r"Turn [1-9] of 9|Listen…|tie"))
    expect(table.locator("#seats .seat").nth(0)).not_to_contain_text("bot plays")


def test_a_new_phone_takes_an_abandoned_seat_from_the_tables_menu(night: Players) -> None:
    table = night.table
    old = open_with_bots(night, "demo", party=False)
    old.goto("about:blank")
    away = table.locator("#away-banner")
    expect(away).to_contain_text("Eve's phone has been away", timeout=25_000)
    table.get_by_role("button", name="Wait").click()
    expect(away).to_be_hidden()
    # The seat menu: Eve's seat goes to a new phone, for Fay.
    table.locator("#seats .seat").nth(0).click()
    menu = table.locator("#seat-menu")
    expect(menu).to_be_visible()
    expect(menu.get_by_role("button", name="A hard bot plays for Eve")).to_be_visible()
    menu.get_by_label(re.compile("A new phone takes this seat")).fill("Fay")
    menu.get_by_role("button", name="Make a link").click()
    link = menu.locator("#menu-url")
    expect(link).to_contain_text(f"/join/{night.code}?seat_token=")
    night.shot(table, "table-seat-menu")
    url = link.get_attribute("data-url") or ""
    fay = night._page({"width": 360, "height": 640}, touch=True, label="Fay")
    fay.goto(url)
    expect(fay.locator("#me-name")).to_have_text("Fay")
    assert "seat_token" not in fay.url  # the token left the address bar
    expect(fay.locator(".pick:not([disabled])")).to_have_count(4, timeout=20_000)
    menu.get_by_role("button", name="Close").click()
    expect(table.locator("#seats .seat").nth(0)).to_contain_text("Fay")
    # Eve's old token holds nothing any more: that phone is sent back to the join form.
    old.goto(f"{night.base}/join/{night.code}")
    expect(old.locator("#join-error")).to_contain_text("no longer yours")
    # A phone without a token is told how to get back in: the seat's QR code on the table.
    expect(old.locator("#join-help")).to_contain_text("A new phone takes this seat")


def test_the_vote_timer_lets_a_listening_bot_vote(night: Players) -> None:
    table = night.table
    phone = open_with_bots(night, "demo", party=False, timer=15)
    expect(table.locator("#timer")).to_have_text(re.compile(r"^\d+ s$"))
    expect(phone.locator("#timer")).to_contain_text("s left to vote")
    night.shot(table, "table-timer")
    # Eve does not vote: when the 15 s are up, her listening bot does, and the votes show.
    expect(table.locator("#banner")).to_have_class(re.compile(r"\b(reveal|tie)\b"), timeout=30_000)
    expect(table.locator("#records .vote-row .disc")).to_have_count(3)
    assert table.locator("#seats .seat").nth(0).inner_text().find("bot plays") < 0
    assert phone.evaluate("window.buzzes.length") >= 1  # the phone buzzed at the reveal or tie


def test_the_landing_page_leads_to_each_games_table(night: Players) -> None:
    page = night.table
    page.goto(night.base)
    expect(page.get_by_role("button", name="Create room")).to_have_count(0)
    if night.shots is not None:
        save_small(page, night.shots / "lobby.png")
    page.get_by_role("link", name="Open the Disc Cover table").click()
    expect(page).to_have_url(re.compile(r"/table$"))
    expect(page.get_by_role("button", name="Open the room")).to_be_visible()
    page.goto(night.base)
    page.get_by_role("link", name="Open the Records table").click()
    expect(page).to_have_url(re.compile(r"/records$"))
    page.goto(night.base)
    page.get_by_label("Room code").fill("zzzz")
    page.get_by_role("button", name="Join").click()
    expect(page).to_have_url(re.compile(r"/join/ZZZZ$"))


def test_a_code_joined_before_the_landing_pages_script_has_run_still_joins(
    night: Players,
) -> None:
    """On a slow phone the Join button can be tapped before the page's script has run: the form
    then went to "/?" and the code was lost. It goes to the room's phone page all the same."""
    page = night.table
    held: list[Route] = []

    def hold_the_first(route: Route) -> None:
        if held:
            route.continue_()
        else:
            held.append(route)  # the first page's script never comes

    page.route(re.compile(r"/lobby\.js"), hold_the_first)
    try:
        page.goto(night.base, wait_until="commit")
        page.get_by_label("Room code").fill("zzzz")
        page.get_by_role("button", name="Join").click()
        expect(page).to_have_url(re.compile(r"/join/ZZZZ$"))
        assert held, "the script was not held back"
    finally:
        page.unroute(re.compile(r"/lobby\.js"))


def test_the_table_asks_who_listened_to_music_most_recently_for_the_first_leader(
    night: Players,
) -> None:
    table = night.table
    table.goto(f"{night.base}/table?hold=2000")
    expect(table.locator("#sources[data-loaded]")).to_be_attached(timeout=90_000)
    table.get_by_role("radio", name=re.compile("Everyone for themselves")).check()
    table.get_by_role("button", name="Open the room").click()
    expect(table.locator("#lobby")).to_be_visible()
    night.code = table.locator("#lobby-code").inner_text().strip()
    night.join("Eve")
    for count in (2, 3):
        table.get_by_role("button", name="Add a bot").click()
        expect(table.locator("#lobby-seats li")).to_have_count(count)
    expect(table.locator("#leader-box")).to_contain_text("listened to music most recently")
    table.get_by_label("First Leader").select_option(label="Bot 3")
    night.shot(table, "table-lobby-competitive")
    night.start()
    expect(table.locator("#seats .seat.leader")).to_have_count(1)
    expect(table.locator("#seats .seat").nth(2)).to_have_class(re.compile(r"\bleader\b"))
