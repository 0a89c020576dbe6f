"""Helpers of the Chinese browser tests: a server whose turns open at once, the scan of a page's
visible text for Latin words that are not names, and small screenshots."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import urllib.request
from io import BytesIO
from pathlib import Path

from playwright.sync_api import Page

from .conftest import Server

SHOT_LIMIT = 300_000
ALLOWED = {
    # Names of the games and of the app's parts that stay as they are in every language.
    "disc", "cover", "draft", "write", "records", "record", "room",
    # The language switch names each language in itself.
    "english",
    # Units and marks.
    "qr", "vs", "pdf", "png",
}  # fmt: skip
LATIN = re.compile(r"[A-Za-z][A-Za-z'’]+")
# Text inside these elements is a name (a song, an artist, a sleeve, a room code, an address).
NAME_SELECTORS = (
    "#now-title, #now-artist, .sleeve-title, .sleeve-artist, .plain-title, .plain-artist, "
    ".code, .room-code, #join-url, #menu-url, .join-url, .seat-link, script, style"
)
VISIBLE_TEXT = """(skip) => {
  const copy = document.body.cloneNode(true);
  // innerText of a detached copy loses layout: mark hidden elements in the live page first.
  const live = [...document.body.querySelectorAll("*")];
  const copies = [...copy.querySelectorAll("*")];
  live.forEach((node, i) => {
    const style = getComputedStyle(node);
    const gone = style.display === "none" || style.visibility === "hidden";
    if (gone || node.closest("[hidden]")) copies[i].remove();
  });
  for (const node of copy.querySelectorAll(skip)) node.remove();
  for (const select of copy.querySelectorAll("select")) {
    // A select shows its chosen option only.
    const chosen = select.options[select.selectedIndex];
    select.replaceWith(chosen ? chosen.textContent : "");
  }
  const walker = document.createTreeWalker(copy, NodeFilter.SHOW_TEXT);
  const parts = [document.title];
  while (walker.nextNode()) parts.push(walker.currentNode.data);
  return parts.join(" ");
}"""


class FastServer(Server):
    """``recordroom serve`` whose turns open at once (``--open-after 0``), bots acting at once."""

    def __init__(self, data_dir: Path) -> None:
        from .conftest import free_port

        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = data_dir / "server.log"
        command = [
            sys.executable, "-m", "recordroom", "serve",
            "--host", "127.0.0.1", "--port", str(self.port), "--data-dir", str(data_dir),
            "--bot-delay", "0", "--open-after", "0", "--no-qr", "--log-level", "warning",
        ]  # fmt: skip
        with self.log.open("wb") as out:
            self.process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
        self._wait_up()


def sleeve_words(base: str) -> set[str]:
    """Every word of the sleeves' titles and artists (names of works and of fictional artists)."""
    with urllib.request.urlopen(f"{base}/api/sleeves", timeout=10) as answer:
        sleeves = json.load(answer)
    words: set[str] = set()
    for sleeve in sleeves:
        words.update(w.lower() for w in LATIN.findall(f"{sleeve['title']} {sleeve['artist']}"))
    return words


def latin_words(page: Page, names: set[str]) -> list[str]:
    """The Latin words a page shows that are neither names nor on the allow-list."""
    text = page.evaluate(VISIBLE_TEXT, NAME_SELECTORS)
    allowed = ALLOWED | {n.lower() for n in names}
    return sorted({w for w in LATIN.findall(text) if w.lower().strip("'’") not in allowed})


def save_small(page: Page, path: Path) -> None:
    """A screenshot as a PNG of at most 256 colours, under the size limit."""
    from PIL import Image

    picture = Image.open(BytesIO(page.screenshot())).convert("RGB")
    for colours in (256, 128, 64, 32):
        quantized = picture.quantize(
            colors=colours, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
        )
        quantized.save(path, optimize=True)
        if path.stat().st_size < SHOT_LIMIT:
            break
    assert path.stat().st_size < SHOT_LIMIT, f"{path.name} is {path.stat().st_size} bytes"


# What a screen reader reads besides the text: the aria-labels and titles of visible elements,
# and the <title> of an SVG drawing (a tooltip on hover).
LABELS = """(skip) => {
  const said = [];
  for (const node of document.body.querySelectorAll("[aria-label], [title], svg title")) {
    if (node.closest(skip)) continue;
    const own = node.tagName.toLowerCase() === "title" && node.closest("svg");
    const host = own ? node.parentElement : node;
    if (!host || !host.checkVisibility() || host.closest("[hidden]")) continue;
    if (own) said.push(node.textContent);
    for (const name of ["aria-label", "title"])
      if (node.hasAttribute(name)) said.push(node.getAttribute(name));
  }
  return said.join(" ");
}"""


def latin_labels(page: Page, names: set[str]) -> list[str]:
    """The Latin words of the visible elements' aria-labels and titles that are neither names nor
    on the allow-list (``latin_words`` reads the text)."""
    # The language switch is labelled in every language on purpose ("Language · 语言").
    text = page.evaluate(LABELS, f"{NAME_SELECTORS}, select.lang-switch")
    allowed = ALLOWED | {n.lower() for n in names}
    return sorted({w for w in LATIN.findall(text) if w.lower().strip("'’") not in allowed})


def visible_text(page: Page, names: set[str]) -> str:
    """A page's visible text, names taken out (to check an English page shows no Chinese)."""
    text = str(page.evaluate(VISIBLE_TEXT, NAME_SELECTORS))
    for name in names:
        text = text.replace(name, " ")
    return text
