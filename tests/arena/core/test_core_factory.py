"""Player specs from configs, and in-process Python players by name."""
import sys
import textwrap

import pytest

from arena.core.players import make_player
from arena.core.players.process import ProcessPlayer, parse_reply
from arena.core.players.python import PythonPlayer
from arena.core.players.shared_lib import SharedLibPlayer
from arena.core.referee import play_game
from records.board import Board
from records.codes import FaultKind, fault_code
from records.player import SpecError

STRATEGY = textwrap.dedent("""
    class Counting:
        '''Leftmost column, but plays off the board if it was ever asked twice in a game
        before (its state must be fresh each game).'''
        def __init__(self, limit):
            self.limit, self.calls = limit, 0

        def __call__(self, M, N, top, board, last_x, last_y, no_x, no_y):
            self.calls += 1
            if self.calls > self.limit:
                return (-1, -1)
            y = next(c for c in range(N) if top[c] > 0)
            return (top[y] - 1, y)

    def fixed(M, N, top, board, last_x, last_y, no_x, no_y, column=0):
        return (top[column] - 1, column)

    not_callable = 42
""")


@pytest.fixture
def strategies(tmp_path, monkeypatch):
    (tmp_path / "core_factory_strategies.py").write_text(STRATEGY)
    monkeypatch.syspath_prepend(str(tmp_path))
    return "core_factory_strategies"


def test_specs_build_the_right_kind():
    assert isinstance(make_player("p", {"process": "python -m bot --time 0.4"}), ProcessPlayer)
    assert make_player("p", {"process": "python -m bot"}).argv[0] == sys.executable
    assert make_player("p", {"process": "python -m bot --time 0.4"}).argv[-1] == "0.4"
    assert make_player("p", {"process": ["a b", "c"]}).argv == ["a b", "c"]
    lib = make_player("s", {"so": "x.so", "env": {"UCT_PLAYOUTS": 2000}})
    assert isinstance(lib, SharedLibPlayer) and lib.env == {"UCT_PLAYOUTS": "2000"}
    assert isinstance(make_player("q", {"python": "m:f", "args": {"k": 1}}), PythonPlayer)


@pytest.mark.parametrize("spec, words", [
    ({}, "p: needs exactly one of"),
    ({"process": "x", "so": "y"}, "p: needs exactly one of"),
    ({"so": "x.so", "cwd": "/"}, "p.cwd: unknown key for a so player"),
    ({"process": ""}, "p.process: expected a command"),
    ({"process": "x", "env": ["A=1"]}, "p.env: expected a mapping"),
    ({"python": "m:f", "args": [1]}, "p.args: expected a mapping"),
    ({"python": "module_without_function"}, "p.python: expected 'module:attribute'"),
])
def test_bad_specs_are_refused_naming_the_problem(spec, words):
    with pytest.raises(SpecError) as err:
        make_player("p", spec)
    assert str(err.value).startswith(words)


def test_python_class_is_made_fresh_for_every_game(strategies):
    counting = make_player("c", {"python": f"{strategies}:Counting", "args": {"limit": 5}})
    fixed = make_player("f", {"python": f"{strategies}:fixed", "args": {"column": 3}})
    for _ in range(2):  # four moves win it; a kept instance (limit 5) would fail the second game
        outcome = play_game(counting, fixed, Board(9, 9, 0, 8), 1.0)
        assert (outcome.faulter, outcome.winner) == (0, 1)
        assert outcome.moves[1::2] == [(8, 3), (7, 3), (6, 3)]


@pytest.mark.parametrize("target, kind", [
    ("no_such_module_anywhere:f", FaultKind.LOAD_ERROR),
    ("{}:missing", FaultKind.LOAD_ERROR),
    ("{}:not_callable", FaultKind.NO_ENTRY),
])
def test_python_player_that_cannot_load(target, kind, strategies):
    player = make_player("p", {"python": target.format(strategies)})
    res = player.start_game(9, 9, 0, 0)
    assert res is not None and res.fault == kind


def test_reply_parsing_accepts_only_two_integers():
    assert parse_reply(b"8 3") == (8, 3)
    assert parse_reply(b" 10  -1\n") == (10, -1)
    for bad in (b"8", b"8 3 1", b"eight 3", b"8,3", b""):
        assert parse_reply(bad) is None


def test_codes_match_the_course_table():
    assert [fault_code(k, True) for k in FaultKind] == [7, 3, 4, -1, -3]
    assert [fault_code(k, False) for k in FaultKind] == [8, 5, 6, -2, -4]

