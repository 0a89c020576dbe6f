"""The built-in demo playlist: music the project composes and synthesises itself.

A fresh machine with no music must still play Disc Cover, so the server makes a playlist of short
instrumental pieces on first run and caches them as tagged OGG Vorbis files. Each piece comes from
a :class:`Piece` recipe (tempo, key and mode, lead timbre, drums, energy, brightness) chosen so
that the pieces differ in the ways players match sleeves to songs: fast or slow, major or minor,
soft or harsh, sparse or busy. The notes themselves are drawn from a seeded generator, so the same
recipe always gives the same audio.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import random
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import soundfile
from mutagen.oggvorbis import OggVorbis

from recordroom.media.music.library import Library, scan

log = logging.getLogger(__name__)

RATE = 22050
VERSION = 2
"""Bumped whenever the synthesis changes, so old caches are rebuilt."""
ARTIST = "Record Room House Band"
ALBUM = "Record Room Demo Playlist"

Float = np.typing.NDArray[np.float64]

MAJOR = (0, 2, 4, 5, 7, 9, 11)
MINOR = (0, 2, 3, 5, 7, 8, 10)
# Chord progressions as scale degrees (0 = tonic), four bars each.
PROGRESSIONS = {
    "major": ((0, 4, 5, 3), (0, 3, 4, 4), (0, 5, 3, 4), (0, 0, 3, 4)),
    "minor": ((0, 5, 3, 4), (0, 3, 4, 0), (0, 0, 5, 4), (0, 3, 0, 4)),
}


@dataclass(frozen=True)
class Piece:
    """The recipe of one demo track."""

    title: str
    mood: str
    genre: str
    year: int
    tempo: int
    """Beats per minute."""
    key: int
    """MIDI note of the tonic (around the lead's octave)."""
    mode: str
    """``major`` or ``minor``."""
    lead: str
    """Timbre of the melody: sine, triangle, square, saw, fm, pluck, bell."""
    drums: str
    """none, pulse, rock, four, break, shuffle."""
    energy: float
    """0 (hushed, sparse) to 1 (loud, busy)."""
    brightness: float
    """0 (dark, muffled) to 1 (bright, edgy)."""
    pad: bool = True
    seed: int = 0


PIECES: tuple[Piece, ...] = (
    Piece("Morning Tide", "calm", "Ambient", 1994, 66, 64, "major", "sine", "none", 0.15, 0.25),
    Piece("Engine Riot", "aggressive", "Rock", 1987, 152, 52, "minor", "saw", "rock", 1.0, 0.95),
    Piece("Confetti Parade", "joyful", "Pop", 2008, 124, 67, "major", "square", "four", 0.8, 0.8),
    Piece(
        "Rain on the Bus", "melancholic", "Folk", 1972, 72, 57, "minor", "pluck", "none", 0.3, 0.3
    ),
    Piece(
        "Polaroid Summer",
        "nostalgic",
        "Synthpop",
        1984,
        104,
        62,
        "major",
        "triangle",
        "pulse",
        0.5,
        0.5,
    ),
    Piece("Cloud Library", "dreamy", "Ambient", 2015, 58, 69, "major", "bell", "none", 0.2, 0.6),
    Piece(
        "Locked Attic",
        "mysterious",
        "Film scores",
        1961,
        80,
        50,
        "minor",
        "fm",
        "pulse",
        0.35,
        0.35,
    ),
    Piece(
        "Slow Dance Letter", "romantic", "Soul", 1968, 84, 60, "major", "sine", "shuffle", 0.4, 0.4
    ),
    Piece(
        "Sprint Finish",
        "energetic",
        "Electronic",
        2012,
        140,
        64,
        "minor",
        "square",
        "four",
        0.95,
        0.85,
    ),
    Piece("Cellar Lights", "dark", "Electronic", 1999, 96, 45, "minor", "saw", "break", 0.6, 0.2),
    Piece(
        "Rubber Duck Circus",
        "playful",
        "Kids' music",
        2003,
        132,
        72,
        "major",
        "pluck",
        "shuffle",
        0.65,
        0.75,
    ),
    Piece(
        "Summit Anthem",
        "epic",
        "Film scores",
        2010,
        90,
        55,
        "minor",
        "saw",
        "rock",
        0.85,
        0.6,
        pad=True,
    ),
    Piece(
        "Ticking Corridor",
        "tense",
        "Film scores",
        1978,
        118,
        53,
        "minor",
        "fm",
        "pulse",
        0.55,
        0.45,
    ),
    Piece(
        "Meadow at Noon", "peaceful", "Folk", 1976, 76, 65, "major", "triangle", "none", 0.2, 0.35
    ),
    Piece("Disco Satellite", "funky", "Disco", 1979, 118, 58, "minor", "square", "four", 0.75, 0.7),
    Piece(
        "Haunted Carousel",
        "spooky",
        "Film scores",
        1955,
        100,
        63,
        "minor",
        "bell",
        "shuffle",
        0.4,
        0.55,
    ),
    Piece("Victory Lap", "triumphant", "Rock", 1982, 128, 60, "major", "saw", "rock", 0.9, 0.75),
    Piece("Last Train Home", "lonely", "Jazz", 1958, 70, 58, "minor", "sine", "shuffle", 0.25, 0.3),
    Piece(
        "Spiral Staircase",
        "hypnotic",
        "Electronic",
        1996,
        122,
        57,
        "minor",
        "fm",
        "four",
        0.6,
        0.5,
        pad=False,
    ),
    Piece("Kite Weather", "carefree", "Pop", 1965, 112, 67, "major", "pluck", "pulse", 0.55, 0.65),
    Piece(
        "Deadline Static",
        "anxious",
        "Electronic",
        2021,
        168,
        56,
        "minor",
        "square",
        "break",
        0.8,
        0.9,
        pad=False,
    ),
    Piece(
        "Lullaby for a Robot",
        "tender",
        "Kids' music",
        1989,
        62,
        72,
        "major",
        "bell",
        "none",
        0.15,
        0.45,
    ),
    Piece(
        "Neon Boulevard", "nostalgic", "Synthpop", 1986, 110, 59, "minor", "saw", "four", 0.7, 0.55
    ),
    Piece(
        "Harbour Waltz", "romantic", "Jazz", 1949, 96, 62, "major", "triangle", "shuffle", 0.35, 0.4
    ),
)


def _midi_hz(note: float) -> float:
    return float(440.0 * 2.0 ** ((note - 69) / 12))


def _wave(kind: str, hz: float, t: Float, brightness: float) -> Float:
    phase = 2 * np.pi * hz * t
    if kind == "sine":
        return np.sin(phase) + 0.15 * np.sin(2 * phase)
    if kind == "triangle":
        return (2 / np.pi) * np.arcsin(np.sin(phase))
    if kind == "square":
        return np.tanh((2 + 10 * brightness) * np.sin(phase)) * 0.7
    if kind == "saw":
        harmonics = 3 + int(9 * brightness)
        return sum((np.sin(k * phase) / k for k in range(1, harmonics + 1)), np.zeros_like(t)) * 0.6
    if kind == "fm":
        return np.sin(phase + (1 + 4 * brightness) * np.exp(-3 * t) * np.sin(2 * phase))
    if kind == "pluck":
        return sum(
            (np.sin(k * phase) * np.exp(-t * (3 + 2.5 * k)) / k for k in range(1, 7)),
            np.zeros_like(t),
        )
    if kind == "bell":
        return np.sin(phase) * np.exp(-2 * t) + 0.5 * np.sin(2.76 * phase) * np.exp(-4 * t)
    raise ValueError(f"unknown timbre {kind!r}")


def _envelope(length: int, attack: float, release: float) -> Float:
    env = np.ones(length)
    a = max(1, min(length // 2, int(attack * RATE)))
    r = max(1, min(length // 2, int(release * RATE)))
    env[:a] = np.linspace(0.0, 1.0, a)
    env[-r:] *= np.linspace(1.0, 0.0, r)
    return env


def _add(buffer: Float, start: float, sound: Float) -> None:
    i = int(start * RATE)
    if i >= len(buffer):
        return
    end = min(len(buffer), i + len(sound))
    buffer[i:end] += sound[: end - i]


def _note(kind: str, midi: float, seconds: float, brightness: float, level: float) -> Float:
    length = max(1, int(seconds * RATE))
    t = np.arange(length) / RATE
    attack = 0.005 if kind in ("pluck", "bell", "fm") else 0.02
    return level * _wave(kind, _midi_hz(midi), t, brightness) * _envelope(length, attack, 0.05)


def _drum(kind: str, rng: np.random.Generator) -> Float:
    if kind == "kick":
        t = np.arange(int(0.25 * RATE)) / RATE
        sweep = 2 * np.pi * (45 * t + 6 * (1 - np.exp(-25 * t)))  # 195 Hz falling to 45 Hz
        kick: Float = np.sin(sweep) * np.exp(-14 * t)
        return kick
    if kind == "snare":
        t = np.arange(int(0.18 * RATE)) / RATE
        return 0.6 * rng.standard_normal(len(t)) * np.exp(-22 * t) + 0.3 * np.sin(
            2 * np.pi * 190 * t
        ) * np.exp(-30 * t)
    t = np.arange(int(0.05 * RATE)) / RATE
    noise = rng.standard_normal(len(t))
    return 0.25 * np.diff(noise, prepend=0.0) * np.exp(-70 * t)


def _drum_hits(style: str, beats: int) -> list[tuple[float, str]]:
    """(beat position, drum) for a whole piece."""
    hits: list[tuple[float, str]] = []
    for beat in range(beats):
        bar_beat = beat % 4
        if style == "pulse":
            hits.append((beat, "kick" if bar_beat in (0, 2) else "hat"))
        elif style == "four":
            hits += [(beat, "kick"), (beat + 0.5, "hat")]
            if bar_beat in (1, 3):
                hits.append((beat, "snare"))
        elif style == "rock":
            hits += [(beat, "hat"), (beat + 0.5, "hat")]
            hits.append((beat, "snare" if bar_beat in (1, 3) else "kick"))
            if bar_beat == 2:
                hits.append((beat + 0.5, "kick"))
        elif style == "break":
            pattern = {0: "kick", 1: "snare", 2: "kick", 3: "snare"}
            hits += [(beat, pattern[bar_beat]), (beat + 0.25, "hat"), (beat + 0.75, "hat")]
            if bar_beat == 2:
                hits.append((beat + 0.5, "kick"))
        elif style == "shuffle":
            hits += [(beat, "hat"), (beat + 2 / 3, "hat")]
            if bar_beat in (1, 3):
                hits.append((beat, "snare"))
            elif bar_beat == 0:
                hits.append((beat, "kick"))
    return hits


def _tone(buffer: Float, brightness: float) -> Float:
    """A gentle low-pass whose corner follows the brightness (done in the frequency domain)."""
    spectrum = np.fft.rfft(buffer)
    freqs = np.fft.rfftfreq(len(buffer), 1 / RATE)
    corner = 900 + 7000 * brightness**1.5
    spectrum /= np.sqrt(1 + (freqs / corner) ** 4)
    out: Float = np.fft.irfft(spectrum, n=len(buffer))
    return out


def render(piece: Piece, seconds: float = 30.0) -> Float:
    """The piece as mono samples in -1..1 at :data:`RATE`."""
    rng = random.Random(f"{piece.title}/{piece.seed}")
    noise = np.random.default_rng(rng.getrandbits(32))
    beat = 60.0 / piece.tempo
    bar = 4 * beat
    bars = max(4, int(seconds / bar))
    total = bars * bar + 1.0
    buffer = np.zeros(int(total * RATE))
    scale = MAJOR if piece.mode == "major" else MINOR
    progression = PROGRESSIONS[piece.mode][rng.randrange(4)]

    def degree(step: int, octave: int = 0) -> int:
        return piece.key + scale[step % 7] + 12 * (step // 7 + octave)

    level = 0.35 + 0.45 * piece.energy
    for b in range(bars):
        root = progression[b % 4]
        start = b * bar
        chord = [degree(root), degree(root + 2), degree(root + 4)]
        if piece.pad:
            for note in chord:
                pad = _note(
                    "triangle" if piece.brightness < 0.5 else "saw", note - 12, bar, 0.2, 0.12
                )
                _add(buffer, start, pad * _envelope(len(pad), bar * 0.3, bar * 0.3))
        bass_notes = 1 if piece.energy < 0.3 else (2 if piece.energy < 0.7 else 4)
        for i in range(bass_notes):
            length = bar / bass_notes
            _add(buffer, start + i * length, _note("sine", chord[0] - 24, length * 0.9, 0.3, 0.5))
        # Melody: a seeded walk on the scale, busier with more energy.
        density = 2 if piece.energy < 0.3 else (4 if piece.energy < 0.7 else 8)
        step_len = bar / density
        position = root + 7
        for i in range(density):
            if rng.random() < 0.2 + 0.3 * (1 - piece.energy):
                continue
            position += rng.choice((-2, -1, -1, 0, 1, 1, 2, 3 if piece.mode == "major" else -3))
            position = max(root + 3, min(root + 12, position))
            held = step_len * (2 if rng.random() < 0.2 else 1) * 0.95
            _add(
                buffer,
                start + i * step_len,
                _note(piece.lead, degree(position), held, piece.brightness, level),
            )
    if piece.drums != "none":
        sounds = {name: _drum(name, noise) for name in ("kick", "snare", "hat")}
        drum_level = 0.4 + 0.6 * piece.energy
        for at, name in _drum_hits(piece.drums, bars * 4):
            _add(buffer, at * beat, sounds[name] * drum_level)
    buffer = _tone(buffer, piece.brightness)
    fade = _envelope(len(buffer), 0.4, 1.5)
    buffer *= fade
    # Loudness follows the energy: scale to a target RMS, then a soft limiter keeps peaks in -1..1.
    rms = float(np.sqrt(np.mean(buffer**2))) or 1.0
    out: Float = np.tanh(buffer / rms * (0.05 + 0.2 * piece.energy))
    return out


def file_name(index: int, piece: Piece) -> str:
    """The cached file's name: number and title."""
    slug = "".join(c if c.isalnum() else "-" for c in piece.title.lower()).strip("-")
    return f"{index + 1:02d}-{slug}.ogg"


def write_piece(path: Path, piece: Piece, seconds: float = 30.0) -> None:
    """Renders one piece to a tagged OGG Vorbis file (written aside, then moved into place)."""
    samples = render(piece, seconds)
    # A name of its own per writer: two servers may fill one cache at the same time.
    temporary = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.part")
    soundfile.write(temporary, samples, RATE, format="OGG", subtype="VORBIS")
    tags = OggVorbis(temporary)  # type: ignore[no-untyped-call]
    tags["title"] = piece.title
    tags["artist"] = ARTIST
    tags["album"] = ALBUM
    tags["genre"] = piece.genre
    tags["date"] = str(piece.year)
    tags["mood"] = piece.mood
    tags.save()
    temporary.replace(path)


Progress = Callable[[int, int], None]
"""Told ``(done, total)`` as the demo tracks are made: before the first and after each one."""


def ensure_demo(
    cache_dir: Path,
    pieces: Sequence[Piece] = PIECES,
    seconds: float = 30.0,
    progress: Progress | None = None,
) -> Path:
    """The folder of demo tracks, synthesising any that are not cached yet."""
    folder = Path(cache_dir) / f"demo-v{VERSION}"
    folder.mkdir(parents=True, exist_ok=True)
    for index, piece in enumerate(pieces):
        if progress is not None:
            progress(index, len(pieces))
        path = folder / file_name(index, piece)
        if not path.exists():
            log.info("synthesising demo track %s", piece.title)
            write_piece(path, piece, seconds)
    if progress is not None:
        progress(len(pieces), len(pieces))
    return folder


def demo_library(cache_dir: Path, progress: Progress | None = None) -> Library:
    """The demo playlist as a library whose tracks carry their moods and the source ``demo``."""
    folder = ensure_demo(cache_dir, progress=progress)
    scanned = scan([folder])
    moods = {p.title: p.mood for p in PIECES}
    library = Library(problems=scanned.problems)
    for track in scanned:
        library.add(dataclasses.replace(track, source="demo", mood=moods.get(track.title, "")))
    return library
