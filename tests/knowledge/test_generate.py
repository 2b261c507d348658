"""The self-play generator: its games are legal and scored right by the referee's own rules
(arena.rules, an implementation independent of the native UCT's), and a run resumes."""

from pathlib import Path

import pytest

from arena.boards import draw_board
from arena.rules import Board
from knowledge import generate
from knowledge.train import load_games


@pytest.fixture(scope="module")
def shards(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("selfplay")
    played = generate.generate(out, games=generate.SHARD_GAMES, seed=7, jobs=1, playouts=200,
                               random_plies=2, progress=False)
    assert played == generate.SHARD_GAMES
    return out


def test_games_are_legal_and_scored_by_the_referees_rules(shards):
    games = load_games(shards)
    assert len(games) == generate.SHARD_GAMES
    for i, game in enumerate(games):
        b = draw_board(7, i)
        assert (game.M, game.N, game.no_x, game.no_y) == (b.M, b.N, b.no_x, b.no_y)
        board = Board(game.M, game.N, game.no_x, game.no_y)
        winner = 0
        for ply, column in enumerate(game.columns):
            assert winner == 0, "a move after the game was won"
            x = board.top[column] - 1
            assert board.is_legal(x, column)
            piece = 1 + ply % 2
            board.play(x, column, piece)
            if board.four_through(x, column):
                winner = piece
        assert winner == game.winner
        assert winner or board.is_full()
        assert len(game.values) == len(game.columns)
        assert all(v == -1 or 0 <= v <= 100 for v in game.values)


def test_a_second_run_resumes_and_plays_nothing(shards):
    before = sorted(p.name for p in shards.iterdir())
    assert generate.generate(shards, games=generate.SHARD_GAMES, seed=7, jobs=1, playouts=200,
                             random_plies=2, progress=False) == 0
    assert sorted(p.name for p in shards.iterdir()) == before


def test_bad_arguments_exit_with_a_message(capsys):
    with pytest.raises(SystemExit) as e:
        generate.main(["--games", "0"])
    assert e.value.code == 2
    assert "--games" in capsys.readouterr().err
