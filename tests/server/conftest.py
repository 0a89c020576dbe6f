"""Fixtures for the server tests: apps on a temporary data folder, inside their lifespan."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from recordroom.server import create_app

from .helpers import TestClient, settings


@pytest.fixture
def make_client(tmp_path: Path) -> Iterator[Callable[..., TestClient]]:
    """Starts apps (on ``tmp_path`` unless told) and stops them after the test."""
    opened: list[TestClient] = []

    def make(data_dir: Path | None = None, **changes: Any) -> TestClient:
        client = TestClient(create_app(settings(data_dir or tmp_path, **changes)))
        client.__enter__()
        opened.append(client)
        return client

    yield make
    for client in reversed(opened):
        client.__exit__(None, None, None)


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> TestClient:
    """One app on the test's temporary folder."""
    return make_client()
