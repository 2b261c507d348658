"""The bot's play is pinned: at a fixed seed and play-out cap, the moves it chose on 48
positions of recorded games (tests/bot/data/recorded_moves.json) stay the same. A refactoring
must pass this unchanged; a change that alters the play on purpose rewrites the file
(`.venv/bin/python -m tests.bot.test_recorded_moves --write`) and measures its strength."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import List

import pytest

from bot.__main__ import build_searcher, parse_args
from bot.choose import choose_move
from bot.rules import Position
from bot.search.clock import Limit

DATA = Path(__file__).resolve().parent / "data" / "recorded_moves.json"
CASES: List[dict] = json.loads(DATA.read_text())


def bot_move(case: dict) -> List[int]:
    """The move `python -m bot --playouts P --seed S` makes in the case's position."""
    pos = Position.new(case["M"], case["N"], case["no_x"], case["no_y"])
    for x, y in case["moves"]:
        pos = pos.play_xy(x, y)
    last = case["moves"][-1] if case["moves"] else (-1, -1)
    args = parse_args(["--playouts", str(case["playouts"]), "--seed", str(case["seed"])])
    move = choose_move(case["M"], case["N"], pos.top(), pos.board(), last[0], last[1],
                       case["no_x"], case["no_y"], Limit(playouts=case["playouts"]),
                       build_searcher(args))
    return list(move)


def test_the_cases_need_a_search():
    """Enough of the positions are decided by the search, not by a rule before it: another
    play-out count changes many of the moves."""
    changed = sum(bot_move(dict(case, playouts=300)) != case["move"] for case in CASES[:24])
    assert changed >= 6


@pytest.mark.parametrize("index", range(len(CASES)))
def test_the_bot_plays_the_recorded_move(index):
    case = CASES[index]
    assert bot_move(case) == case["move"], f"case {index}: {case}"


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    DATA.write_text(json.dumps([dict(case, move=bot_move(case)) for case in CASES]))
