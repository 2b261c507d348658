"""What a suite run says: each player's solved share, by goal, level and theme, its time a
position and its faults, the positions where the players differ side by side, and each miss
with the answer; as markdown, or as one JSON object."""

import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from arena.suite.item import Goal, Item
from arena.suite.run import Answer, Key

FACETS: Dict[str, Callable[[Item], str]] = {  # an item's goal, level and theme, in words
    "goal": lambda i: i.goal.value, "level": lambda i: i.level,
    "theme": lambda i: i.theme.value if i.theme else "none"}


@dataclass
class Score:
    """One player's answers over a suite, counted."""

    name: str
    answered: List[Tuple[Item, Answer]] = field(default_factory=list)

    @property
    def solved(self) -> int:
        return sum(a.solved for _, a in self.answered)

    def split(self, facet: str) -> Dict[str, Tuple[int, int]]:
        """(solved, answered) by the items' ``facet``: goal, level or theme."""
        solved = Counter(FACETS[facet](i) for i, a in self.answered if a.solved)
        answered = Counter(FACETS[facet](i) for i, _ in self.answered)
        return {k: (solved[k], answered[k]) for k in sorted(answered)}

    @property
    def times(self) -> Tuple[Optional[float], Optional[float]]:
        """The median and the longest seconds a position (None: no answer)."""
        seconds = [a.seconds for _, a in self.answered]
        return ((round(statistics.median(seconds), 3), round(max(seconds), 3)) if seconds
                else (None, None))

    @property
    def faults(self) -> Counter:
        return Counter(a.fault for _, a in self.answered if a.fault)

    @property
    def misses(self) -> List[Tuple[Item, Answer]]:
        return [(i, a) for i, a in self.answered if not a.solved]


def scores(items: Sequence[Item], names: Sequence[str],
           answers: Dict[Key, Answer]) -> List[Score]:
    """Each player's score over the items it has answered, in the items' order."""
    return [Score(name, [(i, answers[(i.id, name)]) for i in items if (i.id, name) in answers])
            for name in names]


def _played(item: Item, answer: Answer) -> str:
    """The move a player made and what its proof says (or its fault)."""
    if answer.move is None or answer.fault:
        return f"{answer.move.to_text() + ' ' if answer.move else ''}{answer.fault}"
    proof = item.proof(answer.move)
    assert proof is not None  # a move with no proof is judged illegal (a fault)
    plies = f" in {proof.plies}" if proof.plies else ""
    return f"{answer.move.to_text()} {proof.result.value}{plies}"


def markdown(label: str, items: Sequence[Item], names: Sequence[str],
             answers: Dict[Key, Answer]) -> List[str]:
    """The report's lines (markdown)."""
    table = scores(items, names, answers)
    goals = Counter(i.goal for i in items)
    lines = [f"# Suite {label}: {len(items)} positions ("
             + ", ".join(f"{g.value} {goals[g]}" for g in Goal) + ")", "",
             "| player | solved | share | win | hold | median time | max time | faults |",
             "|---|---|---|---|---|---|---|---|"]
    for s in table:
        split = s.split("goal")
        median, most = s.times
        faults = ", ".join(f"{k} {n}" for k, n in sorted(s.faults.items())) or "0"
        times = " | ".join("-" if t is None else f"{t:.3f} s" for t in (median, most))
        share = f"{100 * s.solved / len(s.answered):.1f}%" if s.answered else "-"
        lines.append(f"| {s.name} | {s.solved}/{len(s.answered)} | {share} | "
                     + " | ".join("{}/{}".format(*split.get(g.value, (0, 0))) for g in Goal)
                     + f" | {times} | {faults} |")
    unanswered = [s.name for s in table if len(s.answered) < len(items)]
    if unanswered:
        lines += ["", f"Not every position answered yet: {', '.join(unanswered)} (the same "
                      "command with the same --output asks the rest)."]
    for facet in ("level", "theme"):
        counts = Counter(FACETS[facet](i) for i in items)
        lines += ["", f"## By {facet}", "", f"| {facet} | positions | "
                  + " | ".join(names) + " |", "|---" * (len(names) + 2) + "|"]
        for key in sorted(counts):
            lines.append(f"| {key} | {counts[key]} | " + " | ".join(
                str(s.split(facet).get(key, (0, 0))[0]) for s in table) + " |")
    if len(names) > 1:
        lines += ["", "## Side by side", ""] + _side_by_side(items, names, answers)
    for s in table:
        lines += ["", f"## Misses of {s.name} ({len(s.misses)})"]
        if s.misses:
            lines += ["", "| position | level | theme | goal | answer | played |",
                      "|---|---|---|---|---|---|"]
            lines += [f"| {i.id} | {i.level} | {FACETS['theme'](i)} | {i.goal.value} | "
                      f"{i.answer.to_text()} | {_played(i, a)} |" for i, a in s.misses]
    return lines


def _side_by_side(items: Sequence[Item], names: Sequence[str],
                  answers: Dict[Key, Answer]) -> List[str]:
    """The positions every player answered where they do not all solve or all miss."""
    both = [i for i in items if all((i.id, n) in answers for n in names)]
    differ = [i for i in both if len({answers[(i.id, n)].solved for n in names}) > 1]
    alone = [sum(answers[(i.id, n)].solved for i in differ) for n in names]
    lines = [f"{len(differ)} of {len(both)} positions split the players; solved where they "
             "split: " + ", ".join(f"{n} {k}" for n, k in zip(names, alone))]
    if differ:
        lines += ["", "| position | level | theme | goal | answer | " + " | ".join(names) + " |",
                  "|---" * (len(names) + 5) + "|"]
        lines += [f"| {i.id} | {i.level} | {FACETS['theme'](i)} | {i.goal.value} | "
                  f"{i.answer.to_text()} | " + " | ".join(
                      ("solved " if answers[(i.id, n)].solved else "missed ")
                      + _played(i, answers[(i.id, n)]) for n in names) + " |"
                  for i in differ]
    return lines


def as_json(label: str, items: Sequence[Item], names: Sequence[str],
            answers: Dict[Key, Answer]) -> Dict[str, Any]:
    """The report as one JSON object."""
    players = {}
    for s in scores(items, names, answers):
        median, most = s.times
        players[s.name] = {
            "solved": s.solved, "answered": len(s.answered),
            "share": round(s.solved / len(s.answered), 4) if s.answered else None,
            **{f"by_{facet}": {k: {"solved": v[0], "answered": v[1]}
                               for k, v in s.split(facet).items()}
               for facet in ("goal", "level", "theme")},
            "median_seconds": median, "max_seconds": most, "faults": dict(s.faults),
            "misses": [{"id": i.id, "answer": i.answer.to_list(),
                        "played": a.move.to_list() if a.move else None, "fault": a.fault}
                       for i, a in s.misses]}
    return {"suite": label, "positions": len(items), "players": players}
