"""The HTML replay page: `write_report(records_path, out_path)` (python -m arena view)."""

from arena.view.page import write_report

__all__ = ["write_report"]
