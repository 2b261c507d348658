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


def room_blocks(text: str) -> dict:
    """Each arena room's paragraph in docs/design.md's map ("Where each job lives"): from the
    line naming the room (`  core/`) to the next room or the arena's entry point."""
    section = text.split("## Where each job lives", 1)[1].split("```")[1]
    blocks: dict = {}
    room = None
    for line in section.splitlines():
        named = re.match(r"  (\w+)/\s", line + " ")
        if named:
            room = named.group(1)
        elif re.match(r"  \S|\S", line):
            room = None
        if room:
            blocks[room] = blocks.get(room, "") + line + "\n"
    return blocks


def test_the_design_map_names_every_module_of_every_room():
    blocks = room_blocks((ROOT / "docs" / "design.md").read_text())
    rooms = sorted(p.name for p in (ROOT / "arena").iterdir() if (p / "__init__.py").is_file())
    missing = [f"{room}/{module.relative_to(ROOT / 'arena' / room)}"
               for room in rooms for module in sorted((ROOT / "arena" / room).rglob("*.py"))
               if module.name != "__init__.py"
               and module.name not in blocks.get(room, "")]
    assert rooms and not missing, f"docs/design.md's map misses {missing}"


def test_a_room_block_ends_at_the_next_room_or_the_entry_point():
    text = ("## Where each job lives\n```\narena/    the arena\n  core/    rules.py, a.py\n"
            "                     b.py\n  web/     c.py\n  __main__.py   entry\nbot/ x.py\n```\n")
    blocks = room_blocks(text)
    assert set(blocks) == {"core", "web"}
    assert "b.py" in blocks["core"] and "c.py" not in blocks["core"]
    assert "entry" not in blocks["web"] and "x.py" not in blocks["web"]
