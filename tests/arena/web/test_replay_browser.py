"""The replay page in a real browser: headless Chromium runs the page's own script, steps through
games with real key presses and clicks (scripted in the URL hash), and the DOM it leaves behind
is compared with the records."""

from pathlib import Path
from typing import Dict, List, Tuple

import pytest
from replay_dom import PageDom
from replay_records import write_records
from skips import skip_if_missing

from arena.web.replay import write_report
from devtools.browser import chromium_missing, dump_dom
from records.game import GameRecord
from records.result import Result

pytestmark = skip_if_missing(chromium_missing(), "no chromium")

HAND_WIN, CRASH = 0, 1  # indices of the hand-made games in replay_records.write_records


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Tuple[Path, List[GameRecord]]:
    folder = tmp_path_factory.mktemp("view")
    records = write_records(folder / "results.jsonl")
    return write_report(folder / "results.jsonl", folder / "report.html"), records


def show(page: Path, fragment: str) -> PageDom:
    dom = PageDom(dump_dom(page, fragment))
    assert dom.body().attrs.get("data-ready") == "1", "the page's script did not finish"
    return dom


def expected_cells(rec: GameRecord, step: int) -> Dict[Tuple[int, int], int]:
    """Every cell's content after `step` moves: 1 first player, 2 second, 0 empty."""
    cells = {(x, y): 0 for x in range(rec.M) for y in range(rec.N)
             if (x, y) != (rec.no_x, rec.no_y)}
    for ply, (x, y) in enumerate(rec.moves[:step]):
        cells[(x, y)] = ply % 2 + 1
    return cells


def assert_board_is(dom: PageDom, rec: GameRecord, step: int) -> None:
    board = dom.by_id("board")
    assert board is not None and board.attrs["data-step"] == str(step)
    cells = dom.board_cells()
    forbidden = cells.pop((rec.no_x, rec.no_y))
    assert forbidden.attrs.get("data-forbidden") == "1" and "data-s" not in forbidden.attrs
    assert {c: int(e.attrs["data-s"]) for c, e in cells.items()} == expected_cells(rec, step)
    last = [c for c, e in cells.items() if "last" in e.classes]
    assert last == ([tuple(rec.moves[step - 1])] if step else [])


@pytest.mark.parametrize("step", [0, 3, 7])
def test_board_matches_hand_checked_game_with_forbidden_cell_on_bottom_row(site, step):
    page, records = site
    assert_board_is(show(page, f"game={HAND_WIN}&step={step}"), records[HAND_WIN], step)


def test_arrow_keys_and_buttons_step_through_a_random_game(site):
    page, records = site
    game = max(range(len(records)), key=lambda i: len(records[i].moves))
    rec = records[game]
    dom = show(page, f"game={game}&step=0&do=key:ArrowRight*9,key:ArrowLeft*2,"
                     "click:btn-next*3,click:btn-prev")
    assert_board_is(dom, rec, 9)
    dom = show(page, f"game={game}&step=5&do=key:End")
    assert_board_is(dom, rec, len(rec.moves))
    dom = show(page, f"game={game}&step=5&do=click:btn-end,click:btn-prev,key:Home,key:ArrowLeft")
    assert_board_is(dom, rec, 0)


def test_winning_four_is_drawn_on_the_last_position_only(site):
    page, records = site
    rec = records[HAND_WIN]
    final = show(page, f"game={HAND_WIN}&step={len(rec.moves)}")
    won = {c for c, e in final.board_cells().items() if "win" in e.classes}
    assert won == {tuple(c) for c in rec.win_line}
    assert any("winline" in e.classes for e in final.elements)
    before = show(page, f"game={HAND_WIN}&step={len(rec.moves) - 1}")
    assert not any("win" in e.classes for e in before.board_cells().values())
    assert not any("winline" in e.classes for e in before.elements)


def test_fault_shows_message_course_code_and_stderr_tail(site):
    page, records = site
    dom = show(page, f"game={CRASH}")
    message = dom.by_id("fault-message").text
    assert "uct (B): crash: exit status -11" in message
    assert "Course code 5: B bug" in message
    assert dom.by_id("fault-stderr").text == records[CRASH].stderr["b"]
    assert not any(e.tag == "b" for e in dom.elements), "stderr must be shown as text"
    clean = show(page, f"game={HAND_WIN}")
    assert "hidden" in clean.by_id("fault").attrs


def test_filters_and_sort_agree_with_the_records(site):
    page, records = site
    dom = show(page, "do=set:f-result=loss")
    lost = [r for r in records if "bot" in (r.a, r.b) and r.result != "draw"
            and (r.result is Result.A) == (r.b == "bot")]
    assert dom.by_id("summary").attrs["data-count"] == str(len(lost))
    dom = show(page, "do=set:f-opp=greedy,set:f-colour=first,set:f-sort=long")
    rows = [int(e.attrs["data-game"]) for e in dom.elements if e.tag == "tr" and
            "data-game" in e.attrs]
    want = [i for i, r in enumerate(records) if r.b == "greedy" and r.first == "a"]
    assert sorted(rows) == want
    assert [len(records[i].moves) for i in rows] == sorted(
        (len(records[i].moves) for i in want), reverse=True)


def test_every_game_view_counts_results_from_side_a(site):
    page, records = site
    dom = show(page, "player=&result=win")
    assert dom.by_id("summary").attrs["data-count"] == str(
        sum(r.result is Result.A for r in records))
    dom = show(page, "player=&opp=crashy&result=their")
    assert dom.by_id("summary").attrs["data-count"] == str(
        sum(r.b == "crashy" and bool(r.fault) and r.fault.side.value == "b" for r in records))


def test_arrow_down_opens_the_next_game_of_the_filtered_list(site):
    page, records = site
    want = [i for i, r in enumerate(records) if r.b == "uct"]
    assert len(want) >= 2, "the fixture needs two games against uct"
    dom = show(page, f"opp=uct&game={want[0]}&do=key:ArrowDown")
    assert_board_is(dom, records[want[1]], len(records[want[1]].moves))


def test_games_played_by_the_referee_replay_as_recorded(site):
    page, records = site
    real = [i for i, r in enumerate(records) if r.batch == "real"]
    won = next(i for i in real if records[i].win_line)
    crashed = next(i for i in real if records[i].fault)
    rec = records[won]
    dom = show(page, f"game={won}&do=key:Home,key:ArrowRight*{len(rec.moves) // 2}")
    assert_board_is(dom, rec, len(rec.moves) // 2)
    final = show(page, f"game={won}")
    assert_board_is(final, rec, len(rec.moves))
    assert {c for c, e in final.board_cells().items() if "win" in e.classes} == {
        tuple(c) for c in rec.win_line}
    dom = show(page, f"game={crashed}")
    assert "deliberate crash for the replay page's tests" in dom.by_id("fault-stderr").text
    assert f"Course code {records[crashed].code}" in dom.by_id("fault-message").text
