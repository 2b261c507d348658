"""The packages' import graph: no two modules import each other (directly or round a longer
circle), and the referee's package never imports the bot's, so the two implementations of the
rules check each other. The loss analysis (its own package) uses the bot's search; the arena's
command line is the only arena module that reaches it."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Dict, List, Set

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("analysis", "bot", "arena", "opponents")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, known: Set[str]) -> Set[str]:
    """The project modules ``path`` imports anywhere in its body (function-level included)."""
    found = set()
    package = module_name(path) if path.name == "__init__.py" else module_name(path.parent)
    for node in ast.walk(ast.parse(path.read_text())):
        names: List[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            # `from pkg import mod` imports the submodule; `from mod import name`, the module
            subs = [f"{base}.{a.name}" for a in node.names]
            names = [n for n in subs if n in known] or [base]
        found.update(n for n in names if n in known)
    return found


def graph() -> Dict[str, Set[str]]:
    files = [p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")]
    known = {module_name(p) for p in files}
    return {module_name(p): imports_of(p, known) - {module_name(p)} for p in files}


def circles(edges: Dict[str, Set[str]]) -> List[List[str]]:
    """Strongly connected components of more than one module (Tarjan's algorithm)."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    on_stack: Set[str] = set()
    found: List[List[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, ()):
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

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_the_circle_finder_finds_a_circle():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_module_imports_another_that_imports_it_back():
    assert circles(graph()) == []


def test_the_arena_never_imports_the_bot():
    leaks = {m: sorted(d for d in deps if d.split(".")[0] == "bot")
             for m, deps in graph().items() if m.split(".")[0] == "arena"}
    assert {m: d for m, d in leaks.items() if d} == {}


def test_only_the_arenas_command_line_reaches_the_analysis():
    users = {m for m, deps in graph().items()
             if m.split(".")[0] == "arena" and any(d.split(".")[0] == "analysis" for d in deps)}
    assert users == {"arena.__main__"}
