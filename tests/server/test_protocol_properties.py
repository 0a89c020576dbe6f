"""Hypothesis writes the messages: whatever a client sends, it gets a documented error code (or a
pong) and the room does not change.

The app runs in process (tests/server/helpers.py). Socket messages are any JSON (of any shape,
wrong types included), text that is no JSON, messages of every known type with fields of any
value, actions close to legal ones, huge strings and deep nesting; HTTP bodies the same, sent to
the calls of a started room. After each message a ping must be answered by a pong with nothing in
between (no state was sent, so nothing changed), and the room's public record stays the same.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from recordroom.engine.errors import Code

from .helpers import Socket, TestClient, host, new_room

CODES = {code.value for code in Code}
EXAMPLES = 60

JSON_LEAVES = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
)
JSON = st.recursive(
    JSON_LEAVES,
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner, max_size=5)
    ),
    max_leaves=15,
)
TYPES = st.sampled_from(["act", "ping", "take_back", "playing", "hold", "state", "error"])


def nested(depth: int, opener: str) -> str:
    """A list (``[``) or object (``{``) nested ``depth`` levels deep, as JSON text."""
    if opener == "{":
        return '{"a":' * depth + "1" + "}" * depth
    return "[" * depth + "1" + "]" * depth


def huge(size: int) -> str:
    return json.dumps({"type": "act", "version": 0, "action": {"type": "x" * size}})


def messages(legal: list[Any]) -> st.SearchStrategy[str]:
    """Socket texts: mostly wrong, in every way we can think of."""
    near_legal = st.builds(
        lambda action, key, value: json.dumps(
            {"type": "act", "version": 0, "action": {**action, key: value}}
        ),
        st.sampled_from(legal),
        st.text(max_size=6) | st.sampled_from(sorted({k for a in legal for k in a})),
        JSON,
    )
    return st.one_of(
        JSON.map(json.dumps),
        st.text(max_size=40),
        st.builds(
            lambda kind, fields: json.dumps({"type": kind, **fields}),
            TYPES | st.text(max_size=10),
            st.dictionaries(
                st.sampled_from(["version", "action", "seat", "turn"]) | st.text(max_size=6),
                JSON,
                max_size=4,
            ),
        ),
        st.builds(
            lambda version, action: json.dumps(
                {"type": "act", "version": version, "action": action}
            ),
            JSON,
            JSON | st.sampled_from(legal),
        ),
        near_legal,
        st.integers(60 * 1024, 70 * 1024).map(huge),
        st.builds(nested, st.integers(10, 3000), st.sampled_from(["[", "{"])),
    )


def accepted_as_is(text: str, version: int, legal: list[Any]) -> bool:
    """The few generated texts that are right: a legal action on the current version."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return False
    return (
        isinstance(value, dict)
        and value.get("type") == "act"
        and set(value) == {"type", "version", "action"}
        and type(value["version"]) is int
        and value["version"] == version
        and value["action"] in legal
    )


def public_record(client: TestClient, code: str) -> Any:
    """The room as anyone sees it, less the seconds each seat has been away (they grow)."""
    record = client.get(f"/api/rooms/{code}").json()
    for seat in record["seats"]:
        seat.pop("away", None)
    return record


@pytest.fixture
def started(make_client: Callable[..., TestClient]) -> tuple[TestClient, str, str, list[str]]:
    client = make_client(join_limit=(10**6, 60.0), lookup_limit=(10**6, 60.0))
    code, host_token, tokens = new_room(client, "records", 2)
    assert client.post(f"/api/rooms/{code}/start", headers=host(host_token)).status_code == 200
    return client, code, host_token, tokens


def test_any_socket_message(started: tuple[TestClient, str, str, list[str]]) -> None:
    client, code, _, tokens = started
    with client.websocket_connect(f"/ws/{code}?token={tokens[0]}") as ws:
        socket = Socket(ws)
        state = socket.recv_state()
        legal, version = state["legal_actions"], state["version"]
        record = public_record(client, code)

        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        )
        @given(text=messages(legal))
        def send_any(text: str) -> None:
            assume(not accepted_as_is(text, version, legal))
            socket.send(text)
            answer = socket.recv()
            if answer.get("type") == "pong":
                assert json.loads(text) == {"type": "ping"}
            else:
                assert answer["type"] == "error", answer
                assert answer["code"] in CODES, answer
                assert isinstance(answer["message"], str) and answer["message"]
            socket.send({"type": "ping"})
            assert socket.recv() == {"type": "pong"}, "something was sent besides the answer"

        send_any()
        assert public_record(client, code) == record
        # The room still plays: the legal action is taken on the same version.
        socket.send({"type": "act", "version": version, "action": legal[0]})
        assert socket.recv_state()["version"] == version + 1


BODIES = st.one_of(
    JSON.map(json.dumps),
    st.text(max_size=40),
    st.dictionaries(
        st.sampled_from(["name", "level", "leader", "seat", "game", "options"]), JSON, max_size=3
    ).map(json.dumps),
    st.integers(60 * 1024, 70 * 1024).map(lambda n: json.dumps({"name": "x" * n})),
    st.builds(nested, st.integers(10, 3000), st.sampled_from(["[", "{"])),
)
CALLS = st.sampled_from(["seats", "bots", "start"])


def test_any_body_to_a_started_room(started: tuple[TestClient, str, str, list[str]]) -> None:
    client, code, host_token, _ = started
    record = public_record(client, code)

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(call=CALLS, body=BODIES, as_host=st.booleans())
    def post_any(call: str, body: str, as_host: bool) -> None:
        headers = {"content-type": "application/json", **(host(host_token) if as_host else {})}
        answer = client.post(f"/api/rooms/{code}/{call}", content=body, headers=headers)
        assert 400 <= answer.status_code < 500, (answer.status_code, answer.text)
        refusal = answer.json()
        assert set(refusal) == {"code", "message"}, refusal
        assert refusal["code"] in CODES, refusal
        assert public_record(client, code) == record

    post_any()


def test_any_body_to_create_a_room(make_client: Callable[..., TestClient]) -> None:
    client = make_client(join_limit=(10**6, 60.0), lookup_limit=(10**6, 60.0))

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(body=BODIES)
    def create_any(body: str) -> None:
        headers = {"content-type": "application/json"}
        answer = client.post("/api/rooms", content=body, headers=headers)
        if answer.status_code == 201:  # a valid creation (an object naming a game) is fine
            assert set(answer.json()) == {"code", "host_token"}
        else:
            assert 400 <= answer.status_code < 500, (answer.status_code, answer.text)
            assert answer.json()["code"] in CODES, answer.text

    create_any()
