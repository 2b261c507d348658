"""Hypothesis profiles for the property tests, chosen with HYPOTHESIS_PROFILE:

- ``ci`` (the default): 100 examples a unit (the tests scale it: 1,000 in all for the bot's three
  ways in), the same examples every run, so that a failure in CI is a failure of the change.
- ``thorough``: ten times as many, fresh random examples each run, failures kept in
  ``.hypothesis/`` and replayed first the next time.
"""

import os

from hypothesis import HealthCheck, settings

COMMON = dict(deadline=None, print_blob=True, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", max_examples=100, derandomize=True, database=None, **COMMON)
settings.register_profile("thorough", max_examples=1000, **COMMON)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
