"""The suite's JSON Lines files (a suite, its ledger, a run's answers) read as a kill leaves
them: each line is written whole and flushed, so only the last can be torn, and it is cut off
before a build or a run appends again."""

from pathlib import Path
from typing import List


def whole_lines(path: Path) -> List[str]:
    """The file's complete lines, blank ones left out (none without a file); a torn last one is
    cut from the file."""
    if not path.is_file():
        return []
    text = path.read_text(encoding="utf-8")
    complete = text[:text.rfind("\n") + 1]
    if complete != text:
        path.write_text(complete, encoding="utf-8")
    return [line for line in complete.splitlines() if line.strip()]
