"""Where a job the server runs for a page stands (a review, a loss analysis): the pages' words."""

from enum import Enum


class JobState(str, Enum):
    """A job's state; FAILED's word may carry why (``failed: why``)."""

    NONE = "none"  # not asked for yet
    QUEUED = "queued"  # waiting for an engine
    RUNNING = "running"
    READY = "ready"
    FAILED = "failed"

    def saying(self, why: str) -> str:
        """The state's word with why (``failed: the analysis took over 300 s``)."""
        return f"{self.value}: {why}"

    @classmethod
    def of(cls, text: str) -> "JobState":
        """The state a word names, with or without its why; ValueError for another word."""
        return cls(text.partition(":")[0])
