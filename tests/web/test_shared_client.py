"""One browser client for every page: no page reaches into another game's folder; both phone
pages keep their seat token through a rate limit or a dropped link and forget it when the server
says it holds nothing; the Records pages show goal progress from the view.

The token tests put a stand-in WebSocket in the page (before its scripts run) so that the test
decides how each connection ends; the page, its HTTP calls and the room are real. The goal test
plays a real solo game and rewrites the ``goal_progress`` of the state messages on their way to
the page: what the page shows follows the message, so it counts nothing itself.
"""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, WebSocketRoute, expect

from recordroom import games

from .conftest import Server

pytestmark = pytest.mark.browser

WEB = Path(__file__).resolve().parents[2] / "recordroom" / "web"
PHONE = {"width": 360, "height": 640}
WAIT = 30_000  # ms: generous, the machine may be busy

# ---- no page imports another game's folder ---------------------------------------------------

_IMPORT = re.compile(
    r"""(?:\bimport\s*(?:[\w*{}\s,$]+\s*from\s*)?|\bexport\s*[\w*{}\s,$]+\s*from\s*|\bimport\s*\(\s*)["']([^"']+)["']"""
)
_SCRIPT = re.compile(r"""<script\b[^>]*\bsrc\s*=\s*["']([^"']+)["']""", re.IGNORECASE)


def imported(text: str) -> list[str]:
    """The module specifiers a JavaScript file imports (static, re-exports and dynamic)."""
    return _IMPORT.findall(text)


def folder_of(specifier: str, own: str) -> str:
    """The folder under web/ that a specifier of a file in folder ``own`` points into."""
    if specifier.startswith("/static/"):
        return specifier.removeprefix("/static/").split("/", 1)[0]
    if specifier.startswith("./"):
        return own
    return f"<outside: {specifier}>"


def test_the_import_scanner_sees_every_form_of_import() -> None:
    text = """import { a, b } from "/static/common/client.js";
import * as x from './words.js';
import "/static/records/side.js";
export { c } from "/static/disc-cover/common.js";
const later = await import("/static/records/late.js");"""
    assert imported(text) == [
        "/static/common/client.js",
        "./words.js",
        "/static/records/side.js",
        "/static/disc-cover/common.js",
        "/static/records/late.js",
    ]
    assert folder_of("/static/disc-cover/common.js", "records") == "disc-cover"
    assert folder_of("./words.js", "records") == "records"
    html = '<script type="module" src="/static/records/table.js"></script>'
    assert _SCRIPT.findall(html) == ["/static/records/table.js"]


def test_no_page_imports_another_game_s_folder() -> None:
    """Each module imports only the shared client (web/common/) and its own folder; a page's
    script tags load its own folder, the shared client, and (for a game's how-to-play page under
    rules/) that game's folder."""
    game_folders = {name for name in games.names() if (WEB / name).is_dir()}
    assert {"disc-cover", "records"} <= game_folders
    wrong: list[str] = []
    imports = 0
    for path in sorted(WEB.rglob("*.js")):
        own = path.parent.relative_to(WEB).parts[0]
        for specifier in imported(path.read_text(encoding="utf-8")):
            imports += 1
            target = folder_of(specifier, own)
            if target not in (own, "common"):
                wrong.append(f"{path.relative_to(WEB)} imports {specifier}")
    scripts = 0
    for path in sorted(WEB.rglob("*.html")):
        own = path.parent.relative_to(WEB).parts[0]
        allowed = {own, "common"} | ({path.stem} & game_folders)
        for src in _SCRIPT.findall(path.read_text(encoding="utf-8")):
            scripts += 1
            if folder_of(src, own) not in allowed:
                wrong.append(f"{path.relative_to(WEB)} loads {src}")
    assert imports > 40 and scripts >= 6  # the scan saw the pages
    assert not wrong, wrong


def test_both_phone_pages_use_the_shared_phone_client() -> None:
    for game in ("disc-cover", "records"):
        text = (WEB / game / "phone.js").read_text(encoding="utf-8")
        assert "/static/common/phone.js" in imported(text)
        # Nothing of its own left to open a socket, keep a token or take a seat with.
        for own_copy in ("new RoomSocket", "tokens.dropSeat", "tokens.setSeat", "/seats`"):
            assert own_copy not in text, f"{game}/phone.js: {own_copy}"


# ---- the token policy, on both phone pages ------------------------------------------------------

# A stand-in WebSocket: the page's sockets are listed in window.sockets, and the test opens them,
# hands them messages and closes them with the code it chooses.
FAKE_SOCKET = """
window.sockets = [];
class StandInSocket {
  static CONNECTING = 0;
  static OPEN = 1;
  static CLOSING = 2;
  static CLOSED = 3;
  constructor(url) {
    this.url = url;
    this.readyState = 0;
    this.sent = [];
    window.sockets.push(this);
  }
  send(text) { this.sent.push(text); }
  close() { this.readyState = 3; }
}
window.WebSocket = StandInSocket;
window.openSocket = (i) => {
  const s = window.sockets[i];
  s.readyState = 1;
  s.onopen?.({});
};
window.tellSocket = (i, message) =>
  window.sockets[i].onmessage?.({ data: JSON.stringify(message) });
window.endSocket = (i, code) => {
  const s = window.sockets[i];
  s.readyState = 3;
  s.onclose?.({ code });
};
"""


def call(server: Server, method: str, path: str, body: Any = None, token: str = "") -> Any:
    request = urllib.request.Request(
        server.base + path,
        method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json"}
        | ({"Authorization": f"Bearer {token}"} if token else {}),
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        raw = answer.read()
    return json.loads(raw) if raw else None


def seated_phone(browser: Browser, server: Server, game: str) -> tuple[Page, str, str]:
    """A phone page of ``game`` holding a seat's token (given by a seat link), with stand-in
    sockets: (page, room code, token)."""
    room = call(server, "POST", "/api/rooms", {"game": game, "options": {}})
    seat = call(server, "POST", f"/api/rooms/{room['code']}/seats", {"name": "Ann"})
    ctx = browser.new_context(viewport=PHONE, has_touch=True)  # type: ignore[arg-type]
    ctx.add_init_script(FAKE_SOCKET)
    page = ctx.new_page()
    page.goto(f"{server.base}/join/{room['code']}?seat_token={seat['token']}")
    return page, str(room["code"]), str(seat["token"])


def stored_token(page: Page, code: str) -> str | None:
    token: str | None = page.evaluate(f"localStorage.getItem('recordroom.seat.{code}')")
    return token


def wait_for_sockets(page: Page, count: int) -> None:
    page.wait_for_function(f"window.sockets.length >= {count}", timeout=WAIT)


@pytest.mark.parametrize("game", ["disc-cover", "records"])
def test_a_rate_limit_or_a_dropped_link_keeps_the_seat_token(
    browser: Browser, server: Server, game: str
) -> None:
    page, code, token = seated_phone(browser, server, game)
    try:
        wait_for_sockets(page, 1)
        assert "seat_token" not in page.url
        assert f"token={token}" in page.evaluate("window.sockets[0].url")
        # Too many connects: the server says so and closes with 4429. The token stays, the
        # seat screen stays, and the page connects again later with the same token.
        page.evaluate("openSocket(0)")
        page.evaluate(
            "tellSocket(0, {type: 'error', code: 'rate/limited', message: 'Too many requests'})"
        )
        page.evaluate("endSocket(0, 4429)")
        assert stored_token(page, code) == token
        expect(page.locator("#seat-screen")).to_be_visible()
        expect(page.locator("#join-screen")).to_be_hidden()
        expect(page.locator("#link")).to_be_visible()
        wait_for_sockets(page, 2)
        assert f"token={token}" in page.evaluate("window.sockets[1].url")
        assert stored_token(page, code) == token
        # The network drops (no close code of the server's): the same, sooner.
        page.evaluate("openSocket(1)")
        expect(page.locator("#link")).to_be_hidden()
        page.evaluate("endSocket(1, 1006)")
        wait_for_sockets(page, 3)
        assert stored_token(page, code) == token
        expect(page.locator("#seat-screen")).to_be_visible()
    finally:
        page.context.close()


@pytest.mark.parametrize(
    ("game", "close", "error", "said"),
    [
        ("disc-cover", 4403, "auth/bad_token", "no longer yours"),
        ("records", 4403, "auth/bad_token", "no longer yours"),
        ("disc-cover", 4000, "seat/kicked", "removed your seat"),
        ("records", 4000, "seat/kicked", "gave it to another phone"),
        ("records", 4404, "room/not_found", "is gone"),
    ],
)
def test_a_refused_token_is_forgotten_and_the_join_form_says_why(
    browser: Browser, server: Server, game: str, close: int, error: str, said: str
) -> None:
    page, code, token = seated_phone(browser, server, game)
    try:
        wait_for_sockets(page, 1)
        assert stored_token(page, code) == token
        page.evaluate("openSocket(0)")
        page.evaluate(f"tellSocket(0, {{type: 'error', code: '{error}', message: 'refused'}})")
        page.evaluate(f"endSocket(0, {close})")
        expect(page.locator("#join-screen")).to_be_visible(timeout=WAIT)
        expect(page.locator("#join-error")).to_contain_text(said, timeout=WAIT)
        assert stored_token(page, code) is None
        # Refused for good: no new connection is tried with the forgotten token.
        page.wait_for_timeout(1500)
        assert page.evaluate("window.sockets.length") == 1
    finally:
        page.context.close()


# ---- Records goal progress comes from the view ------------------------------------------------

FAKE_STATUS = {"have": 41, "need": 43, "meets": False, "claimable": False, "claimed": False}


def test_records_goal_progress_on_the_phone_comes_from_the_view(
    browser: Browser, server: Server
) -> None:
    """A real solo game: the phone's goal cards say the progress of the view's ``goal_progress``.
    The messages from the server are rewritten on their way (every status says 41 of 43): the
    page shows 41 of 43, which no board of a game's start could give, so it counts nothing
    itself. The table's goal row (solo: the player's progress) follows the same field."""
    room = call(server, "POST", "/api/rooms", {"game": "records", "options": {}})
    code, host_token = str(room["code"]), str(room["host_token"])
    seat = call(server, "POST", f"/api/rooms/{code}/seats", {"name": "Ann"})
    call(server, "POST", f"/api/rooms/{code}/start", token=host_token)
    seen: list[dict[str, Any]] = []

    def rewrite(ws: WebSocketRoute) -> None:
        upstream = ws.connect_to_server()

        def to_page(message: str | bytes) -> None:
            data = json.loads(message)
            view = data.get("view") if isinstance(data, dict) else None
            if data.get("type") == "state" and view and "goal_progress" in view:
                seen.append(json.loads(json.dumps(view)))
                for statuses in view["goal_progress"].values():
                    statuses[:] = [dict(FAKE_STATUS) for _ in statuses]
            ws.send(json.dumps(data))

        upstream.on_message(to_page)

    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        phone = ctx.new_page()
        phone.route_web_socket(re.compile(r"/ws/"), rewrite)
        phone.goto(f"{server.base}/join/{code}?seat_token={seat['token']}")
        cards = phone.locator("#goals .goal-row .goal-card[data-goal]")
        expect(cards.first).to_be_visible(timeout=WAIT)
        assert seen, "no state message went through the rewriting route"
        # What the engine said before the rewrite: the real start of a game, nowhere near 41.
        real = seen[-1]["goal_progress"]
        assert real and all(s["have"] < 41 for statuses in real.values() for s in statuses)
        shown = [g for g in seen[-1]["public_goals"] if g]
        expect(cards).to_have_count(len(shown))
        for goal in shown:
            card = phone.locator(f'#goals .goal-card[data-goal="{goal}"]')
            expect(card.locator(".goal-progress")).to_have_text("you have 41 of 43")
            expect(card).to_have_attribute("data-meets", "false")
            expect(card).to_have_class(re.compile(r"\bshort\b"))

        # The table (a spectator here): its solo goal row follows goal_progress too.
        table = ctx.new_page()
        table.route_web_socket(re.compile(r"/ws/"), rewrite)
        table.goto(f"{server.base}/table?room={code}")
        first = table.locator(f'.goal-card[data-goal="{shown[0]}"] .goal-progress').first
        expect(first).to_have_text("you have 41 of 43", timeout=WAIT)
    finally:
        ctx.close()


def test_records_goal_progress_unrewritten_is_the_engine_s(
    browser: Browser, server: Server
) -> None:
    """Without any rewriting, the phone shows exactly the view's numbers for each public goal."""
    room = call(server, "POST", "/api/rooms", {"game": "records", "options": {}})
    code, host_token = str(room["code"]), str(room["host_token"])
    seat = call(server, "POST", f"/api/rooms/{code}/seats", {"name": "Ann"})
    call(server, "POST", f"/api/rooms/{code}/start", token=host_token)
    seen: list[dict[str, Any]] = []

    def record(ws: WebSocketRoute) -> None:
        upstream = ws.connect_to_server()

        def to_page(message: str | bytes) -> None:
            data = json.loads(message)
            if isinstance(data, dict) and data.get("type") == "state" and data.get("view"):
                seen.append(data["view"])
            ws.send(message)

        upstream.on_message(to_page)

    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        phone = ctx.new_page()
        phone.route_web_socket(re.compile(r"/ws/"), record)
        phone.goto(f"{server.base}/join/{code}?seat_token={seat['token']}")
        expect(phone.locator("#goals .goal-card[data-goal]").first).to_be_visible(timeout=WAIT)
        view = seen[-1]
        for goal in (g for g in view["public_goals"] if g):
            status = view["goal_progress"][goal][0]
            assert status["claimed"] is False
            text = (
                "you meet it now ✓"
                if status["claimable"]
                else f"you have {status['have']} of {status['need']}"
            )
            card = phone.locator(f'#goals .goal-card[data-goal="{goal}"]')
            expect(card.locator(".goal-progress")).to_have_text(text)
    finally:
        ctx.close()


# ---- resend after a stale refusal ---------------------------------------------------------------


def room_version(server: Server, code: str) -> int:
    return int(call(server, "GET", f"/api/rooms/{code}")["version"])


def until(page: Page, done: Callable[[], bool]) -> None:
    """Waits (letting the page's routes run) until ``done()``, at most WAIT ms."""
    for _ in range(WAIT // 100):
        if done():
            return
        page.wait_for_timeout(100)
    assert done(), "not reached in time"


def test_a_choice_refused_as_stale_is_sent_again_on_the_newer_state(
    browser: Browser, server: Server
) -> None:
    """The first choice the phone sends is answered `action/stale` (by the route, not the
    server), then a newer state comes: the shared client sends the same choice again, on that
    state's version, and the server (given its own version back) accepts it."""
    room = call(server, "POST", "/api/rooms", {"game": "records", "options": {}})
    code, host_token = str(room["code"]), str(room["host_token"])
    seat = call(server, "POST", f"/api/rooms/{code}/seats", {"name": "Ann"})
    call(server, "POST", f"/api/rooms/{code}/start", token=host_token)
    acts: list[dict[str, Any]] = []
    last: dict[str, Any] = {}

    def route(ws: WebSocketRoute) -> None:
        upstream = ws.connect_to_server()

        def to_page(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") == "state":
                last["state"] = data
            ws.send(message)

        def to_server(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") != "act" or data["action"].get("type") == "setting":
                upstream.send(message)
                return
            acts.append(data)
            state = last["state"]
            if len(acts) == 1:
                ws.send(json.dumps({"type": "error", "code": "action/stale", "message": "stale"}))
                ws.send(json.dumps(state | {"version": state["version"] + 1}))
                return
            upstream.send(json.dumps(data | {"version": state["version"]}))

        upstream.on_message(to_page)
        ws.on_message(to_server)

    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        phone = ctx.new_page()
        phone.route_web_socket(re.compile(r"/ws/"), route)
        phone.goto(f"{server.base}/join/{code}?seat_token={seat['token']}")
        choice = phone.locator(
            "[data-act]:not([data-act=fail]):not([data-act=undo]):not([data-act=draw]):visible"
        ).first
        expect(choice).to_be_visible(timeout=WAIT)
        before = room_version(server, code)
        choice.click()
        until(phone, lambda: len(acts) >= 2)
        assert acts[1]["action"] == acts[0]["action"]
        assert acts[1]["version"] == acts[0]["version"] + 1
        expect(phone.locator("#error")).to_have_text("")  # a stale refusal is no error to show
        until(phone, lambda: room_version(server, code) > before)  # the server took it
    finally:
        ctx.close()


def test_morph_keeps_what_stands_for_the_same_thing_and_swaps_its_listeners(
    browser: Browser, server: Server
) -> None:
    """``morph`` (web/common/client.js), what both phones draw their taps with: a button for the
    same card stays the same element and answers with the new state's handler only; one for
    another card is a new element; a folded list the player opened stays open; text changes."""
    page = browser.new_page()
    page.goto(f"{server.base}/records")
    said = page.evaluate(
        """async () => {
          const { el, morph } = await import("/static/common/client.js");
          const said = [];
          const draw = (label, cards) => [
            el("p", {}, label),
            ...cards.map((card) =>
              el("button", { "data-card": card, onclick: () => said.push(`${label}:${card}`) },
                 String(card))),
            el("details", {}, el("summary", {}, "more")),
          ];
          const box = el("div");
          document.body.append(box);
          morph(box, ...draw("first", [1, 2]));
          const [one, two] = box.querySelectorAll("button");
          box.querySelector("details").open = true;
          morph(box, ...draw("second", [1, 2]));
          const kept = box.querySelectorAll("button")[0] === one
            && box.querySelectorAll("button")[1] === two;
          one.click();
          const open = box.querySelector("details").open;
          const text = box.querySelector("p").textContent;
          morph(box, ...draw("third", [1, 3]));
          const replaced = box.querySelectorAll("button")[1] !== two;
          box.querySelectorAll("button")[1].click();
          return { kept, open, text, replaced, said };
        }"""
    )
    assert said == {
        "kept": True,
        "open": True,
        "text": "second",
        "replaced": True,
        "said": ["second:1", "third:3"],
    }
    page.close()
