"""A table as data, and its renderings: aligned text, Markdown, CSV and JSON."""

import csv
import io
import json
import math
from dataclasses import dataclass, field
from typing import Any, List, Sequence

FORMATS = ("table", "markdown", "csv", "json")


@dataclass
class Table:
    """A titled table; cells keep their raw values (numbers stay numbers for JSON)."""

    key: str  # short name: the table's key in JSON output
    title: str
    columns: List[str]
    rows: List[List[Any]] = field(default_factory=list)


def cell_text(value: Any) -> str:
    """Floats with 3 significant decimals at most, infinities spelled out, None as '-'."""
    if value is None:
        return "-"
    if isinstance(value, float):
        if math.isnan(value):
            return "-"
        if math.isinf(value):
            return "+inf" if value > 0 else "-inf"
        return f"{value:.3f}" if abs(value) < 10 else f"{value:.1f}"
    return str(value)


def plain(table: Table) -> str:
    """Columns padded to their widest cell, as the course's stat.txt."""
    text = [table.columns] + [[cell_text(v) for v in row] for row in table.rows]
    widths = [max(len(r[i]) for r in text) for i in range(len(table.columns))]
    lines = [table.title] if table.title else []
    lines += ["  ".join(c.rjust(w) for c, w in zip(r, widths)).rstrip() for r in text]
    return "\n".join(lines) + "\n"


def markdown(table: Table) -> str:
    lines = [f"### {table.title}", ""] if table.title else []
    lines += ["| " + " | ".join(table.columns) + " |", "|" + "---|" * len(table.columns)]
    lines += ["| " + " | ".join(cell_text(v) for v in row) + " |" for row in table.rows]
    return "\n".join(lines) + "\n"


def csv_text(table: Table) -> str:
    out = io.StringIO()
    out.write(f"# {table.title}\n")
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(table.columns)
    writer.writerows([cell_text(v) for v in row] for row in table.rows)
    return out.getvalue()


def _json_value(value: Any) -> Any:
    if isinstance(value, float) and (math.isinf(value) or math.isnan(value)):
        return None if math.isnan(value) else ("+inf" if value > 0 else "-inf")
    return value


def render(tables: Sequence[Table], fmt: str) -> str:
    """All tables in one format; JSON is one object keyed by each table's key."""
    if fmt == "json":
        data = {t.key: [dict(zip(t.columns, map(_json_value, row))) for row in t.rows]
                for t in tables}
        return json.dumps(data, indent=2) + "\n"
    one = {"table": plain, "markdown": markdown, "csv": csv_text}[fmt]
    return "\n".join(one(t) for t in tables)
