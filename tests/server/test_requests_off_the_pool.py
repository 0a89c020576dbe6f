"""The HTTP routes never hand a request to the thread pool to read the app's hub, count a rate
limit or read a token.

A plain function given to FastAPI as a dependency runs in the thread pool: the same pool that
bots think in and heavy pages are built in. A request then waited for a free thread just to
read ``app.state``, and each hand-off cost the event loop about a millisecond under load (a
profile of ``bench/server_load.py`` put a tenth of the loop's time in "play again" requests,
most of it there). The dependencies are coroutines now: a request goes to the pool only for work
that needs it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import fastapi.dependencies.utils
import fastapi.routing
import pytest

from recordroom.server.app import create_app

from .helpers import TOY_NAME, TestClient, host, new_room, settings


def test_the_room_routes_answer_without_the_thread_pool(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    handed: list[str] = []

    def counting(real: Callable[..., Any]) -> Callable[..., Any]:
        async def run(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
            handed.append(getattr(function, "__name__", repr(function)))
            return await real(function, *args, **kwargs)

        return run

    for module in (fastapi.dependencies.utils, fastapi.routing):
        monkeypatch.setattr(module, "run_in_threadpool", counting(module.run_in_threadpool))
    code, host_token, _ = new_room(client, TOY_NAME, 2, {"rounds": 1})
    assert client.get(f"/api/rooms/{code}").status_code == 200
    assert client.post(f"/api/rooms/{code}/start", headers=host(host_token)).is_success
    assert (
        client.get(f"/api/rooms/{code}/log").status_code == 409
    )  # not over yet: refused, still answered
    assert client.get("/api/rooms/ZZZZ").status_code == 404
    assert client.post(f"/api/rooms/{code}/start", headers=host("wrong")).status_code == 403
    assert handed == []


def test_the_routes_dependencies_are_coroutines(tmp_path: Any) -> None:
    """Every dependency of every route of the app (the same check over the whole app: a plain
    function added later would go to the pool again)."""
    app = create_app(settings(tmp_path))
    plain = []
    for route in app.routes:
        dependant = getattr(route, "dependant", None)
        todo = list(dependant.dependencies) if dependant is not None else []
        while todo:
            dependency = todo.pop()
            todo.extend(dependency.dependencies)
            call = dependency.call
            if call is not None and not fastapi.dependencies.utils.is_coroutine_callable(call):
                plain.append(f"{getattr(route, 'path', route)}: {call.__name__}")
    assert plain == []
