"""The layers of the code (docs/architecture.md): no import circles anywhere in the package,
no interface importing a game, a core importing nothing outside itself, and every game in its
own folder (issue 9: "one game, one folder")."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

import citywatch
from citywatch.core.registry import game_names, load

ROOT = Path(citywatch.__file__).parent
INTERFACES = ("citywatch.terminal", "citywatch.server", "citywatch.env", "citywatch.lab",
              "citywatch.coach",
              "citywatch.simulate", "citywatch.tournament", "citywatch.cli", "citywatch.bots",
              "citywatch.reference", "citywatch.saves", "citywatch.perft")
"""Modules and packages that present or drive games: they talk to the core API only."""


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def _runtime_nodes(tree: ast.AST) -> Iterator[ast.AST]:
    """Every node except those under ``if TYPE_CHECKING:`` (annotations only)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            yield from (n for child in node.orelse for n in [child, *_runtime_nodes(child)])
            continue
        yield node
        yield from _runtime_nodes(node)


def imports(name: str) -> set[str]:
    """The citywatch modules that module ``name`` imports when it runs (in a function or not)."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in _runtime_nodes(ast.parse(path.read_text(), str(path))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join([*package.split(".")[:len(package.split(".")) - node.level + 1],
                                 *([base] if base else [])])
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base
                       for alias in node.names]
        found.update(t for t in targets if t in MODULES and t != name)
    return found


GRAPH = {name: imports(name) for name in MODULES}


def circles() -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(GRAPH[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(GRAPH):
        if v not in index:
            visit(v)
    return found


def test_the_import_graph_is_read_correctly() -> None:
    """The checker itself: it sees module-level and function-level imports of both forms."""
    assert "citywatch.core.api" in GRAPH["citywatch.core.record"]
    assert "citywatch.core.rng" in GRAPH["citywatch.core.api"]
    assert "citywatch.core.presentation" not in GRAPH["citywatch.core.api"]  # TYPE_CHECKING
    assert "citywatch.terminal.app" in GRAPH["citywatch.cli.play"]  # imported inside a function


def test_no_import_circles() -> None:
    """Every module reads bottom-up: no two modules import each other, however indirectly."""
    assert circles() == []


@pytest.mark.parametrize("interface", INTERFACES)
def test_interfaces_do_not_import_games(interface: str) -> None:
    """Interfaces reach a game only through the registry and the core API."""
    for name, targets in GRAPH.items():
        if name == interface or name.startswith(interface + "."):
            games = sorted(t for t in targets if t.startswith("citywatch.games"))
            assert games == [], f"{name} imports {games}"


def test_the_core_imports_only_the_core() -> None:
    """``citywatch.core`` depends on nothing else of citywatch."""
    for name, targets in GRAPH.items():
        if name.startswith("citywatch.core"):
            outside = sorted(t for t in targets if not t.startswith("citywatch.core"))
            assert outside == [], f"{name} imports {outside}"


def test_each_game_lives_in_its_own_folder() -> None:
    """A game's modules import only the core and their own folder, never another game."""
    for game in game_names():
        package = type(load(game)).__module__.rpartition(".")[0]
        for name, targets in GRAPH.items():
            if name.startswith(package + ".") or name == package:
                strays = sorted(t for t in targets if t.startswith("citywatch.")
                                and not t.startswith(("citywatch.core", package)))
                allowed = [t for t in strays if t.startswith("citywatch.bots")]
                assert strays == allowed, f"{name} imports {strays}"
