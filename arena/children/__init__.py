"""Child processes the arena starts, players' and the engine's: `reaper` (a session each, killed
with all it left), `pipe_reader` (reads against a deadline), `tail` (the stderr's last bytes),
`system` (which system this is, asked in one place)."""
