"""The import graph, read from the source with `ast` (function-level imports included).

Arrows run one way, between modules and between packages. A package here is a top-level one
(records, arena, analysis, bot, opponents, hostile, devtools, bench) or one of the arena's rooms
(ROOMS: its sub-packages; no module sits directly in arena/ but its entry point), each a layer of
its own: the records sit at the bottom and import no other package; inside the arena each room
imports only the rooms ROOMS names below it, and only the command line reaches them all; the
loss analysis uses the bot's search and the records, and the arena's command line and the
suites' room are the only arena modules that reach it. The referee's package never imports the
bot's, so the two implementations of the rules check each other, bench/ never imports tests/,
and the shipped packages never import the development tooling (devtools, hostile, bench)."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Callable, Dict, List, Set

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("analysis", "arena", "bench", "bot", "devtools", "hostile", "opponents", "records")
# What `pip install .` ships (pyproject.toml); the others are development tooling.
SHIPPED = ("analysis", "arena", "bot", "opponents", "records")
# Each room of the arena and the rooms it may import: the child processes at the bottom, then
# the game core (rules, players, referee, tasks, the game worker, games in progress), the
# reports, the engine's analysis, the cluster's path, the batches, the test suites (built from
# games with the analysis's proofs, run by asking players), and the web app (its pages, the
# replay page `arena view` writes among them) on top of what it serves.
ROOMS = {
    "arena.children": set(),
    "arena.core": {"arena.children"},
    "arena.report": {"arena.core"},
    "arena.engine": {"arena.children", "arena.core"},
    "arena.cluster": {"arena.core"},
    "arena.batch": {"arena.children", "arena.core", "arena.report", "arena.cluster"},
    "arena.suite": {"arena.batch", "arena.children", "arena.core", "arena.engine"},
    "arena.web": {"arena.batch", "arena.core", "arena.engine", "arena.report", "arena.suite"},
}
ENTRY = ("arena", "arena.__main__")  # the package's docstring and its command line


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_names(path: Path) -> Set[str]:
    """Every module name ``path`` imports anywhere in its body, as written (absolute only)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.add(node.module)
    return found


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


def top_level(module: str) -> str:
    """The top-level package a module belongs to."""
    return module.split(".")[0]


def layer(module: str) -> str:
    """The package a module belongs to, an arena module's being its sub-package or itself."""
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] == "arena" and len(parts) > 1 else parts[0]


def package_graph(node: Callable[[str], str] = layer) -> Dict[str, Set[str]]:
    """Which package imports which, from the modules' graph (``node`` names a module's)."""
    edges: Dict[str, Set[str]] = {}
    for module, deps in graph().items():
        edges.setdefault(node(module), set()).update(
            node(d) for d in deps if node(d) != node(module))
    return edges


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


def test_the_package_graph_is_read_from_the_source():
    assert package_graph(top_level)["arena"] == {"analysis", "opponents", "records"}
    edges = package_graph()
    assert {"records", "bot"} <= edges["analysis"]
    assert "arena.core" in edges["arena.web"] and "records" in edges["arena.core"]
    assert set(ROOMS) <= set(edges)


def test_no_package_imports_another_that_imports_it_back():
    assert circles(package_graph(top_level)) == []
    assert circles(package_graph(layer)) == []


def test_the_records_import_no_other_package():
    assert package_graph()["records"] == set()


def test_the_arena_is_its_rooms_and_its_entry_point():
    loose = sorted(p.name for p in (ROOT / "arena").glob("*.py")
                   if module_name(p) not in ENTRY)
    rooms = sorted(f"arena.{p.name}" for p in (ROOT / "arena").iterdir()
                   if p.is_dir() and any(p.glob("*.py")))
    assert loose == [] and rooms == sorted(ROOMS)
    for room in ROOMS:
        assert ast.get_docstring(ast.parse((ROOT / room.replace(".", "/") / "__init__.py")
                                           .read_text())), room


def test_each_room_imports_only_the_rooms_below_it():
    edges = package_graph()
    above = {room: sorted(d for d in edges.get(room, ()) if d.startswith("arena.")
                          and d not in allowed)
             for room, allowed in ROOMS.items()}
    assert {room: deps for room, deps in above.items() if deps} == {}


def test_bench_imports_nothing_from_tests():
    """Neither as a package nor by the bare names that tests/ puts on sys.path."""
    test_modules = {"tests"} | {p.stem for p in (ROOT / "tests").rglob("*.py")}
    leaks = {script.name: sorted(n for n in imported_names(script)
                                 if n.split(".")[0] in test_modules)
             for script in (ROOT / "bench").glob("*.py")}
    assert {name: names for name, names in leaks.items() if names} == {}


def test_the_arena_reaches_the_opponents_only_for_their_native_build():
    reached = {d for m, deps in graph().items() if m.split(".")[0] == "arena"
               for d in deps if d.split(".")[0] == "opponents"}
    assert reached == {"opponents.build"}


def test_the_arena_never_imports_the_bot():
    leaks = {m: sorted(d for d in deps if d.split(".")[0] == "bot")
             for m, deps in graph().items() if m.split(".")[0] == "arena"}
    assert {m: d for m, d in leaks.items() if d} == {}


def test_only_the_arenas_command_line_and_the_suites_reach_the_analysis():
    """Each imports it only when it runs (`analyse`; a suite's build, whose exact questions are
    the analysis's), so the rest of the arena, a suite's run included, never loads the bot."""
    users = {m for m, deps in graph().items()
             if m.split(".")[0] == "arena" and any(d.split(".")[0] == "analysis" for d in deps)}
    assert users == {"arena.__main__"} | {m for m in users if m.startswith("arena.suite.")}
    assert "arena.suite.build" in users


def test_the_shipped_packages_import_no_development_tooling():
    include = re.search(r"^include = \[(.*)\]$", (ROOT / "pyproject.toml").read_text(), re.M)
    assert re.findall(r'"(\w+)\*"', include.group(1)) == list(SHIPPED)
    edges = package_graph(top_level)
    leaks = {package: sorted(edges.get(package, set()) - set(SHIPPED)) for package in SHIPPED}
    assert {package: names for package, names in leaks.items() if names} == {}
