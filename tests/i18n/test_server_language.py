"""Errors speak the receiver's language: HTTP by Accept-Language (or ?lang=), sockets by ?lang=.
The codes and every other field stay as they are; the catalogues are served to the pages."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from recordroom import i18n
from recordroom.server import Settings, create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore", UserWarning)
    from fastapi.testclient import TestClient
    from starlette.testclient import WebSocketTestSession


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """The app on a temporary data folder, inside its lifespan."""
    settings = Settings(data_dir=tmp_path, bot_delay=0.0, open_after=0.0)
    with TestClient(create_app(settings)) as running:
        yield running


def next_error(socket: WebSocketTestSession) -> dict[str, Any]:
    """The next error message on a socket (state messages before it are skipped)."""
    for _ in range(20):
        message: dict[str, Any] = json.loads(socket.receive_text())
        if message["type"] == "error":
            return message
    raise AssertionError("no error message came")


def test_http_error_in_the_asked_language(client: TestClient) -> None:
    english = client.get("/api/rooms/QQQQ")
    chinese = client.get("/api/rooms/QQQQ", headers={"Accept-Language": "zh-CN,zh;q=0.9"})
    by_query = client.get("/api/rooms/QQQQ?lang=zh-CN", headers={"Accept-Language": "en"})
    assert english.status_code == chinese.status_code == by_query.status_code == 404
    assert english.json()["code"] == chinese.json()["code"] == "room/not_found"
    assert set(chinese.json()) == set(english.json()) == {"code", "message"}
    assert chinese.json()["message"] == i18n.t("zh-CN", "error.room/not_found")
    assert by_query.json()["message"] == chinese.json()["message"]
    assert english.json()["message"] != chinese.json()["message"]


def test_validation_error_in_chinese(client: TestClient) -> None:
    answer = client.post("/api/rooms", json={"game": 5}, headers={"Accept-Language": "zh"})
    assert answer.status_code == 422
    assert answer.json() == {
        "code": "request/invalid",
        "message": i18n.t("zh-CN", "error.request/invalid"),
    }


def test_socket_errors_follow_each_receiver(client: TestClient) -> None:
    room = client.post("/api/rooms", json={"game": "disc-cover"}).json()
    code = room["code"]
    tokens = [
        client.post(f"/api/rooms/{code}/seats", json={"name": name}).json()["token"]
        for name in ("Ann", "Bo", "Cem")
    ]
    with (
        client.websocket_connect(f"/ws/{code}?token={tokens[0]}&lang=zh-CN") as zh,
        client.websocket_connect(f"/ws/{code}?token={tokens[1]}") as en,
    ):
        for socket in (zh, en):
            socket.send_text(json.dumps({"type": "cheat"}))
        zh_error, en_error = next_error(zh), next_error(en)
        assert zh_error["code"] == en_error["code"] == "message/unknown_type"
        assert zh_error["message"] == i18n.t("zh-CN", "error.message/unknown_type")
        assert en_error["message"].startswith("unknown message type")


def test_refused_socket_speaks_the_asked_language(client: TestClient) -> None:
    with client.websocket_connect("/ws/QQQQ?lang=zh-CN") as raw:
        error = raw.receive_json()
    assert error["code"] == "room/not_found"
    assert error["message"] == i18n.t("zh-CN", "error.room/not_found")


def test_catalogues_are_served(client: TestClient) -> None:
    for lang in i18n.LANGUAGES:
        answer = client.get(f"/i18n/{lang}.json")
        assert answer.status_code == 200
        assert answer.json() == i18n.catalogue(lang)
    assert client.get("/i18n/fr.json").status_code == 404
    assert client.get("/i18n/..%2Fapp.json").status_code == 404
