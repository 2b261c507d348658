"""A hand-checked game for the puzzles' tests (tests/hand_puzzles.py) and their picture
(scripts/web_screenshots.py): written once here, where both may import it."""

# A game X lost (the first player): at its move 71 only (2, 4) won, X played (2, 1), and O's
# line to its four followed (tests/hand_puzzles.py,
# WIN, its first 70 moves, hand-checks the position)
LOST = [
    [8, 3], [8, 8], [7, 8], [8, 2], [7, 3], [6, 3], [6, 8], [8, 4], [8, 6], [5, 8], [8, 7],
    [4, 8], [3, 8], [8, 5], [7, 5], [5, 3], [4, 3], [3, 3], [8, 0], [2, 8], [7, 0], [6, 0],
    [1, 8], [7, 2], [5, 0], [7, 7], [6, 7], [2, 3], [6, 2], [0, 8], [1, 3], [6, 5], [5, 7],
    [0, 3], [8, 1], [4, 7], [7, 1], [3, 7], [5, 5], [4, 0], [3, 0], [7, 6], [2, 0], [1, 0],
    [2, 7], [0, 0], [1, 7], [0, 7], [6, 6], [6, 1], [5, 2], [5, 1], [4, 2], [3, 2], [7, 4],
    [5, 6], [2, 2], [1, 2], [0, 2], [6, 4], [5, 4], [4, 4], [4, 1], [3, 1], [3, 4], [4, 6],
    [4, 5], [3, 6], [2, 6], [1, 6], [2, 1], [2, 4], [1, 4], [0, 6], [1, 1], [0, 1], [3, 5],
    [2, 5]]
