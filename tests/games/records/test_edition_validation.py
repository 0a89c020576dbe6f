"""Every missing or mistyped entry of the edition file is an EditionError that names its place.

The standard edition's TOML tree is walked: each key is deleted in turn, and each leaf (and each
table and list) is replaced by a value of another type. Whatever the change, the loader answers
with an :class:`EditionError` whose message holds the path of what changed
(``goals.cards[3].points``), or, for the few keys that have a documented default, loads.
"""

from __future__ import annotations

import copy
import re
import tomllib
from collections.abc import Iterator
from importlib import resources
from typing import Any

import pytest

from recordroom.games.records.edition import EditionError, load_edition, parse_edition

Path_ = tuple[str | int, ...]

OPTIONAL = {"solo", "goal_scale", "bonus", "cash"}
"""Keys with a default (docs/records-edition.md): deleting one may leave a valid edition."""


def _standard() -> dict[str, Any]:
    path = resources.files("recordroom.games.records") / "editions" / "standard.toml"
    return tomllib.loads(path.read_text(encoding="utf-8"))


STANDARD = _standard()


def _walk(node: Any, path: Path_ = ()) -> Iterator[tuple[Path_, Any]]:
    """Every (path, value) below the root, tables and lists included."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield (*path, key), value
            yield from _walk(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield (*path, index), value
            yield from _walk(value, (*path, index))


def _text(path: Path_) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


def _parent(data: Any, path: Path_) -> Any:
    for part in path[:-1]:
        data = data[part]
    return data


def _other_type(value: Any) -> list[Any]:
    """Values of other types than ``value``'s (a bool is not an int here, nor an int a float)."""
    if isinstance(value, bool):
        return ["yes", 1]
    if isinstance(value, int):
        return [str(value), True, value + 0.5]
    if isinstance(value, float):
        return [str(value), True]
    if isinstance(value, str):
        return [7, [value]]
    if isinstance(value, list):
        return ["list", {"0": "x"}]
    return [[], "table"]


def _keys(data: Any) -> list[Path_]:
    return [p for p, _ in _walk(data) if isinstance(p[-1], str)]


def _leaves_and_nodes(data: Any) -> list[Path_]:
    return [p for p, _ in _walk(data)]


KEYS = _keys(STANDARD)
PLACES = _leaves_and_nodes(STANDARD)


def _expect_error_at(data: dict[str, Any], path: Path_) -> None:
    try:
        parse_edition(data, "standard.toml")
    except EditionError as error:
        message = str(error)
    else:
        pytest.fail(f"{_text(path)}: the changed edition loaded")
    assert message.startswith("standard.toml: ")
    # The place named is what changed, or a place inside it (a table replaced by a list is
    # reported where its first missing key was expected).
    assert re.search(re.escape(_text(path)) + r"($|[.\[: ])", message), message


def test_the_walk_covers_the_whole_file() -> None:
    assert len(KEYS) > 900
    assert len(PLACES) > len(KEYS)
    assert {p[0] for p in KEYS} >= {"edition", "fail", "deck", "goals", "crew", "solo"}
    assert ("goals", "cards", 3, "points") in KEYS


def test_the_standard_edition_loads() -> None:
    assert parse_edition(copy.deepcopy(STANDARD), "standard.toml") == load_edition()


def _chunks(items: list[Path_], size: int) -> list[list[Path_]]:
    return [items[i : i + size] for i in range(0, len(items), size)]


@pytest.mark.parametrize("paths", _chunks(KEYS, 400), ids=lambda c: _text(c[0]))
def test_deleting_any_key(paths: list[Path_]) -> None:
    data = copy.deepcopy(STANDARD)  # changed in place and put back: a copy each is slow
    for path in paths:
        parent = _parent(data, path)
        value = parent.pop(path[-1])
        try:
            if path[-1] in OPTIONAL:
                try:
                    parse_edition(data, "standard.toml")
                except EditionError as error:
                    assert str(error).startswith("standard.toml: "), error
            else:
                _expect_error_at(data, path)
        finally:
            parent[path[-1]] = value
    assert data == STANDARD


@pytest.mark.parametrize("paths", _chunks(PLACES, 400), ids=lambda c: _text(c[0]))
def test_a_value_of_the_wrong_type_anywhere(paths: list[Path_]) -> None:
    data = copy.deepcopy(STANDARD)
    for path in paths:
        parent = _parent(data, path)
        value = parent[path[-1]]
        try:
            for wrong in _other_type(value):
                parent[path[-1]] = wrong
                _expect_error_at(data, path)
        finally:
            parent[path[-1]] = value
    assert data == STANDARD


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda d: d["goals"]["cards"][0].pop("role"), "goals.cards[0].role"),
        (lambda d: d["goals"]["cards"][10].pop("colour"), "goals.cards[10].colour"),
        (lambda d: d["goals"]["cards"][3].update(points=-1), "goals.cards[3].points"),
        (lambda d: d["edition"].update(colour="red"), "edition.colour"),
        (lambda d: d.pop("release"), "release"),
        (lambda d: d["release"].update(albums=None), "release.albums"),
        (lambda d: d["crew"]["slots"][0].update(cash="yes"), "crew.slots[0].cash"),
        (lambda d: d["solo"].update(goal_scale=True), "solo.goal_scale"),
        (lambda d: d["solo"].update(goal_scale=1.5), "solo.goal_scale"),
        (lambda d: d["deck"]["crew"][2]["sides"].append("red"), "deck.crew[2].sides"),
        (lambda d: d["deck"]["crew"][2]["sides"].__setitem__(1, "pink"), "deck.crew[2].sides[1]"),
        (lambda d: d["goals"]["cards"][4].update(id="G01"), "goals.cards[4].id"),
        (lambda d: d["harmonies"]["bonus_boxes"][1].update(column=9), "bonus_boxes[1].column"),
    ],
)
def test_named_places(change: Any, where: str) -> None:
    data = copy.deepcopy(STANDARD)
    change(data)
    with pytest.raises(EditionError) as caught:
        parse_edition(data, "standard.toml")
    assert where in str(caught.value)


def test_a_whole_file_of_the_wrong_shape() -> None:
    for data in ({}, {"edition": []}, {"deck": {"crew": "x"}}):
        with pytest.raises(EditionError, match=r"^standard.toml: "):
            parse_edition(data, "standard.toml")
