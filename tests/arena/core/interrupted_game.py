"""Plays one game that hangs (a .so host and a process bot with an escaped grandchild, both
busy or waiting) until the test interrupts it with SIGINT. argv: mark variable, mark, .so path."""
import sys

from arena.core.players import make_player
from arena.core.referee import play_game
from hostile.build import HERE as HOSTILE
from records.board import Board

var, mark, so_path = sys.argv[1:4]
env = {var: mark}
bot = [sys.executable, str(HOSTILE / "proto_bot.py"), "grandchild_hang"]
with make_player("so", {"so": so_path, "env": env}) as lib, \
        make_player("proc", {"process": bot, "env": env}) as proc:
    play_game(lib, proc, Board(9, 9, 0, 0), 60.0)
