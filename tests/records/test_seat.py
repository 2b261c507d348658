"""A seat (first or second), its word, its stone, and the win chance seen from either seat."""

import pytest

from records.codes import Code
from records.game import GameRecord
from records.result import Outcome, Seat, Side, WinChance


def test_a_seat_is_its_word_both_ways():
    for seat in Seat:
        assert Seat.parse(seat.value) is seat
    assert [s.value for s in Seat] == ["first", "second"]
    with pytest.raises(ValueError, match="'first' or 'second', got 'third'"):
        Seat.parse("third")
    with pytest.raises(ValueError):
        Seat.parse(["first"])


def test_the_other_seat_and_the_stone_it_plays():
    assert Seat.FIRST.other is Seat.SECOND and Seat.SECOND.other is Seat.FIRST
    assert (Seat.FIRST.stone, Seat.SECOND.stone) == (1, 2)
    assert (Seat.FIRST.symbol, Seat.SECOND.symbol) == ("X", "O")


def test_the_seat_of_a_ply_goes_by_its_parity():
    assert [Seat.of_ply(i) for i in range(4)] == [Seat.FIRST, Seat.SECOND] * 2


def test_a_record_maps_seats_to_sides_by_its_leg():
    for leg, first in ((0, Side.A), (1, Side.B)):
        record = GameRecord(batch="t", seed=0, round=0, leg=leg, a="x", b="y", M=9, N=9,
                            no_x=0, no_y=0, time_limit=3.0, code=int(Code.TIE), reason="")
        assert record.side(Seat.FIRST) is first and record.side(Seat.SECOND) is first.other
        assert all(record.seat(record.side(s)) is s for s in Seat)


def test_a_win_chance_flips_with_the_point_of_view():
    chance = WinChance(0.7, Seat.SECOND)
    assert chance.pov(Seat.SECOND) == 0.7
    assert chance.pov(Seat.FIRST) == pytest.approx(0.3)
    assert WinChance(0.5, Seat.FIRST).pov(Seat.SECOND) == 0.5


def test_a_settled_game_is_a_certain_chance():
    assert WinChance.of(Outcome.WIN, Seat.FIRST).pov(Seat.SECOND) == 0.0
    assert WinChance.of("draw", Seat.SECOND).pov(Seat.FIRST) == 0.5
    assert WinChance.of(Outcome.LOSS, Seat.SECOND).pov(Seat.FIRST) == 1.0
