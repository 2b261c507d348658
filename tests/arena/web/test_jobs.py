"""A job's state (arena/web/jobs.py): the words the pages read, with a failure's why."""

import pytest

from arena.web.jobs import JobState


def test_a_state_is_its_word_with_or_without_why():
    assert [s.value for s in JobState] == ["none", "queued", "running", "ready", "failed"]
    said = JobState.FAILED.saying("the analysis took over 300 s")
    assert said == "failed: the analysis took over 300 s"
    assert JobState.of(said) is JobState.FAILED and JobState.of("ready") is JobState.READY
    with pytest.raises(ValueError):
        JobState.of("done")
