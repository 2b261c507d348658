"""Reports: the course's result files, the statistics (Elo, SPRT) and stat.py's tables as text
and PNG plots, computed from game results."""
