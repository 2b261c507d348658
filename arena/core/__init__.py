"""The game core: rules, players, the referee, boards, tasks, the game worker, live games."""
