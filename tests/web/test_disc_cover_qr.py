"""The table's QR codes of seat links, drawn in the browser, module for module as the standard says.

The page's encoder (``qr.js``) is run in Chromium; its matrix for each text is compared with the
one the ``qrcode`` package (the server's QR codes) makes for the same version, level and mask.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import qrcode
import qrcode.util
from playwright.sync_api import Browser, Page

from .conftest import Server

pytestmark = pytest.mark.browser

MODULE = "/static/common/qr.js"

TEXTS = [
    "A",
    "http://127.0.0.1:8000/join/KQTM",
    "http://192.168.178.100:8000/join/KQTM?seat_token=TuXMFOrrx0OYpHcHJJgA50RL9aWRgUW8mcTBckCbmm4",
    "https://record-room.example:8443/join/ACDE?seat_token=" + "x" * 43 + "&more=" + "é" * 40,
]


@pytest.fixture
def page(browser: Browser, server: Server) -> Iterator[Page]:
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{server.base}/table")
    yield page
    context.close()


def as_bytes(text: str) -> qrcode.util.QRData:
    """The text as UTF-8 in byte mode, the one mode the page's encoder writes."""
    return qrcode.util.QRData(text.encode(), mode=qrcode.util.MODE_8BIT_BYTE)


def reference(text: str, version: int, mask: int) -> list[list[bool]]:
    level = qrcode.constants.ERROR_CORRECT_M
    code = qrcode.QRCode(version=version, error_correction=level, border=0, mask_pattern=mask)
    code.add_data(as_bytes(text))
    code.make(fit=False)
    return [[bool(cell) for cell in row] for row in code.get_matrix()]


@pytest.mark.parametrize("text", TEXTS)
def test_the_browsers_qr_code_is_the_standard_one(page: Page, text: str) -> None:
    made = page.evaluate(
        "async (text) => (await import(MODULE)).qrMatrix(text)".replace("MODULE", repr(MODULE)),
        text,
    )
    assert made["version"] == min(v for v in range(1, 11) if fits(text, v))
    assert made["rows"] == reference(text, made["version"], made["mask"])
    for mask in range(8):
        forced = page.evaluate(
            "async ([text, mask]) => (await import(MODULE)).qrMatrix(text, mask)".replace(
                "MODULE", repr(MODULE)
            ),
            [text, mask],
        )
        assert forced["rows"] == reference(text, made["version"], mask), f"mask {mask}"


def fits(text: str, version: int) -> bool:
    """Whether the text's bytes fit a level M symbol of this version (the page's own rule)."""
    code = qrcode.QRCode(version=version, error_correction=qrcode.constants.ERROR_CORRECT_M)
    code.add_data(as_bytes(text))
    try:
        code.make(fit=False)
    except qrcode.exceptions.DataOverflowError:
        return False
    return True


def test_a_text_too_long_for_version_ten_is_refused(page: Page) -> None:
    message = page.evaluate(
        """async () => {
          const { qrMatrix } = await import('/static/common/qr.js');
          try { qrMatrix('x'.repeat(300)); return 'made'; } catch (error) { return error.message; }
        }"""
    )
    assert "too long" in message
