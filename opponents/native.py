"""Build and call a course-ABI strategy library in-process (``getPoint``/``clearPoint``).

For tests and benchmarks of ``uct.cpp``: the arena hosts libraries in a child process of its
own, which survives a crash; this module does not, so use it only with trusted libraries.
"""

from __future__ import annotations

import ctypes
import subprocess
from pathlib import Path
from typing import Sequence, Tuple, Union

SOURCE = Path(__file__).with_name("uct.cpp")
DEFAULT_LIBRARY = Path("build/opponents/uct.so")
# The course's flags (shared/RULES.md); compile.sh uses the same.
COMPILE = ("g++", "-std=c++11", "-O2", "-fpic", "-shared")


class _Point(ctypes.Structure):
    _fields_ = [("x", ctypes.c_int), ("y", ctypes.c_int)]


def build(output: Union[str, Path] = DEFAULT_LIBRARY, source: Path = SOURCE) -> Path:
    """Compile ``source`` into the shared library ``output`` with the course's flags."""
    output = Path(output)
    output.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run([*COMPILE, "-o", str(output), str(source)], check=True)
    return output


class NativeStrategy:
    """A loaded library, callable like the Python members' ``get_point``."""

    def __init__(self, path: Union[str, Path]) -> None:
        # The course's libraries need libstdc++ loaded with global visibility first.
        ctypes.CDLL("libstdc++.so.6", mode=ctypes.RTLD_GLOBAL)
        self.path = Path(path)
        self._lib = ctypes.CDLL(str(self.path.resolve()))
        self._lib.getPoint.restype = ctypes.POINTER(_Point)
        self._lib.getPoint.argtypes = [ctypes.c_int, ctypes.c_int,
                                       ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int),
                                       ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int]
        self._lib.clearPoint.argtypes = [ctypes.POINTER(_Point)]
        self._lib.clearPoint.restype = None

    def get_point(self, M: int, N: int, top: Sequence[int], board: Sequence[int], last_x: int,
                  last_y: int, no_x: int, no_y: int) -> Tuple[int, int]:
        """One getPoint call (board from the mover's view); frees the reply with clearPoint.
        The library reads its budget (UCT_TIME, UCT_PLAYOUTS, ...) from os.environ."""
        c_top = (ctypes.c_int * N)(*top)
        c_board = (ctypes.c_int * (M * N))(*board)
        reply = self._lib.getPoint(M, N, c_top, c_board, last_x, last_y, no_x, no_y)
        point = (reply.contents.x, reply.contents.y)
        self._lib.clearPoint(reply)
        return point

    __call__ = get_point
