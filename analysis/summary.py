"""How a file's analysed losses split: by colour (and by colour on boards of an even number of
rows: the height sets which side's threats the final zugzwang favours), by the phase of the
decisive mistake, by the kind of win it allowed, and how many the budget left unsettled; then
one line a game."""

from __future__ import annotations

from collections import Counter
from typing import Any, Dict, Iterable, List

PHASES = ("opening", "middle", "end")
KINDS = ("missed block", "double threat", "zugzwang", "combination", "deep")


def _counts(counter: Counter, keys: Iterable[str]) -> str:
    return ", ".join(f"{k} {counter.get(k, 0)}" for k in keys)


def game_line(record: Dict[str, Any]) -> str:
    """One analysed loss: which game, who lost with which colour, where and how."""
    a = record["analysis"]
    where = (f"r{record['round']} leg {record['leg']} {record['M']}x{record['N']} "
             f"{a['loser']} ({a['loser_moved']}), {len(record['moves'])} moves")
    d = a["decisive"]
    if d is None:
        return f"{where}: lost before its first move ({a['kind']})"
    held = [f"{tuple(alt['move'])} {alt['value']}" if alt["value"] != "unsettled"
            else f"{tuple(alt['move'])} no four within {alt['no_four_within']}"
            for alt in d["alternatives"]
            if alt["value"] != "unsettled" or alt.get("no_four_within")]
    unsettled = sum(alt["value"] == "unsettled" and not alt.get("no_four_within")
                    for alt in d["alternatives"])
    if unsettled:
        held.append(f"{unsettled} unsettled")
    mistake = f"move {d['index'] + 1} {tuple(d['move'])} ({a['phase']})"
    if not d["proven"]:
        mistake += (", avoidable: another move was clear of a four that soon"
                    if d.get("avoidable") else ", unsettled: no alternative proven to hold")
    n = a.get("win_in") or a.get("forced_four_in")
    win = a["kind"] + (f" in {n} {'ply' if n == 1 else 'plies'}" if n else "")
    return (f"{where}: decisive {mistake}; lost after move {a['lost_after']}, {win}; "
            f"other moves: {', '.join(held) or 'none'}")


def summarise(records: List[Dict[str, Any]]) -> List[str]:
    """The split of the losses in ``records`` that carry an ``analysis`` (others are counted
    as not analysed), then a line for each of them."""
    done = [r for r in records if r.get("analysis") and "skipped" not in r["analysis"]]
    skipped = Counter(r["analysis"]["skipped"].split(":")[0] for r in records
                      if r.get("analysis") and "skipped" in r["analysis"])
    colour = Counter(r["analysis"]["loser_moved"] for r in done)
    even = Counter(r["analysis"]["loser_moved"] for r in done if r["M"] % 2 == 0)
    proven = [r for r in done if r["analysis"]["decisive"] and r["analysis"]["decisive"]["proven"]]
    avoidable = [r for r in done if r["analysis"]["decisive"]
                 and not r["analysis"]["decisive"]["proven"]
                 and r["analysis"]["decisive"].get("avoidable")]
    unsettled = [r for r in done if r["analysis"]["decisive"]
                 and not r["analysis"]["decisive"].get("avoidable")]
    phases = Counter(r["analysis"]["phase"] for r in proven)
    at_start = [r for r in done if r["analysis"]["decisive"] is None]
    lines = [
        f"losses analysed: {len(done)} of {len(records)} games"
        + (f" (not analysed: {_counts(skipped, sorted(skipped))})" if skipped else ""),
        f"  loser moved: {_counts(colour, ('first', 'second'))}; "
        f"on an even number of rows: {_counts(even, ('first', 'second'))}",
        f"  decisive mistake proven: {len(proven)} ({_counts(phases, PHASES)}); "
        f"avoidable short loss: {len(avoidable)}; unsettled: {len(unsettled)}; "
        f"lost before its first move: {len(at_start)}",
        f"  the win it allowed: {_counts(Counter(r['analysis']['kind'] for r in done), KINDS)}",
    ]
    lines += ["  " + game_line(r) for r in done]
    return lines
