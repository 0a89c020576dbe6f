"""Records at the table in real Chromium: the game log in words, undo, a confirmation, who is
still marking, a dropped phone's seat handed to a bot and taken back; and the defects of the
issue, each with a check that fails without its fix."""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from .conftest import Server
from .test_records import GAME_SECONDS, PHONE, context, join, phase, shoot, tap_first_legal, version

pytestmark = pytest.mark.browser

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
            tap_first_legal(page)
        else:
            page.wait_for_timeout(50)


@pytest.mark.timeout(660)
def test_log_undo_confirm_done_and_a_bot_minding_a_dropped_phone(
    browser: Browser, server: Server, screenshots: Path | None
) -> None:
    started = time.monotonic()
    table = context(browser, TABLE_800).new_page()
    table.goto(f"{server.base}/records")
    table.click("#open-room")
    table.wait_for_selector("#lobby:not([hidden])")
    code = table.inner_text("#lobby-code").strip()
    phones = [context(browser, PHONE).new_page(), context(browser, PHONE).new_page()]
    join(phones[0], server, code, "Ann")
    join(phones[1], server, code, "Bo")
    table.click("#add-bot")
    table.wait_for_function("document.querySelectorAll('#seats li').length === 3")
    table.click("#start")
    big = context(browser, TABLE_1080).new_page()
    big.goto(f"{server.base}/records/table?room={code}")
    taken: set[str] = set()
    ann, bo = phones

    # Ann marks, then takes her marks back: her card is in her hand again, nobody saw a thing.
    wait_phase(ann, "mark", phones, started)
    ann.wait_for_selector(".played")
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
    if ann.locator('[data-act="undo"]').count():
        shoot(ann, screenshots, "phone-undo", taken)
        v = version(ann)
        ann.click('[data-act="undo"]')
        ann.wait_for_function(f"Number(document.body.dataset.version) > {v}")
        ann.wait_for_selector(".played")
        assert "2 left" in ann.inner_text(".panel") or ann.locator(".played").count()
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
    ann.click('[data-act="done"]')
    table.wait_for_function(
        "[...document.querySelectorAll('.player-board')].some((b) => "
        "b.querySelector('.board-name').textContent.startsWith('Ann') && "
        "b.querySelector('.board-status').textContent.includes('done'))"
    )
    shoot(table, screenshots, "table-marking-800", taken)
    big.wait_for_selector(".marking-chip")
    shoot(big, screenshots, "table-marking-1080", taken)

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
    phones = [ann, bo]

    while phase(ann) != "over" or phase(bo) != "over":
        assert time.monotonic() - started < GAME_SECONDS, "the game took too long"
        moved = False
        for phone in phones:
            moved = tap_first_legal(phone) or moved
        if not moved:
            ann.wait_for_timeout(30)
        if phase(ann) == "claim" or phase(ann) == "private":
            shoot(table, screenshots, "table-weekend-800", taken)

    # The log tells the whole game in words, from the engine's events.
    steps = get(server, f"/api/rooms/{code}/replay/0")["steps"]
    events = get(server, f"/api/rooms/{code}/replay/{steps}")["view"]["events"]
    table.wait_for_selector("#verdict")
    table.locator(".log-all summary").first.click()
    log = table.inner_text("#table-log")
    kinds = {e["type"] for e in events}
    assert "Game over." in log and "→" in log
    chained = [e for e in events if e["type"] == "bonus" and not e["cause"].startswith("crew")]
    assert chained, "no bonus chain in this game"
    if "lost" in kinds:
        assert " lost: " in log
    if "goal_discarded" in kinds:
        assert "is discarded: nobody could claim it" in log
    assert "goal_discarded" in kinds and "lost" in kinds, "the game showed no discard or loss"
    shoot(table, screenshots, "table-end-800", taken)
    ann.wait_for_selector("#verdict")
    # One colour per seat everywhere: the results use the colours of play.
    for page in (table, ann):
        colours = page.locator(".score-table [data-seat-colour]").evaluate_all(
            "(n) => n.map((x) => x.dataset.seatColour)"
        )
        in_play = page.locator(
            "#table-boards [data-seat-colour], #players [data-seat-colour]"
        ).evaluate_all("(n) => n.map((x) => x.dataset.seatColour)")
        assert colours and colours == in_play[: len(colours)]
    for page in (table, big, ann, bo):
        page.context.close()


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
