"""MCTS-solver, rollouts and the engine's tactical shortcuts on hand-checked positions."""

from __future__ import annotations

import logging
import random

import pytest
from plain_referee import PlainGame

from bot.choose import choose_move, decide, safe_decide
from bot.rules import DRAW, LOSS, WIN, Position, bits, parse_board
from bot.search import clock as search_clock
from bot.search import tactics
from bot.search.clock import Deadline, Limit
from bot.search.evaluator import Evaluator
from bot.search.guard import GuardOutcome
from bot.search.mcts import MCTS
from bot.search.node import Node, sort_key
from bot.search.rollout import TacticalRollout
from bot.search.settings import DEFAULT, Settings
from bot.search.tactics import Budget, ForcedWin
from bot.search.turn import ALONE, Beside, Turn

# Seconds a search may end past its deadline on a loaded machine, where a time guard is what a
# test checks: the questions those tests cut short would otherwise run for hours.
OVERRUN = 1.0


def pos(*bottom_rows: str, no_cell=(0, 8)) -> Position:
    return parse_board(["." * 9] * (9 - len(bottom_rows)) + list(bottom_rows), no_cell=no_cell)


class SteppedClock:
    """The search's clock (``time`` in bot.search.clock and bot.search.tactics) for the tests
    of how a move's time is split: each look at it moves it on STEP seconds, so a timed
    search's runs follow its own iterations (one look each), not the machine's load."""

    STEP = 0.001

    def __init__(self) -> None:
        self.now = 1000.0

    def perf_counter(self) -> float:
        self.now += self.STEP
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock(monkeypatch) -> SteppedClock:
    stepped = SteppedClock()
    monkeypatch.setattr(search_clock, "time", stepped)
    monkeypatch.setattr(tactics, "time", stepped)
    return stepped


FALLING_WIN = ("X........", "OX.......", "OOX......", "XXO..O...")  # X wins at (8, 3)
OPEN_TWO = ("..OO.....", "..XX.....")  # X makes an open three: a proven win


# X: column 2 or 3 forces O's block on the bottom row, then (7,3) opens row 7 at both ends
# (tests/bot/test_tactics.py checks it by hand and by brute force).
COMBINATION = (".....O...", "O...XX...", "OX..XOO..")


def test_probe_proves_a_three_ply_combination_at_its_visit_threshold():
    p = pos(*COMBINATION)
    searcher = MCTS(Settings(probe_depth=3, probe_visits=20), seed=1)
    result = searcher.search(p, Deadline(Limit(seconds=30, playouts=2000)))
    assert result.outcome == WIN
    assert p.geo.column(result.move) in (2, 3)
    assert result.playouts <= 21  # the root is probed when it has 20 visits (the 21st pass)
    child = next(c for c in searcher.tree.children if c.move == result.move)
    assert child.outcome == LOSS and child.visits >= 1


# From a lost game against the native UCT (seed 2026, round 15, leg 1, ply 27): X to move; column 7
# lets O force a win within 5 plies, deeper than the 3-ply probes see; columns 0, 1, 3, 6, 9
# were safe at 7 plies (an exact 7-ply search of every move).
DEEP_BLUNDER = ("...........", "...........", "....O......", "....X.X....", "...#O.O....",
                "....X.OO...", ".X..O.XX...", ".XO.X.OO...", "XOXXOOXO.XO")


def test_deep_probe_proves_a_move_lost_that_the_shallow_probe_cannot():
    p = parse_board(DEEP_BLUNDER)
    blunder = next(m for m in bits(p.possible()) if p.geo.column(m) == 7)
    after = p.play_bit(blunder)
    for plies, lost in ((3, False), (7, True)):
        searcher = MCTS()
        child = Node(p.geo, blunder, after.current, after.mask)  # O to move
        searcher.probe(child, p.geo, plies, Budget(10**6))
        assert (child.outcome == WIN) == lost


def test_search_with_a_deep_probe_avoids_the_blunder_it_plays_without():
    p = parse_board(DEEP_BLUNDER)
    unguarded = Settings(deep_probes=(), guard_depths=())
    without = MCTS(unguarded, seed=1).search(p, Deadline(Limit(playouts=3000)))
    blunder = p.geo.column(without.move)
    assert blunder not in (0, 1, 3, 6, 9)  # seed 1 without the deep probe: a losing move
    searcher = MCTS(Settings(deep_probes=((300, 7, 100_000),), guard_depths=()), seed=1)
    result = searcher.search(p, Deadline(Limit(playouts=3000)))
    marked = {p.geo.column(c.move) for c in searcher.tree.children if c.outcome == WIN}
    assert blunder in marked and p.geo.column(result.move) in (0, 1, 3, 6, 9)


def test_the_process_searcher_has_the_deep_probes():
    from bot.__main__ import build_searcher, parse_args
    searcher = build_searcher(parse_args(["--seed", "0", "--cores", "1"]))
    assert sorted(searcher.probe_at) == sorted(
        [DEFAULT.probe_visits] + [v for v, _, _ in DEFAULT.deep_probes])
    p = parse_board(DEEP_BLUNDER)  # column 7 reaches 1,000 visits and its 5-ply probe
    result = searcher.search(p, Deadline(Limit(playouts=6000)))
    assert p.geo.column(result.move) in (0, 1, 3, 6, 9)


def test_the_deadline_ends_a_probe():
    p = parse_board(DEEP_BLUNDER)
    # a huge question (25 plies, 10^9 nodes: hours), asked at the root's first visit
    huge = Settings(probe_depth=0, deep_probes=((1, 25, 10**9),))
    searcher = MCTS(huge, seed=0)
    result = searcher.search(p, Deadline(Limit(seconds=0.3)))
    assert result.outcome is None and result.playouts <= 2  # the root's question took it all
    assert result.seconds < 0.3 + OVERRUN  # the probe gave up within 256 nodes of the deadline


# From a game lost to the native UCT at 1 s a move (seed 2026, round 15, leg 1, ply 25): X to
# move. The partner forced a four within 11 plies after the move the bot played, (3, 5); most of
# X's moves lose that way, beyond the 9-ply probes (docs/strength.md, "Where the games are lost").
SHORT_COMBINATION = ("...........", "...........", "...........", "...X.......", "...#.O.O...",
                     "..OX.X.X...", "..XO.O.OO..", "..XX.O.XXO.", "..OXOX.OOX.")


def opponent_wins_within(p: Position, move: int, plies: int) -> bool:
    after = p.play_bit(move)
    return bool(ForcedWin(p.geo).settle(after.current, after.mask, plies, Budget(10**7)))


def test_the_guard_turns_away_from_a_move_lost_to_a_longer_combination():
    p = parse_board(SHORT_COMBINATION)
    without = MCTS(Settings(guard_depths=()), seed=1).search(p, Deadline(Limit(playouts=6000)))
    assert opponent_wins_within(p, without.move, 11)  # what the search plays unguarded
    searcher = MCTS(Settings(guard_depths=(11,)), seed=1)
    result = searcher.search(p, Deadline(Limit(playouts=6000)))  # 96,000 nodes a question
    marked = {c.move for c in searcher.tree.children if c.outcome == WIN}
    assert without.move in marked and result.move not in marked
    assert not opponent_wins_within(p, result.move, 11)


def test_a_capped_search_gets_a_guard_in_proportion():
    p = parse_board(SHORT_COMBINATION)
    small = MCTS(Settings(guard_depths=(11,)), seed=1)
    result = small.search(p, Deadline(Limit(seconds=30, playouts=300)))
    assert small.probes.budget.nodes == 300 * DEFAULT.guard_playout_nodes
    assert result.seconds < 5  # 7,200 nodes a question, not the 30 s left


def test_the_guard_keeps_within_the_move_time():
    p = parse_board(SHORT_COMBINATION)
    heavy = Settings(probe_depth=0, deep_probes=(), guard_depths=(25,), guard_nodes=10**9)
    result = MCTS(heavy, seed=0).search(p, Deadline(Limit(seconds=0.5)))
    assert 0.5 * (1 - heavy.guard_share) <= result.seconds < 0.5 + OVERRUN


class ScriptedGuard(MCTS):
    """An MCTS whose guard answers from a script (a node to call cleared, or None: not
    cleared), and which records each run's deadline and play-outs; ``favour`` gets visits in
    the second run.

    No deep probes: a 7- or 9-ply probe started near the end of the first run may go on to
    the move's full deadline (its stop), past the second run's, which then does not start."""

    def __init__(self, answers, favour=None) -> None:
        super().__init__(Settings(deep_probes=()), seed=3)
        self.answers, self.favour, self.runs = list(answers), favour, []
        # OPENING's tree with every root move expanded beforehand, so that the script has
        # moves to tell apart however few play-outs the timed runs get
        root = Node(OPENING.geo, 0, OPENING.current, OPENING.mask)
        before = Deadline(Limit(playouts=40))
        MCTS.run(self, Turn(root, OPENING.geo, before), before)
        self.tree, self.tree_geo = root, OPENING.geo

    def run(self, turn, deadline, beside=ALONE):
        playouts = turn.playouts
        super().run(turn, deadline, beside)
        root = turn.root
        if self.runs and self.favour is not None:
            favoured = next(c for c in root.children if c.move == self.favour(root).move)
            favoured.visits += 10**6
        self.runs.append((deadline.end, turn.playouts - playouts))

    def guard(self, turn):
        answer = self.answers.pop(0)
        turn.cleared = answer(turn.root) if answer else turn.cleared
        return GuardOutcome.CLEARED if answer else GuardOutcome.UNSETTLED


def most_visited(root: Node) -> Node:
    return max(root.children, key=sort_key)


def least_visited(root: Node) -> Node:
    return min(root.children, key=sort_key)


OPENING = pos("....X....", "...OXO...")


def test_a_timed_search_searches_on_after_the_guard_clears_its_move_early(clock):
    searcher = ScriptedGuard([most_visited])
    deadline = Deadline(Limit(seconds=0.6))
    result = searcher.search(OPENING, deadline)
    (first_end, _), (second_end, more) = searcher.runs
    share = searcher.settings.guard_share
    assert first_end == pytest.approx(deadline.end - share * 0.6, abs=1e-9)
    # the guard took next to nothing: the second run keeps back a quarter of its share
    assert second_end == pytest.approx(deadline.end - share / 4 * 0.6, abs=1e-9)
    assert more > 0 and result.playouts > more
    assert result.seconds >= 0.6 * (1 - share / 4)


def test_a_capped_or_unguarded_search_does_not_search_on(clock):
    capped = ScriptedGuard([most_visited])
    capped.search(OPENING, Deadline(Limit(seconds=30, playouts=200)))
    unsettled = ScriptedGuard([None])
    unsettled.search(OPENING, Deadline(Limit(seconds=0.3)))
    assert len(capped.runs) == len(unsettled.runs) == 1


def test_a_guard_that_took_its_time_leaves_no_second_run(clock):
    def slow_clearance(root: Node) -> Node:
        clock.advance(0.15)  # from 80% of a 0.5 s move to past its end
        return most_visited(root)

    slow = ScriptedGuard([slow_clearance])
    result = slow.search(OPENING, Deadline(Limit(seconds=0.5)))
    assert len(slow.runs) == 1
    assert result.move == most_visited(slow.tree).move  # the cleared move, searched no further


def test_the_move_searched_on_is_guarded_before_it_replaces_the_cleared_one(clock):
    def cleared_first(root: Node) -> Node:
        first.append(most_visited(root))
        return first[-1]

    # The longer search prefers another move; its guard runs out: the cleared move is played.
    first = []
    searcher = ScriptedGuard([cleared_first, None], favour=least_visited)
    result = searcher.search(OPENING, Deadline(Limit(seconds=0.4)))
    assert result.move == first[0].move != most_visited(searcher.tree).move
    # Its guard clears it: the new favourite is played.
    first = []
    searcher = ScriptedGuard([cleared_first, most_visited], favour=least_visited)
    result = searcher.search(OPENING, Deadline(Limit(seconds=0.4)))
    assert result.move == most_visited(searcher.tree).move != first[0].move


class Recorded(Beside):
    """Records the loop's calls; its step ends the loop at ``stop_at`` play-outs."""

    def __init__(self, stop_at: int) -> None:
        self.stop_at, self.calls = stop_at, []

    def start(self, turn):
        self.calls.append("start")

    def step(self, turn):
        self.calls.append(turn.playouts)
        return turn.playouts == self.stop_at

    def finish(self, turn):
        self.calls.append("finish")


def test_the_loop_runs_beside_its_hooks_until_a_step_ends_it():
    p = Position.new(9, 9, 0, 0)
    searcher = MCTS(seed=1)
    turn = searcher.begin(p, Deadline(Limit(playouts=100)))
    beside = Recorded(stop_at=5)
    searcher.run(turn, turn.deadline, beside)
    assert beside.calls == ["start", 0, 1, 2, 3, 4, 5, "finish"]
    assert turn.playouts == searcher.tree.visits == 5 and turn.nodes == 5


def test_a_shortened_deadline_keeps_its_share_of_the_time_and_its_play_out_cap():
    full = Deadline(Limit(seconds=2.0, playouts=50), start=100.0)
    early = full.shortened(0.25)
    assert (early.start, early.end, early.max_playouts) == (100.0, 101.5, 50)
    assert Deadline(Limit(playouts=7)).shortened(0.5).end is None


def test_engine_plays_the_win_now():
    p = pos(*FALLING_WIN)
    assert p.xy(decide(p, Limit(playouts=1), MCTS(seed=1))) == (8, 3)


def test_engine_blocks_the_only_threat():
    p = pos(".........", "OOO.XX...")
    assert choose_move(9, 9, p.top(), p.board(), 8, 2, 0, 8, Limit(playouts=1)) == (8, 3)


def test_solver_proves_the_open_three_win():
    p = pos(*OPEN_TWO)
    result = MCTS(seed=3).search(p, Deadline(Limit(playouts=5000)))
    assert result.outcome == WIN
    assert p.xy(result.move) in {(8, 1), (8, 4)}
    assert result.playouts < 5000  # stopped by the proof, not the cap


def test_node_without_non_losing_move_is_a_proven_loss():
    p = pos(".OOO.X.X.")
    node = Node(p.geo, 0, p.current, p.mask)
    assert node.outcome == LOSS and node.untried == 0


def test_node_with_win_now_is_a_proven_win_and_full_board_a_draw():
    p = pos(*FALLING_WIN)
    assert Node(p.geo, 0, p.current, p.mask).outcome == WIN
    full = p.geo.board_mask
    assert Node(p.geo, 0, 0, full).outcome == DRAW


def test_sort_key_prefers_proven_win_then_visits_then_hardest_loss():
    p = Position.new(9, 9, 0, 0)
    a, b, c, d = (Node(p.geo, 1 << i, 0, p.mask) for i in range(4))
    a.outcome, a.visits = LOSS, 3  # the opponent is lost: our proven win
    b.visits = 100
    c.outcome, c.visits = WIN, 500  # the opponent wins: our loss
    d.outcome, d.visits = WIN, 50
    assert sorted([b, c, d, a], key=sort_key, reverse=True) == [a, b, c, d]


def test_playout_cap_and_seed_make_search_repeatable():
    p = Position.new(10, 11, 4, 4)
    r1 = MCTS(seed=7).search(p, Deadline(Limit(playouts=300)))
    r2 = MCTS(seed=7).search(p, Deadline(Limit(playouts=300)))
    assert r1.playouts == r2.playouts == 300
    assert (r1.move, r1.visits) == (r2.move, r2.visits)
    assert r1.move & p.possible()


def test_tree_is_reused_two_plies_down():
    p = Position.new(9, 9, 8, 8)
    searcher = MCTS(seed=1)
    searcher.search(p, Deadline(Limit(playouts=2000)))
    child = max(searcher.tree.children, key=lambda c: c.visits)
    grandchild = max(child.children, key=lambda c: c.visits)
    after = p.play_bit(child.move).play_bit(grandchild.move)
    assert searcher.root_for(after) is grandchild and grandchild.visits > 0
    assert searcher.root_for(Position.new(9, 9, 0, 0)).visits == 0  # other board: fresh


def test_rollout_scores_win_now_and_lost_positions():
    rollout = TacticalRollout()
    rand = random.Random(0).random
    won = pos(*FALLING_WIN)
    assert rollout.evaluate(won.geo, won.current, won.mask, rand) == 1.0
    lost = pos(".OOO.X.X.")
    assert rollout.evaluate(lost.geo, lost.current, lost.mask, rand) == 0.0


class Broken(Evaluator):
    def evaluate(self, *args):
        raise RuntimeError("boom")


def test_failed_search_falls_back_to_a_legal_non_losing_move(caplog):
    p = pos("..OOOX...", "O.XXOOXX.", no_cell=(0, 0))  # (8, 1) would open O's win
    with caplog.at_level(logging.ERROR, logger="bot"):
        move = safe_decide(p, Limit(playouts=10), MCTS(evaluator=Broken()))
    assert p.xy(move) == (6, 4)  # non-losing, and the most central
    assert "search failed (RuntimeError: boom)" in caplog.text


def test_much_stronger_than_random_play():
    """Four games against uniformly random moves (200 play-outs a move): all won."""
    rng = random.Random(5)
    wins = 0
    for game_no in range(4):
        game = PlainGame(9, 9, rng.randrange(9), rng.randrange(9))
        bot_side = 1 + game_no % 2
        searcher = MCTS(seed=game_no)
        while game.legal_moves():
            if game.turn == bot_side:
                x, y = choose_move(9, 9, game.top, game.view(), *game.last(), game.no_x,
                                   game.no_y, Limit(playouts=200), searcher)
            else:
                x, y = rng.choice(game.legal_moves())
            if game.play(x, y):
                wins += game.turn != bot_side  # turn already passed to the loser
                break
    assert wins == 4


def test_the_process_searcher_plays_out_with_the_settings_follow_up():
    from bot.__main__ import build_searcher, parse_args
    evaluator = build_searcher(parse_args(["--cores", "1"])).evaluator
    assert (evaluator.follow, evaluator.keep_threats) == (DEFAULT.follow, DEFAULT.keep_threats)
    assert MCTS(Settings(follow=0.0)).evaluator.follow == 0.0


def ponder_before_short_combination(ponder_guard: int):
    """Ponder the position before SHORT_COMBINATION, which O's reply (4, 5) reaches, with the
    tree an unguarded search of SHORT_COMBINATION left below that reply: (the reply's node,
    the move that search plays, lost to an 11-ply combination, SHORT_COMBINATION)."""
    p = parse_board(SHORT_COMBINATION)
    swapped = [row.translate(str.maketrans("XO", "OX")) for row in SHORT_COMBINATION]
    before = parse_board(swapped[:4] + ["...#...X..."] + swapped[5:])  # O to move, as X
    reply = before.geo.bit(4, 5)
    assert before.play_bit(reply).key() == p.key()
    unguarded = MCTS(Settings(guard_depths=()), seed=1)
    lost = unguarded.search(p, Deadline(Limit(playouts=6000))).move
    answer = unguarded.tree
    answer.move = reply
    root = Node(before.geo, 0, before.current, before.mask)
    root.untried &= ~reply
    root.children.append(answer)
    root.visits, root.value = answer.visits + 1, answer.visits / 2
    # the guard's full node budget, though pondering ends after two play-outs here
    settings = Settings(guard_depths=(11,), ponder_guard=ponder_guard,
                        guard_playout_nodes=10**6)
    searcher = MCTS(settings, seed=1)
    searcher.tree, searcher.tree_geo = root, before.geo
    searcher.ponder(before, lambda: False, Limit(playouts=2))
    return answer, lost, p


def test_pondering_guards_our_answer_to_the_likely_reply():
    answer, lost, p = ponder_before_short_combination(ponder_guard=1)
    assert opponent_wins_within(p, lost, 11)
    marked = {c.move for c in answer.children if c.outcome == WIN}
    assert lost in marked
    assert not opponent_wins_within(p, max(answer.children, key=sort_key).move, 11)


def test_pondering_without_its_guard_leaves_the_answer_unmarked():
    answer, lost, _ = ponder_before_short_combination(ponder_guard=0)
    assert next(c for c in answer.children if c.move == lost).outcome is None
    assert max(answer.children, key=sort_key).move == lost
