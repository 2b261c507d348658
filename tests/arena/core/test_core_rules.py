"""The referee's board on hand-drawn positions (X first player, O second, # forbidden)."""
from arena.core.rules import Grid


def board_from(picture: str) -> Grid:
    """Rows top to bottom; the forbidden cell is '#'. ``top`` follows gravity from the bottom."""
    rows = picture.split()
    M, N = len(rows), len(rows[0])
    no_x, no_y = next((x, r.index("#")) for x, r in enumerate(rows) if "#" in r)
    b = Grid(M, N, no_x, no_y)
    for x, row in enumerate(rows):
        for y, ch in enumerate(row):
            b.cells[x * N + y] = {"X": 1, "O": 2}.get(ch, 0)
    for y in range(N):
        x = M - 1
        while x >= 0 and rows[x][y] != ".":
            x -= 1
        b.top[y] = x + 1
    return b


EMPTY_ROW = "........."


def test_forbidden_cell_on_bottom_row_is_skipped():
    b = Grid(9, 10, 8, 4)
    assert b.top[4] == 8 and b.top[3] == 9
    assert not b.is_legal(8, 4)
    assert b.is_legal(7, 4)
    b.play(7, 4, 1)
    assert b.top[4] == 7


def test_piece_below_forbidden_cell_jumps_over_it():
    b = Grid(9, 9, 6, 2)
    for x in (8, 7):
        b.play(x, 2, 1)
    assert b.top[2] == 6  # landed at row 7, right below the forbidden row 6: next is row 5
    assert not b.is_legal(6, 2) and b.is_legal(5, 2)


def test_column_with_only_forbidden_cell_left_is_full():
    b = Grid(9, 9, 0, 0)
    for x in range(8, 0, -1):
        b.play(x, 0, 1 + x % 2)
    assert b.top[0] == 0
    assert not b.is_legal(0, 0)


def test_illegal_moves_are_rejected():
    b = Grid(9, 9, 4, 4)
    assert not b.is_legal(7, 0)  # floating
    assert not b.is_legal(9, 0) and not b.is_legal(8, -1) and not b.is_legal(8, 9)
    b.play(8, 0, 1)
    assert not b.is_legal(8, 0)  # occupied


def test_four_in_a_row_in_all_four_directions():
    horizontal = board_from("\n".join([EMPTY_ROW] * 7 + ["#........", ".XXXXO..."]))
    assert horizontal.four_through(8, 3) == [(8, 1), (8, 2), (8, 3), (8, 4)]
    vertical = board_from("\n".join([EMPTY_ROW] * 4 + ["...X.....", "...X.....", "...X.....",
                                                      "...XO....", "#..OO...."]))
    assert vertical.four_through(4, 3) == [(4, 3), (5, 3), (6, 3), (7, 3)]
    rising = board_from("\n".join([EMPTY_ROW] * 5 + ["....X....", "...XO....", "..XOO....",
                                                    ".XOOX...#"]))
    assert rising.four_through(6, 3) == [(5, 4), (6, 3), (7, 2), (8, 1)]
    falling = board_from("\n".join([EMPTY_ROW] * 5 + ["#O.......", "XXO......", "XOXO.....",
                                                     "OXXXO...."]))
    assert falling.four_through(8, 4) == [(5, 1), (6, 2), (7, 3), (8, 4)]
    assert falling.four_through(8, 1) == []


def test_forbidden_cell_breaks_a_line():
    b = board_from("\n".join([EMPTY_ROW] * 8 + ["XX#XX...."]))
    assert b.four_through(8, 1) == [] and b.four_through(8, 3) == []


def test_five_in_a_row_is_reported_whole():
    b = board_from("\n".join([EMPTY_ROW] * 8 + ["#OXXXXX.."]))
    assert b.four_through(8, 4) == [(8, 2), (8, 3), (8, 4), (8, 5), (8, 6)]


def test_view_swaps_colours_for_the_second_player():
    b = Grid(9, 9, 0, 0)
    b.play(8, 0, 1)
    b.play(8, 1, 2)
    assert b.view(1)[72:74] == [2, 1]
    assert b.view(2)[72:74] == [1, 2]
