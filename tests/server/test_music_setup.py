"""Music setup that tells the truth, and songs that start where the music is (real audio files)."""

from __future__ import annotations

import json
import shutil
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import numpy as np
import pytest
import soundfile
from mutagen.oggvorbis import OggVorbis

from recordroom.server.music import CUE_CACHE, Jukebox, RoomMusic
from recordroom.server.protocol import MusicSettings

from .helpers import Socket, TestClient, host

RATE = 22050


def passage(seconds: float, level: float, seed: int = 0) -> np.ndarray:
    """Chords over a kick at a level (peak amplitude), with a little noise."""
    t = np.arange(int(seconds * RATE)) / RATE
    chord = sum(np.sin(2 * np.pi * hz * t) for hz in (196.0, 246.9, 293.7)) / 3
    beat = np.exp(-12 * ((t * 2) % 1)) * np.sin(2 * np.pi * 55 * t)
    noise = np.random.default_rng(seed).standard_normal(len(t)) * 0.02
    return level * (0.7 * chord + 0.3 * beat + noise)


def song(path: Path, title: str, genre: str, year: str, *parts: np.ndarray) -> Path:
    """A tagged OGG file, written a second at a time (one long Vorbis write can crash)."""
    samples = np.concatenate(parts)
    with soundfile.SoundFile(path, "w", RATE, 1, format="OGG") as out:
        for at in range(0, len(samples), RATE):
            out.write(samples[at : at + RATE])
    tags = OggVorbis(path)  # type: ignore[no-untyped-call]
    tags["title"], tags["genre"], tags["date"] = title, genre, year
    tags.save()
    return path


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three tracks: a long one with a 20 s quiet intro (80s Rock), two short ones (90s Pop)."""
    music = tmp_path_factory.mktemp("music")
    song(
        music / "slow-start.ogg", "Slow Start", "Rock", "1984", passage(20, 0.02), passage(80, 0.6)
    )
    song(music / "short-a.ogg", "Short A", "Pop", "1993", passage(4, 0.02), passage(20, 0.5, 1))
    song(music / "short-b.ogg", "Short B", "Pop", "1997", passage(15, 0.5, 2))
    (music / "mix.m3u8").write_text("short-a.ogg\nslow-start.ogg\n")
    return music


def wait_for_demo(client: TestClient, timeout: float = 180.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        catalogue: dict[str, Any] = client.get("/api/music").json()
        if catalogue["sources"][0]["ready"] or time.monotonic() > deadline:
            return catalogue
        time.sleep(0.2)


def table_music(client: TestClient, music: dict[str, Any]) -> dict[str, Any]:
    """The music message a table gets at turn 1 of a room with these settings."""
    answer = client.post("/api/rooms", json={"game": "disc-cover", "options": {}, "music": music})
    assert answer.status_code == 201, answer.json()
    code, host_token = answer.json()["code"], answer.json()["host_token"]
    for name in ("Ann", "Bo", "Cem"):
        client.post(f"/api/rooms/{code}/seats", json={"name": name})
    assert client.post(f"/api/rooms/{code}/start", headers=host(host_token)).status_code == 200
    jukebox = client.app.state.hub.jukebox  # type: ignore[attr-defined]
    assert jukebox.settle(60)
    with client.websocket_connect(f"/ws/{code}?token={host_token}") as ws:
        message: dict[str, Any] = Socket(ws).recv_state()["music"]
    return message


def test_each_source_offers_its_own_themes_and_counts(
    make_client: Callable[..., TestClient], folder: Path
) -> None:
    client = make_client(music_dirs=(folder,))
    catalogue = wait_for_demo(client)
    demo, library = catalogue["sources"]
    assert demo["ready"] and demo["tracks"] >= 20
    assert demo["progress"] == {"done": 24, "total": 24}
    assert library["tracks"] == 3
    themes = {t["name"]: t["tracks"] for t in library["themes"]}
    assert themes == {"80s": 1, "90s": 2, "Pop": 2, "Rock": 1}
    demo_themes = {t["name"] for t in demo["themes"]}
    assert "Film scores" in demo_themes and "90s" in demo_themes
    assert {t["name"]: t["tracks"] for t in demo["themes"]}["90s"] != 2  # not mixed with ours
    (playlist,) = catalogue["playlists"]
    assert playlist["tracks"] == 2
    assert {t["name"] for t in playlist["themes"]} == {"80s", "90s", "Pop", "Rock"}
    assert catalogue["turns"] == 9


def test_a_theme_choice_is_checked_when_made(
    make_client: Callable[..., TestClient], folder: Path
) -> None:
    client = make_client(music_dirs=(folder,))
    rooms = client.get("/api/health").json()["rooms"]

    def check(music: dict[str, Any]) -> Any:
        return client.post("/api/music/check", json=music)

    one = check({"source": "library", "themes": ["80s"]}).json()
    assert one == {
        "tracks": 1,
        "turns": 9,
        "repeats": True,
        "warning": "Only 1 track for 9 turns: songs will repeat.",
    }
    assert check({"source": "library", "themes": ["pop", "Rock"]}).json()["tracks"] == 3
    assert check({"source": "external"}).json()["tracks"] is None
    demo = check({"source": "demo"}).json()
    assert demo["tracks"] >= 20 and demo["repeats"] is False and demo["warning"] is None
    # A theme of the demo playlist is not a theme of the folders: refused at once.
    wrong = check({"source": "library", "themes": ["Film scores"]})
    assert wrong.status_code == 422 and wrong.json()["code"] == "music/invalid"
    # It says what there is, never what was sent (docs/protocol.md, Limits).
    assert "Film scores" not in wrong.json()["message"] and "80s" in wrong.json()["message"]
    radio = check({"source": "radio"})
    assert radio.status_code == 422 and radio.json()["code"] == "music/invalid"
    assert "radio" not in radio.json()["message"] and "library" in radio.json()["message"]
    # However long, a source or theme the server does not have is music/invalid, as documented.
    for long in ({"source": "r" * 41}, {"source": "library", "themes": ["80s"] * 21 + ["x" * 99]}):
        answer = check(long)
        assert answer.status_code == 422 and answer.json()["code"] == "music/invalid"
        assert "rrrr" not in answer.json()["message"] and "xxxx" not in answer.json()["message"]
    playlist = check({"source": "playlist", "playlist": "nope"})
    assert playlist.json()["code"] == "music/invalid"
    assert check({"source": "library", "length": 5}).json()["code"] == "request/invalid"
    assert check({"source": "library", "volume": 11}).json()["code"] == "request/invalid"
    # The same refusals when the room is opened, and nothing changes.
    for bad in ({"source": "radio"}, {"source": "library", "themes": ["Film scores"]}):
        answer = client.post("/api/rooms", json={"game": "disc-cover", "music": bad})
        assert answer.status_code == 422 and answer.json()["code"] == "music/invalid"
    assert client.get("/api/health").json()["rooms"] == rooms


def test_no_music_folder_is_refused_clearly(client: TestClient) -> None:
    answer = client.post("/api/music/check", json={"source": "library"})
    assert answer.status_code == 422 and "--music" in answer.json()["message"]


def test_the_demo_is_made_in_the_background_while_the_folders_play(
    make_client: Callable[..., TestClient], folder: Path, tmp_path: Path
) -> None:
    client = make_client(music_dirs=(folder,), cache_dir=tmp_path / "fresh-cache")
    catalogue = client.get("/api/music").json()
    answer = client.post("/api/rooms", json={"game": "disc-cover", "music": {"source": "library"}})
    check = client.post("/api/music/check", json={"source": "library", "themes": ["90s"]})
    # None of that waited for the demo: it is still being made.
    demo, library = catalogue["sources"]
    assert not demo["ready"] and demo["tracks"] is None and demo["themes"] == []
    assert 0 <= demo["progress"]["done"] < demo["progress"]["total"] == 24
    assert library["tracks"] == 3 and answer.status_code == 201 and check.json()["tracks"] == 2
    assert not client.get("/api/music").json()["sources"][0]["ready"]
    # Its progress moves on in the background.
    first = demo["progress"]["done"]
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        demo = client.get("/api/music").json()["sources"][0]
        if demo["ready"] or demo["progress"]["done"] >= first + 2:
            break
        time.sleep(0.2)
    assert demo["ready"] or demo["progress"]["done"] >= first + 2


def test_a_stopping_server_leaves_the_demo_after_its_current_track(tmp_path: Path) -> None:
    jukebox = Jukebox(tmp_path)
    making = threading.Thread(target=jukebox.warm)
    making.start()
    deadline = time.monotonic() + 120
    while jukebox.catalogue()["sources"][0]["progress"]["done"] < 1:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    jukebox.stop()
    making.join(timeout=60)
    assert not making.is_alive()
    demo = jukebox.catalogue()["sources"][0]
    assert not demo["ready"] and demo["error"] is None and demo["progress"]["done"] < 24
    # What was made is kept for the next start.
    assert len(list(tmp_path.rglob("*.ogg"))) >= demo["progress"]["done"]


def test_a_long_track_starts_past_its_quiet_intro(
    make_client: Callable[..., TestClient], folder: Path
) -> None:
    client = make_client(music_dirs=(folder,))
    music = table_music(client, {"source": "library", "themes": ["80s"]})
    assert music["track"]["title"] == "Slow Start"
    assert 20.0 <= music["start"] <= 21.5 and music["length"] == 45
    # The option off: from 0:00. Party mode: no set length, same start.
    off = table_music(client, {"source": "library", "themes": ["80s"], "skip_intro": False})
    assert off["start"] == 0 and off["length"] == 45
    party = table_music(client, {"source": "library", "themes": ["80s"], "play_to_end": True})
    assert party["start"] == music["start"] and party["length"] is None
    # A longer set length than what follows the cue: started earlier so it all fits.
    long = table_music(client, {"source": "library", "themes": ["80s"], "length": 90})
    assert long["start"] == pytest.approx(10.0, abs=0.2) and long["length"] == 90
    # A short track (90 s or less) always starts at 0.
    short = table_music(client, {"source": "library", "themes": ["90s"]})
    assert short["start"] == 0 and short["track"]["duration"] < 90


def test_cue_points_are_found_off_the_caller_and_kept(folder: Path, tmp_path: Path) -> None:
    jukebox = Jukebox(tmp_path, (folder,))
    slow = next(t for t in jukebox.library if t.title == "Slow Start")
    settings = MusicSettings(source="library")
    # Not found yet: asked for, not waited on (a wait would have given the cue point, 20 s).
    assert jukebox.start_of(slow, settings) == 0.0
    assert jukebox.settle(60)
    assert 20.0 <= jukebox.start_of(slow, settings) <= 21.5
    assert (tmp_path / CUE_CACHE).is_file()
    # Entries of tracks this server no longer has are dropped when the file is written again.
    stale = json.loads((tmp_path / CUE_CACHE).read_text())
    stale["0123456789abcdef"] = {"file": "1:1", "cue": 9.0}
    (tmp_path / CUE_CACHE).write_text(json.dumps(stale))
    # A new server on the same cache reads it back instead of decoding again.
    again = Jukebox(tmp_path, (folder,))
    again.prepare([slow.id])
    assert again.settle(5) and again.cue(slow.id) == jukebox.cue(slow.id)
    # Read back, not decoded again: nothing new, so the file was not rewritten.
    assert "0123456789abcdef" in json.loads((tmp_path / CUE_CACHE).read_text())
    # A server with another folder finds its own cue and keeps only the tracks it has.
    moved = tmp_path / "moved"
    moved.mkdir()
    shutil.copy(folder / "slow-start.ogg", moved / "slow-start.ogg")
    elsewhere = Jukebox(tmp_path, (moved,))
    (track,) = list(elsewhere.library)
    elsewhere.prepare([track.id])
    assert elsewhere.settle(60) and elsewhere.cue(track.id) == jukebox.cue(slow.id)
    assert set(json.loads((tmp_path / CUE_CACHE).read_text())) == {track.id}
    short = next(t for t in jukebox.library if t.title == "Short B")
    jukebox.prepare([short.id])
    assert jukebox.settle(5) and jukebox.cue(short.id) is None  # short tracks need no cue


def test_a_turns_music_is_told_with_its_start_once_the_cue_is_found(
    folder: Path, tmp_path: Path
) -> None:
    jukebox = Jukebox(tmp_path, (folder,))
    slow = next(t for t in jukebox.library if t.title == "Slow Start")
    short = next(t for t in jukebox.library if t.title == "Short B")
    music = RoomMusic(MusicSettings(source="library"), (slow.id, short.id))
    turn = {"turn": 1, "phase": "vote"}
    # Every change of the room tells the music again: the cue not found yet starts at 0:00,
    # and the messages after the cue is found start past the intro (not kept at 0:00).
    assert music.message(jukebox, turn)["start"] == 0.0
    assert jukebox.settle(60)
    found = music.message(jukebox, turn)
    assert 20.0 <= found["start"] <= 21.5 and found["track"]["id"] == slow.id
    assert music.message(jukebox, turn) == found
    # A skip, the next turn and the game's end each tell something else.
    music.skips += 1
    skipped = music.message(jukebox, turn)
    assert skipped["track"]["id"] == short.id and skipped["skips"] == 1 and skipped["start"] == 0
    assert music.message(jukebox, {"turn": 2, "phase": "vote"})["track"]["id"] == slow.id
    over = music.message(jukebox, {"turn": 12, "phase": "over"})
    assert over["track"] is None and over["turn"] is None


class Asked:
    """Stands in for the jukebox's two calls that building a room's queue makes."""

    def __init__(self, ids: tuple[str, ...]) -> None:
        self.ids = ids
        self.asked: list[str] = []

    def pool(self, settings: MusicSettings) -> tuple[str, ...]:
        return self.ids

    def prepare(self, track_ids: list[str]) -> None:
        self.asked.extend(track_ids)


def test_a_room_asks_for_the_cue_points_of_its_coming_turns_only() -> None:
    library = Asked(tuple(f"track-{i}" for i in range(200)))
    music = RoomMusic.build(cast(Jukebox, library), MusicSettings(source="library"), seed=5)
    assert library.asked == music.upcoming(1, 12) and len(library.asked) == 12
    assert library.asked[0] == music.track_id(1) and library.asked[8] == music.track_id(9)
    off = Asked(library.ids)
    RoomMusic.build(cast(Jukebox, off), MusicSettings(source="library", skip_intro=False), seed=5)
    assert off.asked == []
    # A pool of two tracks asks for each once.
    small = Asked(("a", "b"))
    RoomMusic.build(cast(Jukebox, small), MusicSettings(source="library"), seed=5)
    assert sorted(small.asked) == ["a", "b"]
