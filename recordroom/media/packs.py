"""Custom sleeve packs: a group's own pictures as Record Sleeve cards.

A pack is a folder of images (PNG, JPEG, WebP or SVG) with an optional ``manifest.toml``::

    mode = "join"                 # "join" (default): the pack joins the 100 built-in sleeves;
                                  # "replace": the pack is the whole deck
    artist = "Our Holiday Album"  # optional default artist for every sleeve

    [[sleeve]]
    file = "beach.jpg"            # a file in the folder
    title = "Sunburn Sunday"      # optional: the file name, tidied, otherwise
    artist = "Aunt Jo"            # optional
    mood = "joyful"               # optional, shown in the Artists Booklet

Files are read in name order, so a pack's sleeve ids (1001, 1002, ...) are stable. Every file is
checked; a bad or unreadable one (not an image, truncated, too big, an SVG that will not render) is
reported by name with the reason and skipped, and the rest of the pack is still used.

Nothing from a pack is served as it came. Raster images are decoded, cropped to a centred square,
scaled to at most 600 px and re-encoded as PNG (which also drops their metadata). An SVG is
sanitised (no scripts, event handlers, foreign objects, entities or references outside the file)
and then rasterised to PNG, so no script or external resource can reach the app through it.

The deck needs at least 36 usable sleeves (nine turns of four); :func:`load_sleeve_set` refuses a
pack that leaves fewer, naming every problem it found.
"""

from __future__ import annotations

import io
import re
import tomllib
import warnings
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image, ImageOps, UnidentifiedImageError

from recordroom.games.disc_cover.sleeves import Sleeve, catalogue
from recordroom.media.raster import RasterError, svg_to_png
from recordroom.media.sleeve_art import builtin_svg

MANIFEST = "manifest.toml"
MIN_SLEEVES = 36
FIRST_PACK_ID = 1001
MAX_FILE_BYTES = 25 * 1024 * 1024
MAX_PIXELS = 40_000_000
SIDE = 600
PACK_FAMILY = "custom"
RASTER_SUFFIXES = {".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG", ".webp": "WEBP"}
SUFFIXES = (*RASTER_SUFFIXES, ".svg")


class PackError(ValueError):
    """A pack cannot be used: the folder or manifest is unusable, or too few sleeves are left."""


class UnsafeSvg(ValueError):
    """An SVG that is not well-formed, not SVG, or carries a DOCTYPE or entities."""


@dataclass(frozen=True, slots=True)
class PackProblem:
    """One file of a pack that was skipped, and why."""

    file: str
    reason: str

    def __str__(self) -> str:
        return f"{self.file}: {self.reason}"


@dataclass(frozen=True, slots=True)
class SleeveImage:
    """The picture of one sleeve, ready to serve."""

    data: bytes
    content_type: str


@dataclass(frozen=True, slots=True)
class Pack:
    """A loaded pack: its usable sleeves with their pictures, and the files it skipped."""

    mode: str
    sleeves: tuple[Sleeve, ...]
    images: Mapping[int, SleeveImage]
    problems: tuple[PackProblem, ...]
    sources: Mapping[int, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class SleeveSet:
    """The sleeves a game deals from: built-in, a pack's, or both; with a picture for each."""

    sleeves: tuple[Sleeve, ...]
    pack: Pack | None = None

    def ids(self) -> tuple[int, ...]:
        """The sleeve ids, in order."""
        return tuple(s.id for s in self.sleeves)

    def sleeve(self, sleeve_id: int) -> Sleeve:
        """The sleeve with this id (KeyError if it is not in the set)."""
        for s in self.sleeves:
            if s.id == sleeve_id:
                return s
        raise KeyError(f"no sleeve with id {sleeve_id} in this set")

    def image(self, sleeve_id: int) -> SleeveImage:
        """The sleeve's picture: generated SVG for a built-in sleeve, PNG for a pack's."""
        self.sleeve(sleeve_id)
        if self.pack is not None and sleeve_id in self.pack.images:
            return self.pack.images[sleeve_id]
        return SleeveImage(builtin_svg(sleeve_id).encode("utf-8"), "image/svg+xml")


def builtin_set() -> SleeveSet:
    """The 100 built-in sleeves."""
    return SleeveSet(catalogue())


def load_sleeve_set(folder: Path | None) -> SleeveSet:
    """The deck for ``recordroom serve --sleeves DIR``: built-in, or with the pack in or joined.

    Raises :class:`PackError` when the deck would have fewer than 36 sleeves.
    """
    if folder is None:
        return builtin_set()
    pack = load_pack(folder)
    sleeves = pack.sleeves if pack.mode == "replace" else catalogue() + pack.sleeves
    if len(sleeves) < MIN_SLEEVES:
        found = "; ".join(str(p) for p in pack.problems) or "no other problems"
        raise PackError(
            f"the pack in {folder.name!r} replaces the built-in sleeves but has only "
            f"{len(pack.sleeves)} usable sleeves; a deck needs at least {MIN_SLEEVES} "
            f"(9 turns x 4). Skipped files: {found}"
        )
    return SleeveSet(sleeves, pack)


def load_pack(folder: Path) -> Pack:
    """Reads a pack folder: every usable image becomes a sleeve, every bad file a problem."""
    if not folder.is_dir():
        raise PackError(f"{folder} is not a folder")
    manifest = _read_manifest(folder)
    mode = manifest.get("mode", "join")
    if mode not in ("join", "replace"):
        raise PackError(f"{MANIFEST}: mode must be 'join' or 'replace', got {mode!r}")
    default_artist = _text(manifest.get("artist"), "Unknown artist")
    entries = _manifest_entries(manifest)
    problems: list[PackProblem] = []
    for name in sorted(entries):
        if not (folder / name).is_file():
            problems.append(PackProblem(name, "named in the manifest but not in the folder"))
    sleeves: list[Sleeve] = []
    images: dict[int, SleeveImage] = {}
    sources: dict[int, str] = {}
    for path in _candidates(folder, problems):
        try:
            png = _prepare(path)
        except _Skip as skip:
            problems.append(PackProblem(path.name, str(skip)))
            continue
        entry = entries.get(path.name, {})
        sid = FIRST_PACK_ID + len(sleeves)
        sleeves.append(
            Sleeve(
                id=sid,
                title=_text(entry.get("title"), _title_from(path)),
                artist=_text(entry.get("artist"), default_artist),
                family=PACK_FAMILY,
                mood=_text(entry.get("mood"), "custom"),
            )
        )
        images[sid] = SleeveImage(png, "image/png")
        sources[sid] = path.name
    return Pack(mode, tuple(sleeves), images, tuple(problems), sources)


class _Skip(Exception):
    """Internal: this file is skipped, for the reason in the message."""


def _read_manifest(folder: Path) -> dict[str, object]:
    path = folder / MANIFEST
    if not path.exists():
        return {}
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise PackError(f"{MANIFEST}: not valid TOML ({error})") from error


def _manifest_entries(manifest: Mapping[str, object]) -> dict[str, dict[str, object]]:
    raw = manifest.get("sleeve", [])
    if not isinstance(raw, list):
        raise PackError(f"{MANIFEST}: [[sleeve]] must be an array of tables")
    entries: dict[str, dict[str, object]] = {}
    for index, entry in enumerate(raw, start=1):
        if not isinstance(entry, dict) or not isinstance(entry.get("file"), str):
            raise PackError(f'{MANIFEST}: sleeve entry {index} needs a file = "..." name')
        entries[entry["file"]] = entry
    return entries


def _candidates(folder: Path, problems: list[PackProblem]) -> Iterator[Path]:
    for path in sorted(folder.iterdir(), key=lambda p: p.name):
        if path.name == MANIFEST or path.name.startswith(".") or path.is_dir():
            continue
        if path.suffix.lower() not in SUFFIXES:
            problems.append(
                PackProblem(path.name, "not a sleeve image (PNG, JPEG, WebP or SVG expected)")
            )
            continue
        yield path


def _text(value: object, default: str) -> str:
    return value.strip() if isinstance(value, str) and value.strip() else default


def _title_from(path: Path) -> str:
    words = re.sub(r"[_\-.]+", " ", path.stem).split()
    return " ".join(w[:1].upper() + w[1:] for w in words) or path.name


def _prepare(path: Path) -> bytes:
    """The file as a square PNG of at most SIDE pixels, or _Skip with the reason."""
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise _Skip(f"too large ({size // (1024 * 1024)} MB; at most 25 MB)")
        raw = path.read_bytes()
    except OSError as error:
        raise _Skip(f"cannot be read ({error.strerror or error})") from error
    if not raw:
        raise _Skip("empty file")
    if path.suffix.lower() == ".svg":
        return _prepare_svg(raw)
    return _prepare_raster(raw, RASTER_SUFFIXES[path.suffix.lower()])


def _prepare_raster(raw: bytes, expected: str) -> bytes:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(raw)) as probe:
                if probe.format != expected:
                    raise _Skip(f"the contents are {probe.format or 'unknown'}, not {expected}")
                if probe.width * probe.height > MAX_PIXELS:
                    raise _Skip(f"too many pixels ({probe.width} x {probe.height})")
                probe.load()
                image = ImageOps.exif_transpose(probe)
                image = image.convert("RGBA" if "A" in image.getbands() else "RGB")
    except _Skip:
        raise
    except (UnidentifiedImageError, Image.DecompressionBombWarning) as error:
        raise _Skip(f"not a readable image ({type(error).__name__})") from error
    except (OSError, ValueError, SyntaxError) as error:
        raise _Skip(f"damaged image ({error})") from error
    square = ImageOps.fit(image, (min(image.size),) * 2, Image.Resampling.LANCZOS)
    if square.width > SIDE:
        square = square.resize((SIDE, SIDE), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    square.save(out, format="PNG", optimize=True)
    return out.getvalue()


def _prepare_svg(raw: bytes) -> bytes:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise _Skip("an SVG must be UTF-8 text") from error
    try:
        clean = sanitise_svg(text)
    except UnsafeSvg as error:
        raise _Skip(str(error)) from error
    try:
        return svg_to_png(clean, SIDE)
    except RasterError as error:
        raise _Skip(f"the SVG does not render ({error})") from error


SVG_NS = "http://www.w3.org/2000/svg"
XLINK_NS = "http://www.w3.org/1999/xlink"
_DROP = {"script", "foreignObject", "iframe", "object", "embed", "audio", "video", "handler"}
_URL = re.compile(r"url\(\s*['\"]?\s*([^)'\"\s]*)", re.IGNORECASE)


def sanitise_svg(text: str) -> str:
    """An SVG with every active or external part removed; :class:`UnsafeSvg` if it is unusable.

    Removed: scripts and other embedding elements, ``on*`` event attributes, ``href`` that is not
    a fragment (``#id``) or an inline raster image (``data:image/png|jpeg|webp``), CSS ``url(...)``
    and ``@import`` that leave the file. Documents with a DOCTYPE or entities are refused outright.
    """
    if re.search(r"<!DOCTYPE|<!ENTITY", text, re.IGNORECASE):
        raise UnsafeSvg("SVG with a DOCTYPE or entities is not accepted")
    try:
        root = ET.fromstring(text)
    except ET.ParseError as error:
        raise UnsafeSvg(f"not well-formed SVG ({error})") from error
    if _local(root.tag) != "svg":
        raise UnsafeSvg(f"the root element is <{_local(root.tag)}>, not <svg>")
    _clean(root)
    if not root.get("viewBox") and root.get("width") and root.get("height"):
        w, h = _number(root.get("width")), _number(root.get("height"))
        if w and h:
            root.set("viewBox", f"0 0 {w:g} {h:g}")
    ET.register_namespace("", SVG_NS)
    ET.register_namespace("xlink", XLINK_NS)
    return ET.tostring(root, encoding="unicode")


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _number(value: str | None) -> float | None:
    match = re.match(r"\s*([0-9.]+)", value or "")
    try:
        return float(match.group(1)) if match else None
    except ValueError:
        return None


def _safe_href(value: str) -> bool:
    v = value.strip().lower()
    return v.startswith("#") or bool(re.match(r"data:image/(png|jpeg|jpg|webp);", v))


def _safe_css(css: str) -> str:
    css = re.sub(r"@import[^;]*;?", "", css, flags=re.IGNORECASE)
    return _URL.sub(lambda m: m.group(0) if m.group(1).startswith("#") else "url(#none", css)


def _clean(element: ET.Element) -> None:
    for child in list(element):
        if not isinstance(child.tag, str) or _local(child.tag) in _DROP:
            element.remove(child)
            continue
        _clean(child)
    for name in list(element.attrib):
        local = _local(name).lower()
        value = element.attrib[name]
        if (
            local.startswith("on")
            or (local == "href" and not _safe_href(value))
            or (local in ("style",) and _safe_css(value) != value)
        ):
            if local == "style":
                element.set(name, _safe_css(value))
            else:
                del element.attrib[name]
        elif "url(" in value.lower() and _safe_css(value) != value:
            element.set(name, _safe_css(value))
    if _local(element.tag) == "style" and element.text:
        element.text = _safe_css(element.text)
