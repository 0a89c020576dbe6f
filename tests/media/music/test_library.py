"""Scanning music folders: tags, titles, durations, playlists, themes, and nothing outside."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from recordroom.media.music.library import Library, scan, title_from_name
from recordroom.media.music.themes import select, themes


@pytest.fixture
def folders(tmp_path: Path, audio: Any) -> tuple[Path, Path]:
    write_tagged, write_m4a = audio.tagged, audio.m4a
    music = tmp_path / "music"
    outside = tmp_path / "private"
    (music / "eighties").mkdir(parents=True)
    outside.mkdir()
    write_tagged(music / "a.mp3", 2.0, {"title": "Neon Run", "artist": "The Grids",
                                        "genre": "Synthpop", "date": "1984"})  # fmt: skip
    write_tagged(music / "b.ogg", 3.0, {"title": "Tide", "artist": "Mara Lind",
                                        "genre": "Ambient", "date": "1994-05-01"})  # fmt: skip
    write_tagged(music / "c.flac", 1.5, {"title": "Drive", "artist": "Okafor",
                                         "genre": "Rock", "date": "1987"})  # fmt: skip
    write_tagged(music / "d.wav", 1.0, {})
    write_tagged(music / "eighties" / "07 - night_drive.flac", 1.0, {})
    write_m4a(music / "e.m4a", 2.0, "Harbour", "Ines Sato", "Soundtrack", "2011")
    (music / "broken.mp3").write_bytes(b"\x00\x01 this is not audio at all" * 50)
    (music / "notes.txt").write_text("liner notes")
    write_tagged(outside / "secret.ogg", 1.0, {"title": "Secret", "artist": "Nobody"})
    os.symlink(outside / "secret.ogg", music / "link.ogg")
    os.symlink(outside, music / "linked-folder")
    os.symlink(music / "b.ogg", music / "eighties" / "inside-link.ogg")
    (music / "mix.m3u").write_text(
        "#EXTM3U\n#PLAYLIST:Road Trip\n#EXTINF:2,The Grids - Neon Run\na.mp3\n"
        "eighties/07 - night_drive.flac\n../private/secret.ogg\nhttp://example.invalid/x.mp3\n"
        "missing.ogg\n"
    )
    (music / "eighties" / "up.m3u8").write_text("../c.flac\n")
    return music, outside


def test_scan_reads_tags_in_every_format(folders: tuple[Path, Path]) -> None:
    music, _ = folders
    library = scan([music])
    by_title = {t.title: t for t in library}
    assert by_title["Neon Run"].artist == "The Grids"
    assert by_title["Neon Run"].year == 1984 and by_title["Neon Run"].genre == "Synthpop"
    assert by_title["Tide"].year == 1994
    assert by_title["Drive"].media_type == "audio/flac"
    assert by_title["Harbour"].artist == "Ines Sato"
    assert by_title["Harbour"].media_type == "audio/mp4"
    assert by_title["Neon Run"].duration == pytest.approx(2.0, abs=0.15)
    assert by_title["Tide"].duration == pytest.approx(3.0, abs=0.05)
    assert by_title["Harbour"].duration == pytest.approx(2.0, abs=0.2)


def test_untagged_files_are_titled_from_their_names(folders: tuple[Path, Path]) -> None:
    library = scan([folders[0]])
    titles = {t.title for t in library}
    assert "night drive" in titles and "d" in titles
    night = next(t for t in library if t.title == "night drive")
    assert night.artist == "Unknown artist"


@pytest.mark.parametrize(
    ("name", "title"),
    [("03_-_night_drive.mp3", "night drive"), ("Song.ogg", "Song"), ("12. Blue.flac", "Blue"),
     ("1999.mp3", "1999")],
)  # fmt: skip
def test_title_from_name(name: str, title: str) -> None:
    assert title_from_name(Path(name)) == title


def test_broken_files_are_skipped_with_a_warning_never_a_crash(
    folders: tuple[Path, Path], caplog: pytest.LogCaptureFixture
) -> None:
    library = scan([folders[0]])
    problems = {p.name: p.reason for p in library.problems}
    assert "broken.mp3" in problems
    assert "broken.mp3" in caplog.text
    assert all(t.path.name != "broken.mp3" for t in library)
    assert all(t.path.suffix != ".txt" for t in library)


def test_nothing_outside_the_folder_is_indexed(folders: tuple[Path, Path]) -> None:
    music, _ = folders
    library = scan([music])
    assert all(t.title != "Secret" for t in library)
    for track in library:
        assert track.path.resolve().is_relative_to(music.resolve())
    reasons = {p.name: p.reason for p in library.problems}
    assert "link.ogg" in reasons and "linked-folder" in reasons
    # A link that stays inside the folder is an ordinary track.
    assert any(t.path.name == "inside-link.ogg" for t in library)


def test_ids_not_paths_and_refused_lookups(folders: tuple[Path, Path]) -> None:
    music, outside = folders
    library = scan([music])
    for track in library:
        assert "/" not in track.id and "path" not in track.to_json()
        assert str(music) not in str(track.to_json())
        assert library.path_of(track.id) == track.path
    for bad in ("../private/secret.ogg", str(outside / "secret.ogg"), "a.mp3", "", "..", None):
        with pytest.raises(KeyError):
            library.path_of(bad)  # type: ignore[arg-type]


def test_a_file_swapped_for_an_outside_link_after_the_scan_is_refused(
    folders: tuple[Path, Path],
) -> None:
    music, outside = folders
    library = scan([music])
    track = next(t for t in library if t.title == "Tide")
    (music / "b.ogg").unlink()
    os.symlink(outside / "secret.ogg", music / "b.ogg")
    with pytest.raises(KeyError):
        library.path_of(track.id)


def test_ids_are_stable_across_scans(folders: tuple[Path, Path]) -> None:
    first = {t.title: t.id for t in scan([folders[0]])}
    assert first == {t.title: t.id for t in scan([folders[0]])}


def test_m3u_playlists_keep_only_tracks_inside_the_folder(folders: tuple[Path, Path]) -> None:
    library = scan([folders[0]])
    playlists = {p.name: p for p in library.playlists.values()}
    mix = playlists["Road Trip"]
    titles = [library.get(i).title for i in mix.track_ids]
    assert titles == ["Neon Run", "night drive"]
    bad = [p.name for p in library.problems if p.name.startswith("mix.m3u")]
    assert len(bad) == 3  # the outside file, the URL and the missing one
    assert [library.get(i).title for i in playlists["up"].track_ids] == ["Drive"]


def test_missing_folder_is_reported(tmp_path: Path) -> None:
    library = scan([tmp_path / "nope"])
    assert len(library) == 0 and library.problems[0].reason == "no such folder"


def test_themes_by_decade_and_genre(folders: tuple[Path, Path]) -> None:
    library = scan([folders[0]])
    names = [t.name for t in themes(library)]
    assert names[:3] == ["80s", "90s", "2010s"]
    assert {"Synthpop", "Rock", "Ambient", "Film scores"} <= set(names)
    eighties = {library.get(i).title for i in select(library, ["80s"])}
    assert eighties == {"Neon Run", "Drive"}
    chosen = {library.get(i).title for i in select(library, ["80s", "film scores"])}
    assert chosen == {"Neon Run", "Drive", "Harbour"}
    with pytest.raises(KeyError, match="Polka"):
        select(library, ["Polka"])


def test_real_music_folder(real_music: Path) -> None:
    library = scan([real_music])
    assert len(library) == 16
    assert not [p for p in library.problems if not p.name.startswith("COPYRIGHT")]
    titles = {t.title for t in library}
    assert {"A New Journey", "Nebula", "Through Space", "Chimes They Fade"} <= titles
    assert {t.artist for t in library} == {"Maxstack"}
    nebula = next(t for t in library if t.title == "Nebula")
    assert nebula.duration == pytest.approx(316.8, abs=1.0)
    assert all(40 < t.duration < 400 for t in library)
    assert [t.name for t in themes(library)] == ["2010s"]
    assert len(select(library, ["2010s"])) == 16


def test_merged_libraries_keep_both(folders: tuple[Path, Path], real_music: Path) -> None:
    merged = Library()
    merged.merge(scan([folders[0]]))
    merged.merge(scan([real_music]))
    assert len(merged) == 16 + 7
    assert {library_theme.name for library_theme in themes(merged)} >= {"2010s", "80s"}
