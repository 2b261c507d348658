"""Hand-checked positions that more than one test module searches."""

# From a lost game (docs/results/final2.jsonl, round 15 leg 1, ply 27): X to move; column 7
# lets O force a win within 5 plies, deeper than the 3-ply probes see; columns 0, 1, 3, 6, 9
# were safe at 7 plies (bench/blunders.py).
DEEP_BLUNDER = ("...........", "...........", "....O......", "....X.X....", "...#O.O....",
                "....X.OO...", ".X..O.XX...", ".XO.X.OO...", "XOXXOOXO.XO")
DEEP_BLUNDER_LOSING = 7
DEEP_BLUNDER_SAFE = (0, 1, 3, 6, 9)
