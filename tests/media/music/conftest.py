"""Audio files for the library tests: synthesised in every format the scan must read."""

from __future__ import annotations

import subprocess
from pathlib import Path

import av
import mutagen
import numpy as np
import pytest
import soundfile
from mutagen.mp4 import MP4

RATE = 22050
ROOT = Path(__file__).resolve().parents[3]


def tone(seconds: float, hz: float = 440.0) -> np.ndarray:
    t = np.arange(int(seconds * RATE)) / RATE
    return 0.3 * np.sin(2 * np.pi * hz * t)


def write_tagged(path: Path, seconds: float, tags: dict[str, str]) -> Path:
    """A real audio file in the format the suffix names, with easy tags."""
    fmt = {".mp3": "MP3", ".ogg": "OGG", ".flac": "FLAC", ".wav": "WAV"}[path.suffix]
    soundfile.write(path, tone(seconds), RATE, format=fmt)
    if tags:
        audio = mutagen.File(path, easy=True)
        if audio.tags is None:
            audio.add_tags()
        for key, value in tags.items():
            audio.tags[key] = value
        audio.save()
    return path


def write_m4a(path: Path, seconds: float, title: str, artist: str, genre: str, year: str) -> Path:
    """An AAC track in an MP4 container, tagged the iTunes way."""
    with av.open(str(path), "w", format="mp4") as container:
        stream = container.add_stream("aac", rate=RATE)
        samples = (tone(seconds) * 32767).astype(np.int16).reshape(1, -1)
        frame = av.AudioFrame.from_ndarray(samples, format="s16", layout="mono")
        frame.sample_rate = RATE
        for packet in stream.encode(frame):
            container.mux(packet)
        for packet in stream.encode(None):
            container.mux(packet)
    tags = MP4(path)
    tags["\xa9nam"] = title
    tags["\xa9ART"] = artist
    tags["\xa9gen"] = genre
    tags["\xa9day"] = year
    tags.save()
    return path


class AudioFiles:
    """The writers above, handed to tests as the ``audio`` fixture."""

    tagged = staticmethod(write_tagged)
    m4a = staticmethod(write_m4a)


@pytest.fixture
def audio() -> type[AudioFiles]:
    return AudioFiles


@pytest.fixture(scope="session")
def real_music() -> Path:
    """Debian's singularity-music (CC BY-SA 3.0), fetched by scripts/test-music.sh if missing."""
    out = subprocess.run(
        ["bash", str(ROOT / "scripts" / "test-music.sh")],
        check=True,
        capture_output=True,
        text=True,
        timeout=600,
    )
    return Path(out.stdout.strip().splitlines()[-1])
