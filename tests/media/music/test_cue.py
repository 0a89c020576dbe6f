"""Where a song's music is: the cue point skips a quiet intro, on real audio files."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import soundfile

from recordroom.media.music.cue import cue_from_envelope, cue_point
from recordroom.media.music.features import AudioError

RATE = 22050


def passage(seconds: float, level: float, seed: int = 0) -> np.ndarray:
    """A few bars of chords over a kick, at a level (peak amplitude)."""
    t = np.arange(int(seconds * RATE)) / RATE
    chord = sum(np.sin(2 * np.pi * hz * t) for hz in (220.0, 277.2, 329.6)) / 3
    beat = np.exp(-12 * ((t * 2) % 1)) * np.sin(2 * np.pi * 55 * t)
    noise = np.random.default_rng(seed).standard_normal(len(t)) * 0.02
    return level * (0.7 * chord + 0.3 * beat + noise)


def write(path: Path, *parts: np.ndarray, fmt: str = "OGG") -> Path:
    """Writes in one-second pieces: libsndfile's Vorbis encoder can crash on one long write."""
    samples = np.concatenate(parts)
    with soundfile.SoundFile(path, "w", RATE, 1, format=fmt) as out:
        for start in range(0, len(samples), RATE):
            out.write(samples[start : start + RATE])
    return path


def test_a_quiet_intro_is_skipped(tmp_path: Path) -> None:
    # 20 s of a soft pad, then 80 s of the loud song.
    song = write(tmp_path / "song.ogg", passage(20, 0.02), passage(80, 0.6, 1))
    cue = cue_point(song)
    assert 20.0 <= cue <= 21.5


def test_a_loud_hit_in_the_intro_is_not_the_music(tmp_path: Path) -> None:
    # A single crash 6 s in, and a swell of 2 s at 12 s: neither is sustained.
    song = write(
        tmp_path / "hits.flac",
        passage(6, 0.02),
        passage(0.5, 0.8, 2),
        passage(5.5, 0.02, 3),
        passage(2, 0.6, 4),
        passage(16, 0.02, 5),
        passage(70, 0.6, 6),
        fmt="FLAC",
    )
    assert 30.0 <= cue_point(song) <= 31.5


def test_a_song_loud_from_the_start_or_silent_starts_at_zero(tmp_path: Path) -> None:
    assert cue_point(write(tmp_path / "loud.wav", passage(100, 0.5), fmt="WAV")) == 0.0
    # A 2 s intro is no intro worth skipping.
    assert cue_point(write(tmp_path / "short.ogg", passage(2, 0.02), passage(60, 0.5))) == 0.0
    assert cue_point(write(tmp_path / "silence.ogg", np.zeros(RATE * 30))) == 0.0
    assert cue_from_envelope(np.zeros(0), 0.1) == 0.0


def test_a_breath_inside_the_song_does_not_move_the_cue(tmp_path: Path) -> None:
    # Quiet 15 s, loud 4 s, a 1 s breath, then loud: the passage still starts at 15 s.
    song = write(
        tmp_path / "breath.ogg",
        passage(15, 0.02),
        passage(4, 0.6, 1),
        passage(1, 0.05, 2),
        passage(60, 0.6, 3),
    )
    assert 15.0 <= cue_point(song) <= 16.5


def test_broken_and_missing_files_raise(tmp_path: Path) -> None:
    broken = tmp_path / "broken.ogg"
    broken.write_bytes(b"OggS" + b"\x00" * 300)
    with pytest.raises(AudioError):
        cue_point(broken)
    with pytest.raises(AudioError):
        cue_point(tmp_path / "missing.ogg")


def test_real_music_gets_a_cue_inside_the_track(real_music: Path) -> None:
    tracks = sorted(real_music.rglob("*.ogg"))[:4]
    assert tracks
    for path in tracks:
        info = soundfile.info(str(path))
        cue = cue_point(path)
        assert 0.0 <= cue < info.duration
