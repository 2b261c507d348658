"""Shows that the test suite holds on a busy machine: runs the README's test command (test.sh)
several times in a row while other processes keep cores busy, then prints how many runs
passed, each failure, and the slowest tests (the longest time each took in any run).

    python3 scripts/suite_under_load.py                 # 5 runs, one core kept busy
    python3 scripts/suite_under_load.py --runs 2 --busy 2 -- tests/arena/web

Arguments after ``--`` go to pytest (through test.sh). Skips are refused as in CI
(ARENA_NO_SKIPS=1) unless --allow-skips. Exits 0 only when every run passed.
"""

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Dict, List, Tuple

ROOT = Path(__file__).resolve().parents[1]
BUSY = "while True: pass"


def run_once(junit: Path, pytest_args: List[str], env: Dict[str, str]) -> Tuple[int, float]:
    """One run of test.sh; its exit status and seconds."""
    start = time.monotonic()
    done = subprocess.run(["bash", str(ROOT / "test.sh"), "-q", "-p", "no:randomly",
                           f"--junitxml={junit}", *pytest_args], cwd=ROOT, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if done.returncode != 0:
        print(done.stdout[-4000:], flush=True)
    return done.returncode, time.monotonic() - start


def cases(junit: Path) -> List[Tuple[str, float, bool]]:
    """(test id, seconds, failed) of each test case of a JUnit XML report."""
    out = []
    if not junit.is_file():
        return out
    for case in ET.parse(junit).getroot().iter("testcase"):
        name = f"{case.get('classname', '')}::{case.get('name', '')}"
        failed = case.find("failure") is not None or case.find("error") is not None
        out.append((name, float(case.get("time", 0.0)), failed))
    return out


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5, help="runs in a row (default: 5)")
    parser.add_argument("--busy", type=int, default=1,
                        help="processes that each keep one core busy (default: 1)")
    parser.add_argument("--slowest", type=int, default=15,
                        help="slowest tests to list (default: 15)")
    parser.add_argument("--allow-skips", action="store_true",
                        help="allow the skips tests/skips.py allows (default: none, as CI)")
    parser.add_argument("pytest_args", nargs="*", help="arguments for pytest, after --")
    args = parser.parse_args(argv)
    # Ctrl-C stops the runs even where this script was started with SIGINT ignored (a
    # background job of a shell without job control); the runs get it at its default too
    signal.signal(signal.SIGINT, signal.default_int_handler)
    env = dict(os.environ)
    if not args.allow_skips:
        env["ARENA_NO_SKIPS"] = "1"
    busy = [subprocess.Popen([sys.executable, "-c", BUSY]) for _ in range(args.busy)]
    longest: Dict[str, float] = {}
    failures: List[str] = []
    passed = 0
    seconds: List[float] = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for run in range(1, args.runs + 1):
                junit = Path(tmp) / f"run{run}.xml"
                status, took = run_once(junit, args.pytest_args, env)
                seconds.append(took)
                results = cases(junit)
                failed = [name for name, _, bad in results if bad]
                passed += status == 0
                failures += [f"run {run}: {name}" for name in failed]
                for name, t, _ in results:
                    longest[name] = max(t, longest.get(name, 0.0))
                print(f"run {run}/{args.runs}: {'passed' if status == 0 else 'FAILED'} "
                      f"({len(results)} tests, {len(failed)} failed, exit {status}) "
                      f"in {took:.0f} s", flush=True)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    finally:
        for proc in busy:
            proc.kill()
            proc.wait()
    print(f"\n{passed} of {args.runs} runs passed with {args.busy} core(s) kept busy; "
          f"a run took {min(seconds):.0f}-{max(seconds):.0f} s")
    for line in failures:
        print(f"  failed in {line}")
    print(f"\nslowest tests (the longest of the {args.runs} runs):")
    for name, t in sorted(longest.items(), key=lambda kv: -kv[1])[:args.slowest]:
        print(f"  {t:7.2f} s  {name}")
    return 0 if passed == args.runs else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
