"""Build the submission zip: main.py and the bot/ package at the zip root (sources only).

Standard library only; compile.sh runs ``python3 scripts/package_bot.py``. The zip is
reproducible (sorted names, fixed timestamps), so an unchanged bot gives identical bytes.
"""

from __future__ import annotations

import argparse
import sys
import zipfile
from pathlib import Path
from typing import List

ROOT = Path(__file__).resolve().parents[1]
FIXED_TIME = (2020, 1, 1, 0, 0, 0)


def sources(root: Path) -> List[Path]:
    """main.py and every .py file of bot/, relative to ``root``, sorted."""
    files = [Path("main.py")]
    files += sorted(p.relative_to(root) for p in (root / "bot").rglob("*.py")
                    if "__pycache__" not in p.parts)
    return files


def build(out: Path, root: Path = ROOT) -> List[Path]:
    """Write the zip to ``out``; returns the archived paths."""
    out.parent.mkdir(parents=True, exist_ok=True)
    files = sources(root)
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for rel in files:
            info = zipfile.ZipInfo(rel.as_posix(), FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, (root / rel).read_bytes())
    return files


def main() -> int:
    parser = argparse.ArgumentParser(description="Build the bot's submission zip.")
    parser.add_argument("--out", type=Path, default=ROOT / "dist" / "bot.zip",
                        help="zip to write (default: dist/bot.zip)")
    args = parser.parse_args()
    files = build(args.out)
    print(f"package_bot: wrote {args.out} ({len(files)} files)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
