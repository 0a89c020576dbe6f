"""A third game joins without a change to the server: its rooms, its pages, its edition.

Quiz here is the toy game of these tests (Hidden Bids) under another name, with the optional
parts of the contract the server reads: its own page folder and a further address of its table
(``GameInfo.pages``, ``extra_pages``) and named editions (``edition(name)``). Its pages live in a
temporary web folder put in place of the package's, so the test writes nothing outside it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from recordroom.engine.game import Editions, JSONDict, Listening
from recordroom.media.packs import builtin_set
from recordroom.server.music import Jukebox, RoomMusic, Senses
from recordroom.server.protocol import MusicSettings
from recordroom.server.routes import pages as page_routes

from .helpers import Socket, TestClient, host
from .toy_game import HiddenBids


class Quiz(HiddenBids):
    """Hidden Bids as a third game with pages and editions of its own."""

    info = replace(
        HiddenBids.info,
        name="quiz",
        title="Quiz",
        pages="quiz",
        extra_pages=(("/quiz", "table.html"), ("/quiz/rules", "rules.html")),
    )

    def edition(self, name: str) -> JSONDict:
        if name != "standard":
            raise ValueError(f"no edition named {name!r}")
        return {"name": name, "questions": 3}


QUIZ = Quiz()


@pytest.fixture
def quiz_client(
    make_client: Callable[..., TestClient], tmp_path: Path, monkeypatch: Any
) -> TestClient:
    web = tmp_path / "web"
    for name, text in {
        "quiz/table.html": "quiz table",
        "quiz/phone.html": "quiz phone",
        "quiz/rules.html": "quiz rules",
        "rules/quiz.html": "how to play quiz",
    }.items():
        (web / name).parent.mkdir(parents=True, exist_ok=True)
        (web / name).write_text(text)
    monkeypatch.setattr(page_routes, "WEB_DIR", web)
    return make_client(game_names=("quiz",), load_game=lambda name: QUIZ)


def test_the_contract_sees_the_optional_parts() -> None:
    assert isinstance(QUIZ, Editions) and not isinstance(QUIZ, Listening)
    assert not isinstance(HiddenBids(), Editions)


def test_a_third_game_is_served_its_rooms_and_pages(quiz_client: TestClient) -> None:
    client = quiz_client
    assert [g["name"] for g in client.get("/api/games").json()] == ["quiz"]
    created = client.post("/api/rooms", json={"game": "quiz", "options": {"rounds": 1}})
    assert created.status_code == 201, created.text
    code, host_token = created.json()["code"], created.json()["host_token"]
    tokens = [
        client.post(f"/api/rooms/{code}/seats", json={"name": n}).json()["token"] for n in "AB"
    ]
    assert client.post(f"/api/rooms/{code}/start", headers=host(host_token)).status_code == 200
    with client.websocket_connect(f"/ws/{code}?token={tokens[0]}") as ws:
        state = Socket(ws).recv_state()
        assert state["seat"] == 0 and len(state["view"]["hand"]) == 4
    # The room's pages are the game's own, by the room code and by the game's name.
    assert client.get(f"/table?room={code}").text == "quiz table"
    assert client.get(f"/join/{code}").text == "quiz phone"
    assert client.get("/table/quiz").text == "quiz table"
    assert client.get("/quiz").text == "quiz table"
    assert client.get("/quiz/rules").text == "quiz rules"
    assert client.get("/how-to-play/quiz").text == "how to play quiz"
    # No room: the first served game's pages.
    assert client.get("/join").text == "quiz phone"
    assert client.get("/table?room=ZZZZ").text == "quiz table"


def test_a_third_games_edition_is_served_and_other_games_are_not(
    quiz_client: TestClient,
) -> None:
    client = quiz_client
    answer = client.get("/api/games/quiz/edition?edition=standard")
    assert answer.status_code == 200 and answer.json() == {"name": "standard", "questions": 3}
    assert client.get("/api/games/quiz/edition").json()["name"] == "standard"
    for path in (
        "/api/games/quiz/edition?edition=deluxe",
        "/api/games/records/edition",  # not served here
        "/table/records",
        "/how-to-play/records",
        "/how-to-play/disc-cover",
    ):
        answer = client.get(path)
        assert (answer.status_code, answer.json()["code"]) == (404, "game/unknown"), path
    assert client.get("/records").status_code == 404  # Records' own address is Records'


def test_a_game_without_pages_gets_the_first_served_games(
    make_client: Callable[..., TestClient],
) -> None:
    client = make_client()  # the toy game (no pages) first, then Disc Cover and Records
    created = client.post("/api/rooms", json={"game": "hidden-bids", "options": {}})
    code = created.json()["code"]
    disc_cover_table = client.get("/table").text
    assert "disc-cover" in disc_cover_table or "Disc Cover" in disc_cover_table
    assert client.get(f"/table?room={code}").text == disc_cover_table
    assert client.get("/table/hidden-bids").status_code == 404


class Listener(HiddenBids):
    """A toy game whose bots sense the song of round 1 and the sleeves of their hand."""

    def senses(
        self,
        view: JSONDict,
        hear: Callable[[int], JSONDict | None],
        look: Callable[[int], JSONDict | None],
    ) -> JSONDict:
        return {"heard": hear(1), "seen": {str(s): look(s) for s in view["hand"][:2]}}


def test_what_bots_sense_comes_from_the_game(tmp_path: Path) -> None:
    game = Listener()
    assert isinstance(game, Listening)
    sleeves = builtin_set()
    first, second = sleeves.ids()[:2]
    view = {"hand": [first, second, 10_000_000]}
    senses = Senses(Jukebox(tmp_path), sleeves)
    music = RoomMusic.build(Jukebox(tmp_path), MusicSettings(source="external"), seed=1)
    sensed = senses.for_view(game, music, view)
    assert sensed["heard"] is None  # an external player: no audio to hear
    assert set(sensed["seen"]) == {str(first), str(second)}
    assert set(sensed["seen"][str(first)]) == {"brightness", "saturation", "warmth", "busyness"}
    assert senses.for_view(game, None, {"hand": [10_000_000]})["seen"] == {"10000000": None}
