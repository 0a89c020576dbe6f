"""The built-in demo playlist: made by the project, cached, varied enough to play with."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import soundfile

from recordroom.media.music.demo import PIECES, demo_library, ensure_demo, render
from recordroom.media.music.library import Library
from recordroom.media.music.themes import themes


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Library]:
    cache = tmp_path_factory.mktemp("cache")
    return cache, demo_library(cache)


def brightness_and_loudness(path: Path) -> tuple[float, float]:
    samples, rate = soundfile.read(path)
    spectrum = np.abs(np.fft.rfft(samples))
    freqs = np.fft.rfftfreq(len(samples), 1 / rate)
    centroid = float((spectrum * freqs).sum() / spectrum.sum())
    return centroid, float(np.sqrt(np.mean(samples**2)))


def test_at_least_twenty_distinct_playable_tracks(demo: tuple[Path, Library]) -> None:
    _, library = demo
    assert len(library) >= 20 and not library.problems
    assert len({t.title for t in library}) == len(library)
    assert all(t.source == "demo" and t.media_type == "audio/ogg" for t in library)
    assert all(25 <= t.duration <= 36 for t in library)
    assert len({t.mood for t in library}) >= 15
    assert len({p.tempo for p in PIECES}) >= 15
    assert {p.mode for p in PIECES} == {"major", "minor"}


def test_moods_sound_different(demo: tuple[Path, Library]) -> None:
    _, library = demo
    by_mood = {t.mood: t for t in library}
    calm_bright, calm_loud = brightness_and_loudness(by_mood["calm"].path)
    wild_bright, wild_loud = brightness_and_loudness(by_mood["aggressive"].path)
    assert wild_bright > 1.5 * calm_bright
    assert wild_loud > 1.5 * calm_loud
    centroids = [brightness_and_loudness(t.path)[0] for t in library]
    assert max(centroids) > 2 * min(centroids)


def test_cached_after_the_first_run(demo: tuple[Path, Library]) -> None:
    cache, library = demo
    stamps = {t.path: t.path.stat().st_mtime_ns for t in library}
    ensure_demo(cache)
    assert {p: p.stat().st_mtime_ns for p in stamps} == stamps
    assert [t.id for t in demo_library(cache)] == [t.id for t in library]


def test_synthesis_is_deterministic() -> None:
    piece = PIECES[1]
    first = render(piece, seconds=4)
    assert np.array_equal(first, render(piece, seconds=4))
    assert np.max(np.abs(first)) <= 1.0
    assert not np.array_equal(first[:1000], render(PIECES[2], seconds=4)[:1000])


def test_demo_has_themes(demo: tuple[Path, Library]) -> None:
    _, library = demo
    names = {t.name for t in themes(library)}
    assert {"80s", "Film scores", "Rock", "Pop", "Kids' music", "Disco"} <= names
