"""QR codes of join addresses, as SVG pictures for the table screen."""

from __future__ import annotations

import io

import qrcode
import qrcode.image.svg


def qr_svg(url: str) -> bytes:
    """An SVG QR code of ``url`` (black modules on white, with a quiet zone)."""
    code = qrcode.QRCode(border=2, image_factory=qrcode.image.svg.SvgPathFillImage)
    code.add_data(url)
    code.make(fit=True)
    out = io.BytesIO()
    code.make_image().save(out)
    return out.getvalue()
