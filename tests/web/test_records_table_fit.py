"""The Records table in play fits one screen: with 4 and 6 players at 1280x720 and 6 at 1920x1080,
every sheet, the chips, the goals, the log and the legend are in view at once, nothing scrolls and
nothing overlaps, and the sheets stay readable from a sofa.

Each room is made over HTTP: Annabel's seat (played here over her socket) and bots in the
others, played to the second week's draft, so that the sheets have marks and the log has lines;
the game then waits for Annabel's pick while the host's table is measured. A second test shows
every sheet's tour waiting on its cash restriction (a lock at the end of the tour's line), which a
real game reaches only now and then. A third seats six players whose names are as long as the
server takes: each name is cut short in its sheet's header, and no sheet is any the worse for it.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, WebSocketRoute
from websockets.sync.client import ClientConnection, connect

from recordroom.games.records.edition import load_edition

from .conftest import Server
from .records_measure import small_text_and_icons
from .test_records_chip import LONG  # six names as long as the server takes (24 characters)

pytestmark = pytest.mark.browser

State = dict[str, Any]

# The smallest size of a seat's name and of an area's points on a sheet, in CSS px at 1280x720
# (the table's 1rem is 16 px there, 24 px at 1920x1080, so 1.5 times these). 12 px is 3/4 of the
# table's own size: on a 40-inch television showing 1280x720 (0.69 mm a pixel) a capital of 12 px
# is about 6 mm tall, which from a sofa 3 m away is about 7 arcminutes, above the 5 of the 20/20
# line of an eye chart. The layout reaches 12.75 px with 6 players at 1280x720 (more with fewer).
READABLE_PX = 12.0
# Nothing on the table, an area's name or an icon included, below 0.9 of that.
SMALLEST_PX = 0.9 * READABLE_PX


def play_to_week_two(link: ClientConnection) -> State:
    """Plays Annabel's seat (the first legal choice; marks before done, a fail only when nothing
    else goes) until the second week's draft waits for her pick; that state."""
    end = time.monotonic() + 60
    while (left := end - time.monotonic()) > 0:
        message = json.loads(link.recv(timeout=left))
        if message.get("type") != "state" or not message["legal_actions"]:
            continue  # an action refused as stale is followed by the newer state
        view = message["view"]
        if view["week"] >= 2 and view["phase"] == "pick":
            found: State = message
            return found
        legal = message["legal_actions"]
        order = [a for a in legal if a["type"] not in ("fail", "undo", "done")]
        action = (order or [a for a in legal if a["type"] == "done"] or legal)[0]
        link.send(json.dumps({"type": "act", "version": message["version"], "action": action}))
    raise AssertionError("the game did not reach the second week within 60 s")


# Where each part of the table is, and what overlaps what.
LAYOUT = """() => {
  const box = (node) => {
    const r = node.getBoundingClientRect();
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
  };
  const parts = {};
  document.querySelectorAll("#table-boards .player-board").forEach((board) => {
    parts[`sheet ${board.dataset.seat}`] = box(board);
  });
  for (const [name, selector] of [["chips", "#round-info"], ["goals", "#table-goals"],
    ["log", "#table-log"], ["legend", "#table-legend"]]) {
    const node = document.querySelector(selector);
    if (node) parts[name] = box(node);
  }
  const page = document.documentElement;
  return { parts, scrollHeight: page.scrollHeight, scrollWidth: page.scrollWidth,
           width: innerWidth, height: innerHeight };
}"""

# The font sizes, in px, of every seat's name and every area's points on the sheets.
SIZES = """() => {
  const sizes = (selector) => [...document.querySelectorAll(selector)]
    .map((node) => parseFloat(getComputedStyle(node).fontSize));
  return { names: sizes("#table-boards .board-name"),
           points: sizes("#table-boards .tb-area-points") };
}"""


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    """Whether two boxes share more than a pixel's sliver."""
    width = min(a["right"], b["right"]) - max(a["left"], b["left"])
    height = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
    return width > 1 and height > 1


def host_table(
    browser: Browser,
    server: Server,
    code: str,
    host: str,
    size: tuple[int, int],
    route: Callable[[WebSocketRoute], None] | None = None,
    phase: str = "pick",
) -> Page:
    """The host's table screen of room ``code`` (its token in the page's storage), in play at
    ``phase``; its socket through ``route`` when one is given."""
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height})
    context.add_init_script(f"localStorage.setItem('recordroom.host.{code}', '{host}')")
    page = context.new_page()
    page.set_default_timeout(15_000)
    if route is not None:
        page.route_web_socket(re.compile(r"/ws/"), route)
    page.goto(f"{server.base}/records/table?room={code}")
    page.wait_for_selector("#play:not([hidden]) #table-legend .legend")
    page.wait_for_function("(phase) => document.body.dataset.phase === phase", arg=phase)
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 50)))")
    return page


@pytest.mark.timeout(120)
@pytest.mark.parametrize(
    ("size", "players"),
    [((1280, 720), 4), ((1280, 720), 6), ((1920, 1080), 6)],
    ids=["1280x720-4", "1280x720-6", "1920x1080-6"],
)
def test_the_table_in_play_fits_one_screen_readable_from_a_sofa(
    browser: Browser,
    server: Server,
    screenshots: Path | None,
    size: tuple[int, int],
    players: int,
) -> None:
    """Every seat's sheet, the chips, the goals, the log and the legend wholly in view, without a
    scroll either way and none over another; a seat's name and an area's points at least
    READABLE_PX (times 1.5 at 1920x1080) and nothing at all below SMALLEST_PX."""
    code, host, url = new_game(server, players)
    with connect(url, open_timeout=10, close_timeout=1) as link:
        state = play_to_week_two(link)
        marks = [
            len(board["crew"]) - board["crew"].count(None) + len(board["agenda"] + board["assets"])
            for board in state["view"]["boards"]
        ]
        assert min(marks) > 0, f"a sheet without a mark in the second week: {marks}"
        page = host_table(browser, server, code, host, size)
        try:
            if screenshots is not None:
                name = f"records-table-fit-{size[0]}x{size[1]}-{players}.png"
                page.screenshot(path=str(screenshots / name))
            check_one_screen(page, size, players)
            check_inside_the_sheets(page)
        finally:
            page.context.close()


@pytest.mark.timeout(120)
def test_a_screen_too_small_for_one_screen_scrolls_with_nothing_over_anything(
    browser: Browser, server: Server
) -> None:
    """At 960x600 no layout of four sheets fits: the page scrolls down, never sideways, and the
    goals, the log and the legend each keep a place of their own (the legend lay over the log).
    Made larger (1280x720), the table is one screen again."""
    code, host, url = new_game(server, 4)
    with connect(url, open_timeout=10, close_timeout=1) as link:
        play_to_week_two(link)
        page = host_table(browser, server, code, host, (960, 600))
        try:
            layout = page.evaluate(LAYOUT)
            assert layout["scrollWidth"] <= layout["width"] + 1, layout["scrollWidth"]
            parts = layout["parts"]
            names = sorted(parts)
            overlapping = [
                (a, b)
                for i, a in enumerate(names)
                for b in names[i + 1 :]
                if overlap(parts[a], parts[b])
            ]
            assert not overlapping, f"one over another: {overlapping}"
            assert parts["legend"]["top"] >= parts["log"]["bottom"] - 0.5, parts
            page.set_viewport_size({"width": 1280, "height": 720})
            page.wait_for_function("!document.querySelector('#play').classList.contains('crowded')")
            page.wait_for_timeout(400)  # the resize's fit runs once the window is still
            check_one_screen(page, (1280, 720), 4)
        finally:
            page.context.close()


def new_game(server: Server, players: int) -> tuple[str, str, str]:
    """A started room of Annabel and bots: its code, host token and the address of Annabel's
    socket."""
    room = server.call("POST", "/api/rooms", {"game": "records"})
    code, host = str(room["code"]), str(room["host_token"])
    ann = server.call("POST", f"/api/rooms/{code}/seats", {"name": "Annabel"})
    for _ in range(players - 1):
        server.call("POST", f"/api/rooms/{code}/bots", {}, host)
    server.call("POST", f"/api/rooms/{code}/start", {}, host)
    return code, host, f"ws://127.0.0.1:{server.port}/ws/{code}?token={ann['token']}"


def before_the_locked_step(ws: WebSocketRoute) -> None:
    """The table's socket, every sheet shown at the tour's first step under a cash restriction
    with that restriction still on (so that each sheet's tour line ends in a lock)."""
    upstream = ws.connect_to_server()

    def to_page(message: str | bytes) -> None:
        data = json.loads(message)
        view = data.get("view") if isinstance(data, dict) else None
        if data.get("type") == "state" and view:
            edition = load_edition(view["edition"])
            step = next(i for i, s in enumerate(edition.tour_steps) if s.restriction >= 0)
            restriction = edition.restrictions[edition.tour_steps[step].restriction]
            for board in view["boards"]:
                board["tour"] = step
                board["cash_lifted"] = [r for r in board["cash_lifted"] if r != restriction]
        ws.send(json.dumps(data))

    upstream.on_message(to_page)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)], ids=["1280x720", "1920x1080"])
def test_a_tour_waiting_on_its_cash_restriction_shows_a_lock_readable_from_a_sofa(
    browser: Browser, server: Server, screenshots: Path | None, size: tuple[int, int]
) -> None:
    """When a sheet's next step on the tour is locked, its tour line ends in the lock, and the
    lock's dollar is no smaller than anything else on the table may be (SMALLEST_PX, times 1.5 at
    1920x1080, and 0.9 of the names and points however small the fit makes them), with the one
    screen still holding everything and the lock within its line."""
    code, host, url = new_game(server, 6)
    with connect(url, open_timeout=10, close_timeout=1) as link:
        play_to_week_two(link)
        page = host_table(browser, server, code, host, size, before_the_locked_step)
        try:
            locks = page.locator("#table-boards .tb-area[data-area='tour'] .tb-next .legend-lock")
            assert locks.count() == 6
            if screenshots is not None:
                name = f"records-table-fit-tour-locked-{size[0]}x{size[1]}.png"
                page.screenshot(path=str(screenshots / name))
            check_one_screen(page, size, 6)
            check_inside_the_sheets(page)
            # Later in a game the fit may make the sheets smaller, down to names and points at
            # READABLE_PX: the dollar must then still be at SMALLEST_PX, so at 0.9 of them now.
            sizes = page.evaluate(SIZES)
            print_size = min(sizes["names"] + sizes["points"])
            dollars = page.evaluate(DOLLARS)
            assert len(dollars) > 6 and min(dollars) >= 0.9 * print_size - 0.01, (
                f"a lock's dollar at {min(dollars):.2f} px beside names and points at {print_size}"
            )
        finally:
            page.context.close()


# The rendered size, in px, of the dollar of every lock on the sheets.
DOLLARS = """() => [...document.querySelectorAll("#table-boards .legend-lock text")].map((e) => {
  const m = e.getScreenCTM();
  return parseFloat(getComputedStyle(e).fontSize) * Math.sqrt(Math.abs(m.a * m.d - m.b * m.c));
})"""


def check_one_screen(page: Page, size: tuple[int, int], players: int) -> None:
    """The checks of the one-screen tests above, on the host's table."""
    layout = page.evaluate(LAYOUT)
    high, wide = layout["scrollHeight"], layout["scrollWidth"]
    assert high <= layout["height"] + 1, f"the page scrolls: {high} px high on {size}"
    assert wide <= layout["width"] + 1, f"the page scrolls sideways: {wide} px wide on {size}"
    parts = layout["parts"]
    wanted = {f"sheet {seat}" for seat in range(players)} | {"chips", "goals", "log", "legend"}
    assert wanted <= set(parts), f"missing: {wanted - set(parts)}"
    outside = {
        name: {side: round(at) for side, at in box.items()}
        for name, box in parts.items()
        if box["left"] < -0.5
        or box["top"] < -0.5
        or box["right"] > layout["width"] + 0.5
        or box["bottom"] > layout["height"] + 0.5
    }
    assert not outside, f"not wholly on a {size[0]}x{size[1]} screen: {outside}"
    names = sorted(parts)
    overlapping = [
        (a, b) for i, a in enumerate(names) for b in names[i + 1 :] if overlap(parts[a], parts[b])
    ]
    assert not overlapping, f"one over another: {overlapping}"
    scale = size[1] / 720
    sizes = page.evaluate(SIZES)
    assert len(sizes["names"]) == players and len(sizes["points"]) >= 6 * players
    smallest = min(sizes["names"] + sizes["points"])
    assert smallest >= READABLE_PX * scale - 0.01, (
        f"a seat's name or an area's points at {smallest:.2f} px, under {READABLE_PX * scale} px"
    )
    assert not small_text_and_icons(page, SMALLEST_PX * scale)


# What shows of each sheet outside its box, and of each part of a sheet (a crew slot, an area's
# line, the header, the host's controls) outside that part, in px: the worst of each sheet. Only
# what is seen counts: a node hidden, or the part of it an ancestor clips (overflow other than
# visible: the ellipsis of a name or a status, an icon's drawing), is not.
INSIDE = """() => {
  const seen = (node, sheet) => {
    const style = getComputedStyle(node);
    if (style.visibility !== "visible" || style.display === "none") return null;
    const r = node.getBoundingClientRect();
    let [left, top, right, bottom] = [r.left, r.top, r.right, r.bottom];
    for (let up = node.parentElement; up && up !== sheet; up = up.parentElement) {
      const clip = getComputedStyle(up);
      const c = up.getBoundingClientRect();
      if (clip.overflowX !== "visible") {
        [left, right] = [Math.max(left, c.left), Math.min(right, c.right)];
      }
      if (clip.overflowY !== "visible") {
        [top, bottom] = [Math.max(top, c.top), Math.min(bottom, c.bottom)];
      }
    }
    return right - left > 0.5 && bottom - top > 0.5 ? { left, top, right, bottom } : null;
  };
  const out = (q, r) =>
    Math.max(q.right - r.right, r.left - q.left, q.bottom - r.bottom, r.top - q.top);
  const what = (node) => `${node.tagName.toLowerCase()}.${node.className.baseVal ?? node.className}`
    + ` "${node.textContent.trim().slice(0, 24)}"`;
  const parts = ".tb-slot, .tb-area, .player-board > header, .seat-controls";
  return [...document.querySelectorAll("#table-boards .player-board")].map((sheet) => {
    const box = sheet.getBoundingClientRect();
    const worst = { sheet: [0, ""], part: [0, ""] };
    for (const node of sheet.querySelectorAll("*")) {
      const q = seen(node, sheet);
      if (!q) continue;
      const o = out(q, box);
      if (o > worst.sheet[0]) worst.sheet = [o, what(node)];
      const part = node.parentElement.closest(parts);
      if (!part || !sheet.contains(part)) continue;
      const p = out(q, part.getBoundingClientRect());
      if (p > worst.part[0]) worst.part = [p, `${what(node)} in ${what(part)}`];
    }
    return { seat: sheet.dataset.seat, ...worst };
  });
}"""


def check_inside_the_sheets(page: Page) -> None:
    """Nothing seen of a sheet more than a pixel outside its box, nor more than two outside its
    crew slot, area's line, header or host's controls (words run into their icons or into the next
    slot): the fit measures a part in whole pixels and lets it be a pixel too narrow."""
    sheets = page.evaluate(INSIDE)
    outside = {f"sheet {s['seat']}": s["sheet"] for s in sheets if s["sheet"][0] > 1}
    assert not outside, f"sticking out of its sheet (px, what): {outside}"
    spilling = {f"sheet {s['seat']}": s["part"] for s in sheets if s["part"][0] > 2}
    assert not spilling, f"sticking out of its place on the sheet (px, what): {spilling}"


@pytest.mark.timeout(120)
def test_long_names_are_cut_short_and_leave_every_sheet_whole(
    browser: Browser, server: Server, screenshots: Path | None
) -> None:
    """Six seats with 24-character names, right after the start (the lead singers' colours, nobody
    has chosen): at 1280x720 and 1920x1080 each name is cut short in its header with the whole name
    in its title, nothing of a sheet sticks out of it or of its place on it, no sheet is over
    another and the one-screen checks hold, as with short names."""
    assert {len(name) for name in LONG} == {24}
    room = server.call("POST", "/api/rooms", {"game": "records"})
    code, host = str(room["code"]), str(room["host_token"])
    for name in LONG:  # one room for both sizes: the joins a client may make are few
        server.call("POST", f"/api/rooms/{code}/seats", {"name": name})
    server.call("POST", f"/api/rooms/{code}/start", {}, host)
    for size in [(1280, 720), (1920, 1080)]:
        page = host_table(browser, server, code, host, size, phase="lead_singer")
        try:
            if screenshots is not None:
                name = f"records-table-fit-long-names-{size[0]}x{size[1]}.png"
                page.screenshot(path=str(screenshots / name))
            check_inside_the_sheets(page)
            check_one_screen(page, size, len(LONG))
            names = page.locator("#table-boards .board-name")
            assert names.evaluate_all("(nodes) => nodes.map((node) => node.title)") == LONG
        finally:
            page.context.close()
