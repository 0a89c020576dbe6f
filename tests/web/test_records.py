"""Draft & Write Records in real Chromium, on one screen: a solo game on a laptop, and a phone
showing the sheet area by area; and the helpers that drive the pages through their own choices
(tapping the first legal one). The game at the table (two phones and a bot) is in
test_records_table.py."""

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


def context(browser: Browser, viewport: dict[str, int], init: str = "") -> BrowserContext:
    ctx = browser.new_context(viewport=viewport, has_touch=viewport is PHONE)  # type: ignore[arg-type]
    if init:
        ctx.add_init_script(init)
    return ctx


# A whole 3-player game takes about a minute and a half on an idle machine (every round's marking
# ends with "done"); generous for a loaded one.
GAME_SECONDS = float(os.environ.get("RECORDROOM_GAME_SECONDS", "540"))


def version(page: Page) -> int:
    return int(page.evaluate("document.body.dataset.version || '-1'"))


def phase(page: Page) -> str:
    return str(page.evaluate("document.body.dataset.phase || ''"))


# What a page offers now, in one round trip: its state's version and its visible choices.
OFFER = """() => ({
  version: Number(document.body.dataset.version || -1),
  phase: document.body.dataset.phase || "",
  acts: [...document.querySelectorAll("[data-act]")].filter((n) => n.checkVisibility())
    .map((n) => n.dataset.act),
  error: document.querySelector("#error")?.textContent || "",
})"""

# True once the tap has had its effect: a newer state, or an answer given in the page without the
# server (a confirmation or a chooser opened, a new error said).
MOVED = """(before) => Number(document.body.dataset.version || -1) > before.version
  || (!before.acts.includes("confirm") && document.querySelector("#chooser:not([hidden])") !== null)
  || (document.querySelector("#error")?.textContent || "") !== before.error"""


def tap_first_legal(
    page: Page,
    option_b: bool = False,
    avoid: tuple[str, ...] = (),
    phases: tuple[str, ...] = (),
) -> bool:
    """Taps the first legal choice on the page (a card, a place, a bonus, claim), leaving the
    choices named in ``avoid`` alone; False if there is none, or if the page is in none of
    ``phases`` (when given: read with its choices, so that a state coming in meanwhile is not
    played, as when another seat's last setup choice starts the draft)."""
    before = page.evaluate(OFFER)
    if phases and before["phase"] not in phases:
        return False
    keys = [key for key in before["acts"] if key not in avoid]
    if not keys:
        return False
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
    try:
        page.locator(f'[data-act="{key}"]:visible').first.click(timeout=2000)
    except PlaywrightError:  # the choice went away: our own earlier action came back meanwhile
        return True
    # Wait for the page to move (not for a fixed time): on an action/stale answer the page
    # resends on the newest state, so the version may take a moment.
    with contextlib.suppress(PlaywrightError):
        page.wait_for_function(MOVED, arg=before, timeout=5000)
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
    # The page's script runs once its modules are in (the load event may come first): it fills in
    # the room's code. Tapping before would send the bare form.
    page.wait_for_function(
        "(code) => document.querySelector('#join-code').value === code", arg=code
    )
    page.fill("#join-name", name)
    page.click("#join-button")
    try:
        page.wait_for_selector("#seat-screen:not([hidden])")
    except PlaywrightError as error:
        said = page.inner_text("#join-error")
        raise AssertionError(f"{name} could not join {code}: {said!r} at {page.url}") from error


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
