"""A platform-protocol bot whose misbehaviour is chosen by argv[1]; "good" plays the leftmost
legal column. Standard library only; the tests run it as a process player.

``chaos SEED`` draws one misbehaviour and the move it starts at for each game from SEED and the
game (``chaos_plan``), and plays well until then: the soak's player that crashes, hangs, floods
or exits at random moments, while a test can still tell from a game's record what it did."""
import os
import random
import signal
import struct
import subprocess
import sys
import time
from typing import Tuple

# What chaos draws from, and the fault each ends in (None: the game ends on the board).
# trailing_bytes's fault shows at the move after it (its extra bytes are read as a header).
CHAOS = {"good": None, "crash": "crash", "hang": "timeout", "exit": "crash",
         "flood_stdout": "crash", "flood_stderr": None, "close_stdout": "crash",
         "zero_length": "crash", "huge_length": "crash", "split_reply": None,
         "trailing_bytes": "crash", "short_garbage": "timeout", "garbage": "crash",
         "bad_payload": "crash", "lying_header": "timeout", "illegal": "illegal"}


def chaos_plan(seed: str, M: int, N: int, no_x: int, no_y: int,
               opens: bool) -> Tuple[str, int, random.Random]:
    """The misbehaviour of a chaos player in one game, the move (1-based) it starts at, and
    the random stream its good moves (random columns, so that games last) come from."""
    rng = random.Random(f"{seed}/{M}/{N}/{no_x}/{no_y}/{opens}")
    return rng.choice(sorted(CHAOS)), rng.randint(1, 8), rng


def write(data, flush=True):
    sys.stdout.buffer.write(data)
    if flush:
        sys.stdout.buffer.flush()


def frame(x, y):
    text = f"{x} {y}".encode()
    return struct.pack(">I", len(text)) + text


def hold_pipes_forever(new_session):
    """Start a grandchild that keeps our stdin/stdout/stderr and sleeps."""
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"],
                     start_new_session=new_session)


def misbehave(mode, x, y, moves, no_x, no_y):
    """Answer move number ``moves`` (x, y: the leftmost legal cell) as ``mode`` does; returns
    whether to go silent afterwards."""
    if mode == "garbage":
        write(b"my move is column three\n")
    elif mode == "short_garbage":
        write(b"ok?")
    elif mode == "lying_header":
        write(struct.pack(">I", 50) + f"{x} {y}".encode())
    elif mode == "zero_length":
        write(struct.pack(">I", 0))
    elif mode == "huge_length":
        write(struct.pack(">I", 1 << 31) + f"{x} {y}".encode())
    elif mode == "bad_payload":
        write(struct.pack(">I", 5) + b"3 4 5")
    elif mode == "split_reply":
        for i, byte in enumerate(frame(x, y)):
            write(bytes([byte]))
            time.sleep(0.01 * (i % 2))
    elif mode == "trailing_bytes":
        write(frame(x, y) + b"\n")
    elif mode == "flood_stdout":
        chunk = b"7 7 " * (1 << 18)
        for _ in range(100):
            write(chunk, flush=False)
    elif mode == "no_flush":
        write(frame(x, y), flush=False)
    elif mode == "close_stdout":
        os.close(1)
    elif mode in ("grandchild", "grandchild_setsid"):
        hold_pipes_forever(new_session=mode == "grandchild_setsid")
        if moves == 2:
            os._exit(0)
        write(frame(x, y))
    elif mode == "grandchild_hang":
        hold_pipes_forever(new_session=True)
        time.sleep(60)
    elif mode == "crash":
        raise RuntimeError(f"proto_bot gave up on move {moves}")
    elif mode == "exit":
        os._exit(0)
    elif mode == "illegal":
        write(frame(no_x, no_y))
    elif mode == "flood_stderr":
        sys.stderr.write("e" * (10 << 20) + f"\nlast words of move {moves}\n")
        sys.stderr.flush()
        write(frame(x, y))
    elif mode in ("ignore_term", "hang"):
        time.sleep(60)
    else:
        write(frame(x, y))
    return mode in ("close_stdout", "no_flush", "lying_header", "garbage", "short_garbage",
                    "flood_stdout", "zero_length", "huge_length", "bad_payload")


def main():
    mode = sys.argv[1]
    if mode == "slow_start":
        time.sleep(5)
    if mode == "ignore_term":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    M, N, no_x, no_y = map(int, sys.stdin.readline().split())
    if mode == "exit_first":
        sys.exit(3)
    top = [M] * N
    if no_x == M - 1:
        top[no_y] = M - 1

    def drop(x, y):
        top[y] -= 1 + (x == no_x + 1 and y == no_y)

    moves, start, rng = 0, 1, None
    if mode == "crash_later":
        mode, start = "crash", 3
    for line in sys.stdin:
        last_x, last_y = map(int, line.split())
        if last_x >= 0:
            drop(last_x, last_y)
        moves += 1
        if mode == "chaos":
            mode, start, rng = chaos_plan(sys.argv[2], M, N, no_x, no_y, opens=last_x < 0)
        columns = [c for c in range(N) if top[c] > 0]
        y = rng.choice(columns) if rng else columns[0]
        x = top[y] - 1
        if misbehave(mode if moves >= start else "good", x, y, moves, no_x, no_y):
            time.sleep(60)
        drop(x, y)


if __name__ == "__main__":
    main()
