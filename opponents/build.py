"""The one native build: C and C++ sources into a shared library with the course's flags, and
the native UCT (uct.cpp) built on first use.

The course builds each strategy with `g++ -std=c++11 -O2 -fpic -shared` (../shared/RULES.md);
compile.sh, the misbehaving libraries of hostile/, the benchmarks and the ladder all build
here, so the flags live in one place. The native UCT's library goes to build/opponents/ in a
checkout (where configs/ name it) and, installed, to a cache the user can write
($XDG_CACHE_HOME/connect4-arena, else ~/.cache/connect4-arena), never into site-packages.
Standard library only: compile.sh runs this file with any python3.

    python3 opponents/build.py OUTPUT.so SOURCE...   one library from C or C++ sources
    python3 opponents/build.py --uct                 the native UCT: built if stale, its path
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Iterable, Optional, Sequence, Union

COURSE_FLAGS = ("-O2", "-fpic", "-shared")
CXX_STANDARD = "-std=c++11"
CXX_SUFFIXES = (".cpp", ".cc", ".cxx")
UCT_SOURCE = Path(__file__).resolve().with_name("uct.cpp")
CHECKOUT = UCT_SOURCE.parents[1]  # the repository root when run from a checkout

PathLike = Union[str, Path]


class BuildError(Exception):
    """The compiler failed (its messages went to stderr); no library was written."""


def compile_library(sources: Sequence[PathLike], output: PathLike,
                    defines: Iterable[str] = (), libstdcxx: bool = True,
                    flags: Sequence[str] = ()) -> Path:
    """Compile ``sources`` into the shared library ``output`` with the course's flags; each
    source's folder is on the include path. C++ is linked by g++; ``libstdcxx=False`` links
    it with gcc, without libstdc++, as the course's own libraries are. ``defines`` are macro
    names (``MODE_SEGV``); ``flags`` go after the course's. The library appears whole or not
    at all, so processes that build the same library at once never load half of one."""
    paths = [Path(s) for s in sources]
    library = Path(output)
    cxx = any(s.suffix in CXX_SUFFIXES for s in paths)
    compiler = "g++" if cxx and libstdcxx else "gcc"
    folders = dict.fromkeys(f"-I{s.parent}" for s in paths)
    library.parent.mkdir(parents=True, exist_ok=True)
    partial = library.with_name(f".{library.name}.{os.getpid()}.part")
    command = [compiler, *([CXX_STANDARD] if cxx else []), *COURSE_FLAGS, *folders,
               *flags, *(f"-D{name}" for name in defines), *map(str, paths), "-o", str(partial)]
    try:
        done = subprocess.run(command)
        if done.returncode != 0:
            raise BuildError(f"{' '.join(command)} exited with status {done.returncode}")
        os.replace(partial, library)
    finally:
        partial.unlink(missing_ok=True)
    return library


def cache_dir() -> Path:
    """Where an installed arena keeps the libraries it builds."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "connect4-arena"


def native_uct(library: Optional[PathLike] = None) -> Path:
    """The native UCT's library, compiled from uct.cpp when it is missing or older than its
    source: at ``library``, else build/opponents/uct.so in a checkout, else in cache_dir()."""
    if library is None:
        in_checkout = (CHECKOUT / "pyproject.toml").is_file()
        library = (CHECKOUT / "build" / "opponents" if in_checkout else cache_dir()) / "uct.so"
    library = Path(library)
    if not library.is_file() or library.stat().st_mtime < UCT_SOURCE.stat().st_mtime:
        compile_library([UCT_SOURCE], library)
    return library


def main(argv: Sequence[str]) -> int:
    if list(argv) == ["--uct"]:
        print(native_uct())
        return 0
    if len(argv) < 2 or argv[0].startswith("-"):
        print("usage: python3 opponents/build.py OUTPUT.so SOURCE... | --uct", file=sys.stderr)
        return 2
    try:
        print(compile_library(argv[1:], argv[0]))
    except BuildError as e:
        print(f"opponents/build.py: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
