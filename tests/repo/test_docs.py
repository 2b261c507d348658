"""The documents stay a product: docs/strength.md is the current results and how the bot plays,
not a lab notebook, and the README's strength table shows the bot as it ships."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STRENGTH_LINES = 400
# The bot as it ships at 2.4 s and at 1 s, against the Python opponents, the course's samples.
README_STRENGTH_ROWS = 4


def readme_strength_rows(text: str) -> int:
    """Data rows of the first table under the README's "## Strength" heading."""
    section = re.search(r"^## Strength\n(.*?)(?=^## |\Z)", text, re.MULTILINE | re.DOTALL)
    assert section, "README.md has no '## Strength' section"
    rows, in_table = 0, False
    for line in section.group(1).splitlines():
        if line.startswith("|"):
            in_table = True
            if not re.fullmatch(r"\|[\s|:-]+\|", line):  # not the header's separator
                rows += 1
        elif in_table:
            break
    return rows - 1  # the header


def test_the_strength_page_stays_within_its_length():
    lines = (ROOT / "docs" / "strength.md").read_text().count("\n")
    assert lines <= STRENGTH_LINES, f"docs/strength.md has {lines} lines"


def test_the_readme_strength_table_shows_only_the_bot_as_it_ships():
    assert readme_strength_rows((ROOT / "README.md").read_text()) <= README_STRENGTH_ROWS


def test_the_row_count_skips_the_header_and_its_separator():
    text = ("## Strength\nintro\n\n| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n\nafter\n"
            "## Next\n| x |\n")
    assert readme_strength_rows(text) == 2
