"""Fixtures of the whole suite: nothing a test does writes outside temporary folders.

* The user's cache (``$XDG_CACHE_HOME``, else ``~/.cache``) holds the demo music, its cue points
  and font caches. Every test session points ``XDG_CACHE_HOME`` at a folder of pytest's temporary
  tree instead, shared by the workers of one run (the demo tracks are written under names of
  their own and renamed into place, so workers may fill it together), and the servers that the
  browser tests start as subprocesses inherit it (tests/web/conftest.py passes it on).
* Hypothesis keeps no example database in the work tree (``.hypothesis/``): the examples of a
  run are drawn from its seed alone.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

settings.register_profile("recordroom", database=None, deadline=None)
settings.load_profile("recordroom")

CACHE_VARIABLE = "XDG_CACHE_HOME"


def session_cache_dir(factory: pytest.TempPathFactory) -> Path:
    """The run's cache folder: under the run's temporary base, shared by xdist workers."""
    base = factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # each worker's base is a folder of the run's own base
    folder = base / "xdg-cache"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="session", autouse=True)
def temporary_user_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """``XDG_CACHE_HOME`` for the whole session, put back as it was at the end."""
    folder = session_cache_dir(tmp_path_factory)
    before = os.environ.get(CACHE_VARIABLE)
    os.environ[CACHE_VARIABLE] = str(folder)
    yield folder
    if before is None:
        os.environ.pop(CACHE_VARIABLE, None)
    else:
        os.environ[CACHE_VARIABLE] = before
