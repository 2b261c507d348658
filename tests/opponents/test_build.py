"""opponents/build.py: the one native build (the course's flags), and the native UCT built on
first use where it can be written."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from arena.core.players.python import PythonPlayer
from arena.core.players.shared_lib import SharedLibPlayer
from arena.core.referee import play_game
from opponents import build
from records.board import Board

LEFTMOST = """\
#include "point.h"
extern "C" Point* getPoint(const int M, const int N, const int* top, const int* board,
                           const int lastX, const int lastY, const int noX, const int noY) {
    for (int y = 0; y < N; y++) if (top[y] > 0) return new Point(top[y] - 1, y);
    return new Point(-1, -1);
}
extern "C" void clearPoint(Point* p) { delete p; }
"""
POINT_H = "struct Point { int x, y; Point(int a, int b) : x(a), y(b) {} };\n"
SCRIPT = Path(build.__file__)


def leftmost(M, N, top, board, last_x, last_y, no_x, no_y):
    y = next(c for c in range(N) if top[c] > 0)
    return top[y] - 1, y


def test_a_cpp_source_with_a_header_beside_it_builds_into_a_library_that_plays(tmp_path):
    (tmp_path / "point.h").write_text(POINT_H)
    (tmp_path / "leftmost.cpp").write_text(LEFTMOST)
    library = build.compile_library([tmp_path / "leftmost.cpp"], tmp_path / "out" / "l.so")
    assert library == tmp_path / "out" / "l.so"
    assert [p.name for p in library.parent.iterdir()] == ["l.so"]  # no partial file left
    with SharedLibPlayer("lib", str(library)) as lib:
        outcome = play_game(lib, PythonPlayer("leftmost", leftmost), Board(9, 10, 4, 5), 3.0)
    twin = play_game(*[PythonPlayer("leftmost", leftmost)] * 2, Board(9, 10, 4, 5), 3.0)
    assert not outcome.faulter and outcome.moves == twin.moves


def test_a_source_that_does_not_compile_leaves_no_library(tmp_path, capfd):
    (tmp_path / "bad.c").write_text("int getPoint( {\n")
    with pytest.raises(build.BuildError, match="exited with status"):
        build.compile_library([tmp_path / "bad.c"], tmp_path / "bad.so", defines=["MODE_X"])
    assert list(tmp_path.iterdir()) == [tmp_path / "bad.c"]
    assert "bad.c" in capfd.readouterr().err  # the compiler's own message


def test_the_native_uct_is_built_once_and_again_when_its_source_is_newer(tmp_path):
    library = build.native_uct(tmp_path / "uct.so")
    built = library.stat().st_mtime_ns
    assert build.native_uct(library).stat().st_mtime_ns == built
    older = build.UCT_SOURCE.stat().st_mtime - 10
    os.utime(library, (older, older))
    assert build.native_uct(library).stat().st_mtime > older


def test_an_installed_arena_caches_under_xdg_cache_home(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert build.cache_dir() == tmp_path / "connect4-arena"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert build.cache_dir() == tmp_path / "home" / ".cache" / "connect4-arena"


def test_the_command_line_builds_one_library_and_refuses_no_sources(tmp_path):
    source = tmp_path / "s.c"
    source.write_text("int answer(void) { return 42; }\n")
    done = subprocess.run([sys.executable, str(SCRIPT), str(tmp_path / "s.so"), str(source)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == str(tmp_path / "s.so")
    done = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2 and done.stderr.startswith("usage:")
