"""Disc Cover's phone after a tied turn, and its sleeves' numbers, at 360x640.

When a turn's first vote ties, the sleeve is chosen by a tie-break vote, a draw or the Leader,
and the points follow the first vote (cooperative) or the one vote (competitive). The phone's
result says so in words: without it, "You picked Record 1: +1 for the team" beside Record 2 in
the mosaic reads like a mistake. The rooms' turns are played over sockets and on the phones, so
that the ties happen where the test wants them.

Each sleeve's number sits on its Record card above the picture, never on the artwork, whose
title may be drawn in any corner; the four sleeves still fit a 360x640 screen.
"""

from __future__ import annotations

import contextlib
import json
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from websockets.sync.client import ClientConnection

from .conftest import Pages, Server
from .test_disc_cover_sofa import new_room, next_state, socket

pytestmark = pytest.mark.browser

State = dict[str, Any]


def round_key(state: State) -> tuple[int, str, int]:
    view = state["view"]
    return view["turn"], view["phase"], view["tiebreak_round"]


def cast(link: ClientConnection, key: tuple[int, str, int], card: int) -> None:
    """The seat of `link` votes (or decides) `card` in the round `key` (turn, phase, tie-break
    round): sent again on each newer state of that round until the seat's choice is seen, since
    a choice sent with an older state's version is refused as stale."""
    end = time.monotonic() + 10
    sent = False
    while (left := end - time.monotonic()) > 0:
        state = json.loads(link.recv(timeout=left))
        if state.get("type") != "state":
            continue
        if sent and (round_key(state) != key or state["view"]["my_vote"] == card):
            return
        if round_key(state) == key and state["legal_actions"] and not state["listening"]:
            action = next(a for a in state["legal_actions"] if a["card"] == card)
            link.send(json.dumps({"type": "act", "version": state["version"], "action": action}))
            sent = True
    raise AssertionError(f"the choice of Record {card} in round {key} was not seen within 10 s")


def open_turn(table: ClientConnection, turn: int) -> None:
    """The table's part: turn `turn`'s song plays (the host's "The song is playing")."""
    next_state(table, lambda state: state["listening"] and state["view"]["turn"] == turn)
    table.send(json.dumps({"type": "playing", "turn": turn}))


def tap(phone: Page, card: int, phase_title: str) -> None:
    """The phone's player votes for Record `card` once its round (`phase_title`) is open."""
    expect(phone.locator("#phase-title")).to_contain_text(phase_title)
    pick = phone.locator(f".pick[data-card='{card}']")
    expect(pick).to_be_enabled()
    pick.tap()
    expect(phone.locator("#locked")).to_contain_text(f"Locked in: Record {card}")


def test_a_cooperative_tie_break_and_draw_are_told_with_the_first_vote_counting(
    pages: Pages, server: Server, screenshots: Path | None
) -> None:
    """Turn 1: Ann, Bea and Cem vote Records 1, 2 and 3, then Record 2 wins the tie-break (Ann
    and Bea). Ann's phone says the sleeve came after a tie-break, which records tied and how, and
    that the +1 is the first vote's; the tie-break votes are listed. In turn 2 the vote and its
    three tie-breaks all tie (Ann votes on her phone): a draw chooses, and the phone says so."""
    code, host = new_room(server, "cooperative")
    ann, bea, cem = (
        str(server.call("POST", f"/api/rooms/{code}/seats", {"name": name})["token"])
        for name in ("Ann", "Bea", "Cem")
    )
    server.call("POST", f"/api/rooms/{code}/start", {}, host)
    with socket(server, code, host) as table:
        with contextlib.ExitStack() as stack:
            a, b, c = (stack.enter_context(socket(server, code, t)) for t in (ann, bea, cem))
            open_turn(table, 1)
            for link, card in ((a, 1), (b, 2), (c, 3)):
                cast(link, (1, "vote", 0), card)
            for link, card in ((a, 2), (b, 2), (c, 3)):
                cast(link, (1, "tiebreak", 1), card)
        after = next_state(table, lambda state: state["view"]["turn"] == 2)
        last = after["view"]["last_turn"]
        assert (last["card"], last["decided_by"], last["points"]) == (2, "tiebreak", 1), last

        phone = pages.seat_phone(code, ann, "Ann")
        result = phone.locator("#result")
        expect(result).to_be_visible()
        expect(result.locator(".result-title")).to_have_text(
            "Turn 1: Record 2 goes into the mosaic"
        )
        expect(result).to_contain_text(
            "After a tie-break: Record 1, Record 2 and Record 3 tied in the first vote with 1 "
            "vote each, and the tie-break vote chose Record 2."
        )
        expect(result).to_contain_text(
            "The points count the first vote, not the tie-break: 1 vote for Record 2, so +1 "
            "for the team."
        )
        expect(result).to_contain_text("You picked Record 1: +1 for the team.")
        expect(result.locator("li", has_text="Record 2:")).to_have_text(
            "Record 2: Bea · tie-break: you and Bea"
        )
        expect(result.locator("li", has_text="Record 1:")).to_have_text("Record 1: you")
        if screenshots is not None:
            phone.screenshot(
                path=str(screenshots / "disc-cover-phone-result-tiebreak.png"), full_page=True
            )

        # Turn 2: Ann votes on her phone; nobody moves in three tie-breaks, and a draw decides.
        open_turn(table, 2)
        with socket(server, code, bea) as b, socket(server, code, cem) as c:
            titles = ("Turn 2 of 9", "A tie! Vote again", "Still tied! Vote again (2)", "(3)")
            for tiebreak, title in enumerate(titles):
                key = (2, "tiebreak" if tiebreak else "vote", tiebreak)
                tap(phone, 1, title)
                cast(b, key, 2)
                cast(c, key, 3)
        after = next_state(table, lambda state: state["view"]["turn"] == 3)
        last = after["view"]["last_turn"]
        assert last["decided_by"] == "draw" and len(last["tiebreak_votes"]) == 3, last
        card = last["card"]
        expect(result.locator(".result-title")).to_have_text(
            f"Turn 2: Record {card} goes into the mosaic"
        )
        expect(result).to_contain_text(
            "By a draw: Record 1, Record 2 and Record 3 tied in the first vote with 1 vote each; "
            "after three tie-breaks Record 1, Record 2 and Record 3 were still tied, and a draw "
            f"chose Record {card}."
        )
        expect(result).to_contain_text(
            "The points count the first vote, not the tie-break: 1 vote for Record "
            f"{card}, so +1 for the team."
        )
        expect(result.locator("li", has_text="Record 1:")).to_have_text(
            "Record 1: you · last tie-break: you"
        )
        if screenshots is not None:
            phone.screenshot(
                path=str(screenshots / "disc-cover-phone-result-draw.png"), full_page=True
            )


def test_a_competitive_tie_says_the_leader_chose_and_who_scored(
    pages: Pages, server: Server, screenshots: Path | None
) -> None:
    """Ann (the Leader), Bea and Cem vote Records 1, 2 and 3; Ann decides for Record 2. Her
    phone says she chose it as the Leader, and that its voter (Bea) scores; Bea's phone names
    Ann as the Leader who chose and Bea as the one who scored."""
    code, host = new_room(server, "competitive")
    ann, bea, cem = (
        str(server.call("POST", f"/api/rooms/{code}/seats", {"name": name})["token"])
        for name in ("Ann", "Bea", "Cem")
    )
    server.call("POST", f"/api/rooms/{code}/start", {"leader": 0}, host)
    ann_phone = pages.seat_phone(code, ann, "Ann")
    bea_phone = pages.seat_phone(code, bea, "Bea")
    with socket(server, code, host) as table:
        open_turn(table, 1)
        tap(ann_phone, 1, "Turn 1 of 9")
        tap(bea_phone, 2, "Turn 1 of 9")
        with socket(server, code, cem) as c:
            cast(c, (1, "vote", 0), 3)
        expect(ann_phone.locator("#phase-title")).to_contain_text("you decide")
        ann_phone.locator(".pick[data-card='2']").tap()
        after = next_state(table, lambda state: state["view"]["turn"] == 2)
    last = after["view"]["last_turn"]
    assert (last["card"], last["decided_by"], last["scorers"]) == (2, "leader", [1]), last

    result = ann_phone.locator("#result")
    expect(result.locator(".result-title")).to_have_text("Turn 1: Record 2 goes into the mosaic")
    expect(result).to_contain_text(
        "Your choice as the Leader: Record 1, Record 2 and Record 3 tied with 1 vote each, and "
        "you chose Record 2."
    )
    expect(result).to_contain_text(
        "The points follow the vote: a point for each player who voted for Record 2 (Bea)."
    )
    expect(result).to_contain_text("You picked Record 1: no point for you.")
    if screenshots is not None:
        ann_phone.screenshot(
            path=str(screenshots / "disc-cover-phone-result-leader.png"), full_page=True
        )

    result = bea_phone.locator("#result")
    expect(result).to_contain_text(
        "The Leader's choice: Record 1, Record 2 and Record 3 tied with 1 vote each, and Ann, "
        "the Leader, chose Record 2."
    )
    expect(result).to_contain_text(
        "The points follow the vote: a point for each player who voted for Record 2 (you)."
    )
    expect(result).to_contain_text("Your pick, Record 2: +1 point for you.")


# The boxes of each open sleeve on the phone, from the page's top left corner: its number, its
# picture, the button; the number's size; the page's width; the sleeve's picture address.
BOXES = """() => {
  const box = (node) => {
    const r = node.getBoundingClientRect();
    return { left: r.left + scrollX, top: r.top + scrollY, right: r.right + scrollX,
      bottom: r.bottom + scrollY };
  };
  return [...document.querySelectorAll(".pick")].map((pick) => {
    const number = pick.querySelector(".number");
    const art = pick.querySelector(".sleeve-art");
    return {
      card: pick.dataset.card,
      sleeve: art.getAttribute("src") || art.getAttribute("aria-label"),
      number: box(number),
      numberText: number.textContent,
      numberPx: parseFloat(getComputedStyle(number).fontSize),
      numberShown: getComputedStyle(number).visibility === "visible" && number.offsetWidth > 0,
      art: box(art),
      pick: box(pick),
      wide: document.documentElement.scrollWidth,
    };
  });
}"""


Box = dict[str, float]
SCREEN: Box = {"left": 0, "top": 0, "right": 360, "bottom": 640}


def overlap(a: Box, b: Box) -> bool:
    """The two boxes share some area."""
    wide = min(a["right"], b["right"]) - max(a["left"], b["left"])
    high = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
    return wide > 0 and high > 0


def inside(a: Box, b: Box) -> bool:
    """Box `a` lies wholly in box `b`."""
    return (
        a["left"] >= b["left"]
        and a["top"] >= b["top"]
        and a["right"] <= b["right"]
        and (a["bottom"] <= b["bottom"])
    )


def test_no_sleeve_number_lies_on_its_artwork(
    pages: Pages, server: Server, screenshots: Path | None
) -> None:
    """A whole game of Ann and two bots: every sleeve her phone offers, in every round she
    chooses in, has its number (readable, 18 px or more) outside its picture, and the four
    sleeves lie wholly on the 360x640 screen of the page's top, which is not wider than it."""
    code, host = new_room(server, "cooperative")
    ann = str(server.call("POST", f"/api/rooms/{code}/seats", {"name": "Ann"})["token"])
    for _ in range(2):
        server.call("POST", f"/api/rooms/{code}/bots", {}, host)
    server.call("POST", f"/api/rooms/{code}/start", {}, host)
    phone = pages.seat_phone(code, ann, "Ann")
    expect(phone.locator("#me-name")).to_have_text("Ann")
    seen: set[str] = set()
    faults: list[str] = []
    open_picks = phone.locator(".pick:not([disabled])")
    end = time.monotonic() + 120
    with socket(server, code, host) as table:
        while not phone.locator("#over-box").is_visible():
            assert time.monotonic() < end, "the game did not end within 120 s"
            with contextlib.suppress(TimeoutError):
                while True:  # the table's part: each turn's song plays
                    state = json.loads(table.recv(timeout=0.05))
                    if state.get("type") == "state" and state["listening"]:
                        turn = state["view"]["turn"]
                        table.send(json.dumps({"type": "playing", "turn": turn}))
            if not open_picks.count() or phone.locator(".pick.chosen").count():
                continue
            boxes = phone.evaluate(BOXES)
            if len(seen) == 0 and screenshots is not None:
                phone.screenshot(path=str(screenshots / "disc-cover-phone-numbers.png"))
            for one in boxes:
                seen.add(one["sleeve"])
                where = f"Record {one['card']} ({one['sleeve']})"
                if overlap(one["number"], one["art"]):
                    faults.append(f"{where}: its number {one['number']} lies on {one['art']}")
                if one["numberText"] != one["card"] or not one["numberShown"]:
                    faults.append(f"{where}: its number is not shown")
                if one["numberPx"] < 18:
                    faults.append(f"{where}: its number is {one['numberPx']} px")
                if one["wide"] > 360:
                    faults.append(f"{where}: the page is {one['wide']} px wide")
                if not inside(one["pick"], SCREEN):
                    faults.append(f"{where}: off the 360x640 screen at {one['pick']}")
            # Ann votes last (the bots vote at once), and the round moves on after her tap. If
            # it moved on between the look and the tap, there is nothing to tap.
            with contextlib.suppress(PlaywrightTimeoutError):
                open_picks.first.tap(timeout=2000)
    assert len(seen) == 36, f"{len(seen)} sleeves seen, not 9 turns of 4"
    assert not faults, "\n".join(faults[:12])


def box_on_screen_under_the_sleeves(phone: Page) -> list[dict[str, float]]:
    """Asserts that the phone's status box (#locked) is on its 640 px screen, the page not
    scrolled, under all four sleeves; returns the sleeves' boxes."""
    phone.evaluate("window.scrollTo(0, 0)")
    shown = phone.locator("#locked").bounding_box()
    assert shown is not None and shown["y"] + shown["height"] <= 640, shown
    picks = []
    for card in range(1, 5):
        pick = phone.locator(f".pick[data-card='{card}']").bounding_box()
        assert pick is not None and pick["y"] + pick["height"] <= shown["y"], (card, pick)
        picks.append(dict(pick))
    return picks


def test_the_lock_in_and_who_is_awaited_show_without_scrolling(
    pages: Pages, server: Server
) -> None:
    """At 360x640, after a tap, "Locked in: Record 2", that the pick may change until the last
    vote and whom the round still waits for are on the screen below the four sleeves, the page
    not scrolled (they began at 596 px, and the rest lay under the screen's edge); so is the next
    turn's "Tap a sleeve" with the last turn's result, and "Locked in" in a tie-break, whose
    title and hint take two more lines."""
    code, host = new_room(server, "cooperative")
    names = ["Ann", "Bartholomew", "Constantina"]
    tokens = [server.call("POST", f"/api/rooms/{code}/seats", {"name": n})["token"] for n in names]
    server.call("POST", f"/api/rooms/{code}/start", {}, host)
    phone = pages.seat_phone(code, tokens[0], "Ann")
    box = phone.locator("#locked")

    with socket(server, code, host) as table:
        open_turn(table, 1)
        tap(phone, 2, "Turn 1")
        expect(box).to_contain_text("Bartholomew and Constantina")
        box_on_screen_under_the_sleeves(phone)
        with contextlib.ExitStack() as stack:
            links = [stack.enter_context(socket(server, code, t)) for t in tokens[1:]]
            for link in links:
                cast(link, (1, "vote", 0), 2)
        open_turn(table, 2)
        expect(phone.locator("#phase-title")).to_contain_text("Turn 2")
        expect(box).to_contain_text("Last turn")
        box_on_screen_under_the_sleeves(phone)
        # A tie-break: its title and hint take two more lines.
        tap(phone, 1, "Turn 2")
        with contextlib.ExitStack() as stack:
            links = [stack.enter_context(socket(server, code, t)) for t in tokens[1:]]
            for link, card in zip(links, (2, 3), strict=True):
                cast(link, (2, "vote", 0), card)
            tap(phone, 1, "A tie! Vote again")
            expect(box).to_contain_text("Bartholomew and Constantina")
            box_on_screen_under_the_sleeves(phone)


# Eight seats of the longest names a seat takes (24 characters).
LONG_NAMES = [
    "Wilhelmina Oppenheimer-N",
    "Bartholomew Fitzgerald J",
    "Maximiliana Rosenkrantz",
    "Christopher Wellington",
    "Anastasia Vandenberghe",
    "Konstantinos Papadopoulo",
    "Gwendolyn Featherstoneha",
    "Alexandrina Montgomery",
]


def test_a_long_wait_for_many_long_names_stays_on_a_short_screen(
    pages: Pages, server: Server
) -> None:
    """Eight players, each with a 24-character name: after a tap, the box under the sleeves
    says how many the round waits for before it names them, and the names stop at two lines, so
    the whole box is on a 360x640 screen under the sleeves (the seven names took five lines and
    ran 40 px under the screen's edge). Three long names still run past two lines: counted too.
    (Names that fit are named whole: "Bartholomew and Constantina" in the test above.)"""
    code, host = new_room(server, "cooperative")
    tokens = [
        server.call("POST", f"/api/rooms/{code}/seats", {"name": n})["token"] for n in LONG_NAMES
    ]
    server.call("POST", f"/api/rooms/{code}/start", {}, host)
    phone = pages.seat_phone(code, tokens[0], "Wilhelmina")
    box = phone.locator("#locked")
    waiting = box.locator(".waiting")
    with socket(server, code, host) as table:
        open_turn(table, 1)
        tap(phone, 3, "Turn 1")
        expect(waiting).to_contain_text("Waiting for 7 players: Bartholomew Fitzgerald J")
        lines = waiting.evaluate(
            "(p) => p.clientHeight / parseFloat(getComputedStyle(p).lineHeight)"
        )
        assert lines <= 2.05, lines
        for pick in box_on_screen_under_the_sleeves(phone):
            assert pick["width"] >= 108, pick  # the sleeves at their smallest, no less
        with contextlib.ExitStack() as stack:  # four more vote: three are awaited
            for token in tokens[1:5]:
                cast(stack.enter_context(socket(server, code, token)), (1, "vote", 0), 1)
            expect(waiting).to_contain_text("Waiting for 3 players: Konstantinos Papadopoulo")
            box_on_screen_under_the_sleeves(phone)
