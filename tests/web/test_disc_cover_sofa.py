"""Disc Cover as a player on the sofa meets it: every screen fits, and every message is in words.

The end screen of eight players fits a 1280x720 (and a 1920x1080) table, buttons included; a
refused join says why on a 360x640 phone's screen, under the button that was tapped; a name of
spaces is asked for in words, in both languages, without a request; a vote the timer gave to the
seat's bot is never called the player's pick; and only a phone with something to decide counts
the time down. The rooms are made over HTTP with an external player, and the turns opened by a
host socket, so that each test takes a few seconds.
"""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, WebSocketRoute, expect
from websockets.sync.client import ClientConnection, connect

from .conftest import Pages, Server

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 640}
LONG_NAMES = [f"{letter}nastasia Wolfeschlegels" for letter in "ABCDEFGH"]  # 24 characters

State = dict[str, Any]


def new_room(server: Server, variant: str, timer: int = 0) -> tuple[str, str]:
    """A Disc Cover room with an external player (no demo playlist to make): code, host token."""
    body = {"game": "disc-cover", "options": {"variant": variant}, "music": {"source": "external"}}
    room = server.call("POST", "/api/rooms", {**body, "timer": timer})
    return str(room["code"]), str(room["host_token"])


def socket(server: Server, code: str, token: str) -> ClientConnection:
    url = f"ws://127.0.0.1:{server.port}/ws/{code}?token={token}"
    return connect(url, open_timeout=10, close_timeout=1)


def next_state(link: ClientConnection, wanted: Callable[[State], bool]) -> State:
    """The first state message on `link` that is `wanted` (within 10 s)."""
    end = time.monotonic() + 10
    while (left := end - time.monotonic()) > 0:
        message = json.loads(link.recv(timeout=left))
        if message.get("type") == "state" and wanted(message):
            return message
    raise AssertionError("no such state within 10 s")


def open_turns(server: Server, code: str, host: str, until: Callable[[State], bool]) -> None:
    """The table's part, over the host's socket: each turn's song "plays" until `until`."""
    with socket(server, code, host) as link:
        while True:
            state = next_state(link, lambda _: True)
            if until(state):
                return
            if state["listening"]:
                link.send(json.dumps({"type": "playing", "turn": state["view"]["turn"]}))


def fully_shown(page: Page, selector: str) -> None:
    """The element is wholly in the viewport, with no scrolling, and a tap at its middle hits it."""
    target = page.locator(selector)
    expect(target).to_be_in_viewport(ratio=1)
    hit = page.evaluate(
        """(selector) => {
          const node = document.querySelector(selector);
          const box = node.getBoundingClientRect();
          const inside = box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight &&
            box.right <= innerWidth;
          const top = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
          return inside && (top === node || node.contains(top));
        }""",
        selector,
    )
    assert hit, f"{selector} is not wholly on screen, or something covers it"


# ---- 1. the end screen of many players -------------------------------------------------------


def finished_room(server: Server, names: list[str] | None) -> tuple[str, str]:
    """A competitive game of eight played to its end by bots: eight bot seats, or eight players
    of these names whose seats bots play."""
    code, host = new_room(server, "competitive")
    if names is None:
        for _ in range(8):
            server.call("POST", f"/api/rooms/{code}/bots", {}, host)
    for name in names or []:
        server.call("POST", f"/api/rooms/{code}/seats", {"name": name})
    server.call("POST", f"/api/rooms/{code}/start", {}, host)
    for seat in range(len(names or [])):
        server.call("POST", f"/api/rooms/{code}/seats/{seat}/bot", {}, host)
    open_turns(server, code, host, until=lambda state: state["status"] == "over")
    return code, host


def host_table(pages: Pages, code: str, host: str) -> Page:
    """The host's table screen of room `code`, at 1280x720."""
    table = pages.host_table(code, host)
    expect(table.locator("#over")).to_be_visible()
    expect(table.locator(".ranking li")).to_have_count(8)
    return table


def test_the_end_screen_of_eight_players_fits_the_table(pages: Pages, server: Server) -> None:
    """At 1280x720 and 1920x1080 the whole mosaic, the ranking and both buttons docs/web.md
    promises are on screen, whoever shares the victory, and the page does not scroll."""
    table = host_table(pages, *finished_room(server, None))
    for width, height in ((1280, 720), (1920, 1080)):
        table.set_viewport_size({"width": width, "height": height})
        expect(table.locator("#final-mosaic .tile:not(.empty)")).to_have_count(9)
        for selector in ("#final-mosaic", "#download", "#again", ".ranking li:last-child"):
            fully_shown(table, selector)
        assert table.evaluate("document.documentElement.scrollHeight <= innerHeight")


def test_the_end_screen_of_eight_long_names_keeps_its_buttons_in_reach(
    pages: Pages, server: Server
) -> None:
    """Eight 24-character names: each is cut with an ellipsis in the ranking (whole in its
    title), and if the winners' line needs more room than the screen has, the panel scrolls
    within itself to the buttons (the page never scrolls)."""
    table = host_table(pages, *finished_room(server, LONG_NAMES))
    name = table.locator(".ranking .rank-name").first
    expect(name).to_have_attribute("title", re.compile(r"nastasia Wolfeschlegels$"))
    assert name.evaluate("n => n.scrollWidth > n.clientWidth")  # cut, not spilling over
    fully_shown(table, "#final-mosaic")
    box = table.locator(".over-panel").bounding_box()
    assert box is not None
    table.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    table.mouse.wheel(0, 2000)
    for selector in ("#download", "#again"):
        fully_shown(table, selector)


# ---- 2 and 3. the join form on a small phone --------------------------------------------------


def tap_take_a_seat(phone: Page, name: str) -> None:
    phone.get_by_label(re.compile("Your name|你的名字")).fill(name)
    expect(phone.locator("#join-button")).to_be_enabled()
    phone.locator("#join-button").tap()


def test_a_refused_join_says_why_on_a_small_phones_screen(pages: Pages, server: Server) -> None:
    """A wrong code, a full room and a game that has started: each refusal is on the 360x640
    screen after the tap, next to the button."""
    with pytest.raises(urllib.error.HTTPError) as missing:
        server.call("GET", "/api/rooms/QQQQ")
    missing.value.close()  # its socket, else closed by whichever later test collects it
    phone = pages.open(PHONE, "phone")
    phone.goto(f"{server.base}/join/QQQQ")
    tap_take_a_seat(phone, "Ann")
    expect(phone.locator("#join-error")).to_have_text(re.compile("No room QQQQ"))
    fully_shown(phone, "#join-error")

    full, host = new_room(server, "cooperative")
    for _ in range(8):
        server.call("POST", f"/api/rooms/{full}/bots", {}, host)
    phone.goto(f"{server.base}/join/{full}")
    tap_take_a_seat(phone, "Ann")
    expect(phone.locator("#join-error")).to_contain_text("full")
    fully_shown(phone, "#join-error")

    server.call("POST", f"/api/rooms/{full}/start", {}, host)
    phone.goto(f"{server.base}/join/{full}")
    expect(phone.locator("#join-help")).to_contain_text("A new phone takes this seat")
    fully_shown(phone, "#join-help")  # how to get back in, seen before anything is typed
    tap_take_a_seat(phone, "Ann")
    expect(phone.locator("#join-error")).to_contain_text("started already")
    fully_shown(phone, "#join-error")


@pytest.mark.parametrize(
    ("lang", "asked"),
    [("en", "Type your name first"), ("zh-CN", "请先输入你的名字")],
)
def test_a_name_of_spaces_is_asked_for_in_words_and_not_sent(
    pages: Pages, server: Server, lang: str, asked: str
) -> None:
    code, _ = new_room(server, "cooperative")
    phone = pages.open(PHONE, "phone")
    sent: list[str] = []
    phone.on("request", lambda request: sent.append(request.url) if "/seats" in request.url else 0)
    phone.goto(f"{server.base}/join/{code}?lang={lang}")
    tap_take_a_seat(phone, "   ")
    error = phone.locator("#join-error")
    expect(error).to_contain_text(asked)
    expect(error).not_to_contain_text("body.name")
    fully_shown(phone, "#join-error")
    expect(phone.locator("#join-name")).to_be_focused()
    assert not sent, sent
    assert server.call("GET", f"/api/rooms/{code}")["seats"] == []
    # A real name then takes the seat.
    tap_take_a_seat(phone, "Ann")
    expect(phone.locator("#me-name")).to_have_text("Ann")


# ---- 4. the decision timer on the phone -------------------------------------------------------


def timed_out_states(server: Server) -> tuple[str, State, State]:
    """Eve's states around a vote her bot made, from a real room with a 15 s vote timer: the
    open vote (her turn to vote, the timer running) and, once the votes are in, the next turn
    listening with her bot's vote in the last turn and the seat hers again. (The bot is made to
    vote by the host's hand-over and back, so that no test waits 15 s: the states are those of
    a timeout.)"""
    code, host = new_room(server, "cooperative", timer=15)
    eve = str(server.call("POST", f"/api/rooms/{code}/seats", {"name": "Eve"})["token"])
    for _ in range(2):
        server.call("POST", f"/api/rooms/{code}/bots", {}, host)
    server.call("POST", f"/api/rooms/{code}/start", {}, host)
    with socket(server, code, host) as table, socket(server, code, eve) as phone:
        turn = next_state(table, lambda state: state["listening"])["view"]["turn"]
        table.send(json.dumps({"type": "playing", "turn": turn}))
        opened = next_state(phone, lambda state: bool(state["legal_actions"]))
        server.call("POST", f"/api/rooms/{code}/seats/0/bot", {}, host)
        next_state(phone, lambda state: state["view"]["turn"] == 2)
        server.call("DELETE", f"/api/rooms/{code}/seats/0/bot", None, host)
        after = next_state(
            phone, lambda state: state["view"]["turn"] == 2 and not state["seats"][0]["bot"]
        )
    assert opened["timer"]["remaining"] > 10 and after["listening"], (opened, after)
    return code, opened, after


def test_a_vote_the_timer_gave_to_the_bot_is_not_called_the_players_pick(
    pages: Pages, server: Server
) -> None:
    code, opened, after = timed_out_states(server)
    bots_card = after["view"]["last_turn"]["votes"][0]
    # Eve's phone hears those states on a socket of the test's own, the timer shortened to 1.5 s.
    opened = {**opened, "timer": {"seconds": 15, "remaining": 1.5}}
    links: list[WebSocketRoute] = []

    def serve(link: WebSocketRoute) -> None:
        links.append(link)
        link.on_message(lambda _: None)  # a tap goes nowhere: this test's server is silent
        link.send(json.dumps(opened))

    phone = pages.open(PHONE, "Eve")
    phone.route_web_socket(re.compile(r"/ws/"), serve)
    phone.goto(f"{server.base}/join")
    phone.evaluate("(c) => localStorage.setItem(`recordroom.seat.${c}`, 'any')", code)
    phone.goto(f"{server.base}/join/{code}")
    expect(phone.locator("#timer")).to_contain_text("s left to vote")
    expect(phone.locator(".pick:not([disabled])")).to_have_count(4)
    phone.wait_for_timeout(1600)  # the time runs out; her bot votes for her
    links[-1].send(json.dumps(after))
    result = phone.locator("#result")
    expect(result).to_contain_text(
        f"Time ran out: your bot voted for Record {bots_card} for you this once"
    )
    expect(result).not_to_contain_text("You picked")
    expect(result).not_to_contain_text("Your pick")
    expect(result.locator("li", has_text=f"Record {bots_card}:")).to_contain_text("your bot")

    # The same states after Eve tapped that sleeve herself: her pick, in her words.
    mine = pages.open(PHONE, "Eve again")
    mine.route_web_socket(re.compile(r"/ws/"), serve)
    mine.goto(f"{server.base}/join")
    mine.evaluate("(c) => localStorage.setItem(`recordroom.seat.${c}`, 'any')", code)
    mine.goto(f"{server.base}/join/{code}")
    mine.locator(f".pick[data-card='{bots_card}']").tap()
    mine.wait_for_timeout(1600)
    links[-1].send(json.dumps(after))
    expect(mine.locator("#result")).to_contain_text(re.compile(r"You picked|Your pick"))
    expect(mine.locator("#result")).not_to_contain_text("Time ran out")


def test_only_a_phone_with_something_to_decide_counts_the_time_down(
    pages: Pages, server: Server
) -> None:
    """Competitive, 15 s timer: a three-way tie goes to the Leader (Eve). Eve's phone counts
    down her decision; Fay's, who waits for it, shows no countdown."""
    code, host = new_room(server, "competitive", timer=15)
    tokens = [
        str(server.call("POST", f"/api/rooms/{code}/seats", {"name": name})["token"])
        for name in ("Eve", "Fay", "Gus")
    ]
    server.call("POST", f"/api/rooms/{code}/start", {"leader": 0}, host)
    eve = pages.seat_phone(code, tokens[0], "Eve")
    fay = pages.seat_phone(code, tokens[1], "Fay")
    with socket(server, code, host) as table, socket(server, code, tokens[2]) as gus:
        turn = next_state(table, lambda state: state["listening"])["view"]["turn"]
        table.send(json.dumps({"type": "playing", "turn": turn}))
        for phone in (eve, fay):
            expect(phone.locator("#timer")).to_contain_text("s left to vote")
        eve.locator(".pick[data-card='1']").tap()
        expect(eve.locator("#locked")).to_contain_text("Locked in: Record 1")
        fay.locator(".pick[data-card='2']").tap()
        expect(fay.locator("#locked")).to_contain_text("Locked in: Record 2")
        state = next_state(gus, lambda state: bool(state["legal_actions"]))
        vote = {"type": "act", "version": state["version"], "action": {"type": "vote", "card": 3}}
        gus.send(json.dumps(vote))
        expect(fay.locator("#phase-title")).to_contain_text("Eve decides")
        expect(eve.locator("#phase-title")).to_contain_text("You're the Leader")
    expect(fay.locator("#timer")).to_be_hidden()
    expect(eve.locator("#timer")).to_contain_text("s left to decide")
    fay.wait_for_timeout(1200)  # the countdown's own tick does not bring it back
    expect(fay.locator("#timer")).to_be_hidden()


@pytest.mark.parametrize("lang", ["en", "zh-CN"])
def test_the_setup_fits_the_screen_without_scrolling(pages: Pages, lang: str) -> None:
    """The host's first screen, with the demo playlist: everything from the title to the last
    music setting and "Open the room" is on a 16:9 screen at once (it scrolled 50 px inside
    itself at 1280x720, hiding the song length's setting under the fold)."""
    table = pages.open({"width": 1280, "height": 720}, "table")
    table.goto(f"{pages.base}/table")
    expect(table.locator("#sources[data-loaded]")).to_be_attached(timeout=90_000)
    if lang != "en":
        table.locator("#setup select.lang-switch").select_option(lang)
        expect(table.locator("html")).to_have_attribute("lang", lang)
    for width, height in ((1280, 720), (1366, 768), (1920, 1080)):
        table.set_viewport_size({"width": width, "height": height})
        table.wait_for_timeout(200)
        setup = table.evaluate(
            "(() => { const s = document.querySelector('#setup');"
            " return [s.scrollHeight, s.clientHeight]; })()"
        )
        assert setup[0] <= setup[1], (width, height, setup)
        for selector in ("#create", "#song-length", ".setup-links .rules-link"):
            fully_shown(table, selector)
