"""The page's data: compact encoding of records and a self-contained, script-safe HTML file."""

import json
import re

from replay_records import crash_with_stderr, forbidden_bottom_win, write_records

from arena.web.replay import write_report
from arena.web.replay_data import FIELDS, STDERR_TAIL, code_labels, encode_records
from records.move import moves_to_base36


def row(payload: dict, index: int) -> dict:
    return dict(zip(FIELDS, payload["games"][index]))


def test_moves_are_two_base36_digits_row_then_column():
    assert moves_to_base36([[11, 0], [8, 10], [0, 11]]) == "b08a0b"


def test_records_become_interned_positional_rows():
    payload = encode_records([forbidden_bottom_win(), crash_with_stderr()])
    assert payload["names"] == ["bot", "greedy", "uct"]
    win, crash = row(payload, 0), row(payload, 1)
    assert (win["a"], win["b"], win["first"], win["result"]) == (0, 1, 1, 2)
    assert (crash["a"], crash["b"], crash["first"], crash["result"]) == (0, 2, 0, 1)
    words = payload["outcomes"]  # each side's outcome, derived here, never by the page
    assert (words[win["outcome_a"]], words[win["outcome_b"]]) == ("loss", "win")
    assert (words[crash["outcome_a"]], words[crash["outcome_b"]]) == ("win", "loss")
    assert win["moves"] == "73" "80" "63" "81" "53" "70" "43"  # (7,3) (8,0) (6,3) ...
    assert win["times"] == [1, 2, 3, 4, 5, 6, 7]
    assert win["win"] == [4, 3, 5, 3, 6, 3, 7, 3]
    assert (win["no_x"], win["no_y"], win["code"], win["fault"]) == (8, 3, 2, -1)
    assert payload["reasons"][crash["reason"]] == "B crash"


def test_only_faulting_games_carry_the_faulting_side_stderr_tail():
    crash = crash_with_stderr()
    crash.stderr["b"] = "x" * (STDERR_TAIL + 10) + "END"
    crash.stderr["a"] = "the innocent side's chatter"
    payload = encode_records([forbidden_bottom_win(), crash])
    assert row(payload, 1)["fault"] == 0 and row(payload, 0)["fault"] == -1
    (fault,) = payload["faults"]
    assert (fault["side"], fault["kind"], fault["detail"]) == ("b", "crash", "exit status -11")
    assert len(fault["stderr"]) == STDERR_TAIL and fault["stderr"].endswith("END")
    assert "chatter" not in json.dumps(payload)


def test_code_labels_follow_the_course_codes():
    labels = code_labels()
    assert (labels[0], labels[1], labels[5], labels[7], labels[-4]) == (
        "tie", "A won", "B bug", "A timeout", "B no entry")


def test_page_is_self_contained_and_stderr_cannot_end_its_script(tmp_path):
    records = write_records(tmp_path / "r.jsonl", extra_random=4)
    page = write_report(tmp_path / "r.jsonl", tmp_path / "r.html").read_text(encoding="utf-8")
    assert not re.search(r"\b(src|href)\s*=|@import|url\(", page), "must not fetch anything"
    data = re.search(r'<script type="application/json" id="data">(.*?)</script>', page, re.S)
    assert json.loads(data.group(1)) == json.loads(json.dumps(encode_records(records)))
    assert page.count("</script>") == 2
