"""The module import graph of ``arbiter/``: no cycle, and every floor imports only below it.

DESIGN.md, Layout: floors, bottom up, ``core`` → ``games`` → ``bots`` → ``desks``,
``tournament``, ``viewer`` (the replay page), ``archive`` → ``cli``; a floor imports only
floors below it, ``core`` never imports an engine, no engine imports a desk. The graph is
built from the source with ``ast``: every ``import`` and ``from … import`` statement,
those inside functions included (an import deferred to call time is still a dependency).
Imports by computed name (``importlib``: the registry's engines, the Om effects package)
are not edges: they are how a floor reaches up without depending on what is there.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ARBITER = Path(__file__).resolve().parents[2] / "arbiter"
FLOORS = {
    "core": 0,
    "games": 1,
    "peer": 1,
    "bots": 2,
    "desks": 3,
    "tournament": 3,
    "viewer": 3,
    "archive": 3,
    "ratings": 3,
    "cli": 4,
    "play": 4,
    "export": 4,
    "spectate": 4,
}
"""Top-level package → its floor (DESIGN.md, Layout)."""
SIDE_BY_SIDE = 3
"""The floor whose packages import none of each other."""
TOP = {"arbiter": 0, "arbiter.releases": 0, "arbiter.__main__": 4}
"""Modules at arbiter's top level: the package itself and the release table sit with the
core (they import nothing but the version); ``python -m arbiter`` is the CLI. Any other
module there sits on no floor (the clock was one, imported by the core: issue 24)."""


def module_name(path: Path, root: Path) -> str:
    """Return the dotted name of the module at ``path`` (a package's ``__init__``: the package)."""
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(root: Path) -> dict[str, Path]:
    """Return every module under ``root`` by dotted name."""
    return {module_name(p, root): p for p in sorted(root.rglob("*.py"))}


def _imports(tree: ast.AST, name: str, is_package: bool) -> Iterator[tuple[str, list[str], int]]:
    """Yield ``(module, names imported from it, line)`` for every import in ``tree``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, [], node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = name.split(".") if is_package else name.split(".")[:-1]
                package = package[: len(package) - (node.level - 1)]
                base = ".".join([*package, base] if base else package)
            yield base, [a.name for a in node.names], node.lineno


def graph(root: Path) -> dict[str, dict[str, int]]:
    """Return module → {imported module of ``root``'s package → first line importing it}.

    ``from pkg import name`` depends on ``pkg.name`` when that is a module, else on ``pkg``.
    """
    mods = modules(root)
    top = root.name
    out: dict[str, dict[str, int]] = {}
    for name, path in mods.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        edges: dict[str, int] = {}
        for base, names, line in _imports(tree, name, path.name == "__init__.py"):
            targets = [f"{base}.{n}" for n in names if f"{base}.{n}" in mods]
            if len(targets) < len(names) or not names:
                targets.append(base)
            for target in targets:
                if (
                    target in mods
                    and target != name
                    and (target == top or target.startswith(top + "."))
                ):
                    edges.setdefault(target, line)
        out[name] = edges
    return out


def cycles(edges: dict[str, dict[str, int]]) -> list[list[str]]:
    """Return one cycle (a path back to its start) per strongly connected component."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan's algorithm; the graph is small enough to recurse
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges.get(v, {})):
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
                components.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return [_cycle_in(c, edges) for c in sorted(components)]


def _cycle_in(component: list[str], edges: dict[str, dict[str, int]]) -> list[str]:
    """Return a shortest cycle through the component's first module (breadth first)."""
    members = set(component)
    start = component[0]
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for v in frontier:
            for w in sorted(edges[v]):
                if w == start:
                    return [*paths[v], start]
                if w in members and w not in paths:
                    paths[w] = [*paths[v], w]
                    following.append(w)
        frontier = following
    raise AssertionError(f"no cycle through {start}")  # pragma: no cover


def floor(name: str) -> int | None:
    """Return a module's floor (``None``: a module the table does not place)."""
    if name in TOP:
        return TOP[name]
    parts = name.split(".")
    return FLOORS.get(parts[1]) if len(parts) > 1 else None


def climbs(edges: dict[str, dict[str, int]]) -> list[str]:
    """Return every import of a module on a higher floor or on no floor, and every import
    between two packages of the floor above the bots (desks, tournament, viewer, archive
    stand side by side)."""
    out = []
    for name, targets in sorted(edges.items()):
        mine = floor(name)
        if mine is None:
            continue  # reported by test_every_module_has_a_floor
        for target, line in sorted(targets.items()):
            theirs = floor(target)
            if theirs is None:
                out.append(f"{name} (line {line}) imports {target}, which sits on no floor")
            elif theirs > mine or (
                mine == theirs == SIDE_BY_SIDE and name.split(".")[1] != target.split(".")[1]
            ):
                out.append(f"{name} (line {line}) imports {target}")
    return out


@pytest.fixture(scope="module")
def edges() -> dict[str, dict[str, int]]:
    return graph(ARBITER)


def test_every_module_has_a_floor(edges: dict[str, dict[str, int]]) -> None:
    assert [m for m in edges if floor(m) is None] == []


def test_no_import_cycle(edges: dict[str, dict[str, int]]) -> None:
    found = cycles(edges)
    assert not found, "import cycles:\n" + "\n".join(" -> ".join(c) for c in found)


def test_every_floor_imports_only_below_it(edges: dict[str, dict[str, int]]) -> None:
    found = climbs(edges)
    assert not found, "imports up the floors (DESIGN.md, Layout):\n" + "\n".join(found)


# -- the checker checks: a small package with a function-level cycle and a climb ---------


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "arbiter"
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def test_a_function_level_import_cycle_is_found(tmp_path: Path) -> None:
    root = _package(
        tmp_path,
        {
            "__init__.py": "",
            "core/__init__.py": "",
            "core/a.py": "from arbiter.core import b\n",
            "core/b.py": "def f():\n    from arbiter.core.c import g\n",
            "core/c.py": "def g():\n    from . import a\n",
            "core/d.py": "import arbiter.core.a\n",
        },
    )
    assert cycles(graph(root)) == [
        ["arbiter.core.a", "arbiter.core.b", "arbiter.core.c", "arbiter.core.a"]
    ]


def test_an_import_up_the_floors_is_found(tmp_path: Path) -> None:
    root = _package(
        tmp_path,
        {
            "__init__.py": "",
            "core/__init__.py": "",
            "core/x.py": "def f():\n    from arbiter.games.g import engine\n",
            "games/__init__.py": "",
            "games/g/__init__.py": "",
            "games/g/engine.py": "from arbiter.core import x\n",
            "desks/__init__.py": "from arbiter.tournament import t\n",
            "tournament/t.py": "",
        },
    )
    assert climbs(graph(root)) == [
        "arbiter.core.x (line 2) imports arbiter.games.g.engine",
        "arbiter.desks (line 1) imports arbiter.tournament.t",
    ]
