"""Fixtures for the ladder's tests."""

from __future__ import annotations

import random
from typing import List

import pytest

from tests.opponents.positions import View, random_views


@pytest.fixture(scope="session")
def reachable() -> List[View]:
    """Random reachable positions (not over, side to move has a legal move), all 16 sizes."""
    return random_views(random.Random(20261123))
