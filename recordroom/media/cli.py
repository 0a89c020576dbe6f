"""``recordroom sleeves ...``: export the sleeves, print the booklet, check a custom pack.

- ``recordroom sleeves export DIR [--sleeves PACK] [--size PX]``: every sleeve as SVG and PNG, the
  print-and-play PDF, the Artists Booklet (PDF and HTML) and a contact sheet.
- ``recordroom sleeves booklet FILE [--sleeves PACK]``: the Artists Booklet alone, as PDF or HTML
  by the file's suffix.
- ``recordroom sleeves contact-sheet FILE [--thumb PX]``: every sleeve on one PNG.
- ``recordroom sleeves check PACK``: load a pack and report its sleeves and every skipped file;
  exit status 1 when the pack would be refused or has no usable sleeve.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from recordroom.arguments import at_least
from recordroom.media.packs import PackError, load_pack, load_sleeve_set

MAX_SIDE = 4096
"""The largest PNG side ``export`` draws (one such image is 64 MiB in memory)."""
MAX_THUMB = 512
"""The largest thumbnail side of a contact sheet (a sheet of 100 sleeves is ten by ten)."""


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Adds ``sleeves`` and its sub-commands."""
    parser = commands.add_parser("sleeves", help="export sleeves, print the booklet, check packs")
    verbs = parser.add_subparsers(dest="verb", metavar="VERB", required=True)

    export = verbs.add_parser("export", help="write every sleeve as SVG and PNG, and the PDFs")
    export.add_argument("folder", type=Path, metavar="DIR")
    export.add_argument("--sleeves", type=Path, metavar="PACK", help="a custom sleeve pack folder")
    export.add_argument(
        "--size",
        type=at_least(1, "pixel", most=MAX_SIDE),
        default=800,
        help=f"PNG side in pixels, 1 to {MAX_SIDE} (default 800)",
    )
    export.set_defaults(run=_export)

    booklet = verbs.add_parser("booklet", help="write the Artists Booklet (.pdf or .html)")
    booklet.add_argument("file", type=Path, metavar="FILE")
    booklet.add_argument("--sleeves", type=Path, metavar="PACK", help="a custom sleeve pack folder")
    booklet.set_defaults(run=_booklet)

    sheet = verbs.add_parser("contact-sheet", help="write every sleeve on one PNG")
    sheet.add_argument("file", type=Path, metavar="FILE")
    sheet.add_argument(
        "--thumb",
        type=at_least(1, "pixel", most=MAX_THUMB),
        default=120,
        help=f"thumbnail side in pixels, 1 to {MAX_THUMB} (default 120)",
    )
    sheet.set_defaults(run=_contact_sheet)

    checking = (
        "load a custom pack and report what it holds (exit status 1 when the pack would be "
        "refused or has no usable sleeve)"
    )
    check = verbs.add_parser("check", help=checking, description=checking[0].upper() + checking[1:])
    check.add_argument("folder", type=Path, metavar="PACK")
    check.set_defaults(run=_check)


def _export(args: argparse.Namespace) -> int:
    from recordroom.media.export import export_sleeves

    try:
        deck = load_sleeve_set(args.sleeves)
    except PackError as error:
        print(f"recordroom sleeves export: {error}", file=sys.stderr)
        return 1
    _report_problems(deck.pack.problems if deck.pack else ())
    report = export_sleeves(args.folder, deck, size=args.size)
    print(f"wrote {report.svg} SVG and {report.png} PNG sleeves, the print-and-play PDF, the")
    print(f"Artists Booklet (PDF and HTML) and a contact sheet to {report.folder}")
    return 0


def _booklet(args: argparse.Namespace) -> int:
    from recordroom.media.booklet import render_booklet_html, render_booklet_pdf

    try:
        deck = load_sleeve_set(args.sleeves)
    except PackError as error:
        print(f"recordroom sleeves booklet: {error}", file=sys.stderr)
        return 1
    suffix = args.file.suffix.lower()
    if suffix == ".pdf":
        args.file.write_bytes(render_booklet_pdf(deck))
    elif suffix in (".html", ".htm"):
        args.file.write_text(render_booklet_html(deck), encoding="utf-8")
    else:
        print("recordroom sleeves booklet: FILE must end in .pdf or .html", file=sys.stderr)
        return 2
    print(f"wrote the Artists Booklet to {args.file}")
    return 0


def _contact_sheet(args: argparse.Namespace) -> int:
    from recordroom.media.contact_sheet import contact_sheet

    contact_sheet(thumb=args.thumb).save(args.file, format="PNG", optimize=True)
    print(f"wrote the contact sheet to {args.file}")
    return 0


def _check(args: argparse.Namespace) -> int:
    try:
        pack = load_pack(args.folder)
        load_sleeve_set(args.folder)
    except PackError as error:
        print(f"recordroom sleeves check: {error}", file=sys.stderr)
        return 1
    _report_problems(pack.problems)
    if not pack.sleeves:
        # A joining pack of nothing but bad files would serve the built-in set alone: a check
        # that passed it would hide that none of the pictures made it.
        print(
            f"recordroom sleeves check: no usable sleeve in {str(args.folder)!r}; "
            "every file was skipped (above)"
            if pack.problems
            else f"recordroom sleeves check: no picture in {str(args.folder)!r}",
            file=sys.stderr,
        )
        return 1
    print(f"{len(pack.sleeves)} usable sleeves ({pack.mode} the built-in set)")
    for s in pack.sleeves:
        print(f"  {s.id}  {pack.sources[s.id]}: {s.title} — {s.artist}")
    return 0


def _report_problems(problems: tuple[object, ...]) -> None:
    for problem in problems:
        print(f"skipped {problem}", file=sys.stderr)
