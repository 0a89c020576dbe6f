"""Records at the table in real Chromium: one whole 3-player game (two phones and a bot) that
checks the table and the phones phase by phase, from the lobby to "play again" (see its test's
docstring); and the defects of the issue, each with a check that fails without its fix."""

from __future__ import annotations

import contextlib
import json
import time
import urllib.request
from pathlib import Path

import orjson
import pytest
from playwright.sync_api import Browser, Page
from playwright.sync_api import Error as PlaywrightError

from .conftest import Server
from .records_measure import check_phone, small_text_and_icons
from .test_records import (
    GAME_SECONDS,
    LAPTOP,
    PHONE,
    context,
    join,
    phase,
    shoot,
    tap_first_legal,
    version,
)

pytestmark = pytest.mark.browser

SETUP = ("lead_singer", "keep")  # the phases before the draft: a colour, a private goal
TABLE_800 = {"width": 1280, "height": 800}
TABLE_1080 = {"width": 1920, "height": 1080}


def get(server: Server, path: str) -> dict:  # type: ignore[type-arg]
    with urllib.request.urlopen(server.base + path, timeout=5) as answer:
        data: dict = json.loads(answer.read())  # type: ignore[type-arg]
        return data


def wait_phase(page: Page, name: str, others: list[Page], started: float) -> None:
    """Plays the first legal choice on every page until ``page`` is in phase ``name``."""
    while phase(page) != name:
        assert time.monotonic() - started < GAME_SECONDS, f"never reached {name}"
        moved = False
        for other in others:
            moved = tap_first_legal(other) or moved
        if not moved:
            page.wait_for_timeout(30)


def mark_bonuses(page: Page, started: float) -> None:
    """Places the bonuses a mark set off until Done shows (or the seat is no longer asked)."""
    while (
        page.locator(".done-row").count() == 0
        and page.evaluate("document.body.dataset.toAct") == "1"
    ):
        assert time.monotonic() - started < GAME_SECONDS, "the mark's bonuses never ended"
        folded = page.locator(".bonus-queue details:not([open]) summary")
        if folded.count():  # a long list of places is folded: open it
            folded.first.click()
        keys = page.locator("[data-act]:visible").evaluate_all("(n) => n.map((x) => x.dataset.act)")
        if any(k not in ("undo", "done") for k in keys):
            tap_first_legal(page, avoid=("done",))
        else:
            page.wait_for_timeout(50)


def shoot_tables(tables: list[Page], folder: Path | None, name: str, taken: set[str]) -> None:
    """The host's table at 1280x800 and a spectator's at 1920x1080, at the same moment."""
    if folder is None:
        return
    for page in tables:
        if page.is_closed():
            continue
        version_now = version(tables[0])
        with contextlib.suppress(PlaywrightError):
            page.wait_for_function(f"Number(document.body.dataset.version) >= {version_now}")
        size = "800" if page.viewport_size == TABLE_800 else "1080"
        shoot(page, folder, f"table-{name}-{size}", taken)


@pytest.mark.timeout(900)  # one whole game through the real pages; generous for a loaded machine
def test_a_three_player_game_at_the_table_from_start_to_play_again(
    browser: Browser, server: Server, screenshots: Path | None
) -> None:
    """One game covers it all (a game replayed per check would cost minutes each): the table at
    1280x800 with the host's controls and a spectator's at 1920x1080, Ann's and Bo's phones, a
    bot. Picks are secret and changeable and survive a reload; Ann marks, undoes, is asked
    before a fail and says done, the table showing who still marks; every word and icon of the
    mid-game table is readable; Bo's dropped phone is minded by a bot and takes the seat back;
    the table changes a bot's level, gives Bo's seat to a new phone, runs a pick timer; each
    phase keeps the phone within 360 px with 40 px tap targets; the log explains a chain, a lost
    bonus and a discarded goal; one colour per seat; the replay; play again."""
    started = time.monotonic()
    taken: set[str] = set()
    table = context(browser, TABLE_800).new_page()
    big = context(browser, TABLE_1080).new_page()
    tables = [table, big]
    for page in tables:
        page.goto(f"{server.base}/records")
    shoot_tables(tables, screenshots, "setup", taken)
    table.click("#open-room")
    table.wait_for_selector("#lobby:not([hidden])")
    code = table.inner_text("#lobby-code").strip()
    assert len(code) == 4
    big.goto(f"{server.base}/records/table?room={code}")
    ann, bo = context(browser, PHONE).new_page(), context(browser, PHONE).new_page()
    join(ann, server, code, "Ann")
    join(bo, server, code, "Bo")
    checked: set[str] = set()  # the phases in which a phone (Ann's, or Bo's) was measured
    check_phone(ann, checked)
    table.click("#add-bot")
    table.wait_for_function("document.querySelectorAll('#seats li').length === 3")
    shoot_tables(tables, screenshots, "lobby", taken)
    table.click("#start")
    for phone in (ann, bo):
        phone.wait_for_function("document.body.dataset.phase === 'lead_singer'")

    # Ann's seat on a laptop too, for the laptop's screenshots (only when they are taken).
    laptop = None
    if screenshots is not None:
        token = ann.evaluate(f"localStorage.getItem('recordroom.seat.{code}')")
        init = f"localStorage.setItem('recordroom.seat.{code}', '{token}')"
        laptop = context(browser, LAPTOP, init).new_page()
        laptop.goto(f"{server.base}/join/{code}")
        laptop.wait_for_function("document.body.dataset.phase === 'lead_singer'")
    shoot(ann, screenshots, "phone-setup", taken)
    if laptop:
        shoot(laptop, screenshots, "laptop-setup", taken)
    shoot_tables(tables, screenshots, "game-setup", taken)

    def shoot_all(name: str) -> None:
        """Ann's phone, Ann's laptop at the same state, and both tables."""
        if screenshots is None or f"phone-{name}" in taken:
            return
        shoot(ann, screenshots, f"phone-{name}", taken)
        if laptop:
            laptop.wait_for_function(f"document.body.dataset.version >= {version(ann)}")
            shoot(laptop, screenshots, f"laptop-{name}", taken)
        shoot_tables(tables, screenshots, name, taken)

    # A pick is secret and can be changed until everyone has picked.
    while phase(ann) != "pick":
        check_phone(ann, checked)
        for phone in (ann, bo):
            tap_first_legal(phone, phases=SETUP)
    check_phone(ann, checked)
    cards = ann.locator(".hand [data-card]")
    first = cards.nth(0).get_attribute("data-card") or ""
    second = cards.nth(1).get_attribute("data-card") or ""
    cards.nth(0).click()
    ann.wait_for_function(f"document.body.dataset.pending === '{first}'")
    assert ann.locator("[data-act=pick]").count() == 0  # picked: the others still choose
    table.wait_for_function("document.querySelector('.waiting-chip')?.textContent.includes('Bo')")
    assert "Ann" not in table.inner_text(".waiting-chip")
    assert first not in table.inner_text("#table-boards")
    shoot_all("pick")
    ann.locator(f'.hand [data-card="{second}"]').click()
    ann.wait_for_function(f"document.body.dataset.pending === '{second}'")

    # A reload in mid-week comes back to the same hand and the same pending pick.
    in_hand = "(nodes) => nodes.map((c) => c.dataset.card)"
    hand = ann.locator(".hand [data-card]").evaluate_all(in_hand)
    ann.reload()
    ann.wait_for_function(f"document.body.dataset.pending === '{second}'")
    assert ann.locator(".hand [data-card]").evaluate_all(in_hand) == hand
    assert ann.locator(f'.hand [data-card="{second}"]').get_attribute("aria-pressed") == "true"

    # Ann marks, then takes her marks back: her card is in her hand again, nobody saw a thing.
    wait_phase(ann, "mark", [bo], started)
    ann.wait_for_selector(".played")
    check_phone(ann, checked)
    shoot(ann, screenshots, "phone-no-place-or-mark", taken)
    before = table.inner_text('#table-boards [data-seat="0"]')  # other seats may move on
    targets = ann.locator(".panel [data-act], .sheet [data-act]")
    keys = targets.evaluate_all("(n) => n.map((x) => x.dataset.act)")
    key = next(k for k in keys if k not in ("fail", "undo", "done"))
    ann.locator(f'[data-act="{key}"]').first.click()
    if ann.locator('[data-act="confirm"]').count():
        ann.locator('[data-act="confirm"]').click()
    mark_bonuses(ann, started)
    assert "Ann" in table.inner_text(".marking-chip")  # still marking: done not said yet
    ann.wait_for_selector('[data-act="undo"]')
    shoot(ann, screenshots, "phone-undo", taken)
    v = version(ann)
    ann.click('[data-act="undo"]')
    ann.wait_for_function(f"Number(document.body.dataset.version) > {v}")
    ann.wait_for_selector(".played")
    assert table.inner_text('#table-boards [data-seat="0"]') == before
    # A fail asks first; going back sends nothing.
    v = version(ann)
    ann.click('.panel [data-act="fail"]')
    ann.wait_for_selector('[data-act="confirm"]')
    assert "Fail this card?" in ann.inner_text(".chooser")
    shoot(ann, screenshots, "phone-confirm", taken)
    ann.click(".chooser button.quiet")
    ann.wait_for_timeout(300)
    assert version(ann) == v and ann.locator(".played").count() == 1
    ann.locator(f'[data-act="{key}"]').first.click()
    if ann.locator('[data-act="confirm"]').count():
        ann.locator('[data-act="confirm"]').click()
    mark_bonuses(ann, started)
    shoot_all("mark")
    ann.click('[data-act="done"]')
    table.wait_for_function(
        "[...document.querySelectorAll('.player-board')].some((b) => "
        "b.querySelector('.board-name').textContent.startsWith('Ann') && "
        "b.querySelector('.board-status').textContent.includes('done'))"
    )
    big.wait_for_selector(".marking-chip")
    shoot_tables(tables, screenshots, "marking", taken)
    # Readable from the sofa: every word and icon of a mid-game table at least 14 px at 1280x800
    # (with the host's controls) and 18 px at 1920x1080.
    assert not small_text_and_icons(table, 14)
    assert not small_text_and_icons(big, 18)

    # Bo's phone drops; the table hands his seat to a bot, then Bo's phone takes it back.
    token = bo.evaluate(f"localStorage.getItem('recordroom.seat.{code}')")
    bo.context.close()
    table.wait_for_selector('[data-hand-bot="1"]')
    table.click('[data-hand-bot="1"]')
    table.wait_for_function("document.querySelector('[data-level-seat=\"1\"]') !== null")
    assert get(server, f"/api/rooms/{code}")["seats"][1]["bot"] is True
    wait_phase(ann, "pick", [ann], started)
    bo = context(
        browser, PHONE, f"localStorage.setItem('recordroom.seat.{code}', '{token}')"
    ).new_page()
    bo.goto(f"{server.base}/join/{code}")
    bo.wait_for_selector("#take-back")
    shoot(bo, screenshots, "phone-bot-plays", taken)
    bo.click("#take-back")
    bo.wait_for_function("document.querySelector('#take-back') === null")
    assert get(server, f"/api/rooms/{code}")["seats"][1]["bot"] is False
    bo = parity_in_play(browser, server, code, table, ann, bo, screenshots, taken, started)

    # Everyone plays on to the end.
    while phase(ann) != "over" or phase(bo) != "over":
        assert time.monotonic() - started < GAME_SECONDS, "the game took too long"
        check_phone(ann, checked)  # no sideways scroll, tap targets of 40 px, each phase
        if screenshots is not None:
            p = phase(ann)
            if ann.locator(".bonus-queue, .chooser:not([hidden])").count():
                shoot(ann, screenshots, "phone-bonus", taken)
                if laptop:
                    shoot(laptop, screenshots, "laptop-bonus", taken)
            if p == "claim" and ann.locator("[data-act=claim]").count():
                shoot_all("weekend")
        moved = False
        for phone in (ann, bo):
            # A weekend claim can come and go within one round of taps (a phone whose seat
            # alone may claim answers at once), so each phone is measured before it taps.
            check_phone(phone, checked)
            moved = tap_first_legal(phone) or moved
        if not moved:
            ann.wait_for_timeout(30)

    info = get(server, f"/api/rooms/{code}")
    assert info["status"] == "over"
    result = info["result"]
    assert len(result["scores"]) == 3
    for phone in (ann, bo):
        phone.wait_for_selector("#verdict")
        assert phone.locator(".score-table tbody tr").count() == 7  # six areas and the total
    check_phone(ann, checked)
    assert {"lobby", "lead_singer", "keep", "pick", "mark", "over"} <= checked
    table.wait_for_selector("#verdict")
    winners = [info["seats"][w]["name"] for w in result["winners"]]
    assert all(name in table.inner_text("#verdict") for name in winners)

    # The log tells the whole game in words, from the engine's events.
    steps = get(server, f"/api/rooms/{code}/replay/0")["steps"]
    events = get(server, f"/api/rooms/{code}/replay/{steps}")["view"]["events"]
    table.locator(".log-all summary").first.click()
    log = table.inner_text("#table-log")
    kinds = {e["type"] for e in events}
    # The weekend claim is a phase only when someone may claim a public goal (the deal decides);
    # when a phone's seat claimed one, that phone was measured in it.
    if any(e["type"] == "claimed" and e["seat"] < 2 and not e["private"] for e in events):
        assert "claim" in checked
    assert "Game over." in log and "→" in log
    chained = [e for e in events if e["type"] == "bonus" and not e["cause"].startswith("crew")]
    assert chained, "no bonus chain in this game"
    # A goal nobody could claim, and a bonus with nowhere to go, come only when the deal and the
    # play bring them; whichever this game had is told in words (both wordings are checked on
    # fixed events in test_a_discarded_goal_and_a_lost_bonus_are_told_in_the_log).
    if "goal_discarded" in kinds:
        assert "is discarded: nobody could claim it" in log
    if "lost" in kinds:
        assert " lost: " in log
    # One colour per seat everywhere: the results use the colours of play.
    for page in (table, ann):
        colours = page.locator(".score-table [data-seat-colour]").evaluate_all(
            "(n) => n.map((x) => x.dataset.seatColour)"
        )
        in_play = page.locator(
            "#table-boards [data-seat-colour], #players [data-seat-colour]"
        ).evaluate_all("(n) => n.map((x) => x.dataset.seatColour)")
        assert colours and colours == in_play[: len(colours)]

    # The replay steps through the log: back one step and the caption says which.
    table.wait_for_function("document.querySelector('.replay')?.dataset.step > 0")
    last = int(table.get_attribute(".replay", "data-step") or 0)
    table.click("#replay-back")
    table.wait_for_function(f"document.querySelector('.replay').dataset.step == {last - 1}")
    assert f"Step {last - 1} of {last}" in table.inner_text(".replay-caption")
    table.click("#replay-next")
    table.wait_for_function(f"document.querySelector('.replay').dataset.step == {last}")
    big.wait_for_function("document.querySelector('.replay')?.dataset.step > 0")
    assert not small_text_and_icons(table, 14)
    assert not small_text_and_icons(big, 18)
    shoot(ann, screenshots, "phone-end", taken)
    if laptop:
        laptop.wait_for_selector("#verdict")
        shoot(laptop, screenshots, "laptop-end", taken)
    shoot_tables(tables, screenshots, "end", taken)

    # Play again, from the end screen: a new game at once, with the same seats, phones following.
    names = [seat["name"] for seat in info["seats"]]
    table.click("#play-again")
    table.wait_for_function(f"!location.search.includes('{code}')")
    again = table.evaluate("new URLSearchParams(location.search).get('room')")
    info = get(server, f"/api/rooms/{again}")
    assert info["status"] == "playing" and [seat["name"] for seat in info["seats"]] == names
    for page in (table, ann, bo):
        page.wait_for_function("document.body.dataset.phase === 'lead_singer'")
    assert table.inner_text("#play-code") == again
    for page in (table, big, ann, bo, *([laptop] if laptop else [])):
        page.context.close()


def parity_in_play(
    browser: Browser,
    server: Server,
    code: str,
    table: Page,
    ann: Page,
    bo: Page,
    screenshots: Path | None,
    taken: set[str],
    started: float,
) -> Page:
    """The table's seat controls on a game in progress, as Disc Cover's table has them: a bot's
    level changed from the table; Bo's seat given to a new phone by a QR code and a short link;
    a pick timer that makes the pick of an idle phone by its bot, the phone saying so. Gives the
    page that plays Bo's seat afterwards."""
    # A level per bot seat, changed from the table: the table and the room both say it.
    table.select_option('[data-level-seat="2"]', "easy")
    table.wait_for_function(
        "document.querySelector('.player-board[data-seat=\"2\"] .board-name').textContent"
        ".includes('easy')"
    )
    assert get(server, f"/api/rooms/{code}")["seats"][2]["level"] == "easy"

    # A new phone takes Bo's seat: the table shows a QR code and the link; the old phone is let go.
    table.click('[data-new-phone="1"]')
    table.click('[data-confirm-new-phone="1"]')  # asked first: the old phone is let go
    table.wait_for_selector(".seat-link-card svg path")
    url = table.get_attribute(".seat-link", "data-url") or ""
    short = table.inner_text(".seat-link")
    assert url.endswith(short) and "seat_token=" in url and not short.startswith("http")
    shoot(table, screenshots, "table-new-phone", taken)
    bo.wait_for_selector("#join-screen:not([hidden])")
    assert "gave it to another phone" in bo.inner_text("#join-error")
    bo.context.close()
    bo = context(browser, PHONE).new_page()
    bo.goto(url)
    bo.wait_for_selector("#seat-screen:not([hidden])")
    # The seat's name comes with the first state, a moment after the seat screen shows.
    bo.wait_for_function("document.querySelector('#me-name').textContent === 'Bo'")
    assert "seat_token" not in bo.url
    table.click(".seat-link-card button")

    # A pick timer: Ann picks, Bo's phone stays idle; when the time runs out Bo's bot picks for
    # him, this once, and his phone says so; the seat stays his.
    def picking(page: Page) -> bool:  # in a pick round, and not picked yet
        return bool(
            page.evaluate(
                "document.body.dataset.phase === 'pick' && document.body.dataset.toAct === '1'"
                " && !document.body.dataset.pending"
            )
        )

    while not picking(bo):  # Bo to a pick of his own, and he does not pick
        assert time.monotonic() - started < GAME_SECONDS, "never reached a pick"
        moved = False
        for phone in (ann, bo):
            moved = tap_first_legal(phone, avoid=("pick",) if phone is bo else ()) or moved
        if not moved:
            ann.wait_for_timeout(30)
    table.select_option("#timer-select", "15")
    table.wait_for_selector(".timer-chip")
    bo.wait_for_selector("#countdown:not([hidden])")
    tap_first_legal(ann)
    bo.wait_for_selector("#timed-out:not([hidden])", timeout=30_000)
    assert "your bot picked" in bo.inner_text("#timed-out")
    shoot(bo, screenshots, "phone-timed-out", taken)
    assert get(server, f"/api/rooms/{code}")["seats"][1]["bot"] is False
    table.select_option("#timer-select", "0")
    table.wait_for_selector(".timer-chip", state="detached")
    return bo


def test_cash_locked_crew_slots_are_drawn_while_a_cash_removal_waits(
    browser: Browser, server: Server
) -> None:
    """A defect: the crew area lost its cash-locked slots ("[object SVGGElement]" in the SVG)."""
    page = context(browser, PHONE).new_page()
    page.goto(f"{server.base}/records")
    found = page.evaluate(
        """async () => {
          const { drawSheet } = await import("/static/records/sheet.js");
          const { loadEdition } = await import("/static/records/words.js");
          const ed = await loadEdition();
          const board = { lead_singer: "red", fails: 0, goals: [], agenda: [], albums: 0,
            singles: 0, crew: ed.crew.map(() => null), tour: 0, assets: [],
            multipliers: { earned: 0, spent: [] }, cash_lifted: [], score: 0,
            harmonies: Object.fromEntries(ed.colours.map((c) => [c, []])),
            breakdown: { goals: 0, release: 0, crew: 0, tour: 0, harmonies: 0, fail: 0 } };
          const targets = new Map(ed.restrictions.map((r, i) => [`cash:${i}`, r]));
          const sheet = drawSheet(ed, board, { targets, onTarget: () => {} });
          const crew = sheet.querySelector(".area-crew svg");
          return { slots: crew.querySelectorAll(".slot").length, crew: ed.crew.length,
                   junk: crew.innerHTML.includes("[object"),
                   cash: crew.querySelectorAll(".cash-target").length,
                   locked: ed.crew.filter((c) => c.cash !== null).length };
        }"""
    )
    assert not found["junk"]
    assert found["slots"] == found["crew"] and found["cash"] == found["locked"] == 3
    page.context.close()


def test_replay_wording_and_a_phone_that_never_scrolls_sideways(
    browser: Browser, server: Server
) -> None:
    """Defects: "used a asset box bonus"; the phone's "All" tab wider than a 360 px screen."""
    page = context(browser, PHONE).new_page()
    page.goto(f"{server.base}/records")
    words = page.evaluate(
        """async () => {
          const { describe } = await import("/static/records/end.js");
          const { loadEdition } = await import("/static/records/words.js");
          const ed = await loadEdition();
          const seats = [{ name: "Ann" }];
          const say = (action) => describe(ed, { seat: 0, action }, seats);
          return [say({ type: "bonus", bonus: "asset", box: 2 }),
                  say({ type: "bonus", bonus: "album", box: 0 })];
        }"""
    )
    assert words == ["Ann used an asset box bonus.", "Ann used an album bonus."]
    page.fill("#solo-name", "Pip")
    page.click("#solo-start")
    page.wait_for_function("document.body.dataset.phase === 'lead_singer'")
    tap_first_legal(page)
    page.wait_for_function("document.body.dataset.phase === 'turn'")
    page.click('#tabs [data-tab="all"]')
    page.wait_for_timeout(200)
    width = page.evaluate("document.scrollingElement.scrollWidth")
    assert width <= PHONE["width"], f"the phone scrolls sideways: {width} px"
    # "All" is an overview: its places are too small to tap, so there they are outlined, not
    # targets; a tap on an area opens that area's tab, where they are.
    tap_first_legal(page)  # option A: a card to mark
    page.wait_for_function("document.body.dataset.phase === 'mark'")
    page.wait_for_selector(".sheet [data-act]")
    busy = page.get_attribute("#tabs .tab.busy", "data-tab")
    page.click('#tabs [data-tab="all"]')
    assert page.locator(".sheet [data-act]").count() == 0
    assert page.locator(".sheet .box.preview").count() > 0
    page.locator(f".sheet .area-{busy} svg").click()
    page.wait_for_selector(f'#tabs [data-tab="{busy}"].current')
    assert page.locator(".sheet [data-act]").count() > 0
    page.context.close()


def open_room(browser: Browser, server: Server) -> tuple[Page, str]:
    """The table at 1280x800 with a new room open in its lobby, and the room's code."""
    table = context(browser, TABLE_800).new_page()
    table.goto(f"{server.base}/records")
    table.click("#open-room")
    table.wait_for_selector("#lobby:not([hidden])")
    return table, table.inner_text("#lobby-code").strip()


def test_a_phone_keeps_its_cards_and_boxes_while_another_seat_plays(
    browser: Browser, server: Server
) -> None:
    """Every move of another seat redraws a phone. A tap that began on a card or a box must end
    on the same element (else the browser calls it no click and the tap is lost), so the cards
    of the hand and the boxes of the sheet are kept across states; a kept one still plays."""
    started = time.monotonic()
    table, code = open_room(browser, server)
    ann, bo = context(browser, PHONE).new_page(), context(browser, PHONE).new_page()
    sent: list[str] = []  # what Bo's phone sends on its room socket
    bo.on("websocket", lambda socket: socket.on("framesent", lambda frame: sent.append(frame)))
    join(ann, server, code, "Ann")
    join(bo, server, code, "Bo")
    table.wait_for_function("document.querySelectorAll('#seats li').length === 2")
    table.click("#start")
    while phase(ann) != "pick" or phase(bo) != "pick":  # the setup, no pick made yet
        assert time.monotonic() - started < GAME_SECONDS, "the draft never began"
        moved = False
        for phone in (ann, bo):
            if phase(phone) != "pick":
                moved = tap_first_legal(phone, phases=SETUP) or moved
        if not moved:
            ann.wait_for_timeout(30)

    # The draft: Bo's card stays the same element while Ann picks, and picks when tapped.
    card = bo.locator(".hand [data-act=pick]").first
    picked = card.get_attribute("data-card") or ""
    handle = card.element_handle()
    seen = version(bo)
    ann.locator(".hand [data-act=pick]").first.click()
    bo.wait_for_function(f"Number(document.body.dataset.version) > {seen}")
    assert handle.evaluate("(n) => n.isConnected"), "Bo's card was replaced by a new element"
    handle.click()
    # Bo's pick ends the draft's round at once (Ann's is in), so it is seen on the socket.
    bo.wait_for_function("document.body.dataset.phase === 'mark'")
    picks = [orjson.loads(frame)["action"] for frame in sent if '"pick"' in frame]
    assert picks == [{"type": "pick", "card": picked}], picks

    # Marking: a box of Ann's sheet stays the same element while Bo marks and says done.
    wait_phase(ann, "mark", [], started)
    ann.wait_for_selector(".played")
    box = ann.locator(".sheet [data-act]").first
    key = box.get_attribute("data-act") or ""
    handle = box.element_handle()
    # Ann's phone asks before a fail; its question stays while Bo plays too.
    ann.click('.panel [data-act="fail"]')
    confirm = ann.locator('[data-act="confirm"]').element_handle()
    while bo.evaluate("document.body.dataset.toAct") == "1":
        assert time.monotonic() - started < GAME_SECONDS, "Bo never finished marking"
        seen, bo_seen = version(ann), version(bo)
        if not tap_first_legal(bo, avoid=("undo",)):
            bo.wait_for_timeout(50)
            continue
        if version(bo) > bo_seen:  # (not a question the page asked itself, as before a fail)
            ann.wait_for_function(f"Number(document.body.dataset.version) > {seen}")
    assert handle.evaluate("(n) => n.isConnected"), f"Ann's box {key} was replaced"
    assert confirm.evaluate("(n) => n.isConnected"), "Ann's question before a fail was replaced"
    ann.click(".chooser button.quiet")  # back: nothing is sent, the card still waits
    seen = version(ann)
    handle.click()
    if ann.locator('[data-act="confirm"]').count():
        ann.locator('[data-act="confirm"]').click()
    ann.wait_for_function(f"Number(document.body.dataset.version) > {seen}")
    assert ann.locator(".played").count() == 0, "the kept box did not mark Ann's card"
    for page in (table, ann, bo):
        page.context.close()


def test_the_hosts_seat_controls_are_kept_while_the_game_moves_on(
    browser: Browser, server: Server
) -> None:
    """Each move redraws the table's boards. The host's controls of a seat (a bot's level being
    chosen) must stay the same element meanwhile, and still work."""
    started = time.monotonic()
    table, code = open_room(browser, server)
    ann = context(browser, PHONE).new_page()
    join(ann, server, code, "Ann")
    table.click("#add-bot")
    table.wait_for_function("document.querySelectorAll('#seats li').length === 2")
    table.click("#start")
    level = table.locator('[data-level-seat="1"]')
    level.wait_for()
    handle = level.element_handle()
    seen = version(table)
    while version(table) < seen + 3:  # Ann plays on; the bot answers at once
        assert time.monotonic() - started < GAME_SECONDS, "the game did not move"
        if not tap_first_legal(ann, avoid=("undo",)):
            ann.wait_for_timeout(50)
    assert handle.evaluate("(n) => n.isConnected"), "the bot's level control was replaced"
    handle.select_option("hard")
    table.wait_for_function("document.querySelector('[data-level-seat=\"1\"]').value === 'hard'")
    deadline = time.monotonic() + 10
    while get(server, f"/api/rooms/{code}")["seats"][1]["level"] != "hard":
        assert time.monotonic() < deadline, "the kept control did not change the bot's level"
        time.sleep(0.1)
    for page in (table, ann):
        page.context.close()


def test_a_discarded_goal_and_a_lost_bonus_are_told_in_the_log(
    browser: Browser, server: Server
) -> None:
    """The table log's words for the two events a random deal may not bring: a goal nobody could
    claim, discarded at the weekend, and a bonus lost at the end of a chain."""
    page = context(browser, PHONE).new_page()
    page.goto(f"{server.base}/records")
    name, lines = page.evaluate(
        """async () => {
          const { logLines } = await import("/static/records/log.js");
          const { goalName, loadEdition } = await import("/static/records/words.js");
          const ed = await loadEdition();
          const goal = Object.keys(ed.goals)[0];
          const events = [
            { type: "goal_discarded", goal, why: "unclaimed" },
            { type: "lost", seat: 0, bonus: "tour", cause: "crew:2", why: "locked" },
          ];
          const seats = [{ name: "Ann" }, { name: "Bo" }];
          return [goalName(ed, goal), logLines(ed, events, seats).map((line) => line.text)];
        }"""
    )
    assert lines[0] == f"{name} is discarded: nobody could claim it."
    assert lines[1].startswith("Ann") and "lost: a cash restriction locks it" in lines[1]
    page.context.close()


def test_area_help_in_context_and_two_different_cash_icons(
    browser: Browser, server: Server
) -> None:
    """Tapping an area's title tells what it does and how it scores, with the edition's numbers;
    the legend no longer shows two identical green "$" icons."""
    page = context(browser, PHONE).new_page()
    page.goto(f"{server.base}/records")
    page.fill("#solo-name", "Pip")
    page.click("#solo-start")
    page.wait_for_function("document.body.dataset.phase === 'lead_singer'")
    edition = get(server, "/api/games/records/edition")
    page.click('#tabs [data-tab="tour"]')
    page.click(".area-tour .area-title")
    help_text = page.inner_text(".area-tour .area-help")
    points = ", ".join(str(step["points"]) for step in edition["tour"])
    assert points in help_text
    page.click(".area-tour .area-title")
    assert page.locator(".area-tour .area-help").count() == 0
    legend = page.locator(".legend .legend-item")
    cash = [i for i in range(legend.count()) if "cash" in legend.nth(i).inner_text()]
    assert len(cash) == 2
    shapes = [legend.nth(i).inner_html() for i in cash]
    assert shapes[0] != shapes[1] and "svg" in shapes[1]
    page.context.close()


def test_the_host_chooses_each_bots_level_in_the_lobby(browser: Browser, server: Server) -> None:
    """A host who wants a hard opponent chooses it before the start: the lobby's level goes with
    the next bot added, shows in the list of seats, and the game starts with it."""
    table, code = open_room(browser, server)
    choice = table.locator("#bot-level")
    assert choice.input_value() == "normal"
    offered = choice.locator("option").evaluate_all("(options) => options.map((o) => o.value)")
    assert offered[:3] == ["easy", "normal", "hard"]
    choice.select_option("hard")
    table.click("#add-bot")
    table.wait_for_function("document.querySelectorAll('#seats li').length === 1")
    choice.select_option("easy")
    table.click("#add-bot")
    table.wait_for_function("document.querySelectorAll('#seats li').length === 2")
    choice.select_option("normal")  # the game's default: the seat's level stays null
    table.click("#add-bot")
    table.wait_for_function("document.querySelectorAll('#seats li').length === 3")
    seats = get(server, f"/api/rooms/{code}")["seats"]
    levels = [(s["bot"], s["level"]) for s in seats]
    assert levels == [(True, "hard"), (True, "easy"), (True, None)]
    listed = table.locator("#seats li").all_inner_texts()
    assert "hard" in listed[0] and "easy" in listed[1] and "normal" in listed[2], listed
    table.click("#start")
    table.locator('[data-level-seat="0"]').wait_for()
    shown = [table.locator(f'[data-level-seat="{seat}"]').input_value() for seat in range(3)]
    assert shown == ["hard", "easy", "normal"]
    # Levels chosen or not, the one-screen table's print stays readable from the sofa.
    table.wait_for_selector("#play.fit")
    assert not small_text_and_icons(table, 14)
    table.context.close()
