"""The course's faults of a library's entry points, beside test_core_shared_lib.py's: a library
with no getPoint at all (-3 as A, -4 as B, as for a missing clearPoint), and one that crashes
inside clearPoint, after getPoint returned its point (3 as A, 5 as B: a bug)."""
import pytest

from arena.core.players import make_player
from arena.core.referee import play_game
from hostile.build import build_libraries
from records.board import Board
from records.codes import Code, FaultKind
from records.result import Side

LIMIT = 30.0  # no move of these games may time out, however busy the machine


@pytest.fixture(scope="module")
def course_libs(tmp_path_factory):
    return build_libraries(tmp_path_factory.mktemp("so"), ["NO_GET", "CLEAR_SEGV"])


@pytest.mark.parametrize("name, kind, words, codes", [
    ("no_get", FaultKind.NO_ENTRY, "getPoint", (Code.A_NO_ENTRY, Code.B_NO_ENTRY)),
    ("clear_segv", FaultKind.CRASH, "SIGSEGV in getPoint/clearPoint", (Code.A_BUG, Code.B_BUG)),
], ids=["no getPoint", "crash in clearPoint"])
@pytest.mark.parametrize("seat", [1, 2], ids=["first", "second"])
def test_a_library_s_entry_point_fault_has_its_course_code(name, kind, words, codes, seat,
                                                           course_libs, mark_env,
                                                           leftmost_player):
    spec = {"so": course_libs[name], "env": mark_env, "load_timeout": 30}
    with make_player(name, spec) as hostile:
        players = (hostile, leftmost_player) if seat == 1 else (leftmost_player, hostile)
        outcome = play_game(*players, Board(9, 10, 4, 5), LIMIT)
    assert (outcome.faulter, outcome.fault_kind) == (seat, kind), outcome.reason
    assert words in outcome.fault_detail
    if kind == FaultKind.NO_ENTRY:
        assert outcome.moves == []  # found at load, before any move
    # Side.A: the game's first player is the pairing's A (its result file's first line)
    assert (outcome.code(Side.A), outcome.code(Side.B)) == (codes[seat - 1], codes[2 - seat])
