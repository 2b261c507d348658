"""Players that misbehave on purpose, for the arena's tests and bench/hostile.py.

- ``strategy.c``: a course library whose misbehaviour is chosen at compile time
  (``-DMODE_<X>``: segfault, endless loop, illegal move, ...), and ``strategy_nolibstdcxx.cpp``,
  a well-behaved C++ one linked without libstdc++ as the course's are; ``build`` compiles them.
- ``proto_bot.py``: a process on the platform protocol whose misbehaviour is its first
  argument (crash, hang, bad frames, an escaped grandchild, a seeded ``chaos`` mode).

The arena never imports this package; its tests and the bench run these players through it.
"""
