"""The report on an analysed game: how well each side played, where the game turned, and the
time each turn took (docs/analysis.md, "The report"). Pure Python, no Django: the product
stores and shows what these functions compute from the analysis of each ply.

Definitions (the page's explanation says the same in both languages):

* **value lost** by a turn: ``value_best − value_played`` of its analysis, both from the
  mover's view on the −1..1 scale (never below 0). Between proven values it is exact: 1 for
  a win turned into a draw or a draw into a loss, 2 for a win turned into a loss.
* **error rate** of a side (in a phase, or over the game): the mean value lost over its
  turns, *forced turns* (one play only) not counted. 0 is perfect play.
* **inaccuracy / mistake / blunder**: the verdicts of :data:`analysis.VERDICTS`
  (0.1, 0.2, 0.3 lost; a proven result given away is always a blunder).
* **accuracy** of a turn: ``103.1668·e^(−2.177·lost) − 3.1669`` clamped to 0..100 (lichess's
  formula on winning chances, 50·lost of them); of a side, the mean over its counted turns.
* **bands** of a value ``v`` for the mover: *winning* ``v ≥ 0.5``, *lost* ``v ≤ −0.5``,
  *drawn* between (a proven win, draw and loss fall in their own band).
* a **turning point** is a counted turn whose play moved the mover's band down (the value of
  the best play in one band, the value of the play made in a lower one) while losing at
  least 0.1 (an inaccuracy or worse): where a proven value changes it is always one.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .analysis import PlyAnalysis
from .core import BLACK, PHASE_PLIES, WHITE, SideName

#: The band edges: a value at least this is winning, at most its negative lost.
WINNING = 0.5
BANDS = ("lost", "drawn", "winning")
#: The least value lost that can turn a game (an inaccuracy).
TURNING_LOSS = 0.1
#: Games shorter than this (plies) get no report; nor do these terminations.
MIN_PLIES = 10
NO_REPORT_TERMINATIONS = ("forfeit", "adjudication")
#: Phase 1 is plies 1–36, phase 2 plies 37–72 (RULES.md §6).
PHASES = (1, 2)


def lost(ply: PlyAnalysis) -> float:
    """The value the turn gave away (0 for the best play)."""
    return round(max(0.0, ply.value_best - ply.value_played), 4)


def turn_accuracy(value_lost: float) -> float:
    """The accuracy of one turn, 0..100, from the value it lost."""
    raw = 103.1668 * math.exp(-2.177 * value_lost) - 3.1669
    return min(100.0, max(0.0, raw))


def band(value: float) -> int:
    """0 lost, 1 drawn, 2 winning (index into :data:`BANDS`), for the mover."""
    if value >= WINNING:
        return 2
    if value <= -WINNING:
        return 0
    return 1


def phase_of(ply: int) -> int:
    return 1 if ply <= PHASE_PLIES else 2


def counted(ply: PlyAnalysis) -> bool:
    """Does the turn count in an error rate (not forced)?"""
    return not ply.forced


@dataclass(slots=True)
class Tally:
    """One side's counted turns (in a phase or the whole game)."""

    turns: int = 0
    lost: float = 0.0
    accuracy_sum: float = 0.0
    inaccuracies: int = 0
    mistakes: int = 0
    blunders: int = 0

    def add(self, ply: PlyAnalysis) -> None:
        if not counted(ply):
            return  # a forced turn (one play) is always the best: it counts for nothing
        if ply.verdict == "inaccuracy":
            self.inaccuracies += 1
        elif ply.verdict == "mistake":
            self.mistakes += 1
        elif ply.verdict == "blunder":
            self.blunders += 1
        value_lost = lost(ply)
        self.turns += 1
        self.lost += value_lost
        self.accuracy_sum += turn_accuracy(value_lost)

    @property
    def error_rate(self) -> float | None:
        """Mean value lost per counted turn (None without one)."""
        return round(self.lost / self.turns, 4) if self.turns else None

    @property
    def accuracy(self) -> float | None:
        return round(self.accuracy_sum / self.turns, 1) if self.turns else None

    def as_dict(self) -> dict[str, Any]:
        return {
            "turns": self.turns,
            "lost": round(self.lost, 4),
            "error_rate": self.error_rate,
            "accuracy": self.accuracy,
            "inaccuracies": self.inaccuracies,
            "mistakes": self.mistakes,
            "blunders": self.blunders,
        }


@dataclass(slots=True)
class SideReport:
    side: SideName
    total: Tally = field(default_factory=Tally)
    phases: dict[int, Tally] = field(default_factory=lambda: {p: Tally() for p in PHASES})
    #: The lowest value this side had after any ply (its view; the start counts as the
    #: first ply's best value for White, its negative for Black).
    lowest: float = 1.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "total": self.total.as_dict(),
            "phases": {str(p): t.as_dict() for p, t in self.phases.items()},
            "lowest": self.lowest,
        }


@dataclass(frozen=True, slots=True)
class TurningPoint:
    """A turn that moved its side's band down: from ``before`` (the best play's band) to
    ``after`` (the band of the play made)."""

    ply: int
    side: SideName
    before: str
    after: str
    played: str
    best: str
    value_best: float
    value_played: float
    proven: bool
    line: tuple[str, ...]
    line_end: str

    def as_dict(self) -> dict[str, Any]:
        return {
            "ply": self.ply,
            "side": self.side,
            "before": self.before,
            "after": self.after,
            "played": self.played,
            "best": self.best,
            "value_best": self.value_best,
            "value_played": self.value_played,
            "proven": self.proven,
            "line": list(self.line),
            "line_end": self.line_end,
        }


def turning_points(plies: Sequence[PlyAnalysis]) -> list[TurningPoint]:
    """The turns where the game turned (see the module's definitions)."""
    out = []
    for p in plies:
        before, after = band(p.value_best), band(p.value_played)
        if after >= before or not counted(p) or lost(p) < TURNING_LOSS:
            continue
        out.append(
            TurningPoint(
                ply=p.ply,
                side=p.side,
                before=BANDS[before],
                after=BANDS[after],
                played=p.played,
                best=p.best,
                value_best=p.value_best,
                value_played=p.value_played,
                proven=p.proven,
                line=p.line,
                line_end=p.line_end,
            )
        )
    return out


@dataclass(slots=True)
class GameReport:
    """Both sides' tallies, the turning points and the time of each turn."""

    white: SideReport
    black: SideReport
    turning_points: list[TurningPoint]
    plies: int
    #: Seconds each ply took (None where the clock does not tell), in ply order.
    seconds: list[int | None] = field(default_factory=list)

    def side(self, side: str) -> SideReport:
        return self.white if side == WHITE else self.black

    @property
    def accuracy(self) -> float | None:
        """Both sides' counted turns together (the game's accuracy, for awards)."""
        turns = self.white.total.turns + self.black.total.turns
        if not turns:
            return None
        return round((self.white.total.accuracy_sum + self.black.total.accuracy_sum) / turns, 1)

    def as_dict(self) -> dict[str, Any]:
        return {
            "white": self.white.as_dict(),
            "black": self.black.as_dict(),
            "turning_points": [t.as_dict() for t in self.turning_points],
            "plies": self.plies,
            "accuracy": self.accuracy,
            "seconds": self.seconds,
        }


def game_report(
    plies: Sequence[PlyAnalysis], seconds: Sequence[int | None] | None = None
) -> GameReport:
    """The report of an analysed game (``plies`` in ply order)."""
    sides = {WHITE: SideReport(WHITE), BLACK: SideReport(BLACK)}
    if plies:
        start = plies[0].value_best  # White's view before the first ply
        sides[WHITE].lowest = start
        sides[BLACK].lowest = -start
    for p in plies:
        report = sides[p.side]
        report.total.add(p)
        report.phases[phase_of(p.ply)].add(p)
        white = p.white_value
        sides[WHITE].lowest = min(sides[WHITE].lowest, white)
        sides[BLACK].lowest = min(sides[BLACK].lowest, -white)
    return GameReport(
        white=sides[WHITE],
        black=sides[BLACK],
        turning_points=turning_points(plies),
        plies=len(plies),
        seconds=list(seconds) if seconds is not None else [None] * len(plies),
    )


def reportable(plies: int, termination: str | None) -> bool:
    """Does a finished game get a report? Not a forfeit or an adjudication, nor a game
    shorter than :data:`MIN_PLIES` plies."""
    return plies >= MIN_PLIES and termination not in NO_REPORT_TERMINATIONS


def clock_seconds(text: str | None) -> int | None:
    """``h:mm:ss`` (a sheet's clock) in seconds; None if empty or unreadable."""
    if not text:
        return None
    parts = text.strip().split(":")
    if len(parts) != 3 or not all(part.isdigit() for part in parts):
        return None
    h, m, s = (int(part) for part in parts)
    if m >= 60 or s >= 60:
        return None
    return h * 3600 + m * 60 + s


def time_used(
    clocks: Sequence[str | None], *, phase1_seconds: int, phase2_seconds: int
) -> list[int | None]:
    """Seconds each ply took, from the mover's clock after it (``clocks`` in ply order):
    the side's clock after its previous turn of the same phase (or the phase's whole time
    before its first) minus its clock after this one. None where either is unknown."""
    out: list[int | None] = []
    previous: dict[tuple[int, int], int | None] = {}
    for index, text in enumerate(clocks):
        ply = index + 1
        side = index % 2
        phase = phase_of(ply)
        key = (side, phase)
        before = previous.get(key, phase1_seconds if phase == 1 else phase2_seconds)
        now = clock_seconds(text)
        out.append(max(0, before - now) if before is not None and now is not None else None)
        previous[key] = now
    return out


__all__ = [
    "BANDS",
    "MIN_PLIES",
    "TURNING_LOSS",
    "WINNING",
    "GameReport",
    "SideReport",
    "Tally",
    "TurningPoint",
    "band",
    "clock_seconds",
    "game_report",
    "lost",
    "reportable",
    "time_used",
    "turn_accuracy",
    "turning_points",
]
