"""Every module of swarm_memory imports, and the package's modules import one another
without a cycle.

The graph is read from the source, not from what an import happens to run: every `import`
and `from ... import` statement of a module counts, those inside functions too (an import
put off into a function still ties the two modules together; it only hides the cycle from
the first import). A `from package import name` where name is a module of the package is an
edge to that module.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
from pathlib import Path

import pytest
import swarm_memory

PACKAGE = "swarm_memory"


def modules(root: Path, package: str) -> dict[str, Path]:
    """Every module of the package under `root` (its folder) by dotted name, packages by
    their __init__.py."""
    found = {package: root / "__init__.py"}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
            if not parts:
                continue
        found[".".join((package, *parts))] = path
    return found


def _absolute(module: str, is_package: bool, level: int, name: str | None) -> str:
    """The dotted name a relative `from` import names, seen from `module`."""
    if level == 0:
        return name or ""
    base = module.split(".")
    base = base if is_package else base[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join([*base, name] if name else base)


def import_graph(root: Path, package: str) -> dict[str, set[str]]:
    """module -> the modules of the package it imports, from every import statement of its
    source (at any depth: functions, conditionals, TYPE_CHECKING blocks)."""
    known = modules(root, package)
    graph: dict[str, set[str]] = {name: set() for name in known}

    def inside(name: str) -> str | None:
        """The nearest module of the package that `name` is or lies in."""
        while name:
            if name in known:
                return name
            name = name.rpartition(".")[0]
        return None

    for module, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        is_package = path.name == "__init__.py"
        for node in ast.walk(tree):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                source = _absolute(module, is_package, node.level, node.module)
                for alias in node.names:
                    sub = f"{source}.{alias.name}"
                    targets.append(sub if sub in known else source)
            for target in targets:
                found = inside(target)
                if found is not None and found != module:
                    graph[module].add(found)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles of the graph, one path each (a module, what it imports, ..., back
    to the module): one per strongly connected component of more than one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[set[str]] = []

    def visit(node: str) -> None:
        # Tarjan's algorithm; the graph is small enough for recursion
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
            component = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(component)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return [_path_through(graph, component) for component in components]


def _path_through(graph: dict[str, set[str]], component: set[str]) -> list[str]:
    """A cycle inside a strongly connected component, as a path that ends where it began."""
    start = min(component)
    path, seen = [start], {start}
    node = start
    while True:
        nxt = min(n for n in graph[node] if n in component)
        if nxt in seen:
            return path[path.index(nxt) :] + [nxt]
        path.append(nxt)
        seen.add(nxt)
        node = nxt


ROOT = Path(swarm_memory.__file__).resolve().parent
MODULES = sorted(modules(ROOT, PACKAGE))


@pytest.mark.parametrize("name", MODULES)
def test_every_module_imports(name):
    module = importlib.import_module(name)
    assert module.__name__ == name


def test_the_walk_finds_every_module():
    walked = {m.name for m in pkgutil.walk_packages(swarm_memory.__path__, f"{PACKAGE}.")}
    assert walked | {PACKAGE} == set(MODULES)


def test_no_import_cycle():
    found = cycles(import_graph(ROOT, PACKAGE))
    assert not found, "import cycles:\n  " + "\n  ".join(" -> ".join(c) for c in found)


def test_a_cycle_hidden_in_a_function_is_found(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("from pkg.sub import b as b\n")
    (pkg / "a.py").write_text("from pkg.sub.b import load\n")
    (pkg / "sub" / "b.py").write_text(
        "def load():\n    from .. import a\n\n    return a\n"  # relative, in a function
    )
    (pkg / "c.py").write_text("from pkg import a\n")
    graph = import_graph(pkg, "pkg")
    assert graph["pkg.a"] == {"pkg.sub.b"}
    assert graph["pkg.sub.b"] == {"pkg.a"}
    assert graph["pkg.c"] == {"pkg.a"}
    assert cycles(graph) == [["pkg.a", "pkg.sub.b", "pkg.a"]]
    (pkg / "sub" / "b.py").write_text("def load():\n    return None\n")
    assert cycles(import_graph(pkg, "pkg")) == []
