"""The analysis protocol (bot/protocol/analyse.py, docs/protocol.md) against the bot's own
search: the best move is the move the bot plays at the same budget and seed, the proven marks
agree with hand-checked positions and with the exact solver, and the lines carry what the
protocol says."""

from __future__ import annotations

import io
import json
import os
import random
import threading
from pathlib import Path
from typing import Dict, List

import pytest

from bot.__main__ import build_searcher, parse_args
from bot.choose import choose_move
from bot.protocol.analyse import Request, analyse, parse_request, serve
from bot.protocol.lines import FdLines
from bot.rules import DRAW, LOSS, WIN, InvalidPosition, Position, bits, parse_board
from bot.search.clock import Limit
from bot.search.mcts import MCTS
from bot.search.solver import Solver

RESULT = {"win": WIN, "draw": DRAW, "loss": LOSS}
CASES: List[dict] = json.loads(
    (Path(__file__).resolve().parent / "data" / "recorded_moves.json").read_text())


def analysed(position: Position, limit: Limit, searcher: MCTS) -> List[dict]:
    """The lines of one analysis, its input open and silent (nothing stops it early)."""
    read, write = os.pipe()
    out = io.StringIO()
    try:
        analyse(Request(position, limit), FdLines(read), out, searcher)
    finally:
        os.close(read)
        os.close(write)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def by_column(line: dict) -> Dict[int, dict]:
    return {m["move"][1]: m for m in line["moves"]}


def case_position(case: dict) -> Position:
    position = Position.new(case["M"], case["N"], case["no_x"], case["no_y"])
    for x, y in case["moves"]:
        position = position.play_xy(x, y)
    return position


@pytest.mark.parametrize("index", range(0, len(CASES), 4))
def test_the_best_move_is_the_move_the_bot_plays(index):
    """At a play-out cap and seed, the final line's best move is choose_move's at the same
    cap and seed (tests/bot/data/recorded_moves.json's positions), with the searcher the
    analysing process builds."""
    case = CASES[index]
    position = case_position(case)
    playouts, seed = case["playouts"], case["seed"]
    last = case["moves"][-1] if case["moves"] else (-1, -1)
    played = choose_move(position.geo.M, position.geo.N, position.top(), position.board(),
                         last[0], last[1], case["no_x"], case["no_y"], Limit(playouts=playouts),
                         build_searcher(parse_args(["--playouts", str(playouts),
                                                    "--seed", str(seed)])))
    searcher = build_searcher(parse_args(["--analyse", "--seed", str(seed)]))
    lines = analysed(position, Limit(playouts=playouts), searcher)
    final = lines[-1]
    assert final["done"] and not any(line["done"] for line in lines[:-1])
    assert tuple(final["best"]) == played
    assert final["reason"] in ("budget", "proven")
    if final["reason"] == "budget":
        assert final["playouts"] == playouts
    assert [m["move"] for m in final["moves"]] == [
        list(position.xy(b)) for b in sorted(bits(position.possible()), key=position.geo.column)]
    assert final["pv"][0] == final["best"]
    for move in final["moves"]:  # each column's own line starts with it and stays legal
        assert move["pv"][:1] == [move["move"]]
    assert by_column(final)[final["best"][1]]["pv"] == final["pv"]


def test_each_column_line_is_the_tree_reply_under_it():
    """The top lines: a column visited enough to have a reply in the tree has a line that
    goes on past it, the tree's preferred reply."""
    position = parse_board([
        ".........", ".........", ".........", ".........", ".........", ".........",
        ".........", "....O....", "....X...."], (0, 8))
    final = analysed(position, Limit(playouts=2000), MCTS(seed=4))[-1]
    visited = [m for m in final["moves"] if m["visits"] > 50]
    assert len(visited) >= 3 and all(len(m["pv"]) >= 2 for m in visited)
    assert len({tuple(map(tuple, m["pv"])) for m in visited}) == len(visited)


def test_a_win_in_one_is_marked_and_played():
    position = parse_board([
        ".........", ".........", ".........", ".........", ".........", ".........",
        ".........", "OOO......", "XXX......"], (0, 8))
    final = analysed(position, Limit(playouts=500), MCTS(seed=1))[-1]
    assert final["best"] == [8, 3] and final["reason"] == "proven"
    assert final["proof"] == {"result": "win", "plies": 1}
    assert by_column(final)[3]["proof"] == {"result": "win", "plies": 1}
    assert by_column(final)[3]["pv"] == [[8, 3]]  # a win now: the line ends there


def test_one_safe_move_the_others_proven_lost():
    """The opponent wins on (8, 3): every other move loses in two plies."""
    position = parse_board([
        ".........", ".........", ".........", ".........", ".........", ".........",
        ".........", "XX.......", "OOO......"], (0, 8))
    final = analysed(position, Limit(playouts=300), MCTS(seed=2))[-1]
    moves = by_column(final)
    assert final["best"] == [8, 3]
    for column, move in moves.items():
        if column == 3:
            assert move["proof"] is None or move["proof"]["result"] != "loss"
            assert move["visits"] > 0
        else:
            assert move["proof"] == {"result": "loss", "plies": 2}
            assert move["visits"] == 0 and move["value"] is None


def test_a_double_threat_is_a_win_in_three():
    """X at (8, 2) and (8, 3): (8, 1) or (8, 4) makes two threats on the bottom row."""
    position = parse_board([
        ".........", ".........", ".........", ".........", ".........", ".........",
        ".........", "..OO.....", "..XX....."], (0, 8))
    final = analysed(position, Limit(playouts=1000), MCTS(seed=3))[-1]
    moves = by_column(final)
    assert final["proof"]["result"] == "win"
    assert final["best"] in ([8, 1], [8, 4])
    assert {"result": "win", "plies": 3} in (moves[1]["proof"], moves[4]["proof"])
    assert final["proof"]["plies"] == 3
    assert final["pv"][:1] == [final["best"]]


def endgame(rng: random.Random, empties: int) -> Position:
    """A position after random quiet moves (none hands over a win at once) with ``empties``
    cells left, no win now and two or more safe moves: one the search must work on."""
    while True:
        position = Position.new(9, 9, rng.randrange(9), rng.randrange(9))
        while 80 - position.ply > empties:
            quiet = position.non_losing_moves() & ~position.winning_cells()
            if not quiet:
                break
            position = position.play_bit(rng.choice(list(bits(quiet))))
        safe = position.non_losing_moves()
        if (80 - position.ply == empties and not position.can_win_now()
                and safe & (safe - 1)):
            return position


def exact(position: Position, move: int) -> int:
    """The exact result of ``move`` for the side to move in ``position`` (the solver)."""
    child = position.play_bit(move)
    if child.last_mover_won():
        return WIN
    if child.is_full():
        return DRAW
    if child.can_win_now() or not child.non_losing_moves():
        return LOSS if child.can_win_now() else WIN
    replies = Solver().solve_moves(child)
    assert len(replies) == bin(child.non_losing_moves()).count("1") or WIN in replies.values()
    return -max(replies.values())


@pytest.mark.parametrize("seed", range(6))
def test_the_proven_marks_agree_with_the_solver(seed):
    """On endgames of 14 empty cells, every move the analysis marks proven (and the root)
    has the exact solver's value; the analysis proves some of them."""
    position = endgame(random.Random(seed), 14)
    final = analysed(position, Limit(playouts=2000), MCTS(seed=seed))[-1]
    marked = 0
    for m in final["moves"]:
        if m["proof"] is not None:
            marked += 1
            move = position.geo.bit(*m["move"])
            assert RESULT[m["proof"]["result"]] == exact(position, move), m
    assert marked
    if final["proof"] is not None:
        values = [exact(position, b) for b in bits(position.possible())]
        assert RESULT[final["proof"]["result"]] == max(values)


def test_updates_come_before_the_final_line_and_count_up():
    position = case_position(CASES[0])
    lines = analysed(position, Limit(seconds=0.6), MCTS(seed=4))
    assert len(lines) >= 3 and lines[-1]["done"] and lines[-1]["reason"] == "budget"
    assert lines[0]["playouts"] == 0  # the first line comes before the search
    playouts = [line["playouts"] for line in lines]
    assert playouts == sorted(playouts) and playouts[-1] > 0
    final = lines[-1]
    assert sum(m["visits"] for m in final["moves"]) <= final["playouts"] + final["reused"]
    assert final["depth"] >= len(final["pv"]) - 1 >= 1
    for m in final["moves"]:
        assert m["value"] is None or 0 <= m["value"] <= 1


@pytest.mark.parametrize("line, message", [
    ("hello", "not JSON"),
    ("[1, 2]", "not a JSON object"),
    ('{"stop": false}', "a stop is"),
    ('{"M": 9, "N": 9, "no": [8, 4], "moves": [], "colour": 1}', "unknown field"),
    ('{"M": 9, "N": 9, "no": [8, 4]}', "exactly one of moves or board"),
    ('{"M": 8, "N": 9, "no": [7, 4], "moves": []}', "board size 8x9"),
    ('{"M": 9, "N": 9, "no": [9, 4], "moves": []}', "forbidden cell (9, 4)"),
    ('{"M": 9, "N": 9, "no": [8, true], "moves": []}', "no: expected [x, y]"),
    ('{"M": 9, "N": 9, "no": [8, 4], "moves": [[8, 4]]}', "moves[0]: move (8, 4) is not legal"),
    ('{"M": 9, "N": 9, "no": [8, 4], "moves": [[7, 0]]}', "moves[0]: move (7, 0) is not legal"),
    ('{"M": 9, "N": 9, "no": [0, 0], "moves": [[8, 0], [8, 1], [7, 0], [7, 1], [6, 0], '
     '[6, 1], [5, 0]]}', "a four is on the board"),
    ('{"M": 9, "N": 9, "no": [0, 0], "moves": [[8, 0], [8, 1], [7, 0], [7, 1], [6, 0], '
     '[6, 1], [5, 0], [5, 1]]}', "moves[7]: the game is over"),
    ('{"M": 9, "N": 9, "no": [8, 4], "moves": [], "seconds": 0}', "seconds: expected"),
    ('{"M": 9, "N": 9, "no": [8, 4], "moves": [], "seconds": NaN}', "seconds: expected"),
    ('{"M": 9, "N": 9, "no": [8, 4], "moves": [], "playouts": 1.5}', "playouts: expected"),
    ('{"M": 9, "N": 9, "no": [8, 4], "board": ["........."]}', "board: expected 9 strings"),
    ('{"M": 9, "N": 9, "no": [0, 8], "board": [".........", ".........", ".........", '
     '".........", ".........", ".........", ".........", "X........", "........."]}',
     "floating"),
    ('{"M": 9, "N": 9, "no": [0, 8], "board": [".........", ".........", ".........", '
     '".........", ".........", ".........", ".........", ".........", "XX......."]}',
     "2 X and 0 O, which no turn order gives"),
    ('{"M": 9, "N": 9, "no": [8, 0], "board": [".........", ".........", ".........", '
     '".........", ".........", ".........", ".........", ".........", "XO......."]}',
     "a piece sits on the forbidden cell"),
    ('{"M": 9, "N": 9, "no": [0, 8], "board": [".........", ".........", ".........", '
     '".........", ".........", "O........", "O........", "O........", "XXXX....O"]}',
     "a four is on the board"),
])
def test_unreachable_or_malformed_requests_are_refused(line, message):
    with pytest.raises(InvalidPosition) as caught:
        parse_request(line)
    assert message in str(caught.value)


def test_a_full_board_is_refused():
    """A full board without a four (vertical pairs, alternating along the rows)."""
    rows = ["".join("." if (x, y) == (0, 8) else "XO"[(((8 - x) // 2) + y) % 2]
                    for y in range(9)) for x in range(9)]
    with pytest.raises(InvalidPosition, match="the board is full"):
        parse_request(json.dumps({"M": 9, "N": 9, "no": [0, 8], "board": rows}))


def test_a_board_and_its_moves_are_the_same_position():
    request = parse_request('{"M": 9, "N": 9, "no": [8, 4], "moves": [[8, 3], [7, 3], [8, 2]],'
                            ' "seconds": 1.5}')
    board = parse_request('{"M": 9, "N": 9, "no": [8, 4], "board": [".........", ".........",'
                          ' ".........", ".........", ".........", ".........", ".........",'
                          ' "...O.....", "..XX....."], "playouts": 10}')
    assert request.position.key() == board.position.key()
    assert request.limit == Limit(1.5, None) and board.limit == Limit(None, 10)
    assert parse_request('{"stop": true}') is None


def test_serve_answers_bad_lines_and_serves_on():
    """An over-long line is one error as a whole, a blank line and a stop with nothing to
    stop get no answer, and a position after them is analysed; end of input (already
    waiting here) ends that analysis as a stop does."""
    read, write = os.pipe()
    text = ("x" * 100_000 + "\n\n[]\n" + '{"stop": true}\n'
            + json.dumps({"M": 9, "N": 9, "no": [8, 4], "moves": [[8, 0]]}) + "\n")

    def feed() -> None:
        os.write(write, text.encode())
        os.close(write)

    writer = threading.Thread(target=feed)
    writer.start()
    out = io.StringIO()
    try:
        serve(FdLines(read), out, MCTS(seed=5))
    finally:
        writer.join()
        os.close(read)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert lines[:2] == [{"error": "a line of over 65536 characters"},
                         {"error": "not a JSON object: '[]'"}]
    assert lines[-1]["done"] and lines[-1]["reason"] == "stopped"
    assert all(not line["done"] for line in lines[2:-1])
