"""One vocabulary of error codes: the enum, the package's source and docs/protocol.md agree."""

from __future__ import annotations

import ast
import json
import re
from enum import StrEnum
from pathlib import Path

import orjson
import pytest
from pydantic import BaseModel

import recordroom
from recordroom.engine import errors
from recordroom.engine.errors import Code, RulesError
from recordroom.games.records.game import AlreadyDone, DoneRefused, UndoRefused
from recordroom.server.errors import CloseCode
from recordroom.server.protocol import ErrorMessage, ErrorOut

PACKAGE = Path(recordroom.__file__).parent
PROTOCOL = PACKAGE.parent / "docs" / "protocol.md"
ENUM_MODULES = {PACKAGE / "engine" / "errors.py", PACKAGE / "server" / "errors.py"}
CODE_SHAPE = re.compile(r"[a-z_]+/[a-z_]+")
FAMILIES = {code.value.split("/")[0] for code in Code}


def _source_files() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if p not in ENUM_MODULES)


def _string_constants(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    ]


def _documented_codes() -> set[str]:
    text = PROTOCOL.read_text(encoding="utf-8")
    table = text.split("## Errors", 1)[1].split("\n## ", 1)[0]
    codes: set[str] = set()
    for line in table.splitlines():
        if line.startswith("| `"):
            first_cell = line.split("|")[1]
            codes.update(re.findall(r"`([^`]+)`", first_cell))
    return codes


def _literal_codes(path: Path) -> list[str]:
    # A string shaped like a code whose family is one of the codes' families ("room/...",
    # "action/...") is a code, known or new: it belongs in the enum. MIME types and paths
    # ("audio/ogg", "runs/learned") are of other families.
    return [
        f"{path.name}:{line}: {value!r}"
        for line, value in _string_constants(path)
        if CODE_SHAPE.fullmatch(value) and value.split("/")[0] in FAMILIES
    ]


def test_no_module_spells_a_code_of_its_own() -> None:
    files = _source_files()
    assert len(files) > 50
    assert [hit for path in files for hit in _literal_codes(path)] == []


def test_the_scan_finds_a_literal_code(tmp_path: Path) -> None:
    module = tmp_path / "old_way.py"
    module.write_text(
        'raise ServerError("bot/level", "no such bots", 422)\n'
        'reply = {"code": "room/not_found"}\n'
        'media = "audio/ogg"\n',
        encoding="utf-8",
    )
    assert _literal_codes(module) == [
        "old_way.py:1: 'bot/level'",
        "old_way.py:2: 'room/not_found'",
    ]


def test_no_module_spells_a_close_code_of_its_own() -> None:
    found = [
        f"{path.relative_to(PACKAGE.parent)}:{node.lineno}: {node.value}"
        for path in _source_files()
        if path.parent.name == "server"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant)
        and type(node.value) is int
        and (4000 <= node.value <= 4999 or node.value == CloseCode.SLOW_READER)
    ]
    assert found == []


def test_the_protocol_table_lists_exactly_the_codes() -> None:
    documented = _documented_codes()
    assert documented, "no code found in docs/protocol.md's Errors table"
    assert sorted(documented - set(Code)) == []
    assert sorted(set(Code) - documented) == []


def test_every_engine_error_carries_an_enum_member() -> None:
    classes = [
        c for c in vars(errors).values() if isinstance(c, type) and issubclass(c, RulesError)
    ]
    assert len(classes) >= 7
    for cls in classes:
        assert isinstance(cls.code, Code), cls
    for cls in (UndoRefused, DoneRefused, AlreadyDone):
        assert isinstance(cls.code, Code), cls


def test_codes_are_unique_and_shaped() -> None:
    values = [code.value for code in Code]
    assert len(values) == len(set(values))
    assert all(CODE_SHAPE.fullmatch(value) for value in values)
    assert issubclass(Code, StrEnum)


@pytest.mark.parametrize("code", list(Code))
def test_a_code_is_its_string_on_the_wire(code: Code) -> None:
    message = ErrorMessage(code=code, message="m")
    assert json.loads(message.model_dump_json())["code"] == code.value
    assert message.model_dump()["code"] == code.value
    assert type(message.model_dump()["code"]) is str
    assert orjson.loads(orjson.dumps({"code": code})) == {"code": code.value}
    assert json.loads(json.dumps({"code": code})) == {"code": code.value}
    assert f"{code}" == str(code) == code.value
    assert ErrorOut(code=code, message="m").model_dump() == {"code": code.value, "message": "m"}


def test_close_codes_are_ints_on_the_wire() -> None:
    assert {int(c) for c in CloseCode} == {4000, 4403, 4404, 4429, 1008}

    class Closed(BaseModel):
        close: int

    assert Closed(close=CloseCode.RATE_LIMITED).model_dump_json() == '{"close":4429}'
