"""Reports from game results: the course's files, Elo and SPRT, stat.py's tables and plots."""
