"""compile.sh on a folder laid out as the course's: each Sourcecode/<id>/ builds into
so/<id>.so with the course's flags and plays in the arena; a source that does not compile is
named, loses its old library, and does not stop the others."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from arena.core.players import make_player
from arena.core.players.python import PythonPlayer
from arena.core.referee import play_game
from records.board import Board

SCRIPT = Path(__file__).resolve().parents[2] / "compile.sh"

POINT_H = """\
#ifndef POINT_H_
#define POINT_H_
class Point {
public:
    int x, y;
    Point(int x, int y) : x(x), y(y) {}
};
#endif
"""

# The course's ABI (RULES.md); the leftmost open column, chosen in a second source file.
STRATEGY_CPP = """\
#include "Point.h"
int leftmost(const int N, const int* top);
extern "C" Point* getPoint(const int M, const int N, const int* top, const int* board,
                           const int lastX, const int lastY, const int noX, const int noY) {
    int y = leftmost(N, top);
    return new Point(top[y] - 1, y);
}
extern "C" void clearPoint(Point* p) { delete p; }
"""

CHOICE_CPP = """\
int leftmost(const int N, const int* top) {
    for (int y = 0; y < N; y++)
        if (top[y] > 0) return y;
    return 0;
}
"""


def compile_sh(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", str(SCRIPT), *args], capture_output=True, text=True,
                          timeout=120)


@pytest.fixture
def course(tmp_path: Path) -> Path:
    """Sourcecode/42 (two sources and a header), a broken 13 with a stale so/13.so, and a
    folder without sources."""
    good = tmp_path / "Sourcecode" / "42"
    good.mkdir(parents=True)
    (good / "Point.h").write_text(POINT_H)
    (good / "Strategy.cpp").write_text(STRATEGY_CPP)
    (good / "Choice.cpp").write_text(CHOICE_CPP)
    broken = tmp_path / "Sourcecode" / "13"
    broken.mkdir()
    (broken / "Point.h").write_text(POINT_H)
    (broken / "Strategy.cpp").write_text(STRATEGY_CPP.replace("return new", "return nw"))
    (tmp_path / "Sourcecode" / "notes").mkdir()
    (tmp_path / "so").mkdir()
    (tmp_path / "so" / "13.so").write_text("the library of an older source")
    return tmp_path


def leftmost(M, N, top, board, last_x, last_y, no_x, no_y):
    y = next(c for c in range(N) if top[c] > 0)
    return top[y] - 1, y


def test_each_source_folder_builds_into_a_library_that_plays(course: Path) -> None:
    done = compile_sh("--course", str(course))
    assert done.returncode == 1  # 13 failed
    assert done.stdout.split() == ["so/42.so"]
    assert "compile.sh: 13 failed to build" in done.stderr
    assert "compile.sh: Sourcecode/notes/ has no .cpp file, skipped" in done.stderr
    assert sorted(p.name for p in (course / "so").iterdir()) == ["42.so"]
    with make_player("42", {"so": str(course / "so" / "42.so")}) as lib:
        outcome = play_game(lib, PythonPlayer("leftmost", leftmost), Board(9, 10, 4, 5), 3.0)
    twin = play_game(*[PythonPlayer("leftmost", leftmost)] * 2, Board(9, 10, 4, 5), 3.0)
    assert not outcome.faulter and outcome.reason == "four in a row"
    assert outcome.moves == twin.moves  # the library plays the leftmost open column too


def test_all_sources_building_exits_zero(course: Path) -> None:
    (course / "Sourcecode" / "13" / "Strategy.cpp").write_text(STRATEGY_CPP + CHOICE_CPP)
    done = compile_sh("--course", str(course))
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["so/13.so", "so/42.so"]


@pytest.mark.parametrize("args, message", [
    (["--course"], "--course needs a folder"),
    (["--fast"], "usage: bash compile.sh"),
])
def test_bad_arguments_are_refused(args: list, message: str) -> None:
    done = compile_sh(*args)
    assert done.returncode != 0 and message in done.stderr and done.stdout == ""
