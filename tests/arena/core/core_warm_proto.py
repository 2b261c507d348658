"""A warm hostile/proto_bot.py for tests in which Python's start-up is not what is tested.

A process player's start-up counts against its first move, and a fresh Python takes tens of
milliseconds to start, hundreds on a busy machine: over a short limit and many games (the
soak) some bot would lose on time before it ran. Here one server process imports proto_bot
once; the arena's player is the small C program core_proto_launcher.c, which starts in about a
millisecond and hands its stdin, stdout and stderr to the server, which forks a bot with them.
The bot runs proto_bot's own ``main`` with the server's arguments (``chaos 7``): it behaves as a
fresh ``python proto_bot.py chaos 7`` would, except that it runs in a session of its own
outside the launcher's, which the arena finds and kills as a holder of its pipes (as it does a
bot's grandchild that called setsid). The launcher ends as the bot does.

Run as ``python core_warm_proto.py NAME ARG...`` it is the server (``NAME``: an abstract Unix
socket); ``WarmProto`` builds the launcher, starts the server and gives the player's spec."""
import os
import select
import socket
import struct
import subprocess
import sys
import traceback
import uuid
from pathlib import Path
from typing import Dict, List, Mapping, NoReturn, Tuple

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
SOCKET_VAR = "WARM_PROTO_SOCKET"


def _play(fds: List[int], args: List[str]) -> NoReturn:
    """The forked bot: the launcher's stdin, stdout and stderr, then proto_bot's main."""
    from hostile import proto_bot
    os.setsid()
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
    os.closerange(3, 1 << 16)  # the server's socket, its connections, the received copies
    sys.argv = [proto_bot.__file__, *args]
    code = 0
    try:
        proto_bot.main()
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else int(e.code is not None)
    except BaseException:
        traceback.print_exc()
        code = 1
    for stream in (sys.stdout, sys.stderr):  # what an exiting interpreter flushes
        try:
            stream.flush()
        except (OSError, ValueError):
            code = code or 120
    os._exit(code)


def serve(name: str, args: List[str]) -> None:
    """Fork a bot for each launcher that connects; send each launcher its bot's wait status."""
    from hostile import proto_bot  # noqa: F401  imported once, before any fork
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind("\0" + name)
    server.listen(64)
    print("ready", flush=True)
    bots: Dict[int, Tuple[int, socket.socket]] = {}  # pidfd -> (pid, its launcher)
    while True:
        for fd in select.select([server, *bots], [], [])[0]:
            if fd is server:
                conn, _ = server.accept()
                try:
                    _, fds, _, _ = socket.recv_fds(conn, 1, 3)
                except OSError:
                    fds = []
                if len(fds) != 3:
                    conn.close()
                    continue
                pid = os.fork()
                if pid == 0:
                    _play(fds, args)
                for received in fds:  # the bot alone holds the arena's pipes
                    os.close(received)
                bots[os.pidfd_open(pid)] = (pid, conn)
            else:
                pid, conn = bots.pop(fd)
                os.close(fd)
                _, status = os.waitpid(pid, 0)
                try:
                    conn.sendall(struct.pack("i", status))
                except OSError:  # the launcher was killed
                    pass
                conn.close()


class WarmProto:
    """``with WarmProto(folder, env, "chaos", "7") as warm:`` ``warm.spec`` is the player spec
    of a warm ``proto_bot.py chaos 7``; ``env`` (a test's mark) is the server's and so every
    bot's. Leaving stops the server (its bots are the arena's to kill)."""

    def __init__(self, folder: Path, env: Mapping[str, str], *args: str) -> None:
        self.folder, self.env, self.args = folder, dict(env), list(args)
        self.name = f"core-warm-proto-{uuid.uuid4().hex}"
        self.spec: dict = {}

    def __enter__(self) -> "WarmProto":
        launcher = self.folder / "proto_launcher"
        subprocess.run(["gcc", "-O2", "-o", str(launcher), str(HERE / "core_proto_launcher.c")],
                       check=True)
        # PYTHONUNBUFFERED (set in some shells) would make the never-flushing bot flush.
        env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="", **self.env)
        self.server = subprocess.Popen([sys.executable, __file__, self.name, *self.args],
                                       env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE)
        if self.server.stdout.readline() != b"ready\n":  # no timeout: it fails or says it
            self.server.wait()
            raise RuntimeError(f"the warm proto_bot server did not start ({self.server.args})")
        self.spec = {"process": [str(launcher)], "env": dict(self.env, **{SOCKET_VAR: self.name})}
        return self

    def __exit__(self, *exc) -> None:
        self.server.kill()
        self.server.wait()
        self.server.stdout.close()


if __name__ == "__main__":
    serve(sys.argv[1], sys.argv[2:])
