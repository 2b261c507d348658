"""The course's result codes and the fault kinds, mapped in one table that the referee, the
records and the course's result files all read."""
from enum import Enum, IntEnum
from typing import Dict, Tuple


class FaultKind(str, Enum):
    """Why a player lost the game outside the board: the course's fault classes."""

    TIMEOUT = "timeout"
    CRASH = "crash"  # the course's "bug": crash, unreadable reply, exit mid-game
    ILLEGAL = "illegal"
    LOAD_ERROR = "load"
    NO_ENTRY = "noentry"


class Code(IntEnum):
    """The course's result code for a game between A and B, from A/B's view."""

    TIE = 0
    A_WON = 1
    B_WON = 2
    A_BUG = 3
    A_ILLEGAL = 4
    B_BUG = 5
    B_ILLEGAL = 6
    A_TIMEOUT = 7
    B_TIMEOUT = 8
    A_LOAD = -1
    B_LOAD = -2
    A_NO_ENTRY = -3
    B_NO_ENTRY = -4


_FAULT_CODES: Dict[FaultKind, Tuple[Code, Code]] = {
    FaultKind.CRASH: (Code.A_BUG, Code.B_BUG),
    FaultKind.ILLEGAL: (Code.A_ILLEGAL, Code.B_ILLEGAL),
    FaultKind.TIMEOUT: (Code.A_TIMEOUT, Code.B_TIMEOUT),
    FaultKind.LOAD_ERROR: (Code.A_LOAD, Code.B_LOAD),
    FaultKind.NO_ENTRY: (Code.A_NO_ENTRY, Code.B_NO_ENTRY),
}


def fault_code(kind: FaultKind, by_a: bool) -> Code:
    """The code for a game lost by a fault of A (``by_a``) or of B."""
    a_code, b_code = _FAULT_CODES[kind]
    return a_code if by_a else b_code
