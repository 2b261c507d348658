"""Child processes the arena starts, players' and the analysis engine's alike: each in a session
of its own and killed with everything it left (`reaper`), its pipes read against deadlines
(`pipe_reader`) and its stderr's last bytes kept (`tail`)."""
