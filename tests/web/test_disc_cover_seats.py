"""Disc Cover's seats as the sofa meets them: eight players of long names fit the table's lobby,
a phone whose seat the table gave to another phone says so on its screen, a vote a bot cast
for a seat taken back is called the bot's, the phones' end screen shows the last turn, and the
table keeps naming the last turn's song through its reveal, and a tie-break's votes stay above the
players' row.

In a module of their own, so that their joins have a server (and a join limit per address) to
themselves.
"""

from __future__ import annotations

import contextlib
import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from websockets.sync.client import ClientConnection

from .conftest import Pages, Server
from .test_disc_cover_sofa import LONG_NAMES, fully_shown, new_room, next_state, socket

pytestmark = pytest.mark.browser


def test_the_lobby_of_eight_long_names_fits_the_table(
    pages: Pages, server: Server, screenshots: Path | None
) -> None:
    """Eight 24-character names in the lobby, at 1280x720 and 1920x1080: the page does not
    scroll sideways, every seat and the first Leader's choice are wholly on screen, and a name
    too long for its place is cut with an ellipsis rather than widening the lobby. The join
    address wraps after a "/", never inside the room's code."""
    code, host = new_room(server, "competitive")
    for name in LONG_NAMES:
        server.call("POST", f"/api/rooms/{code}/seats", {"name": name})
    table = pages.host_table(code, host)
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
    # However narrow its place (a longer address, a bigger font), the join address never wraps
    # inside the room's code.
    split = table.evaluate(CODE_SPLIT_AT_WIDTHS, code)
    assert not split, f"the room's code wraps at widths of {split} ch"


# The widths (in ch, 6 to 30) at which the join address, made that narrow, wraps inside its last
# four characters (the room's code).
CODE_SPLIT_AT_WIDTHS = """(code) => {
  const node = document.querySelector("#join-url");
  const texts = [];
  const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) texts.push(n);
  const last = texts[texts.length - 1];
  if (!last.textContent.endsWith(code)) return ["no code at the end"];
  const split = [];
  for (let width = 6; width <= 30; width++) {
    node.style.width = `${width}ch`;
    const range = document.createRange();
    range.setStart(last, last.textContent.length - code.length);
    range.setEnd(last, last.textContent.length);
    const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
    if (lines.size > 1) split.push(width);
  }
  node.style.width = "";
  return split;
}"""


def test_a_phone_whose_seat_went_to_another_phone_says_so_on_screen(
    pages: Pages, server: Server, screenshots: Path | None
) -> None:
    """In play, the host gives Bea's seat to a new phone: her old phone, at 360x640, says at the
    top of its screen (and under the form) that the table gave her seat away, and how to get back
    in, and does not ask "Join again?" of a game that has started. The new phone has the seat."""
    code, host = new_room(server, "cooperative")
    bea = server.call("POST", f"/api/rooms/{code}/seats", {"name": "Bea"})
    for _ in range(2):
        server.call("POST", f"/api/rooms/{code}/bots", {}, host)
    server.call("POST", f"/api/rooms/{code}/start", {}, host)
    old = pages.seat_phone(code, str(bea["token"]), "old phone")
    expect(old.locator("#me-name")).to_have_text("Bea")
    old.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # wherever she had scrolled

    server.call("POST", f"/api/rooms/{code}/seats/0/bot", {}, host)
    given = server.call("DELETE", f"/api/rooms/{code}/seats/0/bot", {"name": "Bea"}, host)

    help_box = old.locator("#join-help")
    expect(help_box).to_contain_text("The table removed your seat, or gave it to another phone.")
    expect(help_box).to_contain_text("A new phone takes this seat")
    fully_shown(old, "#join-help")
    expect(old.locator("#join-error")).to_contain_text("removed your seat")
    expect(old.locator("#join-screen")).not_to_contain_text("Join again")
    if screenshots is not None:
        old.screenshot(path=str(screenshots / "disc-cover-phone-seat-given-away.png"))

    new = pages.seat_phone(code, str(given["token"]), "new phone")
    expect(new.locator("#me-name")).to_have_text("Bea")


def test_a_vote_the_bot_cast_before_the_seat_was_taken_back_is_called_the_bots(
    pages: Pages, server: Server
) -> None:
    """Bea's phone was away and the table let her bot vote; back, she takes her seat again while
    the vote is still open (Cem has not voted). Her phone calls that vote the bot's, not
    "Locked in", until she changes it; then it is hers."""
    code, host = new_room(server, "cooperative")
    bea = server.call("POST", f"/api/rooms/{code}/seats", {"name": "Bea"})
    server.call("POST", f"/api/rooms/{code}/seats", {"name": "Cem"})  # never votes here
    server.call("POST", f"/api/rooms/{code}/bots", {}, host)
    server.call("POST", f"/api/rooms/{code}/start", {}, host)
    with socket(server, code, host) as table:
        turn = next_state(table, lambda state: state["listening"])["view"]["turn"]
        table.send(json.dumps({"type": "playing", "turn": turn}))
        next_state(table, lambda state: not state["listening"])
        server.call("POST", f"/api/rooms/{code}/seats/0/bot", {}, host)
        voted = next_state(table, lambda state: 0 in state["view"]["voted"])
        assert voted["view"]["phase"] == "vote"

        phone = pages.seat_phone(code, str(bea["token"]), "Bea")
        expect(phone.locator("#take-back")).to_be_visible()
        phone.locator("#take-back").tap()
        locked = phone.locator("#locked")
        expect(locked).to_contain_text(
            re.compile(r"Your bot voted for Record \d while you were away")
        )
        expect(locked).not_to_contain_text("Locked in")
        bots = int(re.findall(r"Record (\d)", locked.inner_text())[0])

        mine = next(card for card in (1, 2, 3, 4) if card != bots)
        phone.locator(f".pick[data-card='{mine}']").tap()
        expect(locked).to_contain_text(f"Locked in: Record {mine}")


def act_first(seat: ClientConnection, state: dict[str, Any]) -> None:
    """The seat takes its first choice, when its state gives it one and the song plays."""
    if state["legal_actions"] and not state["listening"]:
        act = {"type": "act", "version": state["version"], "action": state["legal_actions"][0]}
        seat.send(json.dumps(act))


def play_to_the_end(server: Server, code: str, host: str, token: str) -> dict[str, Any]:
    """Plays a started room to its end: the host's socket opens each turn, the seat of `token`
    takes its first choice each time it has one, and bots play the rest. The last state."""
    end = time.monotonic() + 90
    with socket(server, code, host) as table, socket(server, code, token) as seat:
        while time.monotonic() < end:
            for link in (table, seat):
                try:
                    message = json.loads(link.recv(timeout=0.1))
                except TimeoutError:
                    continue
                if message.get("type") != "state":
                    continue
                if message["status"] == "over":
                    over: dict[str, Any] = message
                    return over
                if link is table and message["listening"]:
                    table.send(json.dumps({"type": "playing", "turn": message["view"]["turn"]}))
                elif link is seat:
                    act_first(seat, message)
    raise AssertionError("the game did not end within 90 s")


def test_the_phones_end_screen_shows_the_last_turns_result(
    pages: Pages, server: Server, screenshots: Path | None
) -> None:
    """When the game ends the table is still revealing the last turn, and the phones go straight
    to the end: Ann's phone shows that turn's result (the sleeve, her pick and what it gave) as
    after every other turn, above the tier, with one "How to play" link (it had two)."""
    code, host = new_room(server, "cooperative")
    ann = server.call("POST", f"/api/rooms/{code}/seats", {"name": "Ann"})
    for _ in range(2):
        server.call("POST", f"/api/rooms/{code}/bots", {}, host)
    server.call("POST", f"/api/rooms/{code}/start", {}, host)
    last = play_to_the_end(server, code, host, str(ann["token"]))["view"]["last_turn"]

    phone = pages.seat_phone(code, str(ann["token"]), "Ann")
    expect(phone.locator("#over-box")).to_be_visible()
    result = phone.locator("#result")
    expect(result).to_be_visible()
    title = f"Turn {last['turn']}: Record {last['card']} goes into the mosaic"
    expect(result.locator(".result-title")).to_have_text(title)
    mine = last["votes"][0]
    expect(result).to_contain_text(
        f"Your pick, Record {mine}" if mine == last["card"] else f"You picked Record {mine}"
    )
    expect(phone.get_by_role("link", name="How to play")).to_have_count(1)
    if screenshots is not None:
        phone.screenshot(path=str(screenshots / "disc-cover-phone-over-last-turn.png"))


@pytest.mark.parametrize("party", [False, True], ids=["song-length", "party"])
def test_the_last_turns_reveal_keeps_naming_its_song(
    pages: Pages, server: Server, party: bool
) -> None:
    """The last vote ends the game, so the state the table reveals it from names no next track.
    The player's line still names the last turn's song through that reveal (it went blank), and
    in party mode that song plays on to its end, as every other turn's does (it stopped)."""
    music = {"source": "demo", "play_to_end": party}
    body = {"game": "disc-cover", "options": {"variant": "cooperative"}, "music": music}
    room = server.call("POST", "/api/rooms", body)
    code, host = str(room["code"]), str(room["host_token"])
    ann = server.call("POST", f"/api/rooms/{code}/seats", {"name": "Ann"})
    for _ in range(2):
        server.call("POST", f"/api/rooms/{code}/bots", {}, host)
    server.call("POST", f"/api/rooms/{code}/start", {}, host)
    table = pages.host_table(code, host, "&hold=4000")
    turn, song = table.locator("#turn"), table.locator("#now-title")
    banner = table.locator("#banner")

    end = time.monotonic() + 150
    last_song = ""
    next_song = table.get_by_role("button", name="Next song")
    with socket(server, code, str(ann["token"])) as seat:
        while time.monotonic() < end:
            if party and next_song.is_visible():
                next_song.click()  # the host's way past a song playing to its end
            try:
                message = json.loads(seat.recv(timeout=0.2))
            except TimeoutError:
                continue
            if message.get("type") != "state":
                continue
            if message["status"] == "over":
                break
            if message["view"]["turn"] == 9 and not message["listening"] and not last_song:
                # The last song plays and its vote is open: the line names the song.
                expect(song).not_to_be_empty()
                last_song = song.inner_text()
            act_first(seat, message)
        else:
            raise AssertionError("the game did not end within 150 s")
    assert last_song
    # The last turn's reveal, before the end screen.
    expect(banner).to_contain_text("goes into the mosaic")
    expect(turn).to_have_text("Turn 9 of 9")
    expect(song).to_have_text(last_song)
    assert table.evaluate("document.querySelector('#audio').paused") is not party
    expect(table.locator("#over")).to_be_visible(timeout=15_000)


def test_a_tie_breaks_votes_stay_above_the_seats(pages: Pages, server: Server) -> None:
    """Six players tie three against three, then four of them back Record 1 in the tie-break.
    The table's reveal shows the tie-break's backers as a line of discs under the first vote's,
    named in their titles; that line and everything else under the sleeves stays above the
    players' row at 1280x720 and 1920x1080 (written out, the four names took three lines and ran
    over it), with the deck's longest titles as well; the sleeves' fit made at one screen size
    does not hold them small at another."""
    names = ["Annabel", "Bartholomew", "Constantina", "Dmitri", "Evangeline", "Fitz"]
    code, host = new_room(server, "cooperative")
    tokens = [server.call("POST", f"/api/rooms/{code}/seats", {"name": n})["token"] for n in names]
    server.call("POST", f"/api/rooms/{code}/start", {}, host)
    table = pages.host_table(code, host, "&hold=60000")
    # A resize listener ahead of the page's own, to hold the page's back when the test says so.
    table.add_init_script(
        "addEventListener('resize', (e) => window.holdResize && e.stopImmediatePropagation())"
    )
    table.reload()
    expect(table.locator("#records .record")).to_have_count(4)
    with contextlib.ExitStack() as stack:
        links = [stack.enter_context(socket(server, code, token)) for token in tokens]
        with socket(server, code, host) as link:
            turn = next_state(link, lambda _: True)["view"]["turn"]
            link.send(json.dumps({"type": "playing", "turn": turn}))
        for phase, cards in (("vote", [1, 1, 1, 2, 2, 2]), ("tiebreak", [1, 1, 1, 1, 2, 2])):
            for link, card in zip(links, cards, strict=True):
                state = next_state(
                    link,
                    lambda s, phase=phase: bool(s["legal_actions"]) and s["view"]["phase"] == phase,
                )
                action = next(a for a in state["legal_actions"] if a.get("card") == card)
                act = {"type": "act", "version": state["version"], "action": action}
                link.send(json.dumps(act))
        expect(table.locator("#banner")).to_contain_text("after the tie-break")
        backers = table.locator("#records .record").first.locator(".tb-votes .disc")
        expect(backers).to_have_count(4)
        assert [backers.nth(i).get_attribute("title") for i in range(4)] == names[:4]
        for width, height in ((1280, 720), (1920, 1080)):
            table.set_viewport_size({"width": width, "height": height})
            table.wait_for_timeout(400)
            layout = table.evaluate(
                """() => {
                  const seats = document.querySelector("#seats").getBoundingClientRect().top;
                  return [...document.querySelectorAll("#records .record")].map((record) => {
                    const line = record.querySelector(".tb-votes");
                    const box = record.getBoundingClientRect();
                    const parts = [...record.children].map((part) => part.getBoundingClientRect());
                    return {
                      bottom: Math.max(...parts.map((part) => part.bottom)), seats,
                      wide: line ? line.scrollWidth <= line.clientWidth + 1 : true,
                      inside: line ? line.getBoundingClientRect().right <= box.right + 1 : true,
                    };
                  });
                }"""
            )
            for record in layout:
                assert record["bottom"] <= record["seats"], (width, layout)
                assert record["wide"] and record["inside"], (width, layout)

        # The sleeves' fit holds only at the screen size it was made for. Right after a resize,
        # before the page's own resize handler runs (held back), the sleeves are drawn at the size
        # the stylesheet gives them at the new size, not kept small by the old fit; back at the
        # old size, the old fit holds again at once.
        table.set_viewport_size({"width": 1280, "height": 720})
        table.wait_for_timeout(400)
        fitted = float(table.evaluate(SLEEVE_SCALE) or 1)
        assert fitted < 1, "this reveal needs smaller sleeves at 1280x720"
        table.evaluate("window.holdResize = true")
        table.set_viewport_size({"width": 1920, "height": 1080})
        assert table.evaluate(SLEEVE_SCALE) == ""
        table.set_viewport_size({"width": 1280, "height": 720})
        assert float(table.evaluate(SLEEVE_SCALE)) == pytest.approx(fitted)

        # The deck's longest titles and artists fit too, at both sizes: under a smaller sleeve
        # they keep the record's width, so they take no more lines (they took up to three, and ran
        # over the seats at the smallest sleeves).
        table.evaluate("window.holdResize = false")
        deck = server.call("GET", "/api/sleeves")
        longest = sorted(deck, key=lambda sleeve: -len(sleeve["title"]) - len(sleeve["artist"]))
        for width, height in ((1280, 720), (1920, 1080)):
            table.set_viewport_size({"width": width, "height": height})
            layout = table.evaluate(LONGEST_TITLES, longest[:4])
            for record in layout:
                assert record["bottom"] <= record["seats"], (width, layout)


LONGEST_TITLES = """(sleeves) => {
  const records = [...document.querySelectorAll("#records .record")];
  records.forEach((record, i) => {
    record.querySelector(".sleeve-title").textContent = sleeves[i].title;
    record.querySelector(".sleeve-artist").textContent = sleeves[i].artist;
  });
  dispatchEvent(new Event("resize"));
  const seats = document.querySelector("#seats").getBoundingClientRect().top;
  return records.map((record) => ({
    title: record.querySelector(".sleeve-title").textContent, seats,
    bottom: Math.max(...[...record.children].map((part) => part.getBoundingClientRect().bottom)),
  }));
}"""


SLEEVE_SCALE = """() => getComputedStyle(document.querySelector("#records .record"))
  .getPropertyValue("--sleeve-scale").trim()"""
