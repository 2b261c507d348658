"""The backwards walk on hand-made games (tests/analysis/games.py): the decisive mistake, the
alternatives that held, the kind of win it allowed and the proof's line."""

from dataclasses import replace

import pytest
from games import DOUBLE_THREAT, HOLD, MISSED_BLOCK, OPENING, QUIET, ZUGZWANG, record

from analysis.command import skip_reason
from analysis.game import analyse_game, phase_of, replay
from analysis.proof import Prover
from bot.rules import InvalidPosition
from records.analysis import Kind, Phase, Value
from records.result import Fault

# A deadline, not a budget: every search of these endgames (14 empty cells) ends within a
# few hundredths of a second, so the results are the searches' own, however loaded the
# machine. Only the opening's test, whose point is a budget too short, is timed.
SECONDS = 60.0


def check_line(moves, analysis):
    """The proof's line, played from where the loser was proven lost, is legal and ends in
    the winner's four."""
    game = record(moves[: analysis.lost_after] + analysis.line)
    positions = replay(game)
    assert positions[-1].last_mover_won()
    assert len(game.moves) % 2 == len(moves) % 2  # the same side makes the four


@pytest.mark.parametrize("moves, mistake, kind, plies", [
    (ZUGZWANG, [1, 7], Kind.ZUGZWANG, 7),
    (DOUBLE_THREAT, [4, 2], Kind.DOUBLE_THREAT, 13),
    (MISSED_BLOCK, [2, 2], Kind.MISSED_BLOCK, 1),
])
def test_the_decisive_mistake_and_the_kind_of_win_it_allowed(moves, mistake, kind, plies):
    analysis = analyse_game(record(moves), SECONDS)
    index = len(moves) - plies - 1
    assert analysis.loser == "alice" and analysis.loser_moved == "first"
    assert analysis.decisive.index == index
    assert analysis.decisive.move == mistake
    assert analysis.decisive.proven is True
    assert analysis.lost_after == index + 1
    assert analysis.kind == kind
    assert analysis.win_in == plies and analysis.forced_four_in == plies
    assert analysis.line_source == "proof"
    assert analysis.phase == Phase.END
    check_line(moves, analysis)


def held(analysis):
    return [(a.move, a.value) for a in analysis.decisive.alternatives]


def test_the_alternative_that_held_is_listed_with_its_value():
    analysis = analyse_game(record(ZUGZWANG), SECONDS)
    assert held(analysis) == [(HOLD, Value.DRAW)]
    # 14 empty cells: the forced-win search clears every depth after the drawing move
    assert analysis.decisive.alternatives[0].no_four_within >= 13
    missed = analyse_game(record(MISSED_BLOCK), SECONDS)
    assert held(missed) == [([1, 7], Value.DRAW)]


def test_only_the_losers_positions_are_searched():
    # the zugzwang game: X's moves at indices 66, 68, 70 and 72; the walk stops at 66
    analysis = analyse_game(record(ZUGZWANG), SECONDS)
    assert analysis.positions == 4


def test_an_opening_the_budget_cannot_settle_is_unsettled_not_guessed():
    analysis = analyse_game(record(OPENING, winner="a"), 1.0)
    assert analysis.loser == "bob" and analysis.loser_moved == "second"
    decisive = analysis.decisive
    assert decisive.index == 5 and decisive.move == [6, 8]
    assert decisive.proven is False
    assert held(analysis) == [([5, 0], Value.UNSETTLED)]
    # what is proven is bounded: after the block, X has no forced four within a few plies
    assert decisive.alternatives[0].no_four_within >= 5
    # ... so the mistake, which allowed a four at once, was avoidable (a bounded proof)
    assert decisive.avoidable is True
    assert analysis.kind == Kind.MISSED_BLOCK and analysis.phase == Phase.OPENING


def test_the_winners_colour_follows_the_leg():
    # leg 1: bob moves first, so the first mover who lost is bob
    analysis = analyse_game(record(ZUGZWANG, winner="a", leg=1), SECONDS)
    assert analysis.loser == "bob" and analysis.loser_moved == "first"
    assert analysis.decisive.index == len(QUIET)


def test_ties_and_faults_are_not_analysed():
    tie = replace(record(QUIET), code=0)
    fault = replace(record(QUIET), fault=Fault.from_dict({"side": "a", "kind": "timeout"}), code=7)
    assert tie.loser is None and skip_reason(tie) == "tie"
    assert fault.loser is None and skip_reason(fault) == "fault: timeout by alice"
    with pytest.raises(ValueError):
        analyse_game(tie, SECONDS)


def test_an_illegal_move_in_a_record_is_refused():
    with pytest.raises(InvalidPosition):
        replay(record(QUIET + [[8, 4]]))  # the forbidden column's bottom is taken


@pytest.mark.parametrize("index, cells, phase", [
    (0, 143, "opening"), (27, 143, "opening"), (28, 143, "middle"), (70, 143, "middle"),
    (71, 143, "end"), (15, 80, "opening"), (16, 80, "middle"), (40, 80, "end")])
def test_phases_split_the_board_at_a_fifth_and_a_half(index, cells, phase):
    assert phase_of(index, cells) == Phase(phase)


def test_a_line_can_start_with_the_losers_move():
    """From a position where the loser is to move and every move of its loses (as when it is
    lost before its first move), the line starts with its move and still ends in a four."""
    position = replay(record(ZUGZWANG[: len(QUIET) + 2]))[-1]
    line = Prover(position.geo, SECONDS).winning_line(position, attacker=False)
    assert line.complete and len(line.moves) % 2 == 0
    for move in line.moves:
        position = position.play_bit(move)
    assert position.last_mover_won()


def test_the_shortest_win_does_not_depend_on_earlier_questions():
    """The forced-win table's "won" has no depth: a root searched deeper before (as a child of
    the loser's position) must not answer a shallower question later."""
    before = replay(record(DOUBLE_THREAT))[len(QUIET)]
    after = before.play_xy(4, 2)
    fresh = Prover(before.geo, SECONDS).shortest_win(after)
    used = Prover(before.geo, SECONDS)
    used.move_values(before)
    assert used.shortest_win(after) == fresh == 11  # 13 plies to the four
