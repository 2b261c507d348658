"""What a suite run says: over the exact items, each player's solved share, by goal, level and
theme, its time a position and its faults, the positions where the players differ side by side,
and each miss with the answer; over the valued items, the win chance each player gives away
and its share of best moves, each with a 95% interval; as markdown, or as one JSON object."""

import math
import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from arena.suite.item import Goal, Item, SuiteItem, ValuedItem
from arena.suite.run import Answer, Key

Z = 1.96  # the normal quantile of a two-sided 95% interval

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
        return times([a for _, a in self.answered])

    @property
    def faults(self) -> Counter:
        return Counter(a.fault for _, a in self.answered if a.fault)

    @property
    def misses(self) -> List[Tuple[Item, Answer]]:
        return [(i, a) for i, a in self.answered if not a.solved]


def times(answers: Sequence[Answer]) -> Tuple[Optional[float], Optional[float]]:
    """The median and the longest seconds a position (None: no answer)."""
    seconds = [a.seconds for a in answers]
    return ((round(statistics.median(seconds), 3), round(max(seconds), 3)) if seconds
            else (None, None))


def scores(items: Sequence[Item], names: Sequence[str],
           answers: Dict[Key, Answer]) -> List[Score]:
    """Each player's score over the items it has answered, in the items' order."""
    return [Score(name, [(i, answers[(i.id, name)]) for i in items if (i.id, name) in answers])
            for name in names]


def mean_interval(numbers: Sequence[float]) -> Dict[str, Optional[float]]:
    """The mean of per-position numbers in 0..1 with its 95% interval by the normal
    approximation over positions (Z sample standard deviations of the mean), kept within
    0..1; with fewer than two positions nothing bounds the spread: 0..1."""
    if not numbers:
        return {"mean": None, "low": None, "high": None}
    mean = statistics.fmean(numbers)
    half = Z * statistics.stdev(numbers) / math.sqrt(len(numbers)) if len(numbers) > 1 else 1.0
    return {"mean": round(mean, 4), "low": round(max(0.0, mean - half), 4),
            "high": round(min(1.0, mean + half), 4)}


def wilson(hits: int, tries: int) -> Dict[str, Optional[float]]:
    """A share with its 95% Wilson score interval (sound near 0 and 1 and for few tries, where
    the normal approximation leaves 0..1)."""
    if not tries:
        return {"share": None, "low": None, "high": None}
    share = hits / tries
    centre = (share + Z * Z / (2 * tries)) / (1 + Z * Z / tries)
    half = Z * math.sqrt(share * (1 - share) / tries + Z * Z / (4 * tries * tries)) \
        / (1 + Z * Z / tries)
    return {"share": round(share, 4), "low": round(max(0.0, centre - half), 4),
            "high": round(min(1.0, centre + half), 4)}


@dataclass
class ValuedScore:
    """One player's answers over a suite's valued items: the win chance each gives away."""

    name: str
    answered: List[Tuple[ValuedItem, Answer]] = field(default_factory=list)

    @property
    def given_away(self) -> List[float]:
        """Each answer's win chance given away (ValuedItem.given_away: a fault's move does not
        count, so a fault gives away the most)."""
        return [i.given_away(a.move if a.fault is None else None) for i, a in self.answered]

    @property
    def best(self) -> int:
        return sum(a.solved for _, a in self.answered)

    def to_dict(self) -> Dict[str, Any]:
        """The JSON report's ``valued`` object of the player."""
        median, most = times([a for _, a in self.answered])
        return {"answered": len(self.answered), "given_away": mean_interval(self.given_away),
                "best_share": wilson(self.best, len(self.answered)),
                "median_seconds": median, "max_seconds": most,
                "faults": dict(Counter(a.fault for _, a in self.answered if a.fault))}


def valued_scores(items: Sequence[ValuedItem], names: Sequence[str],
                  answers: Dict[Key, Answer]) -> List[ValuedScore]:
    """Each player's valued score over the items it has answered, in the items' order."""
    return [ValuedScore(name, [(i, answers[(i.id, name)]) for i in items
                               if (i.id, name) in answers]) for name in names]


def kinds(items: Sequence[SuiteItem]) -> Tuple[List[Item], List[ValuedItem]]:
    """The exact items and the valued ones, each in the suite's order."""
    return ([i for i in items if isinstance(i, Item)],
            [i for i in items if isinstance(i, ValuedItem)])


def _played(item: Item, answer: Answer) -> str:
    """The move a player made and what its proof says (or its fault)."""
    if answer.move is None or answer.fault:
        return f"{answer.move.to_text() + ' ' if answer.move else ''}{answer.fault}"
    proof = item.proof(answer.move)
    assert proof is not None  # a move with no proof is judged illegal (a fault)
    plies = f" in {proof.plies}" if proof.plies else ""
    return f"{answer.move.to_text()} {proof.result.value}{plies}"


def markdown(label: str, items: Sequence[SuiteItem], names: Sequence[str],
             answers: Dict[Key, Answer]) -> List[str]:
    """The report's lines (markdown): the exact items' tables, then the valued items' table."""
    exact, valued = kinds(items)
    lines = _exact_markdown(label, exact, names, answers) if exact else [
        f"# Suite {label}: {len(valued)} valued positions"]
    return lines + (_valued_markdown(valued, names, answers) if valued else [])


def _valued_markdown(items: Sequence[ValuedItem], names: Sequence[str],
                     answers: Dict[Key, Answer]) -> List[str]:
    """The valued positions' table: each player's win chance given away and best moves."""
    lines = ["", f"## Valued positions ({len(items)})", "",
             "| player | answered | win chance given away (95% CI) | best moves (95% CI) | "
             "median time | max time | faults |", "|---|---|---|---|---|---|---|"]
    for s in valued_scores(items, names, answers):
        report = s.to_dict()
        away, share = report["given_away"], report["best_share"]
        given = "-" if away["mean"] is None else \
            f"{away['mean']:.3f} ({away['low']:.3f} to {away['high']:.3f})"
        best = "-" if share["share"] is None else (
            f"{s.best} = {100 * share['share']:.1f}% ({100 * share['low']:.1f} to "
            f"{100 * share['high']:.1f}%)")
        median, most = report["median_seconds"], report["max_seconds"]
        times_text = " | ".join("-" if t is None else f"{t:.3f} s" for t in (median, most))
        faults = ", ".join(f"{k} {n}" for k, n in sorted(report["faults"].items())) or "0"
        lines.append(f"| {s.name} | {len(s.answered)}/{len(items)} | {given} | {best} | "
                     f"{times_text} | {faults} |")
    return lines + ["", "A move gives away the best column's win chance less its own (the "
                        "engine's values); a fault or an illegal move gives away the most, the "
                        "best less the worst. The intervals: the normal approximation over "
                        "positions for the mean, Wilson's for the share."]


def _exact_markdown(label: str, items: Sequence[Item], names: Sequence[str],
                    answers: Dict[Key, Answer]) -> List[str]:
    """The exact items' report: the solved table, by level and theme, side by side, misses."""
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


def as_json(label: str, items: Sequence[SuiteItem], names: Sequence[str],
            answers: Dict[Key, Answer]) -> Dict[str, Any]:
    """The report as one JSON object: ``positions`` and each player's counts over the exact
    items; with valued items, ``valued_positions`` and each player's ``valued`` object."""
    exact, valued = kinds(items)
    players: Dict[str, Dict[str, Any]] = {}
    for s in scores(exact, names, answers):
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
    if not valued:
        return {"suite": label, "positions": len(exact), "players": players}
    for v in valued_scores(valued, names, answers):
        players[v.name]["valued"] = v.to_dict()
    return {"suite": label, "positions": len(exact), "valued_positions": len(valued),
            "players": players}
