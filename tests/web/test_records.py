"""Draft & Write Records in real Chromium: a table screen, two phones and a bot play a whole game;
a solo game is played on one laptop screen; a phone reloaded in mid-week finds its hand and its
pending pick. The phones are driven through their pages only, tapping the first legal choice."""

from __future__ import annotations

import contextlib
import json
import os
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page
from playwright.sync_api import Error as PlaywrightError

from .conftest import Server

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 640}
LAPTOP = {"width": 1280, "height": 800}
TABLE = {"width": 1280, "height": 720}


def context(browser: Browser, viewport: dict[str, int], init: str = "") -> BrowserContext:
    ctx = browser.new_context(viewport=viewport, has_touch=viewport is PHONE)  # type: ignore[arg-type]
    if init:
        ctx.add_init_script(init)
    return ctx


# A whole 3-player game normally takes two to three minutes (every round's marking ends with
# "done"); generous for a loaded machine.
GAME_SECONDS = float(os.environ.get("RECORDROOM_GAME_SECONDS", "540"))


def version(page: Page) -> int:
    return int(page.evaluate("document.body.dataset.version || '-1'"))


def phase(page: Page) -> str:
    return str(page.evaluate("document.body.dataset.phase || ''"))


def tap_first_legal(page: Page, option_b: bool = False) -> bool:
    """Taps the first legal choice on the page (a card, a place, a bonus, claim); False if none."""
    choices = page.locator("[data-act]:visible")
    if not choices.count():
        return False
    keys = choices.evaluate_all("(nodes) => nodes.map((n) => n.dataset.act)")
    # Fail a card only when nothing else is legal; take option B when asked to; never undo; a
    # confirmation asked is given.
    order = [k for k in keys if k not in ("fail", "undo") and (k != "draw" or option_b)]
    if option_b and "draw" in keys:
        order = ["draw"]
    if "confirm" in keys:
        order = ["confirm"]
    if not order and "fail" not in keys:  # only an undo in sight: open a folded list of places
        folded = page.locator(".bonus-queue details:not([open]) summary")
        if folded.count():
            folded.first.click()
        return False
    key = order[0] if order else "fail"
    before = version(page)
    try:
        page.locator(f'[data-act="{key}"]:visible').first.click(timeout=2000)
    except PlaywrightError:  # the choice went away: our own earlier action came back meanwhile
        return True
    # On an action/stale answer the page resends on the newest state: no new version yet.
    with contextlib.suppress(PlaywrightError):
        page.wait_for_function(f"Number(document.body.dataset.version) > {before}", timeout=5000)
    return True


def shoot(page: Page, folder: Path | None, name: str, taken: set[str]) -> None:
    if folder is None or name in taken:
        return
    taken.add(name)
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_timeout(250)  # let the hand's slide and the glow settle
    page.screenshot(path=str(folder / f"records-{name}.png"), full_page=name.startswith("laptop"))


def get(server: Server, path: str) -> dict:  # type: ignore[type-arg]
    with urllib.request.urlopen(server.base + path, timeout=5) as answer:
        data: dict = json.loads(answer.read())  # type: ignore[type-arg]
        return data


def join(page: Page, server: Server, code: str, name: str) -> None:
    page.goto(f"{server.base}/join/{code}")
    page.fill("#join-name", name)
    page.click("#join-button")
    page.wait_for_selector("#seat-screen:not([hidden])")


@pytest.mark.timeout(600)  # a whole game through the real pages; generous for a loaded machine
def test_three_players_two_phones_and_a_bot_play_to_the_end(
    browser: Browser, server: Server, screenshots: Path | None
) -> None:
    started = time.monotonic()
    table = context(browser, TABLE).new_page()
    table.goto(f"{server.base}/records")
    shoot(table, screenshots, "table-setup", set())
    table.click("#open-room")
    table.wait_for_selector("#lobby:not([hidden])")
    code = table.inner_text("#lobby-code").strip()
    assert len(code) == 4

    phones = [context(browser, PHONE).new_page(), context(browser, PHONE).new_page()]
    join(phones[0], server, code, "Ann")
    join(phones[1], server, code, "Bo")
    table.click("#add-bot")
    table.wait_for_function("document.querySelectorAll('#seats li').length === 3")
    shoot(table, screenshots, "table-lobby", set())
    table.click("#start")
    for phone in phones:
        phone.wait_for_function("document.body.dataset.phase === 'lead_singer'")

    # The same seat on a laptop, for the laptop screenshots of Ann's sheet.
    token = phones[0].evaluate(f"localStorage.getItem('recordroom.seat.{code}')")
    laptop = context(
        browser, LAPTOP, f"localStorage.setItem('recordroom.seat.{code}', '{token}')"
    ).new_page()
    laptop.goto(f"{server.base}/join/{code}")
    laptop.wait_for_function("document.body.dataset.phase === 'lead_singer'")
    taken: set[str] = set()
    shoot(phones[0], screenshots, "phone-setup", taken)
    shoot(laptop, screenshots, "laptop-setup", taken)

    # A pick is secret and can be changed until everyone has picked.
    while phase(phones[0]) != "pick":
        for phone in phones:
            tap_first_legal(phone)
    cards = phones[0].locator(".hand [data-card]")
    first = cards.nth(0).get_attribute("data-card") or ""
    second = cards.nth(1).get_attribute("data-card") or ""
    cards.nth(0).click()
    phones[0].wait_for_function(f"document.body.dataset.pending === '{first}'")
    assert phones[0].locator("[data-act=pick]").count() == 0  # picked: the others still choose
    table.wait_for_function("document.querySelector('.waiting-chip')?.textContent.includes('Bo')")
    assert "Ann" not in table.inner_text(".waiting-chip")
    assert first not in table.inner_text("#table-boards")
    shoot(phones[0], screenshots, "phone-pick", taken)
    laptop.wait_for_function(f"document.body.dataset.pending === '{first}'")
    shoot(laptop, screenshots, "laptop-pick", taken)
    shoot(table, screenshots, "table-pick", taken)
    phones[0].locator(f'.hand [data-card="{second}"]').click()
    phones[0].wait_for_function(f"document.body.dataset.pending === '{second}'")

    # A reload in mid-week comes back to the same hand and the same pending pick.
    in_hand = "(nodes) => nodes.map((c) => c.dataset.card)"
    hand = phones[0].locator(".hand [data-card]").evaluate_all(in_hand)
    phones[0].reload()
    phones[0].wait_for_function(f"document.body.dataset.pending === '{second}'")
    assert phones[0].locator(".hand [data-card]").evaluate_all(in_hand) == hand
    chosen = phones[0].locator(f'.hand [data-card="{second}"]')
    assert chosen.get_attribute("aria-pressed") == "true"

    def shoot_both(name: str) -> None:
        """Ann's phone, Ann's laptop at the same state, and the table."""
        if screenshots is None or f"phone-{name}" in taken:
            return
        shoot(phones[0], screenshots, f"phone-{name}", taken)
        laptop.wait_for_function(f"document.body.dataset.version >= {version(phones[0])}")
        shoot(laptop, screenshots, f"laptop-{name}", taken)
        if name != "bonus":
            shoot(table, screenshots, f"table-{name}", taken)

    def stuck() -> str:
        """What each phone shows and what the server holds, for a failure message."""
        info = get(server, f"/api/rooms/{code}")
        lines = [f"server: version {info['version']}, status {info['status']}"]
        for i, phone in enumerate(phones):
            acts = phone.locator("[data-act]:visible").evaluate_all(
                "(nodes) => nodes.map((n) => n.dataset.act)"
            )
            lines.append(
                f"phone {i}: version {version(phone)}, phase {phase(phone)}, acts {acts}, "
                f"to act {phone.evaluate('document.body.dataset.toAct')}, "
                f"error {phone.inner_text('#error')!r}, link hidden "
                f"{phone.locator('#link').is_hidden()}"
            )
        return "\n".join(lines)

    while phase(phones[0]) != "over" or phase(phones[1]) != "over":
        assert time.monotonic() - started < GAME_SECONDS, f"the game took too long:\n{stuck()}"
        moved = False
        for i, phone in enumerate(phones):
            p = phase(phone)
            if i == 0 and screenshots is not None:
                if p == "mark" and phone.locator(".played").count():
                    shoot_both("mark")
                if phone.locator(".bonus-queue, .chooser:not([hidden])").count():
                    shoot_both("bonus")
                if p == "claim" and phone.locator("[data-act=claim]").count():
                    shoot_both("weekend")
            moved = tap_first_legal(phone) or moved
        if not moved:
            phones[0].wait_for_timeout(30)

    info = get(server, f"/api/rooms/{code}")
    assert info["status"] == "over"
    result = info["result"]
    assert len(result["scores"]) == 3
    for phone in phones:
        phone.wait_for_selector("#verdict")
        assert phone.locator(".score-table tbody tr").count() == 7  # six areas and the total
    table.wait_for_selector("#verdict")
    winners = [info["seats"][w]["name"] for w in result["winners"]]
    assert all(name in table.inner_text("#verdict") for name in winners)
    # The replay steps through the log: back one step and the caption says which.
    table.wait_for_function("document.querySelector('.replay')?.dataset.step > 0")
    last = int(table.get_attribute(".replay", "data-step") or 0)
    table.click("#replay-back")
    table.wait_for_function(f"document.querySelector('.replay').dataset.step == {last - 1}")
    assert f"Step {last - 1} of {last}" in table.inner_text(".replay-caption")
    laptop.wait_for_selector("#verdict")
    shoot(phones[0], screenshots, "phone-end", taken)
    shoot(laptop, screenshots, "laptop-end", taken)
    table.click("#replay-next")
    table.wait_for_function(f"document.querySelector('.replay').dataset.step == {last}")
    shoot(table, screenshots, "table-end", taken)
    for page in (table, laptop, *phones):
        page.context.close()


@pytest.mark.timeout(300)
def test_a_solo_game_on_one_laptop_screen(
    browser: Browser, server: Server, screenshots: Path | None
) -> None:
    started = time.monotonic()
    page = context(browser, LAPTOP).new_page()
    page.goto(f"{server.base}/records")
    page.fill("#solo-name", "Sol")
    page.click("#solo-start")
    page.wait_for_function("document.body.dataset.phase === 'lead_singer'")
    code = page.url.rsplit("/", 1)[-1]
    taken: set[str] = set()
    turn = 0
    drew = claimed = False
    while phase(page) != "over":
        assert time.monotonic() - started < 240, "the solo game took too long"
        p = phase(page)
        if p == "turn":
            turn += 1
            shoot(page, screenshots, "solo-turn", taken)
        if p == "third":
            drew = True
            shoot(page, screenshots, "solo-option-b", taken)
        if p == "goal":
            shoot(page, screenshots, "solo-goal", taken)
            claimed = claimed or page.locator("[data-act=claim]").count() > 0
        # Option B every other turn, option A otherwise.
        if not tap_first_legal(page, option_b=p == "turn" and turn % 2 == 0):
            page.wait_for_timeout(30)
    assert drew, "option B was never taken"
    page.wait_for_selector("#verdict")
    result = get(server, f"/api/rooms/{code}")["result"]
    assert result["rank"] in page.inner_text("#verdict")
    assert str(result["scores"][0]) in page.inner_text("#verdict")
    page.wait_for_function("document.querySelector('.replay')?.dataset.step > 0")
    shoot(page, screenshots, "solo-end", taken)
    page.context.close()


def test_a_phone_shows_the_whole_sheet_area_by_area(
    browser: Browser, server: Server, screenshots: Path | None
) -> None:
    page = context(browser, PHONE).new_page()
    page.goto(f"{server.base}/records")
    page.fill("#solo-name", "Pip")
    page.click("#solo-start")
    page.wait_for_function("document.body.dataset.phase === 'lead_singer'")
    tap_first_legal(page)
    page.wait_for_function("document.body.dataset.phase === 'turn'")
    areas = page.locator("#tabs [data-tab]").evaluate_all("(n) => n.map((t) => t.dataset.tab)")
    assert len(areas) == 11  # all ten areas, and the whole sheet
    for area in areas[1:]:
        page.click(f'#tabs [data-tab="{area}"]')
        shown = page.locator(f".area-{area}")
        assert shown.is_visible()
        box = shown.bounding_box()
        assert box is not None and box["width"] >= 300  # readable, not a thumbnail
        assert page.locator(".area:visible").count() == 1
    shoot(page, screenshots, "solo-phone", set())
    page.context.close()
