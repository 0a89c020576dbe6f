"""The server tests' real Redis (tests/server/redis_fixture.py), for the tests of this folder.

The test folders are not one package, so the module is loaded from its path.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

_NAME = "recordroom_tests_redis_fixture"
if _NAME not in sys.modules:
    _spec = importlib.util.spec_from_file_location(
        _NAME, Path(__file__).resolve().parent.parent / "server" / "redis_fixture.py"
    )
    assert _spec is not None and _spec.loader is not None
    _module = importlib.util.module_from_spec(_spec)
    sys.modules[_NAME] = _module
    _spec.loader.exec_module(_module)
_fixture = sys.modules[_NAME]

RedisServer = _fixture.RedisServer
free_port = _fixture.free_port
redis_server = _fixture.redis_server

__all__ = ["RedisServer", "free_port", "redis_server"]
