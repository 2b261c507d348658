"""The submission's entry point: the bot on the platform protocol (see bot/__main__.py).

The per-move search time comes from $BOT_TIME (seconds) or the bot's safe default; the first
move's clock starts at process start, so interpreter start-up and imports are accounted for.
"""

import sys

from bot.__main__ import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
