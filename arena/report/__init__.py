"""stat.py's output: tables computed from game results, rendered as text, and PNG plots."""
