"""A platform-protocol bot whose misbehaviour is chosen by argv[1]; "good" plays the leftmost
legal column. Standard library only; the tests run it as a process player."""
import os
import signal
import struct
import subprocess
import sys
import time


def reply(x, y, flush=True):
    text = f"{x} {y}".encode()
    sys.stdout.buffer.write(struct.pack(">I", len(text)) + text)
    if flush:
        sys.stdout.buffer.flush()


def hold_pipes_forever(new_session):
    """Start a grandchild that keeps our stdin/stdout/stderr and sleeps."""
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"],
                     start_new_session=new_session)


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

    moves = 0
    for line in sys.stdin:
        last_x, last_y = map(int, line.split())
        if last_x >= 0:
            drop(last_x, last_y)
        moves += 1
        y = next(c for c in range(N) if top[c] > 0)
        x = top[y] - 1
        if mode == "garbage":
            sys.stdout.write("my move is column three\n")
            sys.stdout.flush()
        elif mode == "lying_header":
            sys.stdout.buffer.write(struct.pack(">I", 50) + f"{x} {y}".encode())
            sys.stdout.buffer.flush()
        elif mode == "flood_stdout":
            chunk = b"7 7 " * (1 << 18)
            for _ in range(100):
                sys.stdout.buffer.write(chunk)
        elif mode == "no_flush":
            reply(x, y, flush=False)
        elif mode == "close_stdout":
            os.close(1)
        elif mode in ("grandchild", "grandchild_setsid"):
            hold_pipes_forever(new_session=mode == "grandchild_setsid")
            if moves == 2:
                os._exit(0)
            reply(x, y)
        elif mode == "grandchild_hang":
            hold_pipes_forever(new_session=True)
            time.sleep(60)
        elif mode == "crash_later" and moves == 3:
            raise RuntimeError("proto_bot gave up on move 3")
        elif mode == "illegal":
            reply(no_x, no_y)
        elif mode == "flood_stderr":
            sys.stderr.write("e" * (10 << 20) + f"\nlast words of move {moves}\n")
            sys.stderr.flush()
            reply(x, y)
        elif mode == "ignore_term":
            time.sleep(60)
        else:
            reply(x, y)
        if mode in ("close_stdout", "no_flush", "lying_header", "garbage", "flood_stdout"):
            time.sleep(60)
        drop(x, y)


if __name__ == "__main__":
    main()
