"""The loss analysis on the replay page (headless Chromium): the decisive mistake marked in the
move list, the text box, and stepping through the proven line instead of the game's end."""

from dataclasses import replace
from pathlib import Path

import pytest
from replay_dom import PageDom
from replay_records import forbidden_bottom_win
from skips import skip_if_missing

from arena.web.replay import write_report
from devtools.browser import chromium_missing, dump_dom
from records.analysis import Alternative, Decisive, Kind, LossAnalysis, Phase, Value
from records.log import ResultLog

pytestmark = skip_if_missing(chromium_missing(), "no chromium")

# forbidden_bottom_win: B stacks column 3 on the forbidden cell and A (bot) never blocks. The
# page shows whatever analysis a record carries, so this one is written by hand: the mistake
# is A's move at index 5 ((7, 0)), proven lost after 6 moves, the proof's line one move long.
ANALYSIS = LossAnalysis(
    loser="bot", loser_moved="second", seconds=3.0, lost_after=6,
    decisive=Decisive(5, [7, 0], proven=True, alternatives=[
        Alternative([4, 3], Value.DRAW), Alternative([8, 2], Value.UNSETTLED),
        Alternative([8, 4], Value.UNSETTLED, no_four_within=7)]),
    kind=Kind.MISSED_BLOCK, forced_four_in=1, win_in=1, line=[[4, 3]], line_source="proof",
    phase=Phase.OPENING, positions=1, elapsed=0.01)


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("analysed")
    plain = forbidden_bottom_win()
    with ResultLog(folder / "games.jsonl") as log:
        log.append(replace(plain, analysis=ANALYSIS))
        log.append(replace(plain, round=1))  # no analysis: no box, no marks
        bounded = replace(ANALYSIS, decisive=replace(ANALYSIS.decisive, proven=False,
                                                     avoidable=True))
        log.append(replace(plain, round=2, analysis=bounded))
    return write_report(folder / "games.jsonl", folder / "report.html")


def show(page: Path, fragment: str) -> PageDom:
    dom = PageDom(dump_dom(page, fragment))
    assert dom.body().attrs.get("data-ready") == "1", "the page's script did not finish"
    return dom


def items(dom: PageDom):
    return [e for e in dom.elements if e.tag == "li" and "data-ply" in e.attrs]


def test_the_mistake_and_the_lost_moves_are_marked_and_explained(page):
    dom = show(page, "game=0")
    marks = {int(e.attrs["data-ply"]): e.classes for e in items(dom)}
    assert "mistake" in marks[6]
    assert [p for p, c in marks.items() if "lost" in c] == [7]
    box = dom.by_id("analysis")
    assert "hidden" not in box.attrs and box.attrs["data-kind"] == "missed block"
    text = dom.by_id("analysis-text").text
    assert "bot's decisive mistake: move 6 at (7,0)" in text
    assert "Other moves: (4,3) draw, (8,4) no four within 7 plies, 1 unsettled." in text
    assert "missed block in 1 ply" in text
    assert "open" in dom.by_id("moves-box").attrs


def test_the_proven_line_replaces_the_games_end_and_toggles_back(page):
    dom = show(page, "game=0&do=click:btn-line,key:End")
    board = dom.by_id("board")
    assert board.attrs["data-line"] == "1" and board.attrs["data-plies"] == "7"
    assert board.attrs["data-last"] == "4,3" and board.attrs["data-win"] == ""
    assert [int(e.attrs["data-ply"]) for e in items(dom) if "line" in e.classes] == [7]
    back = show(page, "game=0&do=click:btn-line,key:l")
    assert back.by_id("board").attrs["data-line"] == ""
    assert back.by_id("board").attrs["data-step"] == "7"


def test_a_game_without_analysis_shows_no_box(page):
    dom = show(page, "game=1&do=key:l")
    assert "hidden" in dom.by_id("analysis").attrs
    assert dom.by_id("board").attrs["data-line"] == ""
    assert not any({"mistake", "lost", "line"} & set(e.classes) for e in items(dom))


def test_a_mistake_avoidable_within_bounds_says_so(page):
    text = show(page, "game=2").by_id("analysis-text").text
    assert "move 6 at (7,0), avoidable: another move was proven clear of a four" in text
