"""`arena suite value`: a game's middle positions that the referee's rules leave open are each
valued by one fresh engine a seed, in order, and kept where one column stands clear; a build
from a small log at a small play-out budget repeats exactly, keeps a ledger, walks nothing again,
and after Ctrl-C the same command walks only the rest."""

import json
import signal
import subprocess
import sys
from dataclasses import replace

from suite_hand import ROOT, arena, games
from waits import wait_until

from arena.engine.client import Info
from arena.suite.build import (
    FOUR,
    PROVEN,
    TO_TAKE,
    UNVALUED,
    ledger_path,
    plies_of,
    walk_valued,
)
from arena.suite.item import RUNS_DIFFER, Valuation, read_items
from arena.suite.position import FORCED_BLOCK, legal_moves, reach
from records.log import write_log
from records.move import Move

# X's four in column 6 at move 13: O fails to block it at move 12
FOUR_AT_13 = [[8, 5], [8, 4], [8, 1], [8, 6], [8, 7], [7, 7], [7, 6], [7, 1],
              [6, 6], [8, 0], [5, 6], [8, 2], [4, 6]]


class FakeEngine:
    """An engine whose final line gives each column a value chosen by the test, by ply."""

    def __init__(self, pool: "FakePool") -> None:
        self.pool = pool

    def analyse(self, setup, limit):
        ply = len(setup.moves)
        self.pool.asked.append(ply)
        legal = legal_moves(reach(setup.board, [Move(*m) for m in setup.moves]))
        values, proofs = self.pool.values(ply, len(legal), self.pool.seed)
        line = {"done": True, "best": legal[0].to_list(), "proof": None,
                "moves": [{"move": m.to_list(), "visits": 10, "value": v,
                           "proof": None if p is None else {"result": p, "plies": None}}
                          for m, v, p in zip(legal, values, proofs)]}
        return [Info.parse(line, setup.seat)]


class FakePool:
    def __init__(self, seed: int, values) -> None:
        self.seed, self.values = seed, values
        self.asked, self.engines = [], 0

    def acquire(self):
        self.engines += 1
        return FakeEngine(self)

    def release(self, engine) -> None:
        pass


def by_ply(ply: int, columns: int, seed: int):
    """Ply 8: column 1 best in both runs; ply 9: the runs differ on the best; ply 10: a run
    leaves column 0 unvalued after proving column 1 a win."""
    rest = [0.3] * (columns - 2)
    if ply == 8:
        return [0.4, 0.7 + 0.01 * seed, *rest], [None] * columns
    if ply == 9:
        return [0.4, 0.65, *rest] if seed == 1 else [0.6, 0.55, *rest], [None] * columns
    return [None, 1.0, *rest], [None, "win"] + [None] * (columns - 2)


def test_a_games_open_positions_are_valued_by_one_fresh_engine_a_seed_in_order():
    record = games.record(FOUR_AT_13, winner="a")
    assert plies_of(record, 1) == list(range(8, 14)) and plies_of(record, 4) == [8, 12]
    pools = [FakePool(1, by_ply), FakePool(2, by_ply)]
    walked = walk_valued("hand", record, pools, Valuation(100, (1, 2)), every=1)
    assert [(p.engines, p.asked) for p in pools] == [(1, [8, 9, 10])] * 2
    assert walked.left_out == {FORCED_BLOCK: 1, TO_TAKE: 1, FOUR: 1, RUNS_DIFFER: 1, PROVEN: 1}
    [item] = walked.items
    assert item.source.ply == 8 and item.moves == tuple(Move(*m) for m in FOUR_AT_13[:8])
    assert item.answer == item.values[1].move and item.values[1].runs == (0.71, 0.72)
    assert item.values[0].runs == (0.4, 0.4) and item.budget == Valuation(100, (1, 2))
    assert walked.seconds is not None and walked.seconds >= 0
    assert "seconds" in json.loads(walked.to_json(1))


def test_a_column_left_unvalued_without_a_proof_is_said_so():
    def unvalued(ply, columns, seed):
        return [None, *[0.5] * (columns - 1)], [None] * columns

    record = games.record(FOUR_AT_13[:10])  # plies 8 to 10, none settled by the rules
    walked = walk_valued("hand", record, [FakePool(1, unvalued), FakePool(2, unvalued)],
                         Valuation(100, (1, 2)), every=1)
    assert walked.left_out == {UNVALUED: 3} and not walked.items


def value(log, suite, *extra: str):
    return arena("suite", "value", str(log), "-o", str(suite), "--playouts", "300",
                 "--every", "9", "-q", *extra)


def test_a_build_at_a_playout_budget_repeats_and_walks_nothing_again(tmp_path):
    log = tmp_path / "games.jsonl"
    write_log(log, [games.record(games.MISSED_BLOCK)])
    first, second = tmp_path / "a" / "middle.jsonl", tmp_path / "b" / "middle.jsonl"
    done = value(log, first)
    assert done.returncode == 0, done.stderr
    assert value(log, second).returncode == 0
    assert first.read_text() == second.read_text()  # the same values, to four places
    ledgers = [[json.loads(line) for line in ledger_path(s).read_text().splitlines()]
               for s in (first, second)]
    for ledger in ledgers:
        assert [g["game"]["round"] for g in ledger] == [0] and ledger[0]["seconds"] > 0
        del ledger[0]["seconds"]
    assert ledgers[0] == ledgers[1]
    lines = done.stdout.splitlines()
    kept = read_items(first) if first.read_text() else []
    assert lines[0].startswith(f"{first}: {len(kept)} positions from 1 games")
    left = sum(ledgers[0][0]["left_out"].values())
    assert len(kept) + left == len(plies_of(games.record(games.MISSED_BLOCK), 9)) == 5
    assert lines[3].startswith(f"  left out: {left} positions")
    assert lines[4].startswith("  cost: ")
    again = value(log, first)
    assert again.returncode == 0 and again.stdout.splitlines()[:4] == lines[:4]
    assert ledger_path(first).read_text().count("\n") == 1  # nothing walked again


def test_ctrl_c_keeps_the_games_valued_and_the_same_command_values_the_rest(tmp_path):
    log = tmp_path / "games.jsonl"
    # the first game ends before the middle (nothing to value); the second has 10 positions
    write_log(log, [games.record(games.OPENING, winner="a"),
                    replace(games.record(games.MISSED_BLOCK), round=1)])
    suite = tmp_path / "middle.jsonl"
    argv = [sys.executable, "-m", "arena", "suite", "value", str(log), "-o", str(suite),
            "--playouts", "400", "--every", "4"]
    proc = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        ledger = ledger_path(suite)
        assert wait_until(lambda: ledger.is_file() and ledger.read_bytes().count(b"\n") >= 1
                          or proc.poll() is not None)
        assert proc.poll() is None, proc.communicate()
        proc.send_signal(signal.SIGINT)  # what Ctrl-C sends, while the second game is valued
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    assert err.count("\n") == 1 and "interrupted; 0 positions are kept" in err, err
    again = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    walked = [json.loads(line)["game"]["round"] for line in ledger.read_text().splitlines()]
    assert walked == [0, 1]  # the first game is not walked again
    assert again.stdout.startswith(f"{suite}: ")


def test_the_engine_budget_of_a_column_is_checked_on_the_command_line(tmp_path):
    done = arena("suite", "value", str(tmp_path / "none.jsonl"), "--playouts", "0")
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "--playouts, --every and --jobs must be at least 1" in done.stderr
