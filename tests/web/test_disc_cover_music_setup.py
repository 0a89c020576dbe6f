"""The table's music setup in a real browser: each source's own themes, checks at once, progress.

The server runs with a music folder and an empty cache folder, so the demo playlist is still being
made when the page opens (as on a first run). That the demo's own themes follow once it is ready is
shown by tests/server/test_music_setup.py (making it takes minutes on a loaded machine).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
import soundfile
from mutagen.oggvorbis import OggVorbis
from playwright.sync_api import Browser, Page, expect

from .conftest import Server, free_port

RATE = 22050


def tagged(path: Path, title: str, genre: str, year: str, hz: float, intro: float = 0) -> None:
    """A tagged OGG file: 3 s of a tone, or a quiet ``intro`` and then 80 s of it."""
    t = np.arange(int((intro + 80 if intro else 3) * RATE)) / RATE
    samples = np.where(t < intro, 0.01, 0.4) * np.sin(2 * np.pi * hz * t)
    with soundfile.SoundFile(path, "w", RATE, 1, format="OGG") as out:
        for at in range(0, len(samples), RATE):  # one long Vorbis write can crash libsndfile
            out.write(samples[at : at + RATE])
    tags = OggVorbis(path)  # type: ignore[no-untyped-call]
    tags["title"], tags["genre"], tags["date"] = title, genre, year
    tags.save()


class MusicServer(Server):
    """``recordroom serve --music DIR --cache-dir EMPTY`` in a subprocess."""

    def __init__(self, data_dir: Path, music: Path, cache: Path) -> None:
        self.cache = cache
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = data_dir / "server.log"
        command = [
            sys.executable, "-m", "recordroom", "serve",
            "--host", "127.0.0.1", "--port", str(self.port), "--data-dir", str(data_dir),
            "--music", str(music), "--cache-dir", str(cache), "--bot-delay", "0", "--no-qr",
            "--log-level", "warning",
        ]  # fmt: skip
        with self.log.open("wb") as out:
            self.process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
        self._wait_up()


@pytest.fixture(scope="module")
def music_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MusicServer]:
    music = tmp_path_factory.mktemp("music")
    tagged(music / "one.ogg", "One", "Rock", "1984", 330, intro=20)
    tagged(music / "two.ogg", "Two", "Pop", "1993", 440)
    tagged(music / "three.ogg", "Three", "Pop", "1997", 550)
    (music / "mix.m3u8").write_text("one.ogg\ntwo.ogg\n")
    cache = tmp_path_factory.mktemp("empty-cache")
    running = MusicServer(tmp_path_factory.mktemp("data"), music, cache)
    try:
        yield running
    finally:
        running.stop()


def themes(page: Page) -> list[str]:
    return [" ".join(t.split()) for t in page.locator("#themes label").all_inner_texts()]


def test_the_setup_offers_each_sources_own_themes_and_checks_at_once(
    music_server: MusicServer, browser: Browser
) -> None:
    errors: list[str] = []
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.set_default_timeout(20_000)
    page.goto(f"{music_server.base}/table")
    expect(page.locator("#sources[data-loaded]")).to_be_attached()
    # The first run: the demo is being made, and says how far it got.
    demo = page.locator("#sources label").filter(has_text="Demo playlist")
    expect(demo).to_contain_text(re.compile(r"being made: \d+ of 24"))
    expect(page.locator("#music-note")).to_contain_text("still being made")
    # The music folders can be chosen meanwhile: their themes, their counts, the repeat warning.
    page.check("input[name=source][value=library]")
    expect(page.locator("#themes label")).to_have_count(4)
    assert themes(page) == ["80s 1", "90s 2", "Pop 2", "Rock 1"]
    note = page.locator("#music-note")
    expect(note).to_have_text("Only 3 tracks for 9 turns: songs will repeat.")
    expect(note).to_have_class(re.compile("warn"))
    # A playlist offers its own themes.
    page.check("input[name=source][value=playlist]")
    expect(page.locator("#themes label")).to_have_count(4)
    assert themes(page) == ["80s 1", "90s 1", "Pop 1", "Rock 1"]
    expect(note).to_have_text("Only 2 tracks for 9 turns: songs will repeat.")
    page.check("input[name=source][value=library]")
    page.locator("#themes label").filter(has_text="80s").click()
    expect(note).to_have_text("Only 1 track for 9 turns: songs will repeat.")
    # Party mode hides the song length; the options go with the room.
    page.check("#play-to-end")
    expect(page.locator("#length-line")).to_be_hidden()
    page.uncheck("#play-to-end")
    page.select_option("#song-length", "60")
    expect(page.locator("#create")).to_be_enabled()
    page.click("#create")
    expect(page.locator("#lobby")).to_be_visible()
    code = page.url.split("room=")[1][:4]
    with urllib.request.urlopen(f"{music_server.base}/api/rooms/{code}") as answer:
        music = json.load(answer)["music"]
    assert music["source"] == "library" and music["themes"] == ["80s"]
    assert music["skip_intro"] is True and music["length"] == 60
    # The one track of the 80s is long and starts quietly: the song starts past its intro. (The
    # cue point is found in the background as the room opens; wait for it as players would.)
    cues = music_server.cache / "cues-v1.json"
    deadline = time.monotonic() + 60
    while not (cues.is_file() and cues.read_text()) and time.monotonic() < deadline:
        time.sleep(0.2)
    for _ in range(3):
        page.click("#add-bot")
    expect(page.locator("#lobby-seats li")).to_have_count(3)
    page.click("#start")
    page.wait_for_function("document.querySelector('#audio').currentTime > 0", timeout=30_000)
    played = page.eval_on_selector("#audio", "a => a.currentTime")
    assert 20 <= played < 40, played
    # The demo's progress went on in the background meanwhile; the page follows it.
    expect(demo).to_contain_text(re.compile(r"being made: [1-9]\d* of 24"), timeout=60_000)
    assert not errors, errors
