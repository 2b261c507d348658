"""A job's state (arena/web/jobs.py): the words the pages read, with a failure's why."""

import pytest

from arena.web.jobs import Job, JobState


def test_a_state_is_its_word_with_or_without_why():
    assert [s.value for s in JobState] == ["none", "queued", "running", "ready", "failed"]
    said = Job(JobState.FAILED, "the analysis took over 300 s")
    assert said.words == "failed: the analysis took over 300 s"
    assert said.state is JobState.FAILED and Job(JobState.READY).words == "ready"
    with pytest.raises(ValueError):
        JobState("done")
