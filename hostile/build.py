"""Builds the hostile strategy libraries from this folder's sources (for the arena's tests and
bench/hostile.py): one C library per misbehaviour mode, the C++ one linked without libstdc++
(as the course's are), a file that is not a library, and a path that does not exist."""
import subprocess
from pathlib import Path
from typing import Dict, Iterable

HERE = Path(__file__).resolve().parent


def build_libraries(out: Path, modes: Iterable[str]) -> Dict[str, str]:
    """Compile into ``out``; returns lower-case mode name (plus cpp, not_elf, missing) -> path.

    Raises RuntimeError naming the library whose build failed."""
    jobs = {}
    for mode in modes:
        path = out / f"{mode.lower()}.so"
        jobs[mode.lower()] = (path, subprocess.Popen(
            ["gcc", "-O1", "-shared", "-fpic", f"-DMODE_{mode.upper()}", str(HERE / "strategy.c"),
             "-o", str(path)]))
    obj = out / "cpp.o"
    subprocess.run(["g++", "-std=c++11", "-O1", "-fpic", "-c",
                    str(HERE / "strategy_nolibstdcxx.cpp"), "-o", str(obj)], check=True)
    jobs["cpp"] = (out / "cpp.so", subprocess.Popen(
        ["gcc", "-shared", str(obj), "-o", str(out / "cpp.so")]))
    failed = [path.name for path, job in jobs.values() if job.wait() != 0]
    if failed:
        raise RuntimeError(f"building {', '.join(failed)} failed")
    (out / "not_elf.so").write_text("this is not a shared library\n")
    built = {name: str(path) for name, (path, _) in jobs.items()}
    built["not_elf"] = str(out / "not_elf.so")
    built["missing"] = str(out / "does_not_exist.so")
    return built
