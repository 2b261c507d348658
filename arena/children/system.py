"""Which system the arena runs on, decided here and nowhere else (docs/arena.md, "Where the
arena runs"): Linux and macOS run all of it, native Windows none of it (WSL 2 does, as Linux).
The course ships its framework for the three, each with libraries of its own format, so a
library is told apart by its first bytes, never by its name."""
import os
import sys
from typing import Optional

NATIVE_WINDOWS = os.name == "nt"
WINDOWS_REFUSAL = ("native Windows is not supported: run the arena in WSL 2 (Ubuntu) with the "
                   "course's AI/Linux test cases, as README.md says")
SYSTEM = "Mac" if sys.platform == "darwin" else "Windows" if NATIVE_WINDOWS else "Linux"
"""This system as the course names its framework's folders (AI/Linux, AI/Mac, AI/Windows)."""
PROC_SCAN = os.path.isdir("/proc/self/fd")
"""Whether the reaper's pipe-holder scan can run: it reads /proc, which only Linux has."""

# The first bytes of a library and the system it is built for: ELF, Mach-O (32 and 64 bits,
# either byte order, and the fat file of several architectures), PE.
MAGIC = ((b"\x7fELF", "Linux"), (b"\xfe\xed\xfa\xce", "Mac"), (b"\xfe\xed\xfa\xcf", "Mac"),
         (b"\xce\xfa\xed\xfe", "Mac"), (b"\xcf\xfa\xed\xfe", "Mac"), (b"\xca\xfe\xba\xbe", "Mac"),
         (b"MZ", "Windows"))
NAMES = {"Linux": ("Linux", "ELF", ".so"), "Mac": ("macOS", "Mach-O", ".dylib"),
         "Windows": ("Windows", "PE", ".dll")}  # a system's name, its libraries' format, suffix


def library_system(path: str) -> Optional[str]:
    """The system the library at ``path`` is built for, from its first bytes; None for a file
    that cannot be read or is no library of the three (its load fails as a game's fault)."""
    try:
        with open(path, "rb") as f:
            head = f.read(4)
    except OSError:
        return None
    return next((system for magic, system in MAGIC if head.startswith(magic)), None)


def foreign_library(path: str) -> Optional[str]:
    """One line saying that the library at ``path`` is built for another system and where
    this one's are; None when it is this system's or not a library at all."""
    system = library_system(path)
    if system is None or system == SYSTEM:
        return None
    (name, form, _), (here, _, suffix) = NAMES[system], NAMES[SYSTEM]
    return (f"{path} is a {name} library ({form}); on {here} take the course's "
            f"AI/{SYSTEM}/TestCases ({suffix})")
