"""The one reader of a JSON Lines file written a whole line at a time (records.log.whole_lines):
every file of games, a suite, its ledger, a run's answers and the puzzles' attempts."""

import pytest

from records.log import ResultsError, whole_lines


def test_the_lines_keep_their_numbers_and_a_torn_last_one_is_cut(tmp_path):
    path = tmp_path / "answers.jsonl"
    path.write_bytes(b'{"a": 1}\n\n{"a": 2}\n{"a": 3')
    with pytest.raises(ResultsError, match="torn"):
        whole_lines(path, repair=False)
    assert path.read_bytes().endswith(b'{"a": 3')  # no repair: the file as it was
    assert whole_lines(path) == [(1, '{"a": 1}'), (3, '{"a": 2}')]
    assert path.read_bytes() == b'{"a": 1}\n\n{"a": 2}\n'  # the next append starts a line


def test_no_file_is_no_lines_and_bytes_not_utf8_name_their_line(tmp_path):
    assert whole_lines(tmp_path / "none.jsonl") == []
    path = tmp_path / "bad.jsonl"
    path.write_bytes(b'{"a": 1}\n\xff\xfe\n')
    with pytest.raises(ResultsError, match=":2: not UTF-8"):
        whole_lines(path)
