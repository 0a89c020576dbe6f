"""The Records table's chip of whom it waits for ("Still choosing: …", "Still marking: …"), on one
screen at 1280x720 and 1920x1080: it showed every name on one line cut with an ellipsis ("Still
marking: Ann, Bo an…"), which nobody on the sofa could read. Now each name it shows is whole, those
it has no room for are counted ("Ann, Bo and 3 others", or "6 players"), its text is not clipped
and its print is no smaller than a sheet's names may be.

Each room is made over HTTP with names as long as the server takes (24 characters) or short ones.
A started game waits for every seat's lead singer (no phone has chosen); for the marking, every
seat is played over its socket until all of them mark the week's first card.
"""

from __future__ import annotations

import contextlib
import json
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page
from websockets.sync.client import ClientConnection, connect

from recordroom import i18n
from recordroom.server.protocol import JoinRoom

from .conftest import Server

pytestmark = pytest.mark.browser

# The longest name a seat takes (``POST /api/rooms/{code}/seats``).
NAME_LIMIT = next(
    rule.max_length
    for rule in JoinRoom.model_fields["name"].metadata
    if hasattr(rule, "max_length")
)
LONG = [
    "Annabel-Marguerite Vance",
    "Bartholomew Okonkwo-Lees",
    "Constantina Papadopoulou",
    "Dmitri Alexandrovich Sok",
    "Evangeline Whitford-Ross",
    "Fitzgerald Montgomery Jr",
]
SHORT = ["Ann", "Bo", "Cem", "Dee", "Eve", "Fay"]
CHINESE = ["欧阳晓梅", "司马长风", "诸葛明月", "上官云飞"]
# A sheet's names are at least 12 px at 1280x720 (test_records_table_fit.py): the chip's print too.
READABLE_PX = 12.0

# Every waiting chip: its words, tooltip and print, whether its words stick out of it, and where it
# is against the head of the table and the sheets below it.
CHIPS = """() => {
  const box = (node) => {
    const r = node.getBoundingClientRect();
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
  };
  const page = document.documentElement;
  return {
    chips: [...document.querySelectorAll("#round-info .waiting-chip")].map((chip) => ({
      text: chip.textContent,
      title: chip.title,
      size: parseFloat(getComputedStyle(chip).fontSize),
      wide: [chip.scrollWidth, chip.clientWidth],
      high: [chip.scrollHeight, chip.clientHeight],
      box: box(chip),
    })),
    head: box(document.querySelector(".table-head")),
    sheets: box(document.querySelector("#table-boards")),
    fit: document.querySelector("#play").classList.contains("fit"),
    scroll: [page.scrollWidth, page.scrollHeight],
    screen: [innerWidth, innerHeight],
  };
}"""


def chip_texts(lang: str, key: str, names: list[str]) -> dict[str, int]:
    """Every right text of the chip waiting for ``names`` (in their order), with how many names it
    shows: all of them, the first ones and how many others, or how many."""

    def say(message: str, **params: Any) -> str:
        return i18n.t(lang, message, **params)

    sep = say("common.list_sep")

    def every(items: list[str]) -> str:
        if len(items) == 1:
            return items[0]
        return say("common.and_list", first=sep.join(items[:-1]), last=items[-1])

    count = len(names)
    texts = {say(key, names=every(names)): count}
    for shown in range(1, count):
        first = sep.join(names[:shown])
        who = say("rec.table.and_others", first=first, count=count - shown)
        texts[say(key, names=who)] = shown
    texts[say(key, names=say("rec.table.players", count=count))] = 0
    return texts


ROOMS: dict[tuple[int, tuple[str, ...]], tuple[str, str, list[str]]] = {}
"""The rooms where nobody has chosen yet, by server and names: a case that only looks at one
shows it again, so that the module's room creations and joins stay under the server's limit per
address (30 a minute)."""


def waiting_room(server: Server, names: list[str]) -> tuple[str, str, list[str]]:
    """A started room of ``names`` where every seat is still choosing (see :func:`new_room`)."""
    key = (server.port, tuple(names))
    if key not in ROOMS:
        ROOMS[key] = new_room(server, names)
    return ROOMS[key]


def new_room(server: Server, names: list[str]) -> tuple[str, str, list[str]]:
    """A started Records room of ``names`` (no bot, no phone): its code, host token and the seats'
    tokens."""
    room = server.call("POST", "/api/rooms", {"game": "records"})
    code, host = str(room["code"]), str(room["host_token"])
    tokens = [
        str(server.call("POST", f"/api/rooms/{code}/seats", {"name": name})["token"])
        for name in names
    ]
    server.call("POST", f"/api/rooms/{code}/start", {}, host)
    return code, host, tokens


def play_to_the_first_marking(links: list[ClientConnection]) -> None:
    """Plays every seat (the first legal choice, once per seat and step) until all of them are
    marking the week's first card."""
    acted: set[tuple[int, str, int, int]] = set()
    end = time.monotonic() + 60
    while time.monotonic() < end:
        for seat, link in enumerate(links):
            try:
                message: dict[str, Any] = json.loads(link.recv(timeout=0.05))
            except TimeoutError:
                continue
            view = message.get("view")
            if message.get("type") != "state" or not view:
                continue
            if view["phase"] == "mark" and len(view["marking"] or []) == len(links):
                return
            step = (seat, view["phase"], view["week"], view["round"])
            legal = [a for a in message["legal_actions"] if a["type"] != "undo"]
            if view["phase"] != "mark" and legal and step not in acted:
                acted.add(step)
                act = {"type": "act", "version": message["version"], "action": legal[0]}
                link.send(json.dumps(act))
    raise AssertionError("the seats were not all marking within 60 s")


def open_table(
    browser: Browser, server: Server, code: str, host: str | None, size: tuple[int, int], lang: str
) -> Page:
    """The table screen of room ``code`` in ``lang``: the host's with ``host``, else a
    spectator's; once it shows a waiting chip and its fonts are in."""
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height}, locale=lang)
    if host:
        context.add_init_script(f"localStorage.setItem('recordroom.host.{code}', '{host}')")
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{server.base}/records/table?room={code}")
    page.wait_for_selector("#play:not([hidden]) #table-legend .legend")
    page.wait_for_selector("#round-info .waiting-chip")
    page.evaluate(
        "() => document.fonts.ready.then(() => new Promise((done) =>"
        " requestAnimationFrame(() => setTimeout(done, 50))))"
    )
    return page


CASES = [
    # size, lang, names, what the table waits for, the host's table, the least names it can show
    ((1280, 720), "en", LONG, "choosing", True, 0),
    ((1920, 1080), "en", LONG, "choosing", True, 1),
    ((1280, 720), "en", LONG[:3], "marking", True, 0),
    ((1920, 1080), "en", LONG[:4], "marking", False, 1),
    ((1280, 720), "en", SHORT, "choosing", False, 6),
    ((1280, 720), "zh-CN", CHINESE, "choosing", True, 4),
]


@pytest.mark.timeout(120)
@pytest.mark.parametrize(
    ("size", "lang", "names", "waits", "hosted", "least"),
    CASES,
    ids=[
        "1280x720-6-long-choosing",
        "1920x1080-6-long-choosing",
        "1280x720-3-long-marking",
        "1920x1080-4-long-marking-spectator",
        "1280x720-6-short-choosing-spectator",
        "1280x720-4-chinese-choosing",
    ],
)
def test_the_waiting_chip_names_each_player_whole_or_counts_the_rest(
    browser: Browser,
    server: Server,
    screenshots: Path | None,
    size: tuple[int, int],
    lang: str,
    names: list[str],
    waits: str,
    hosted: bool,
    least: int,
) -> None:
    """Whom the table waits for, said whole: the chip's words are one of its right texts (every
    name, the first names and how many others, or how many; so no name is cut and the count is
    right), at least ``least`` names where they fit, nothing of them clipped, at a print a sofa
    can read, within the head of the table (above the sheets) and the page not scrolling."""
    assert max(len(name) for name in LONG) == NAME_LIMIT == 24
    code, host, tokens = (waiting_room if waits == "choosing" else new_room)(server, names)
    key = "rec.table.still_choosing" if waits == "choosing" else "rec.table.still_marking"
    url = f"ws://127.0.0.1:{server.port}/ws/{code}?token="
    with contextlib.ExitStack() as phones:
        if waits == "marking":
            links = [
                phones.enter_context(connect(url + token, open_timeout=10, close_timeout=1))
                for token in tokens
            ]
            play_to_the_first_marking(links)
        page = open_table(browser, server, code, host if hosted else None, size, lang)
        try:
            page.wait_for_function(
                "(phase) => document.body.dataset.phase === phase",
                arg="mark" if waits == "marking" else "lead_singer",
            )
            if screenshots is not None:
                kind = "long" if names == LONG[: len(names)] else names[0]
                who = f"{len(names)}-{kind}-{waits}-{lang}"
                seen = "" if hosted else "-spectator"
                name = f"records-table-chip-{size[0]}x{size[1]}-{who}{seen}.png"
                page.screenshot(path=str(screenshots / name))
            shown = page.evaluate(CHIPS)
        finally:
            page.context.close()
    assert shown["fit"], "the table is not on one screen"
    assert len(shown["chips"]) == 1, shown["chips"]
    chip = shown["chips"][0]
    texts = chip_texts(lang, key, names)
    assert chip["text"] in texts, f"not a right text of the chip: {chip['text']!r}"
    named = texts[chip["text"]]
    assert named >= least, f"{named} of {len(names)} names shown where {least} fit: {chip}"
    if named < len(names):
        assert chip["title"] == next(iter(texts)), "the tooltip names everyone"
    assert chip["wide"][0] <= chip["wide"][1], f"the chip's words are cut: {chip}"
    assert chip["high"][0] <= chip["high"][1], f"the chip's words are cut: {chip}"
    scale = size[1] / 720
    assert chip["size"] >= READABLE_PX * scale - 0.01, f"the chip's print is too small: {chip}"
    head, sheets, box = shown["head"], shown["sheets"], chip["box"]
    assert box["left"] >= head["left"] - 0.5 and box["right"] <= head["right"] + 0.5, chip
    assert box["top"] >= head["top"] - 0.5 and box["bottom"] <= head["bottom"] + 0.5, chip
    assert head["bottom"] <= sheets["top"] + 0.5, f"the head runs into the sheets: {shown}"
    width, height = shown["screen"]
    assert shown["scroll"][0] <= width + 1 and shown["scroll"][1] <= height + 1, shown
