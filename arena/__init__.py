"""The local arena: plays bots against each other under the course's rules and result codes.

Independent of ``bot/`` on purpose: the referee's rules are a second implementation, so a bug in
the bot's rules cannot hide behind the same bug in the judge.
"""
