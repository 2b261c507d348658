"""Build the submission zip: main.py and the bot/ modules it imports, at the zip root.

Only what the bot runs: the modules reached from main.py by imports (read with ``ast``, every
import of a ``bot`` module, at any depth, counted) and their packages' ``__init__.py``;
bot/search/solver.py, which only the loss analysis uses, stays out.

Standard library only; compile.sh runs ``python3 scripts/package_bot.py``. The zip is
reproducible (sorted names, fixed timestamps), so an unchanged bot gives identical bytes.
"""

from __future__ import annotations

import argparse
import ast
import sys
import zipfile
from pathlib import Path
from typing import List, Set

ROOT = Path(__file__).resolve().parents[1]
FIXED_TIME = (2020, 1, 1, 0, 0, 0)


def _module_file(root: Path, module: str) -> Path:
    """The file of a dotted ``bot`` module (a package's ``__init__.py``), relative to root."""
    path = Path(*module.split("."))
    return path / "__init__.py" if (root / path).is_dir() else path.with_suffix(".py")


def _imports(root: Path, rel: Path) -> Set[str]:
    """The ``bot`` modules that ``rel`` imports (``from bot.x import y``: bot.x and, when y is
    a module, bot.x.y)."""
    found: Set[str] = set()
    for node in ast.walk(ast.parse((root / rel).read_text(), str(rel))):
        names: List[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        found.update(name for name in names if name.split(".")[0] == "bot" and
                     (root / _module_file(root, name)).is_file())
    return found


def sources(root: Path) -> List[Path]:
    """main.py, the bot modules it reaches and their packages, relative to ``root``, sorted."""
    seen: Set[Path] = set()
    todo = [Path("main.py")]
    while todo:
        rel = todo.pop()
        if rel in seen:
            continue
        seen.add(rel)
        for module in _imports(root, rel):
            parts = module.split(".")
            todo += [_module_file(root, ".".join(parts[:i])) for i in range(1, len(parts) + 1)]
    return sorted(seen, key=lambda p: (p != Path("main.py"), p.as_posix()))


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
