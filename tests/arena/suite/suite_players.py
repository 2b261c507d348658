"""Players for the suite's tests, and the C source of one: each plays by a fixed rule, so what it
solves follows from the items' proofs."""

from typing import List, Tuple

LEFTMOST_C = r"""
#include <stdlib.h>
typedef struct { int x; int y; } Point;
Point *getPoint(const int M, const int N, const int *top, const int *board, const int lastX,
                const int lastY, const int noX, const int noY) {
    Point *p = malloc(sizeof(Point));
    for (int y = 0; y < N; y++)
        if (top[y] > 0) { p->x = top[y] - 1; p->y = y; break; }
    return p;
}
void clearPoint(Point *p) { free(p); }
"""


def rightmost(M: int, N: int, top: List[int], board: List[int], last_x: int, last_y: int,
              no_x: int, no_y: int) -> Tuple[int, int]:
    """The rightmost column that is not full."""
    y = max(c for c in range(N) if top[c] > 0)
    return top[y] - 1, y
