"""The table's music, sleeves and extras over HTTP: ids only, ranges, skips, play again."""

from __future__ import annotations

import io
import os
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import soundfile
from PIL import Image

from recordroom.media.mosaic import render_mosaic
from recordroom.media.music.library import track_id

from .helpers import Socket, TestClient, host, new_room


def tone_file(path: Path, title: str, genre: str = "Rock", year: str = "1985") -> Path:
    t = np.arange(22050) / 22050
    soundfile.write(path, 0.2 * np.sin(2 * np.pi * 330 * t), 22050, format="OGG")
    from mutagen.oggvorbis import OggVorbis

    tags = OggVorbis(path)
    tags["title"], tags["genre"], tags["date"] = title, genre, year
    tags.save()
    return path


@pytest.fixture
def music_folder(tmp_path: Path) -> tuple[Path, Path]:
    music = tmp_path / "music"
    private = tmp_path / "private"
    music.mkdir()
    private.mkdir()
    tone_file(music / "one.ogg", "One", "Rock", "1985")
    tone_file(music / "two.ogg", "Two", "Pop", "1999")
    tone_file(private / "secret.ogg", "Secret")
    os.symlink(private / "secret.ogg", music / "escape.ogg")
    (music / "list.m3u8").write_text("two.ogg\none.ogg\n../private/secret.ogg\n")
    return music, private


def result_entries(sock: Socket) -> list[dict[str, Any]]:
    """The mosaic list of the finished game a socket last heard of."""
    entries: list[dict[str, Any]] = sock.state["result"]["mosaic"]
    return entries


def until_version(sock: Socket, version: int) -> dict[str, Any]:
    """Reads a socket until it has the state of that version (skipping other news)."""
    while True:
        message = sock.recv()
        if message["type"] == "state" and message["version"] >= version:
            return message


def play_turn(sockets: list[Socket], cards: list[int], table: Socket) -> None:
    """The table hears the song, then every seat votes in turn; each socket reads along."""
    turn = table.state["view"]["turn"]
    table.send({"type": "playing", "turn": turn})
    for reader in (*sockets, table):
        while reader.state["listening"]:
            reader.recv()
    for sock, card in zip(sockets, cards, strict=True):
        version = sock.state["version"]
        sock.send({"type": "act", "version": version, "action": {"type": "vote", "card": card}})
        for reader in (*sockets, table):
            until_version(reader, version + 1)


def test_music_catalogue_has_the_demo_playlist(client: TestClient) -> None:
    for _ in range(900):  # made in the background: ready at once when cached
        catalogue = client.get("/api/music").json()
        demo = next(s for s in catalogue["sources"] if s["id"] == "demo")
        if demo["ready"]:
            break
        time.sleep(0.2)
    assert demo["tracks"] >= 20
    names = {t["name"] for t in demo["themes"]}
    assert {"80s", "Film scores", "Rock"} <= names


def test_table_gets_the_track_phones_do_not(client: TestClient) -> None:
    code, host_token, tokens = new_room(client, "disc-cover", 3)
    assert client.post(f"/api/rooms/{code}/start", headers=host(host_token)).status_code == 200
    with (
        client.websocket_connect(f"/ws/{code}?token={host_token}") as table_ws,
        client.websocket_connect(f"/ws/{code}?token={tokens[0]}") as phone_ws,
    ):
        table, phone = Socket(table_ws), Socket(phone_ws)
        table.recv_state()
        phone.recv_state()
        table.recv_state()  # the phone connected
        music = table.state["music"]
        assert music["source"] == "demo" and music["turn"] == 1
        assert music["url"] == f"/api/music/tracks/{music['track']['id']}"
        assert "path" not in music["track"]
        assert phone.state["music"] is None
        audio = client.get(music["url"])
        assert audio.status_code == 200 and audio.headers["content-type"] == "audio/ogg"
        assert audio.content[:4] == b"OggS"


def test_streaming_answers_range_requests(client: TestClient) -> None:
    track = client.get("/api/music").json()
    code, host_token, _ = new_room(client, "disc-cover", 3)
    client.post(f"/api/rooms/{code}/start", headers=host(host_token))
    with client.websocket_connect(f"/ws/{code}?token={host_token}") as ws:
        url = Socket(ws).recv_state()["music"]["url"]
    whole = client.get(url).content
    part = client.get(url, headers={"Range": "bytes=100-199"})
    assert part.status_code == 206
    assert part.headers["content-range"] == f"bytes 100-199/{len(whole)}"
    assert part.content == whole[100:200]
    assert track["sources"]


def test_the_track_changes_with_the_turn_and_with_a_skip(
    make_client: Callable[..., TestClient], tmp_path: Path
) -> None:
    client = make_client()
    code, host_token, tokens = new_room(client, "disc-cover", 3)
    client.post(f"/api/rooms/{code}/start", headers=host(host_token))
    with ExitStack() as stack:
        table = Socket(
            stack.enter_context(client.websocket_connect(f"/ws/{code}?token={host_token}"))
        )
        first = table.recv_state()["music"]["track"]["id"]
        skipped = client.post(f"/api/rooms/{code}/music/skip", headers=host(host_token))
        assert skipped.status_code == 200
        second = table.recv_state()["music"]["track"]["id"]
        assert second != first
        assert client.post(f"/api/rooms/{code}/music/skip").status_code == 403
        sockets = [
            Socket(stack.enter_context(client.websocket_connect(f"/ws/{code}?token={t}")))
            for t in tokens
        ]
        for sock in sockets:
            sock.recv_state()
        play_turn(sockets, [1, 1, 2], table)
        assert table.state["view"]["turn"] == 2
        third = table.state["music"]["track"]["id"]
        assert third not in (first, second)
    # The skip is kept: a restarted server plays the same track.
    again = make_client(tmp_path)
    with again.websocket_connect(f"/ws/{code}?token={host_token}") as ws:
        assert Socket(ws).recv_state()["music"]["track"]["id"] == third


def test_music_settings_are_checked(client: TestClient) -> None:
    def create(music: dict[str, Any], game: str = "disc-cover") -> Any:
        options = {"variant": "cooperative"} if game == "disc-cover" else {}
        return client.post("/api/rooms", json={"game": game, "options": options, "music": music})

    assert create({"source": "demo", "themes": ["80s"]}).status_code == 201
    bad_theme = create({"source": "demo", "themes": ["Polka"]})
    assert bad_theme.status_code == 422 and bad_theme.json()["code"] == "music/invalid"
    assert create({"source": "playlist", "playlist": "nope"}).json()["code"] == "music/invalid"
    assert create({"source": "library"}).json()["code"] == "music/invalid"  # no folders here
    assert create({"source": "radio"}).json()["code"] == "music/invalid"
    assert create({"source": "demo"}, game="records").json()["code"] == "music/invalid"
    external = create({"source": "external"})
    code = external.json()["code"]
    info = client.get(f"/api/rooms/{code}").json()
    assert info["music"]["source"] == "external"


def test_external_player_mode_sends_no_track(client: TestClient) -> None:
    answer = client.post(
        "/api/rooms",
        json={"game": "disc-cover", "options": {}, "music": {"source": "external"}},
    )
    code, host_token = answer.json()["code"], answer.json()["host_token"]
    for name in ("A", "B", "C"):
        client.post(f"/api/rooms/{code}/seats", json={"name": name})
    client.post(f"/api/rooms/{code}/start", headers=host(host_token))
    with client.websocket_connect(f"/ws/{code}?token={host_token}") as ws:
        music = Socket(ws).recv_state()["music"]
    assert music["source"] == "external" and music["track"] is None and music["turn"] == 1


def test_music_folders_playlists_and_nothing_outside(
    make_client: Callable[..., TestClient], music_folder: tuple[Path, Path]
) -> None:
    music, private = music_folder
    client = make_client(music_dirs=(music,))
    catalogue = client.get("/api/music").json()
    library = next(s for s in catalogue["sources"] if s["id"] == "library")
    assert library["tracks"] == 2
    (playlist,) = catalogue["playlists"]
    assert playlist["tracks"] == 2
    answer = client.post(
        "/api/rooms",
        json={"game": "disc-cover", "options": {}, "music": {"source": "playlist",
                                                             "playlist": playlist["id"]}},
    )  # fmt: skip
    assert answer.status_code == 201
    themed = client.post(
        "/api/rooms",
        json={"game": "disc-cover", "options": {}, "music": {"source": "library",
                                                             "themes": ["80s"]}},
    )  # fmt: skip
    assert themed.status_code == 201
    # Every way of naming a file outside the folder is refused.
    outside_ids = [
        track_id(str(music.resolve()), "escape.ogg"),
        track_id(str(private.resolve()), "secret.ogg"),
        "..",
        "../private/secret.ogg",
        "%2e%2e%2fprivate%2fsecret.ogg",
        str(private / "secret.ogg"),
        "one.ogg",
    ]
    for bad in outside_ids:
        answer = client.get(f"/api/music/tracks/{bad}")
        # The client may fold ".." away before sending; whatever arrives, no audio comes back.
        assert not answer.headers["content-type"].startswith("audio/"), bad
        assert b"Secret" not in answer.content and b"OggS" not in answer.content
        if ".." not in bad:
            assert answer.status_code == 404, bad


def test_sleeves_are_served_by_id(client: TestClient) -> None:
    sleeves = client.get("/api/sleeves").json()
    assert len(sleeves) == 100 and {"id", "title", "artist", "family", "mood"} <= set(sleeves[0])
    picture = client.get(f"/api/sleeves/{sleeves[0]['id']}")
    assert picture.status_code == 200 and picture.headers["content-type"] == "image/svg+xml"
    assert b"<svg" in picture.content
    missing = client.get("/api/sleeves/9999")
    assert missing.status_code == 404 and missing.json()["code"] == "sleeve/not_found"


def test_join_address_qr_and_booklet(client: TestClient) -> None:
    code, _, _ = new_room(client, "disc-cover", 0)
    info = client.get(f"/api/rooms/{code}").json()
    assert info["join_url"].endswith(f"/join/{code}")
    qr = client.get(f"/api/rooms/{code}/qr.svg")
    assert qr.status_code == 200 and b"<svg" in qr.content
    assert client.get("/api/rooms/ZZZZ/qr.svg").status_code == 404
    booklet = client.get("/booklet")
    assert booklet.status_code == 200 and "Artists Booklet" in booklet.text
    assert client.get("/booklet.pdf").content[:5] == b"%PDF-"


def test_play_again_keeps_the_players_and_the_mosaic_downloads(client: TestClient) -> None:
    code, host_token, tokens = new_room(client, "disc-cover", 3)
    client.post(f"/api/rooms/{code}/start", headers=host(host_token))
    assert client.get(f"/api/rooms/{code}/mosaic.png").status_code == 409
    assert client.post(f"/api/rooms/{code}/again", headers=host(host_token)).status_code == 409
    with (
        client.websocket_connect(f"/ws/{code}?token={tokens[0]}") as ws0,
        client.websocket_connect(f"/ws/{code}?token={host_token}") as table_ws,
    ):
        sockets = [Socket(ws0)]
        table = Socket(table_ws)
        with (
            client.websocket_connect(f"/ws/{code}?token={tokens[1]}") as ws1,
            client.websocket_connect(f"/ws/{code}?token={tokens[2]}") as ws2,
        ):
            sockets += [Socket(ws1), Socket(ws2)]
            for sock in (*sockets, table):
                sock.recv_state()
            for _ in range(9):
                play_turn(sockets, [2, 2, 1], table)
            assert sockets[0].state["status"] == "over"
            mosaic = client.get(f"/api/rooms/{code}/mosaic.png")
            assert mosaic.status_code == 200 and mosaic.content[:8] == b"\x89PNG\r\n\x1a\n"
            # Taller than the sleeves and a bare total: the outcome, the names and the date.
            with Image.open(io.BytesIO(mosaic.content)) as picture:
                assert picture.height > render_mosaic(result_entries(sockets[0])).height
            assert client.post(f"/api/rooms/{code}/again").status_code == 403
            again = client.post(f"/api/rooms/{code}/again", headers=host(host_token))
            assert again.status_code == 200
            new_code = again.json()["code"]
            assert new_code != code
            for sock in sockets:
                message = sock.recv()
                while message["type"] == "state":  # news of others connecting, if any
                    message = sock.recv()
                assert message == {"type": "again", "code": new_code}
    info = client.get(f"/api/rooms/{new_code}").json()
    assert info["status"] == "playing" and [s["name"] for s in info["seats"]] == ["P0", "P1", "P2"]
    with client.websocket_connect(f"/ws/{new_code}?token={tokens[1]}") as ws:
        state = Socket(ws).recv_state()
        assert state["seat"] == 1 and state["view"]["turn"] == 1
    assert client.get(f"/api/rooms/{code}").json()["status"] == "over"


def test_bots_at_the_table_hear_the_song_and_see_the_sleeves(tmp_path: Path) -> None:
    from recordroom.games import load
    from recordroom.media.packs import builtin_set
    from recordroom.server.app import default_cache_dir
    from recordroom.server.music import Jukebox, RoomMusic, Senses
    from recordroom.server.protocol import MusicSettings

    jukebox = Jukebox(default_cache_dir())
    game = load("disc-cover")
    view = game.view(game.new_state(3, 4, {}), 0)
    music = RoomMusic.build(jukebox, MusicSettings(), seed=4)
    sensed = Senses(jukebox, builtin_set()).for_view(game, music, view)
    assert set(sensed["heard"]) >= {"tempo", "energy", "minor", "brightness", "onset_rate"}
    assert sorted(sensed["seen"]) == sorted(str(r["sleeve"]["id"]) for r in view["records"])
    external = RoomMusic.build(jukebox, MusicSettings(source="external"), seed=4)
    assert Senses(jukebox, builtin_set()).for_view(game, external, view)["heard"] is None
    bot = game.agent("listener", 1)
    assert bot.choose({**view, "senses": sensed}, game.legal_actions(game.new_state(3, 4, {}), 0))


def test_a_custom_sleeve_pack_joins_the_deck(
    make_client: Callable[..., TestClient], tmp_path: Path
) -> None:
    from PIL import Image

    pack = tmp_path / "pack"
    pack.mkdir()
    for index, colour in enumerate(("red", "teal", "gold")):
        Image.new("RGB", (300, 200), colour).save(pack / f"photo-{index}.png")
    (pack / "broken.jpg").write_bytes(b"not a picture")
    (pack / "manifest.toml").write_text(
        'mode = "join"\n[[sleeve]]\nfile = "photo-0.png"\n'
        'title = "Red Summer"\nartist = "Aunt Jo"\n'
    )
    client = make_client(sleeves_dir=pack)
    sleeves = client.get("/api/sleeves").json()
    assert len(sleeves) == 103
    ours = {s["id"]: s for s in sleeves if s["id"] >= 1001}
    assert ours[1001]["title"] == "Red Summer" and ours[1001]["artist"] == "Aunt Jo"
    picture = client.get("/api/sleeves/1001")
    assert picture.headers["content-type"] == "image/png"
    assert picture.content[:8] == b"\x89PNG\r\n\x1a\n"
    code, _, _ = new_room(client, "disc-cover", 3)
    assert set(ours) <= set(client.get(f"/api/rooms/{code}").json()["options"]["sleeves"])
