"""The game core: the referee's rules and board, one game between two players, the drawn
boards, a batch's tasks, the one game worker and the games in progress a watcher sees."""
