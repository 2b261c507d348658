"""The local arena: plays bots against each other under the course's rules and result codes.

Independent of ``bot/`` on purpose: the referee's rules are a second implementation, so a bug in
the bot's rules cannot hide behind the same bug in the judge.
"""

__version__ = "1.0.0"  # the one place the version is written (pyproject.toml reads it)
