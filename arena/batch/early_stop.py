"""`--sprt ELO0 ELO1` on a batch: stop once `stat.py --sprt`'s SPRT decides (docs/cluster.md,
"What is the same": Early stop), the verdict kept in `<output>/early_stop.json`."""

import json
from dataclasses import asdict, dataclass
from typing import Iterable, Optional

from arena.batch.config import Config, ConfigError
from arena.report.results import CourseGame
from arena.report.stats import SprtResult, pentanomial, sprt
from records.tally import pair_scores

STOP_NAME = "early_stop.json"
MIN_PAIRS = 10  # before, the pairs often all end alike: an infinite LLR from no evidence


@dataclass(frozen=True)
class Stop:
    """Why a batch stopped early: the SPRT's verdict and the games it was reached with."""

    elo0: float
    elo1: float
    verdict: str
    llr: float
    lower: float
    upper: float
    pairs: int
    games: int

    def reason(self) -> str:
        held = "accepts H1 (elo1)" if self.verdict == "accept" else "accepts H0 (elo0)"
        bound = f">= {self.upper:.2f}" if self.verdict == "accept" else f"<= {self.lower:.2f}"
        return (f"SPRT elo0={self.elo0:g} elo1={self.elo1:g} {held} after "
                f"{self.pairs} game pairs ({self.games} games), llr {self.llr:.2f} {bound}")


class SprtStop:
    """Watches a one-pairing batch's records and says when its SPRT has decided."""

    def __init__(self, config: Config) -> None:
        assert config.sprt is not None  # made only for a batch with an SPRT
        if len(config.pairings) != 1:
            raise ConfigError(f"{config.source}: sprt: an early stop needs a batch of one "
                              f"pairing (two players), this one has {len(config.pairings)}")
        self.elo0, self.elo1 = config.sprt
        self.path = config.output_dir / STOP_NAME

    def check(self, games: Iterable[CourseGame]) -> Optional[Stop]:
        """The stop, if the SPRT over these games (records reduced by `course_game`) accepts
        or rejects; None to play on."""
        games = list(games)
        res: SprtResult = sprt(pentanomial(pair_scores(games)), self.elo0, self.elo1)
        if res.verdict == "continue" or res.pairs < MIN_PAIRS:
            return None
        return Stop(self.elo0, self.elo1, res.verdict, res.llr, res.lower, res.upper, res.pairs,
                    len(games))

    def record(self, stop: Stop) -> None:
        """Write the stop beside the log (the batch's folder)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text(json.dumps(asdict(stop), indent=1) + "\n", encoding="utf-8")
