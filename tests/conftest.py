"""Fixtures of the whole suite: nothing a test does writes outside temporary folders.

* The user's cache (``$XDG_CACHE_HOME``, else ``~/.cache``) holds the demo music, its cue points
  and font caches. Every test session points ``XDG_CACHE_HOME`` at a folder of the system's
  temporary folder instead (``<tmp>/recordroom-tests-<uid>/cache``). It is kept from one run to
  the next, as the user cache was, because making the demo playlist costs about 15 s of CPU:
  made afresh in every run, it slowed the start of every server the tests launch. Workers and
  runs may fill it together (the demo tracks and the cue cache are written under names of their
  own and renamed into place). The servers that the tests start as subprocesses inherit it.
* Hypothesis keeps no example database in the work tree (``.hypothesis/``): the examples of a
  run are drawn from its seed alone.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

settings.register_profile("recordroom", database=None, deadline=None)
settings.load_profile("recordroom")

CACHE_VARIABLE = "XDG_CACHE_HOME"


def session_cache_dir() -> Path:
    """The tests' cache folder, inside the system's temporary folder, one per user."""
    folder = Path(tempfile.gettempdir()) / f"recordroom-tests-{os.getuid()}" / "cache"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="session", autouse=True)
def temporary_user_cache() -> Iterator[Path]:
    """``XDG_CACHE_HOME`` for the whole session, put back as it was at the end."""
    folder = session_cache_dir()
    before = os.environ.get(CACHE_VARIABLE)
    os.environ[CACHE_VARIABLE] = str(folder)
    yield folder
    if before is None:
        os.environ.pop(CACHE_VARIABLE, None)
    else:
        os.environ[CACHE_VARIABLE] = before


def _expected_length(item: pytest.Item) -> int:
    """Longest first: the browser games, then the conformance cases, then everything else."""
    if item.get_closest_marker("browser") or item.get_closest_marker("slow"):
        return 0
    if item.nodeid.startswith("tests/test_conformance.py::test_conformance"):
        return 1
    return 2


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Runs the long tests first, so that the two workers of ``make test`` end together instead
    of one waiting for the other's last browser game (xdist hands out tests in this order)."""
    items.sort(key=_expected_length)
