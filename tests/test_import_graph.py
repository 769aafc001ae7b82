"""
The package's modules import each other one way: no cycle, function-level imports included.

A cycle hidden by an import inside a function still makes two modules one
unit: neither can be read, tested or changed without the other.  The graph
is read from the source (every ``import`` and ``from ... import`` anywhere in
a module, type-checking blocks included), not from what Python happened to
load.
"""

from __future__ import annotations

import ast
from pathlib import Path

import localdata_errors

PACKAGE = Path(localdata_errors.__file__).resolve().parent
NAME = "localdata_errors"


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _targets(path: Path, modules: set[str]) -> set[str]:
    """The package's modules that *path* imports (a name from a package counts as the package)."""
    here = _module_name(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            # `from pkg import sub` imports the module pkg.sub; `from pkg import
            # name` imports pkg (a package's own __init__ runs before any of
            # its modules in every case, so that alone is no edge).
            names = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                for alias in node.names
            ]
        else:
            continue
        for name in names:
            module = name
            while module and module not in modules:
                module = module.rpartition(".")[0]
            if module and module != here:
                found.add(module)
    return found


def import_graph() -> dict[str, set[str]]:
    """Each module of the package and the package's modules it imports."""
    paths = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    modules = set(paths)
    return {name: _targets(path, modules) for name, path in paths.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        groups.append(sorted(group))
    return groups


def test_the_reading_sees_the_imports_the_package_has() -> None:
    graph = import_graph()
    assert f"{NAME}._classify" in graph[NAME]
    assert f"{NAME}.mcp" in graph[f"{NAME}.mcp.server"]


def test_a_cycle_is_found_where_there_is_one() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]


def test_the_package_has_no_import_cycle() -> None:
    assert cycles(import_graph()) == []


#: The package's public modules besides the package itself: what users import
#: by path (the compliance suite, the retry predicates, the history, the
#: prompts, logging and metrics, DB-API helpers, the adapters, the SQL tool
#: server, the backends' mappers that entry points name).  Everything else is
#: private, and the public names are the package's ``__all__``.
PUBLIC_MODULES = {
    "testing",
    "retry",
    "history",
    "prompts",
    "observability",
    "dbapi",
    "integrations",
    "mcp",
    "backends",
}


def test_every_other_module_is_private() -> None:
    modules = {p.stem for p in PACKAGE.glob("*.py")} | {
        p.parent.name for p in PACKAGE.glob("*/__init__.py")
    }
    public = {n for n in modules if not n.startswith("_")}
    assert public <= PUBLIC_MODULES, public - PUBLIC_MODULES


def test_the_public_names_are_importable_from_the_package() -> None:
    assert all(hasattr(localdata_errors, name) for name in localdata_errors.__all__)
    assert "classify_error" in localdata_errors.__all__
