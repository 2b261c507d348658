"""Every reference in code and docs to a file of this repository, or to a section of one of its
documents, points at something that exists.

A reference is a path that starts with one of the repository's top-level folders
(`bench/speed.py`, `docs/results/`, `tests/bot/test_search.py`; a `*`, `<name>` or `{a,b}` in it
matches as the shell would), a relative link in a markdown page (`![page](viewer.png)`), or a
section: `docs/strength.md, "Where the games are lost"`, `docs/design.md ("JSON Lines record")`
(a heading of that page that starts with the quoted words; the quote may run over lines of a
comment or docstring) and `docs/strength.md#results` (GitHub's anchor of a heading)."""

from __future__ import annotations

import fnmatch
import os
import re
import subprocess
from pathlib import Path
from typing import Dict, List, Set

from skips import skip

ROOT = Path(__file__).resolve().parents[2]
SCANNED = (".py", ".sh", ".js", ".cpp", ".md", ".yaml")
# Files whose references are not promises about today's tree.
EXEMPT = {
    "CHANGELOG.md": "history: it names files as they were when each change was made",
    "tests/repo/test_references.py": "its examples name missing files on purpose",
    "tests/arena/batch/test_bundle.py": "it builds a tree of made-up files in a temporary folder",
}
# Folders the tools create at run time, never committed: a path into them names an output.
RUN_TIME = {
    ".venv": "the virtual environment scripts/bootstrap.sh creates",
    "build": "compiled libraries (compile.sh, the tests' native builds)",
    "dist": "the submission zip compile.sh writes",
    "so": "the course layout's libraries compete.sh builds from Sourcecode/",
    "results": "a batch's output folder (arena --output, configs' output:)",
    "compete_result": "the course's per-pairing result files a batch writes",
}
SEGMENT = r"(?:[\w.*+-]|<[\w -]+>|\{[\w.,+-]+\})+"
PATH = re.compile(rf"(?<![\w./~$@<>{{}}*+-])((?:{SEGMENT}/)+(?:{SEGMENT})?)")
LINK = re.compile(r"\]\(([^)\s]+)\)")
DOC = r"(docs/[\w./-]+\.md|README\.md)"
SECTION = re.compile(DOC + r"(?:, | \()\"([^\"]+)\"")
ANCHOR = re.compile(DOC + r"#([\w-]+)")
CONTINUATION = re.compile(r"\s*\n\s*(?:#+ |// |\* )?\s*")


def tracked() -> List[str]:
    try:
        return subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                              check=True, timeout=60).stdout.splitlines()
    except (OSError, subprocess.CalledProcessError):
        skip("not a git checkout")


def scanned_files() -> List[str]:
    return [n for n in tracked() if n.endswith(SCANNED) and n not in EXEMPT
            and (ROOT / n).is_file()]


def top_level_folders(names: List[str]) -> Set[str]:
    return {n.split("/", 1)[0] for n in names if "/" in n}


def as_glob(path: str) -> List[str]:
    """Shell patterns for a path: `{a,b}` is each alternative; `<name>`, an f-string's `{name}`
    and a name in capitals (`bench/NAME.py`, `FOLDER/games.jsonl`) match anything."""
    path = re.sub(r"<[^>]*>|\{[^},]*\}|(?<![\w.-])[A-Z][A-Z_]{2,}(?![\w-])", "*", path)
    braces = re.search(r"\{([^}]*)\}", path)
    if not braces:
        return [path]
    return [g for alt in braces.group(1).split(",")
            for g in as_glob(path[:braces.start()] + alt + path[braces.end():])]


def exists(path: str, names: List[str]) -> bool:
    """Whether tracked files (or folders holding them) match ``path``: a pattern at least one,
    each alternative of a `{a,b}`."""
    return all(matched(pattern, names) for pattern in as_glob(path.rstrip("/")))


def matched(pattern: str, names: List[str]) -> bool:
    module, _, attribute = pattern.rpartition(".")
    if attribute[:1].isupper() and "/" in module and f"{module}.py" in names:
        return True  # a Python object: arena/core/players/base.Player
    if any(c in pattern for c in "*?["):
        return any(fnmatch.fnmatchcase(n, pattern) or fnmatch.fnmatchcase(n, pattern + "/*")
                   for n in names)
    return pattern in names or any(n.startswith(pattern + "/") for n in names)


def paths_in(text: str) -> List[str]:
    """The repository-looking paths of a text, trailing sentence punctuation dropped."""
    found = []
    for match in PATH.finditer(text):
        path = match.group(1).rstrip(".,:;")
        if "/" in path and not any(set(part) == {"."} and len(part) > 2
                                   for part in path.split("/")):
            found.append(path)
    return found


def headings(page: Path) -> List[str]:
    return [re.sub(r"^#+\s*", "", line).strip() for line in page.read_text().splitlines()
            if re.match(r"#{1,6} ", line)]


def anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def broken_references(name: str, text: str, names: List[str]) -> List[str]:
    top = top_level_folders(names)
    broken = []
    for path in paths_in(text):
        first = path.split("/", 1)[0]
        if first in top and first not in RUN_TIME and not exists(path, names):
            broken.append(path)
    if name.endswith(".md"):
        folder = str(Path(name).parent)
        for target in LINK.findall(text):
            if re.match(r"[a-z]+:|#", target):
                continue
            resolved = os.path.normpath(os.path.join(folder, target.split("#")[0]))
            if not exists(resolved, names):
                broken.append(target)
    flat = CONTINUATION.sub(" ", text)
    for page, section in SECTION.findall(flat):
        if page not in names:
            broken.append(page)
        elif not any(h.startswith(section) for h in headings(ROOT / page)):
            broken.append(f'{page}, "{section}"')
    for page, tag in ANCHOR.findall(text):
        if page not in names:
            broken.append(page)
        elif tag not in {anchor(h) for h in headings(ROOT / page)}:
            broken.append(f"{page}#{tag}")
    return broken


def test_the_check_sees_what_it_is_for():
    names = ["bench/speed.py", "docs/strength.md", "docs/results/a-1.jsonl", "tests/x/test_y.py"]
    text = ("see bench/speed.py, bench/gone.py and tests/x/ (or tests/z/); docs/results/a-{1,2}"
            ".jsonl; docs/results/*.jsonl; so/<id>.so, results/mine, /tmp/bench/x.py, "
            "tests/..., ../shared/RULES.md, bench/NAME.py, bench/{name}, bench/speed.Limit.")
    assert broken_references("a.py", text, names) == [
        "bench/gone.py", "tests/z/", "docs/results/a-{1,2}.jsonl"]
    assert broken_references("docs/a.md", "![p](results/a-1.jsonl) [q](gone.png)", names) == [
        "gone.png"]


def test_sections_are_matched_over_the_lines_of_a_comment():
    text = ('the counts (docs/strength.md, "Where the\n    #   games are lost") and '
            "docs/strength.md#results")
    assert broken_references("a.py", text, ["docs/strength.md"]) == []
    assert broken_references("a.py", 'docs/strength.md, "No such part"', ["docs/strength.md"]) == [
        'docs/strength.md, "No such part"']


def test_every_reference_to_a_file_or_a_section_exists():
    names = tracked()
    broken: Dict[str, List[str]] = {}
    for name in scanned_files():
        found = broken_references(name, (ROOT / name).read_text(errors="replace"), names)
        if found:
            broken[name] = found
    assert broken == {}
