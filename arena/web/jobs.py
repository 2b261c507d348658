"""Where a job the server runs for a page stands (a review, a loss analysis): the pages' words."""

from dataclasses import dataclass
from enum import Enum


class JobState(str, Enum):
    """A job's state; its value is the word the pages read."""

    NONE = "none"  # not asked for yet
    QUEUED = "queued"  # waiting for an engine
    RUNNING = "running"
    READY = "ready"
    FAILED = "failed"


@dataclass(frozen=True)
class Job:
    """A job's state with why it stands there (a failure's reason), kept beside it."""

    state: JobState
    why: str = ""

    @property
    def words(self) -> str:
        """The state's word with its why, as a page shows it (``failed: no time``)."""
        return f"{self.state.value}: {self.why}" if self.why else self.state.value
