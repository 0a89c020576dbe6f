"""Measures of the Records pages in the browser: the rendered size of every text and icon (SVG
text after its drawing's scale), the phone's sideways scroll and the size of its tap targets."""

from __future__ import annotations

from playwright.sync_api import Page

# Every rendered text node's font size in CSS pixels (an SVG text's font size times its drawing's
# scale), and every icon's smaller side; the ones below ``min`` come back with what they say.
SMALL_TEXT_AND_ICONS = """(min) => {
  const small = [];
  const seen = (e) => e.checkVisibility({ checkVisibilityCSS: true });
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let texts = 0;
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const words = n.textContent.trim();
    const e = n.parentElement;
    if (!words || !e || e.closest("title, script, style, option, select") || !seen(e)) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    const box = range.getBoundingClientRect();
    if (!box.width || !box.height) continue;
    let size = parseFloat(getComputedStyle(e).fontSize);
    if (e instanceof SVGElement) {
      const m = e.getScreenCTM();
      size *= Math.sqrt(Math.abs(m.a * m.d - m.b * m.c));
    }
    texts += 1;
    if (size < min - 0.01) {
      small.push(`text ${JSON.stringify(words.slice(0, 40))}: ${size.toFixed(1)} px`);
    }
  }
  // Selects show their chosen option in the select's own font.
  for (const e of document.querySelectorAll("select")) {
    if (!seen(e)) continue;
    const size = parseFloat(getComputedStyle(e).fontSize);
    if (size < min - 0.01) {
      small.push(`select ${e.getAttribute("aria-label")}: ${size.toFixed(1)} px`);
    }
  }
  const ICONS = [".bonus", ".harmony-note", ".cash-lock", ".legend-icon", ".legend-lock",
    ".tb-icon",
    ".tb-mult", ".disc", "#qr"].join(", ");
  let icons = 0;
  for (const e of document.querySelectorAll(ICONS)) {
    const lock = e.closest(".legend-lock");
    if (lock && e !== lock) continue; // a part of a lock icon: the whole lock is measured
    if (!seen(e)) continue;
    const box = e.getBoundingClientRect();
    if (!box.width && !box.height) continue;
    icons += 1;
    const side = Math.min(box.width, box.height);
    if (side < min - 0.01) {
      const what = `${e.className.baseVal ?? e.className} ${e.dataset.bonus || ""}`;
      small.push(`icon ${what}: ${side.toFixed(1)} px`);
    }
  }
  return { small, texts, icons };
}"""

# The page's width against the screen's, and every tap target smaller than 40x40 px.
PHONE_FIT = """() => {
  const small = [];
  const targets = ["button", "[data-act]", "[data-tab]", ".card-button", "a[href]", "select",
    "input",
    "summary", ".area-title"].join(", ");
  for (const e of document.querySelectorAll(targets)) {
    if (!e.checkVisibility({ checkVisibilityCSS: true })) continue;
    const box = e.getBoundingClientRect();
    if (!box.width && !box.height) continue;
    if (e.matches("input[type=checkbox]")) continue; // its label is the target (checked below)
    if (box.width < 39.99 || box.height < 39.99) {
      const what = e.dataset.act || e.dataset.tab || e.id || e.className.baseVal || e.className;
      const words = JSON.stringify((e.textContent || "").trim().slice(0, 24));
      small.push(`${e.tagName.toLowerCase()} ${what} ${words}: `
        + `${box.width.toFixed(0)}x${box.height.toFixed(0)}`);
    }
  }
  for (const e of document.querySelectorAll("label:has(input[type=checkbox])")) {
    if (!e.checkVisibility()) continue;
    const box = e.getBoundingClientRect();
    if (box.height < 39.99) {
      const words = JSON.stringify(e.textContent.trim().slice(0, 24));
      small.push(`label ${words}: ${box.height.toFixed(0)} px high`);
    }
  }
  return { width: document.scrollingElement.scrollWidth, small };
}"""


def small_text_and_icons(page: Page, min_px: float) -> list[str]:
    """Every text and icon on the page rendered smaller than ``min_px`` (empty when all are fine);
    fails if the page shows almost nothing, so that an empty page cannot pass."""
    found = page.evaluate(SMALL_TEXT_AND_ICONS, min_px)
    assert found["texts"] >= 20 and found["icons"] >= 5, f"too little on the page: {found}"
    return list(found["small"])


def phone_misfits(page: Page, width: int = 360) -> list[str]:
    """A sideways scroll and the tap targets under 40x40 px on a phone page."""
    found = page.evaluate(PHONE_FIT)
    problems = list(found["small"])
    if found["width"] > width:
        problems.append(f"the page is {found['width']} px wide on a {width} px screen")
    return problems


# Shows every tab of the phone's sheet in turn (a tab draws at once on its tap) and gives the page's
# width with each; then shows the tab that was shown before.
WIDTH_IN_EVERY_TAB = """() => {
  const shown = document.querySelector("#tabs .current")?.dataset.tab;
  const widths = {};
  for (const tab of document.querySelectorAll("#tabs [data-tab]")) {
    tab.click();
    widths[tab.dataset.tab] = document.scrollingElement.scrollWidth;
  }
  if (shown) document.querySelector(`#tabs [data-tab="${shown}"]`).click();
  return widths;
}"""


def check_phone(page: Page, checked: set[str], width: int = 360) -> None:
    """Once per phase of the game: the phone as it shows itself (tap targets, width), then its
    width in every tab of the sheet."""
    phase = str(page.evaluate("document.body.dataset.phase || ''"))
    if phase in checked:
        return
    checked.add(phase)
    problems = phone_misfits(page, width)
    assert not problems, f"phase {phase}: {problems}"
    widths = page.evaluate(WIDTH_IN_EVERY_TAB)
    wide = {tab: w for tab, w in widths.items() if w > width}
    assert not wide, f"phase {phase}: the phone scrolls sideways in {wide}"
