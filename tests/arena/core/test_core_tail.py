"""The bounded stderr tail and its end-of-game markers."""
import os

from arena.children.tail import StderrTail

MARK = b"\x00end\x00"


def test_tail_keeps_the_last_bytes_and_counts_markers_split_across_writes():
    r, w = os.pipe()
    tail = StderrTail(r, limit=16, marker=MARK)
    os.write(w, b"a" * 100 + b"first game" + MARK[:2])
    os.write(w, MARK[2:] + b"second")
    assert tail.wait_mark(timeout=30.0)
    os.write(w, b" game" + MARK)
    assert tail.wait_mark(timeout=30.0)
    assert not tail.wait_mark(timeout=0.05)  # each marker counts once
    os.close(w)
    tail.join(timeout=30.0)
    assert tail.text() == "first gamesecond game"[-16:]  # markers cut out, then bounded
    tail.reset()
    assert tail.text() == ""
