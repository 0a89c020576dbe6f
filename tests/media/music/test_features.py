"""What a track sounds like: the features a listening bot hears."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from recordroom.media.music.demo import PIECES, Piece, demo_library, render
from recordroom.media.music.features import AudioError, analyse, analyse_samples
from recordroom.media.music.library import Library


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Library:
    return demo_library(tmp_path_factory.mktemp("cache"))


def piece(title: str) -> Piece:
    return next(p for p in PIECES if p.title == title)


def test_energetic_songs_sound_more_energetic_than_calm_ones(demo: Library) -> None:
    by_title = {t.title: analyse(t.path) for t in demo}
    calm = [by_title[p.title] for p in PIECES if p.energy <= 0.25]
    wild = [by_title[p.title] for p in PIECES if p.energy >= 0.8]
    assert min(f.energy for f in wild) > max(f.energy for f in calm)
    assert min(f.onset_rate for f in wild) > max(f.onset_rate for f in calm)
    assert min(f.brightness for f in wild) > 2 * max(f.brightness for f in calm)


def test_minor_leaning_mostly_follows_the_mode(demo: Library) -> None:
    right = sum((analyse(t.path).minor > 0) == (piece(t.title).mode == "minor") for t in demo)
    assert right >= 0.7 * len(demo)


def test_tempo_is_the_pulse_folded_into_one_octave() -> None:
    for title in ("Polaroid Summer", "Ticking Corridor", "Victory Lap"):
        p = piece(title)
        tempo = analyse_samples(render(p, seconds=20), 22050).tempo
        assert 75 <= tempo < 150
        folded = (
            p.tempo if 75 <= p.tempo < 150 else (p.tempo / 2 if p.tempo >= 150 else p.tempo * 2)
        )
        assert tempo == pytest.approx(folded, rel=0.04)


def test_silence_and_broken_files(tmp_path: Path) -> None:
    quiet = analyse_samples(np.zeros(22050 * 5), 22050)
    assert quiet.onset_rate == 0 and quiet.loudness <= -100
    broken = tmp_path / "broken.ogg"
    broken.write_bytes(b"OggS" + b"\x00" * 200)
    with pytest.raises(AudioError):
        analyse(broken)
    with pytest.raises(AudioError):
        analyse(tmp_path / "missing.ogg")


def test_real_music_is_analysed(real_music: Path) -> None:
    from recordroom.media.music.library import scan

    features = [analyse(t.path) for t in list(scan([real_music]))[:4]]
    assert all(f.loudness > -40 and f.brightness > 100 and -1 <= f.minor <= 1 for f in features)
    assert all(0 <= f.energy <= 1 for f in features)
