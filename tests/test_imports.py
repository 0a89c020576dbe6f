"""The house has no import cycles, and the arrows point one way.

Every ``import`` statement of the package counts, wherever it stands (module level, inside a
function, under ``TYPE_CHECKING``): an import moved into a function to dodge a cycle is still a
cycle here. Importing a package's submodule is an edge to that submodule (the package's own
``__init__`` is an edge of its own, from the package).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "recordroom"


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _graph() -> dict[str, set[str]]:
    modules = {_module_name(p): p for p in ROOT.rglob("*.py")}
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")
                    anchor = anchor[: len(anchor) - node.level + 1]
                    base = ".".join([*anchor, base] if base else anchor)
                targets = [f"{base}.{alias.name}" for alias in node.names]
                targets = [t if t in modules else base for t in targets]
            for target in targets:
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    graph[name].add(target)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_finder_sees_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_module_of_the_house_imports_itself_back() -> None:
    assert _cycles(_graph()) == []


@pytest.mark.parametrize(
    ("room", "forbidden"),
    [
        ("recordroom.engine", ("recordroom.games", "recordroom.server", "recordroom.bots")),
        ("recordroom.games", ("recordroom.server", "recordroom.bots", "recordroom.web")),
        ("recordroom.bots", ("recordroom.server",)),
    ],
)
def test_arrows_point_one_way(room: str, forbidden: tuple[str, ...]) -> None:
    graph = _graph()
    wrong = sorted(
        f"{module} -> {target}"
        for module, targets in graph.items()
        if module == room or module.startswith(room + ".")
        for target in targets
        if any(target == f or target.startswith(f + ".") for f in forbidden)
    )
    assert wrong == []


def _particular_games(graph: dict[str, set[str]], room: str) -> list[str]:
    """The arrows from ``room`` to a particular game (the registry ``recordroom.games`` is fine)."""
    return sorted(
        f"{module} -> {target}"
        for module, targets in graph.items()
        if module == room or module.startswith(room + ".")
        for target in targets
        if target.startswith("recordroom.games.")
    )


def test_the_finder_sees_an_arrow_to_a_particular_game() -> None:
    graph = {
        "recordroom.server.app": {"recordroom.games", "recordroom.engine.game"},
        "recordroom.server.music": {"recordroom.games.quiz.bots"},
        "recordroom.serverless": {"recordroom.games.quiz"},
    }
    found = _particular_games(graph, "recordroom.server")
    assert found == ["recordroom.server.music -> recordroom.games.quiz.bots"]


def test_the_server_knows_no_particular_game() -> None:
    """What the server needs from a game comes through the contract or the registry."""
    assert _particular_games(_graph(), "recordroom.server") == []
