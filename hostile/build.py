"""Builds the hostile strategy libraries from this folder's sources (for the arena's tests and
bench/hostile.py) through the one native build (opponents/build.py): one C library per
misbehaviour mode, the C++ one linked without libstdc++ (as the course's are), a file that is
not a library, and a path that does not exist."""
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Dict, Iterable

from arena.children import system
from opponents.build import BuildError, compile_library

HERE = Path(__file__).resolve().parent
# Two libraries leave symbols to the loader: UNDEFINED_SYMBOL's (which must build, then fail
# to load) and the C++ one linked without its runtime. A Linux linker leaves an undefined
# symbol of a shared library to the loader; macOS's refuses it unless told to.
LOAD_TIME_SYMBOLS = {"Mac": ["-undefined", "dynamic_lookup"]}.get(system.SYSTEM, [])


def build_libraries(out: Path, modes: Iterable[str]) -> Dict[str, str]:
    """Compile into ``out``; returns lower-case mode name (plus cpp, not_elf, missing) -> path.

    Raises RuntimeError naming the libraries whose build failed."""
    jobs = {mode.lower(): ([HERE / "strategy.c"], out / f"{mode.lower()}.so",
                           [f"MODE_{mode.upper()}"], True,
                           LOAD_TIME_SYMBOLS if mode.upper() == "UNDEFINED_SYMBOL" else [])
            for mode in modes}
    jobs["cpp"] = ([HERE / "strategy_nolibstdcxx.cpp"], out / "cpp.so", [], False,
                   LOAD_TIME_SYMBOLS)
    with ThreadPoolExecutor(max_workers=4) as pool:
        builds = {name: pool.submit(compile_library, *job) for name, job in jobs.items()}
    failed = [f"{name}.so" for name, build in builds.items()
              if isinstance(build.exception(), BuildError)]
    if failed:
        raise RuntimeError(f"building {', '.join(failed)} failed")
    built = {name: str(build.result()) for name, build in builds.items()}
    (out / "not_elf.so").write_text("this is not a shared library\n")
    built["not_elf"] = str(out / "not_elf.so")
    built["missing"] = str(out / "does_not_exist.so")
    return built
