"""Records in real Chromium: the defects of the browser audit (the table at 1280x720 and
1920x1080, phones at 360x640), each with a quick check that fails without its fix."""

from __future__ import annotations

import json
import random
import re
import time
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, WebSocketRoute, expect
from websockets.sync.client import connect

from recordroom.games import load

from .conftest import Server
from .test_records import PHONE, context, get, join, version

pytestmark = pytest.mark.browser

TABLE_720 = {"width": 1280, "height": 720}


def table_with_ann(browser: Browser, server: Server) -> tuple[Page, Page, str]:
    """The table at 1280x720 (the host's) and Ann's phone, in a 2-seat game (Ann and a bot) that
    has just begun; and the room's code."""
    table = context(browser, TABLE_720).new_page()
    table.goto(f"{server.base}/records")
    table.click("#open-room")
    table.wait_for_selector("#lobby:not([hidden])")
    code = table.inner_text("#lobby-code").strip()
    ann = context(browser, PHONE).new_page()
    join(ann, server, code, "Ann")
    table.click("#add-bot")
    table.wait_for_function("document.querySelectorAll('#seats li').length === 2")
    table.click("#start")
    table.wait_for_selector("#play:not([hidden])")
    ann.wait_for_function("document.body.dataset.phase === 'lead_singer'")
    return table, ann, code


def away_seconds(table: Page) -> int:
    status = table.inner_text('.player-board[data-seat="0"] .board-status')
    found = re.search(r"away (\d+) s", status)
    assert found, status
    return int(found.group(1))


def test_the_table_counts_up_how_long_a_phone_is_away(browser: Browser, server: Server) -> None:
    """The table's "phone away N s" went on showing the N of the last state: it counts up now,
    with no new state."""
    table, ann, _ = table_with_ann(browser, server)
    ann.context.close()
    table.wait_for_function(
        "document.querySelector('.player-board[data-seat=\"0\"] .board-status')"
        "?.textContent.includes('away')"
    )
    table.wait_for_timeout(300)  # the state of the drop, and whatever the bot does next
    seen, first = version(table), away_seconds(table)
    started = time.monotonic()
    table.wait_for_timeout(2600)
    grown = away_seconds(table) - first
    assert version(table) == seen, "a new state came: this checks the count between states"
    assert grown >= 2 and grown <= round(time.monotonic() - started) + 1, grown
    table.context.close()


IN_VIEW = """(selector) => {
  const box = document.querySelector(selector)?.getBoundingClientRect();
  return Boolean(box) && box.top >= 0 && box.bottom <= window.innerHeight;
}"""


def solo_phone(browser: Browser, server: Server) -> tuple[Page, dict]:  # type: ignore[type-arg]
    """A solo game on a 360x640 phone, past the lead singer; and the edition."""
    page = context(browser, PHONE).new_page()
    page.goto(f"{server.base}/records")
    page.fill("#solo-name", "Pip")
    page.click("#solo-start")
    page.wait_for_function("document.body.dataset.phase === 'lead_singer'")
    page.locator("[data-act]").first.click()
    page.wait_for_function("document.body.dataset.phase === 'turn'")
    return page, get(server, "/api/games/records/edition")


def tap_down_on_the_sheet(page: Page, key: str) -> None:
    """Taps a place as a player does: the sheet scrolled to the top of the screen, then the
    place."""
    seen = version(page)
    page.evaluate("document.querySelector('#tabs').scrollIntoView({ block: 'start' })")
    page.locator(f'.sheet [data-act="{key}"]').first.click()
    if page.locator('[data-act="confirm"]').count():
        page.click('[data-act="confirm"]')
    if page.locator("#chooser:not([hidden]) [data-act]").count():  # a multiplier: none
        page.locator("#chooser [data-act]").first.click()
    page.wait_for_function(f"Number(document.body.dataset.version) > {seen}")


def test_a_phone_shows_the_steps_heading_and_done_after_a_tap_on_the_sheet(
    browser: Browser, server: Server
) -> None:
    """At 360x640 a mark tapped on the sheet left "Done" and the heading of the next bonus
    ("Bonus: …, earned by …") above the screen: each step of the marking brings them in view."""
    page, edition = solo_phone(browser, server)
    crew_cards = {card for card, data in edition["cards"].items() if data["kind"] == "crew"}
    bonus_seen = done_seen = False
    for _ in range(12):  # solo turns: a crew card marked in a crew slot earns the slot's bonus
        if bonus_seen and done_seen:
            break
        hand = page.locator(".hand [data-act=pick]").evaluate_all(
            "(n) => n.map((c) => c.dataset.card)"
        )
        card = next((c for c in hand if c in crew_cards), hand[0])
        page.click(f'.hand [data-card="{card}"]')
        page.wait_for_selector(".played")
        keys = page.locator(".sheet [data-act]").evaluate_all("(n) => n.map((x) => x.dataset.act)")
        crew = [k for k in keys if k.startswith("crew:")]
        if not keys:
            page.click('[data-act="fail"]')
            page.click('[data-act="confirm"]')
        else:
            tap_down_on_the_sheet(page, (crew or keys)[0])
        while page.locator('[data-act="done"]').count() == 0:  # a bonus to place
            page.wait_for_selector(".bonus-queue")
            bonus_seen = True
            assert page.inner_text("#phase-title").startswith("Bonus")
            assert page.evaluate(IN_VIEW, "#phase-title"), "the bonus's heading is off screen"
            assert page.evaluate(IN_VIEW, "#phase-hint"), "why the bonus came is off screen"
            places = page.locator(".sheet [data-act]")
            if places.count():
                tap_down_on_the_sheet(page, places.first.get_attribute("data-act") or "")
            else:
                seen = version(page)
                page.locator(".bonus-queue [data-act]").first.click()
                if page.locator('[data-act="confirm"]').count():
                    page.click('[data-act="confirm"]')
                page.wait_for_function(f"Number(document.body.dataset.version) > {seen}")
        done_seen = done_seen or bool(keys)
        assert page.evaluate(IN_VIEW, '[data-act="done"]'), "Done is off screen"
        seen = version(page)
        if page.locator('[data-act="undo"]').count():
            assert page.evaluate(IN_VIEW, '[data-act="undo"]'), "Undo is off screen"
            page.click('[data-act="done"]')
        # else nothing was chosen (a card that could only be failed): nothing to undo, and the
        # phone says done by itself after the delay everyone has (docs/rules-decisions.md).
        page.wait_for_function(
            f"Number(document.body.dataset.version) > {seen}"
            " && document.body.dataset.phase !== 'mark'"
        )
        while page.evaluate("document.body.dataset.phase") == "goal":  # the goal row: pass
            seen = version(page)
            page.click('[data-act="pass"]')
            page.wait_for_function(f"Number(document.body.dataset.version) > {seen}")
        if page.evaluate("document.body.dataset.phase") != "turn":
            break  # the game is over
    assert bonus_seen and done_seen
    page.context.close()


NOTE = "document.querySelector('#tap-note:not([hidden])')?.textContent || ''"


def tap_place(page: Page, area: str, key: str) -> str:
    """Taps a place that does not glow, in its area's tab; gives the note the page said."""
    page.click(f'#tabs [data-tab="{area}"]')
    page.evaluate("document.querySelector('#tap-note')?.setAttribute('hidden', '')")
    place = page.locator(f'.sheet .area-{area} [data-key="{key}"]')
    assert place.get_attribute("data-act") is None, f"{key} glows: no wrong place"
    place.click()
    page.wait_for_function(f"({NOTE}) !== ''", timeout=3000)
    return str(page.evaluate(NOTE))


def test_a_tap_where_the_card_cannot_go_says_why_and_changes_nothing(
    browser: Browser, server: Server
) -> None:
    """A tap on a locked slot, a slot of another role or another area did nothing at all: the
    phone now says why not (in English and in Chinese), and sends nothing."""
    page, edition = solo_phone(browser, server)
    sent: list[str] = []
    page.on("websocket", lambda socket: socket.on("framesent", lambda f: sent.append(str(f))))
    first = page.locator(".hand [data-act=pick]").first
    card = edition["cards"][first.get_attribute("data-card") or ""]
    first.click()
    page.wait_for_selector(".played")
    seen, count = version(page), len(sent)
    played = page.inner_text(".played")
    crew = edition["crew"]
    role = card["role"] if card["kind"] == "crew" else None
    if role:  # a slot of another role, and a slot of its role under a cash lock
        other = next(i for i, slot in enumerate(crew) if slot["role"] != role)
        said = tap_place(page, "crew", f"crew:{other}")
        assert "That slot takes a" in said, said
        locked = [i for i, s in enumerate(crew) if s["role"] == role and s["cash"] is not None]
        if locked:
            assert "locked" in tap_place(page, "crew", f"crew:{locked[0]}")
    else:
        said = tap_place(page, "crew", "crew:0")
        assert said.startswith("This card can't go there"), said
    elsewhere = "assets" if card["kind"] == "agenda" else "agenda"
    said = tap_place(page, elsewhere, f"{elsewhere}:0")
    assert said.startswith("This card can't go there: its places glow on your "), said
    page.wait_for_timeout(300)
    assert version(page) == seen and len(sent) == count, "a tap on a wrong place sent something"
    assert page.inner_text(".played") == played
    page.context.close()

    # The reasons in Chinese: no English word, no key.
    zh_context = browser.new_context(locale="zh-CN", viewport=PHONE)  # type: ignore[arg-type]
    zh = zh_context.new_page()
    zh.goto(f"{server.base}/records")
    reasons = zh.evaluate(
        """async () => {
          const { whyNot } = await import("/static/records/why.js");
          const { loadEdition } = await import("/static/records/words.js");
          const ed = await loadEdition();
          const crewCard = Object.keys(ed.cards).find((c) => ed.cards[c].role === "producer");
          const agendaCard = Object.keys(ed.cards).find((c) => ed.cards[c].kind === "agenda");
          const board = { crew: ed.crew.map(() => null), cash_lifted: [] };
          const lockedMusician = ed.crew.findIndex((s) => s.role === "musician" && s.cash !== null);
          const targets = new Set(["agenda:1", "fail"]);
          const failOnly = new Set(["fail"]);
          return [
            whyNot(ed, board, "crew:0", { card: crewCard, targets, marked: false }),
            whyNot(ed, board, `crew:${lockedMusician}`, { card: null, targets, marked: false }),
            whyNot(ed, board, "agenda:0", { card: agendaCard, targets, marked: true }),
            whyNot(ed, board, "assets:0", { card: agendaCard, targets, marked: false }),
            whyNot(ed, board, "assets:0", { card: null, targets, marked: false }),
            whyNot(ed, board, "crew:0", { card: crewCard, targets: failOnly, marked: false }),
          ];
        }"""
    )
    assert len(set(reasons)) == len(reasons), reasons
    for reason in reasons:
        assert not re.search(r"[A-Za-z]", reason), reason
    zh.context.close()


def test_new_phone_asks_first_and_back_keeps_the_phone(browser: Browser, server: Server) -> None:
    """ "New phone" on the table let a player's phone go at once, one mis-click away: it asks
    first, and "No, keep this phone" keeps the phone playing. Once the seat is given away, the
    old phone says how to get back in, not "Join again?" (a started game refuses a join)."""
    table, ann, code = table_with_ann(browser, server)
    table.click('[data-new-phone="0"]')
    question = table.locator(".seat-confirm")
    question.wait_for(timeout=3000)
    assert "Give Ann's seat to a new phone?" in question.inner_text()
    table.click(".seat-confirm button.quiet")
    assert table.locator(".seat-link-card").count() == 0
    ann.wait_for_timeout(800)  # a drop would close Ann's socket within this
    assert ann.locator("#seat-screen").is_visible() and not ann.locator("#join-screen").is_visible()
    assert get(server, f"/api/rooms/{code}")["seats"][0]["connected"] is True
    assert ann.evaluate(f"localStorage.getItem('recordroom.seat.{code}')")
    # Asked again and answered yes: the link for the new phone, and Ann's phone is let go.
    table.click('[data-new-phone="0"]')
    table.click('[data-confirm-new-phone="0"]')
    table.wait_for_selector(".seat-link-card svg path")
    ann.wait_for_selector("#join-screen:not([hidden])")
    error = ann.locator("#join-error")
    expect(error).to_contain_text("ask the host to press “New phone” beside your name")
    expect(error).not_to_contain_text("Join again")
    expect(error).to_be_in_viewport(ratio=1)
    for page in (table, ann):
        page.context.close()


def weekend_moments() -> list[Any]:
    """Two states of a real 2-player Records game (random play, claims taken): a public goal put
    to seat 0, then seat 0 marking a claimed goal's bonuses."""
    game = load("records")
    for seed in range(200):
        rng = random.Random(seed)
        state = game.new_state(2, seed)
        put: Any = None
        while state.phase != "over":
            if put is None and state.phase == "claim" and 0 in state.active:
                put = state
            if (
                put is not None
                and state.phase == "mark"
                and state.marking_for in ("public", "private")
                and 0 in state.active
            ):
                return [put, state]
            seat = min(state.active)
            legal = game.legal_actions(state, seat)
            claim = [a for a in legal if a["type"] == "claim"]
            state = game.apply(state, seat, claim[0] if claim else rng.choice(legal))
    raise AssertionError("no seed gave a weekend with a claim")


class ServedPhone:
    """Seat 0's phone at 360x640 (in ``lang``, when given), its socket served by the test:
    :meth:`show` hands it a state of a real game (as seat 0 sees it); what it sends is kept in
    ``sent``."""

    def __init__(self, browser: Browser, server: Server, lang: str | None = None) -> None:
        code = server.call("POST", "/api/rooms", {"game": "records"})["code"]
        token = server.call("POST", f"/api/rooms/{code}/seats", {"name": "Ann"})["token"]
        url = f"ws://127.0.0.1:{server.port}/ws/{code}?token={token}"
        with connect(url, open_timeout=10) as link:
            self.real = json.loads(link.recv(timeout=10))  # the shape of a state message
        self.game = load("records")
        self.served: list[WebSocketRoute] = []
        self.sent: list[Any] = []
        self.page = context(browser, PHONE).new_page()
        self.page.route_web_socket(re.compile(r"/ws/"), self._serve)
        self.page.goto(f"{server.base}/join")
        self.page.evaluate("(c) => localStorage.setItem(`recordroom.seat.${c}`, 'any')", code)
        self.page.goto(f"{server.base}/join/{code}" + (f"?lang={lang}" if lang else ""))

    def _serve(self, route: WebSocketRoute) -> None:
        self.served.append(route)
        route.on_message(lambda text: self.sent.append(json.loads(text)))

    def show(self, state: Any, version: int) -> None:
        """Sends the phone seat 0's state message of ``state`` and waits until it shows it."""
        message = {
            **self.real,
            "version": version,
            "status": "playing",
            "view": self.game.view(state, 0),
            "legal_actions": list(self.game.legal_actions(state, 0)),
        }
        while not self.served:  # the page's socket, once its script has opened it
            self.page.wait_for_timeout(50)
        self.served[-1].send(json.dumps(message))
        self.page.wait_for_function(
            "(v) => Number(document.body.dataset.version) === v", arg=version, timeout=10_000
        )

    def acts(self) -> list[Any]:
        """The actions the phone sent."""
        return [m for m in self.sent if m.get("type") == "act"]


def test_the_phone_says_weekend_at_the_weekend(browser: Browser, server: Server) -> None:
    """At the weekend (a public goal put to the players, or a claimed goal's bonuses marked) the
    phone's line said "pick 4 of 4", the week's last pick: it says the weekend now. The phone's
    socket is served by the test with states of a real 2-player game at those moments."""
    phone = ServedPhone(browser, server)
    for number, moment in enumerate(weekend_moments(), start=10):
        phone.show(moment, number)
        line = phone.page.inner_text("#me-round")
        assert line == f"week {moment.week} · weekend", line


def no_place_moment() -> Any:
    """A state of a real 2-player Records game (random play) in which seat 0 marks a card that
    has no place on its sheet: failing it is its only choice."""
    game = load("records")
    for seed in range(200):
        rng = random.Random(seed)
        state = game.new_state(2, seed)
        while state.phase != "over":
            only = state.phase == "mark" and 0 in state.active
            if only and [a["type"] for a in game.legal_actions(state, 0)] == ["fail"]:
                return state
            seat = min(state.active)
            state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    raise AssertionError("no seed gave a card with no place")


def test_the_fail_box_on_the_sheet_fails_the_card(browser: Browser, server: Server) -> None:
    """A card with no place: the sheet outlines the next fail box as the place to tap, and a tap
    there did nothing (only the panel's button failed the card). It asks, as the button does,
    and sends the fail. The phone's socket is served by the test with a real game's state."""
    phone = ServedPhone(browser, server)
    phone.show(no_place_moment(), 10)
    phone.page.locator('.sheet [data-act="fail"]').click()
    phone.page.wait_for_selector('[data-act="confirm"]', timeout=5_000)
    assert not phone.acts(), "the fail is asked before it is sent"
    phone.page.click('[data-act="confirm"]')
    deadline = time.monotonic() + 5
    while not phone.acts() and time.monotonic() < deadline:
        phone.page.wait_for_timeout(50)
    assert phone.acts() == [{"type": "act", "version": 10, "action": {"type": "fail"}}], phone.sent


def test_a_cards_words_count_its_points_in_both_languages(browser: Browser, server: Server) -> None:
    """A crew card's words on the phone say "1 pt" for one point and "N pts" for more (they said
    "1 pts"); the Chinese has no plural and says "1 分"."""
    said = {}
    for lang in ("en", "zh-CN"):
        page = browser.new_context(locale=lang, viewport=PHONE).new_page()  # type: ignore[arg-type]
        page.goto(f"{server.base}/records")
        said[lang] = page.evaluate(
            """async () => {
              const { cardWords, loadEdition } = await import("/static/records/words.js");
              const ed = await loadEdition();
              const ids = Object.keys(ed.cards)
                .filter((c) => ed.cards[c].kind === "crew" && ed.cards[c].role !== "singer");
              const one = ids.find((c) => ed.cards[c].points === 1);
              const more = ids.find((c) => ed.cards[c].points > 1);
              return [cardWords(ed, one).marks, cardWords(ed, more).marks];
            }"""
        )
        page.context.close()
    one, more = said["en"]
    assert re.search(r"· 1 pt ·", one), one
    assert re.search(r"· [2-9]\d* pts ·", more), more
    assert "· 1 分 ·" in said["zh-CN"][0], said["zh-CN"]


def test_the_phones_header_names_the_round_only_once_there_is_one(
    browser: Browser, server: Server
) -> None:
    """In the lobby the phone's header is "Room ABCD" (it was "Room ABCD ·", a dot before
    nothing); once the game has begun it is "Room ABCD · " and the round."""
    room = server.call("POST", "/api/rooms", {"game": "records"})
    code, host = str(room["code"]), str(room["host_token"])
    ann = context(browser, PHONE).new_page()
    join(ann, server, code, "Ann")
    header = ann.locator("#me-where")
    expect(header).to_have_text(f"Room {code}")
    server.call("POST", f"/api/rooms/{code}/bots", {}, host)
    server.call("POST", f"/api/rooms/{code}/start", {}, host)
    ann.wait_for_function("document.body.dataset.phase === 'lead_singer'")
    shown = ann.evaluate(
        """() => {
          const round = document.querySelector("#me-round");
          const dot = getComputedStyle(round, "::before").content;
          return [document.querySelector("#me-room").textContent, dot, round.textContent];
        }"""
    )
    assert shown[0] == code and shown[1] == '" · "' and shown[2], shown
    ann.context.close()


def bonus_moments(kinds: tuple[str, ...]) -> dict[str, Any]:
    """States of real 2-player Records games (random play) in which seat 0 places a bonus earned
    by a place of each of ``kinds`` ("single" for "single:2"), by kind."""
    game = load("records")
    found: dict[str, Any] = {}
    for seed in range(200):
        rng = random.Random(seed)
        state = game.new_state(2, seed)
        while state.phase != "over" and len(found) < len(kinds):
            if state.phase == "mark" and 0 in state.active:
                you = game.view(state, 0)["you"]
                kind = (you["queue_causes"] or [""])[0].split(":")[0]
                if you["queue"] and kind in kinds and you["played"] is None:
                    found.setdefault(kind, state)
            seat = min(state.active)
            state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        if len(found) == len(kinds):
            return found
    raise AssertionError(f"no seed gave bonuses earned by {kinds}: {sorted(found)}")


def test_chinese_sets_a_number_apart_from_the_words_after_it(
    browser: Browser, server: Server
) -> None:
    """In Chinese a bonus earned by a single said "由单曲 2获得。": a place put into a message that
    ends in a number is set apart from the Chinese after it ("由单曲 2 获得。"), and one that ends
    in Chinese is not ("由巡演第 5 步获得。"); the same for a cash restriction's place, which had a
    space after "解除" too. The phone's socket is served by the test with real games' states."""
    phone = ServedPhone(browser, server, lang="zh-CN")
    moments = bonus_moments(("single", "tour"))
    for number, kind in enumerate(("single", "tour"), start=10):
        moment = moments[kind]
        phone.show(moment, number)
        cause = phone.game.view(moment, 0)["you"]["queue_causes"][0]
        step = cause.split(":")[1]
        hint = phone.page.inner_text("#phase-hint")
        want = f"由单曲 {step} 获得。" if kind == "single" else f"由巡演第 {step} 步获得。"
        assert hint.startswith(want), (cause, hint)
    cash = phone.page.evaluate(
        """async () => {
          const { placeWords } = await import("/static/records/log.js");
          const { loadEdition } = await import("/static/records/words.js");
          return placeWords(await loadEdition(), "cash:crew 4");
        }"""
    )
    assert cash == "解除乐团成员 4 的资金限制", cash


def test_the_sheet_numbers_its_boxes_as_the_log_names_them(
    browser: Browser, server: Server
) -> None:
    """The game log names places by number ("Asset box 4 → single 2 (from asset boxes 3 and 4)",
    "Crew: Musician in slot 3"), and the sheet showed no numbers: a player had to count, and the
    asset boxes run in a snake (the second row right to left), so counting went wrong. Each crew
    slot, agenda box and asset box now shows in its corner the number the log gives it."""
    phone = ServedPhone(browser, server)
    rng = random.Random(3)
    state = phone.game.new_state(2, 3)
    while not (state.phase == "mark" and 0 in state.active):
        seat = min(state.active)
        state = phone.game.apply(state, seat, rng.choice(phone.game.legal_actions(state, seat)))
    phone.show(state, 10)
    page = phone.page
    for area, prefix in (("crew", "crew"), ("agenda", "agenda"), ("assets", "assets")):
        page.click(f'#tabs [data-tab="{area}"]')
        boxes = page.evaluate(
            """async ([area, prefix]) => {
              const { placeWords } = await import("/static/records/log.js");
              const { loadEdition } = await import("/static/records/words.js");
              const ed = await loadEdition();
              const shown = document.querySelectorAll(
                `.sheet .area-${area} [data-key^="${prefix}:"]`);
              return [...shown].map((box) => {
                const frame = box.querySelector(".frame").getBoundingClientRect();
                const number = box.querySelector(".box-number");
                const at = number?.getBoundingClientRect();
                return {
                  key: box.dataset.key, words: placeWords(ed, box.dataset.key),
                  number: number?.textContent ?? null,
                  inside: Boolean(at) && at.left >= frame.left && at.right <= frame.right
                    && at.top >= frame.top && at.bottom <= frame.bottom,
                  x: frame.left, y: frame.top,
                };
              });
            }""",
            [area, prefix],
        )
        assert len(boxes) >= 8, (area, boxes)
        for box in boxes:
            assert box["number"] is not None, (area, box)
            assert re.search(rf"\b{box['number']}$", box["words"]), (area, box)
            assert box["inside"], (area, box)
        if area == "assets":  # the snake: the first box of the second row is under the last
            by_number = {int(box["number"]): box for box in boxes}
            half = len(boxes) // 2
            assert by_number[half + 1]["x"] == pytest.approx(by_number[half]["x"])
            assert by_number[half + 1]["y"] > by_number[half]["y"]
