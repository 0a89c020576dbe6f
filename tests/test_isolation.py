"""Tests write only into temporary folders: the user cache of a test session is one of them."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from recordroom.server.app import default_cache_dir


def test_the_user_cache_is_the_sessions_temporary_folder(temporary_user_cache: Path) -> None:
    assert os.environ["XDG_CACHE_HOME"] == str(temporary_user_cache)
    assert default_cache_dir() == temporary_user_cache / "recordroom"
    home_cache = Path.home() / ".cache"
    assert not default_cache_dir().is_relative_to(home_cache)
    assert temporary_user_cache.is_relative_to(tempfile.gettempdir())


def test_a_server_started_as_a_subprocess_uses_it_too(temporary_user_cache: Path) -> None:
    # What the browser tests' `recordroom serve` inherits.
    code = "from recordroom.server.app import default_cache_dir; print(default_cache_dir())"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert Path(out.stdout.strip()) == temporary_user_cache / "recordroom"
