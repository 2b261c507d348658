"""The engine client (arena/engine/client.py) against the real `python -m bot --analyse`, and the
positions it accepts (arena/engine/position.py): the first line comes at once, a stop ends the
analysis, a closed engine leaves no process, proofs are marked, a set-up no game reaches is
refused with one line before the engine sees it, and the pool keeps to its cap."""

import pytest

from arena.children.reaper import in_session
from arena.engine.client import Engine, EngineError, EnginePool, PoolClosed
from arena.engine.limit import Limit
from arena.engine.position import PositionError, from_moves, from_rows
from records.board import Board
from records.move import Move
from records.result import Outcome, Seat, WinChance

BOARD = Board(9, 9, 0, 0)
# X to move wins at (8, 3): X holds (8, 0..2); O's (7, 0..2) wait above them
WIN_IN_ONE = [[8, 0], [7, 0], [8, 1], [7, 1], [8, 2], [7, 2]]
# X to move must block O's (8, 1..3) at (8, 4): every other move lets O win next
ONE_SAFE = [[8, 0], [8, 1], [8, 8], [8, 2], [7, 8], [8, 3]]


@pytest.fixture()
def engine():
    e = Engine()
    yield e
    e.close()


def by_move(line):
    return {tuple(m["move"]): m for m in line.raw["moves"]}


def test_the_first_line_comes_before_any_search_and_a_stop_ends_the_analysis(engine):
    analysis = engine.analyse(from_moves(BOARD, [[8, 4]]), Limit())
    first = analysis.get(timeout=10)
    assert first.done is False and first.raw["playouts"] == 0
    assert len(first.moves) == 9  # every column is open
    engine.stop()
    lines = list(analysis)
    assert lines[-1].done is True and lines[-1].raw["reason"] == "stopped"
    assert analysis.get(timeout=0.1) is None  # nothing after the final line


def test_a_win_in_one_is_marked_proven_and_played(engine):
    final = list(engine.analyse(from_moves(BOARD, WIN_IN_ONE), Limit(5)))[-1]
    assert final.raw["reason"] == "proven" and final.best == Move(8, 3)
    assert final.raw["proof"] == {"result": "win", "plies": 1} and final.proof is Outcome.WIN
    assert final.chance == WinChance(1.0, Seat.FIRST) and final.pov(Seat.SECOND) == 0.0
    assert (final.moves[3].proof, final.moves[3].plies) == (Outcome.WIN, 1)
    assert by_move(final)[(8, 3)]["proof"] == {"result": "win", "plies": 1}


def test_with_one_safe_move_every_other_move_is_proven_lost(engine):
    final = list(engine.analyse(from_moves(BOARD, ONE_SAFE), Limit(playouts=2000)))[-1]
    moves = by_move(final)
    assert final.best == Move(8, 4)
    assert moves.pop((8, 4))["proof"] is None
    assert {m: line["proof"]["result"] for m, line in moves.items()} == {
        m: "loss" for m in moves}


def test_a_set_up_position_is_analysed_from_its_cells(engine):
    setup = from_moves(BOARD, WIN_IN_ONE)
    final = list(engine.analyse(from_rows(BOARD, setup.rows()), Limit(5)))[-1]
    assert final.best == Move(8, 3) and final.proof is Outcome.WIN


def test_the_next_position_of_a_game_keeps_the_tree(engine):
    list(engine.analyse(from_moves(BOARD, [[8, 4]]), Limit(playouts=3000)))
    best = list(engine.analyse(from_moves(BOARD, [[8, 4], [7, 4]]), Limit(playouts=100)))[-1]
    assert best.raw["reused"] > 0


def test_a_closed_engine_leaves_no_process_and_refuses_requests():
    engine = Engine()
    engine.analyse(from_moves(BOARD, []), Limit(60)).get(timeout=10)
    assert in_session(engine.pid) != []
    analysis = engine.analyse(from_moves(BOARD, [[8, 4]]), Limit())
    engine.close()
    engine.close()  # idempotent
    assert in_session(engine.pid) == []
    with pytest.raises(EngineError):
        list(analysis)  # its final line never comes: it says the engine is gone
    with pytest.raises(EngineError):
        engine.analyse(from_moves(BOARD, []), Limit())


def test_the_pool_hands_out_at_most_cap_engines_and_kills_what_it_gets_back():
    pool = EnginePool(cap=1)
    first = pool.acquire()
    assert pool.acquire(timeout=0.05) is None
    pool.release(first)
    assert in_session(first.pid) == [] and pool.in_use == 0
    second = pool.acquire(timeout=0.05)
    assert second is not None and second.alive
    pool.close()
    assert in_session(second.pid) == [] and not second.alive
    with pytest.raises(PoolClosed):
        pool.acquire(timeout=0.05)


EMPTY = ["." * 9] * 9


@pytest.mark.parametrize("rows, message", [
    (EMPTY[:7] + ["X........", "........."], "a floating piece at (7, 0): the cell (8, 0)"),
    (EMPTY[:8] + ["XX......."], "2 first-player and 0 second-player pieces"),
    (EMPTY[:8] + ["O........"], "0 first-player and 1 second-player pieces"),
    (["X........"] + ["O........", "X........"] * 4, "a piece on the forbidden cell (0, 0)"),
    (EMPTY[:8] + ["XXXX.OOO."], "a four is already on the board"),
    (EMPTY[:5] + ["X........"] * 3 + ["XOOO....."], "a four is already on the board"),
])
def test_a_set_up_no_game_reaches_is_refused_with_its_line(rows, message):
    with pytest.raises(PositionError, match="^" + message.replace("(", r"\(").replace(")", r"\)")):
        from_rows(BOARD, rows)


def test_a_full_board_is_refused():
    rows = [("." if i == 0 else r[0]) + r[1:] for i, r in enumerate(
        ["XXOOXXOOX", "OOXXOOXXO", "XXOOXXOOX", "OOXXOOXXO"] * 2 + ["XXOOXXOOX"])]
    assert sum(r.count("X") for r in rows) - sum(r.count("O") for r in rows) in (0, 1)
    with pytest.raises(PositionError, match="the board is full"):
        from_rows(BOARD, rows)


@pytest.mark.parametrize("moves, message", [
    ([[8, 4], [6, 4]], "move 2 (6, 4) is not legal there"),
    ([[0, 0]], "move 1 (0, 0) is not legal there"),
    ([[8, 9]], "move 1 (8, 9) is not legal there"),
    ([[8, 1], [7, 1], [8, 2], [7, 2], [8, 3], [7, 3], [8, 4]],
     "the game is over: move 7 makes a four"),
    ([[8, 1], [7, 1], [8, 2], [7, 2], [8, 3], [7, 3], [8, 4], [7, 4]],
     "move 8 (7, 4) comes after the game ended with a four"),
    ([[8, "1"]], "moves[0]: expected [x, y]"),
    ("8.1", "moves: expected a list"),
])
def test_a_move_list_no_game_plays_or_a_finished_game_is_refused(moves, message):
    with pytest.raises(PositionError, match="^" + message.replace("(", r"\(").replace(
            ")", r"\)").replace("[", r"\[").replace("]", r"\]")):
        from_moves(BOARD, moves)


def test_a_position_reached_by_moves_is_the_same_set_up_by_cells():
    by_moves = from_moves(BOARD, ONE_SAFE)
    by_cells = from_rows(BOARD, by_moves.rows())
    assert by_cells.cells == by_moves.cells and by_cells.moves is None
    assert by_moves.to_move == by_cells.to_move == 1
    assert by_moves.rows()[8] == "XOOO....X" and by_moves.rows()[7] == "........X"
