#!/usr/bin/env python3
"""The course's stat.py for Python 3: `python3 stat.py [compete_result/] [--format ...]`.

A thin wrapper; the work is in arena/report/ (run `python3 stat.py --help`)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from arena.report.command import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
