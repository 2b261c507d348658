"""bot.search.tactics.ForcedWin against hand-checked positions (bottom-row threes, a 3-ply
combination, the forbidden cell breaking a line) and against a brute-force minimax written
with Position's methods."""

from __future__ import annotations

import random
import time

import pytest

from bot.rules import Position, bits, parse_board
from bot.search import tactics
from bot.search.tactics import Budget, ForcedWin, ordered

EMPTY = "........."
PLENTY = Budget(10**7)  # nodes enough for every question here


def wins(search: ForcedWin, p: Position, depth: int) -> bool:
    """``search``'s answer whether the side to move in ``p`` forces a win within ``depth``
    plies, asked with PLENTY of nodes (so it answers)."""
    answer = search.settle(p.current, p.mask, depth, PLENTY)
    assert answer is not None
    return answer


def board(*lowest: str, forbidden=(0, 8)) -> Position:
    """A 9x9 position from its lowest rows, top first (X to move); the forbidden cell is the
    top-right corner, out of every line used here, unless a row shows ``#``."""
    rows = [EMPTY] * (9 - len(lowest)) + list(lowest)
    return parse_board(rows, no_cell=None if any("#" in r for r in rows) else forbidden)


def column(p: Position, col: int) -> int:
    return p.move_bit(col)


def opponent_wins_after(p: Position, col: int, depth: int) -> bool:
    after = p.play(col)
    return wins(ForcedWin(p.geo), after, depth)


def test_open_three_on_the_bottom_row_wins_within_one_ply():
    # X holds columns 2 and 3; column 4 leaves both 1 and 5 open.
    p = board("O.XX...O.")
    search = ForcedWin(p.geo)
    assert wins(search, p, 1)
    assert not wins(search, p, 0)
    assert p.geo.column(search.winning_move(p.current, p.mask, 1, PLENTY)) in (1, 4)


def test_defender_must_touch_the_line():
    # O holds 2 and 3; X to move. Column 8 lets O open both ends; 1 and 4 hold within 1 ply.
    p = board("X.OO...X.")
    assert opponent_wins_after(p, 8, 1)
    assert not opponent_wins_after(p, 4, 1)
    assert not opponent_wins_after(p, 1, 1)
    assert not opponent_wins_after(p, 8, 0)  # no look-ahead, no proof


def test_the_forbidden_cell_on_the_bottom_row_breaks_the_line():
    p = board("X.OO#..X.")
    assert not opponent_wins_after(p, 8, 3)


# X (to move): column 3 threatens (8,2); O must block there; X's (7,3) then makes 3-4-5 on
# row 7 with both (7,2) (above O's block) and (7,6) open. Column 2 works the same way.


def test_three_ply_combination_found_at_depth_three_only():
    p = board(".....O...", "O...XX...", "OX..XOO..")
    search = ForcedWin(p.geo)
    assert not wins(search, p, 1)
    assert wins(search, p, 3)
    assert p.geo.column(search.winning_move(p.current, p.mask, 3, PLENTY)) in (2, 3)


def test_forbidden_cell_just_above_a_piece_spoils_the_combination():
    # The same position with (7,6) forbidden (right above O's (8,6)): row 7 keeps only one
    # open end, and the 3-ply win is gone (a longer one remains).
    p = board(".....O...", "O...XX#..", "OX..XOO..")
    search = ForcedWin(p.geo)
    assert not wins(search, p, 3)
    assert search.winning_move(p.current, p.mask, 3, PLENTY) is None
    assert wins(search, p, 5)


def test_budget_runs_out_without_a_wrong_answer():
    p = board(EMPTY)
    search = ForcedWin(p.geo)
    assert search.winning_move(p.current, p.mask, 9, Budget(50)) is None
    assert search.settle(p.current, p.mask, 9, Budget(50)) is None
    assert search.nodes == 51  # the node that went over the budget ended the question


def test_time_bound_ends_a_question_without_an_answer():
    p = board(EMPTY)
    search = ForcedWin(p.geo)
    past = Budget(10**9, until=time.perf_counter() - 1.0)  # the 256th node gives up
    assert search.settle(p.current, p.mask, 9, past) is None
    assert search.nodes == 256
    assert search.settle(p.current, p.mask, 1, PLENTY) is False  # a new question, a new count
    assert search.nodes < 256


def test_the_interrupt_ends_a_question_without_an_answer():
    p = board(EMPTY)
    search = ForcedWin(p.geo)
    looks = []
    interrupted = Budget(10**9, interrupt=lambda: looks.append(1) or len(looks) > 1)
    assert search.settle(p.current, p.mask, 9, interrupted) is None
    assert search.nodes == 512 and len(looks) == 2  # a look every 256 nodes


def brute_wins(p: Position, plies: int) -> bool:
    """The side to move makes four within ``plies`` plies whatever the opponent does."""
    for col in p.legal_columns():
        child = p.play(col)
        if child.last_mover_won():
            return True
        if plies < 3 or child.is_full():
            continue
        replies = [child.play(r) for r in child.legal_columns()]
        if all(not r.last_mover_won() and brute_wins(r, plies - 2) for r in replies):
            return True
    return False


def quiet_position(rng: random.Random) -> Position:
    """A random position in which the side to move cannot win at once (so depth matters)."""
    while True:
        M, N = rng.choice((9, 10)), rng.choice((9, 10))
        p = Position.new(M, N, rng.randrange(M), rng.randrange(N))
        for _ in range(rng.randrange(8, 30)):
            nxt = p.play(rng.choice(p.legal_columns()))
            if nxt.last_mover_won() or nxt.is_full():
                break
            p = nxt
        if not p.winning_moves():
            return p


@pytest.mark.parametrize("seed", range(8))
def test_matches_brute_force_minimax(seed):
    # ForcedWin's depth counts the plies before the last one (a win "within d" ends with the
    # four on ply d + 2 at the latest): the entry checks see one more ply each side.
    rng = random.Random(seed)
    for _ in range(10):
        p = quiet_position(rng)
        search = ForcedWin(p.geo)
        for depth in range(4):
            assert wins(search, p, depth) == brute_wins(p, depth + 2), (p, depth)


def test_ordered_yields_each_move_once_killer_first():
    p = Position.new(9, 10, 4, 4)
    moves = p.possible()
    columns = tuple(p.geo.column_masks[y] for y in (5, 4, 6, 3, 7, 2, 8, 1, 9, 0))
    killer = p.move_bit(8)
    got = list(ordered(moves, killer, columns))
    assert got[0] == killer
    assert sorted(got) == sorted(bits(moves))
    assert [p.geo.column(m) for m in got[1:4]] == [5, 4, 6]
    # a killer that is not a move (here, a filled column's cell) is skipped
    assert list(ordered(moves, p.geo.bit(0, 8), columns)) == list(ordered(moves, 0, columns))


def test_answers_do_not_depend_on_earlier_questions():
    # One search asked many questions in a row (its killer moves and table warm) answers
    # each as a fresh search does: the move order changes only the speed.
    rng = random.Random(11)
    warm, wins_found = None, 0
    for _ in range(12):
        p = quiet_position(rng)
        if warm is None or warm.geo is not p.geo:
            warm = ForcedWin(p.geo)
        for depth in (3, 5):
            fresh = ForcedWin(p.geo)
            assert wins(warm, p, depth) == wins(fresh, p, depth)
            warm_move = warm.winning_move(p.current, p.mask, depth, PLENTY)
            fresh_move = fresh.winning_move(p.current, p.mask, depth, PLENTY)
            assert (warm_move is None) == (fresh_move is None)
            if warm_move is not None:  # the move it names really wins
                wins_found += 1
                after = p.play_bit(warm_move)
                for reply in after.legal_columns():  # no reply escapes (checked afresh)
                    child = after.play(reply)
                    assert not child.last_mover_won()
                    assert wins(ForcedWin(p.geo), child, depth - 2)
    assert wins_found  # the positions include forced wins, not only quiet ones


def test_threats_first_puts_forcing_then_threatening_moves_first():
    # Each move comes with the winning cells it leaves the mover (the child's, handed down),
    # and the moves keep their plain order within three groups: a winning cell the opponent
    # must fill at once, a new winning cell higher up, neither. The groups are computed here
    # from Position's own methods.
    rng = random.Random(3)
    seen = set()
    for _ in range(40):
        p = quiet_position(rng)
        search = ForcedWin(p.geo)
        mine, moves = p.geo.winning_cells(p.current, p.mask), p.non_losing_moves()
        group = {}
        for m in bits(moves):
            child = p.play_bit(m)  # the mover's stones are the child's opponent's
            made = child.opponent_winning_cells()
            group[m] = (0 if made & child.possible() else 1 if made & ~mine else 2, made)
        got = search._threats_first(p.current, p.mask, moves, 0, mine)
        plain = list(ordered(moves, 0, search.columns))
        assert got == [(m, group[m][1]) for m in sorted(plain, key=lambda m: group[m][0])]
        seen.update(g for g, _ in group.values())
    assert seen == {0, 1, 2}  # the positions exercise every group


@pytest.mark.parametrize("seed", range(4))
def test_threats_first_changes_the_nodes_not_the_answers(seed, monkeypatch):
    # The opponent's forced wins within 5 and 7 plies after each move of random positions.
    rng = random.Random(100 + seed)
    fewer = wins = 0
    for _ in range(4):
        p = quiet_position(rng)
        answers = []
        for order_depth in (4, 10**6):  # threats first from 4 plies left, then plain order
            monkeypatch.setattr(tactics, "ORDER_DEPTH", order_depth)
            search, nodes, got = ForcedWin(p.geo), 0, []
            for m in bits(p.possible()):
                after = p.play_bit(m)
                for depth in (5, 7):
                    got.append(search.settle(after.current, after.mask, depth, PLENTY))
                    nodes += search.nodes
            answers.append((got, nodes))
        (with_order, nodes), (plain, plain_nodes) = answers
        assert with_order == plain
        fewer += nodes < plain_nodes
        wins += sum(with_order)
    assert fewer and wins  # wins among the answers, and the grouping saves nodes somewhere
