"""Exercises from a player's own mistakes: every play of a position judged against the
engine, so that an answer can be checked without searching again (docs/analysis.md,
"Training").

A position's plays are judged once, when the exercise is made:

* **proven**: the best play's value is proven (a win, a draw or a loss with best play).
  Every play is then settled exactly against that value by the exact solver; a play is
  *right* when it keeps the proven value (a slower win is still a win) and *wrong* otherwise.
  If the budget runs out before every play is settled there is no exercise (an answer must
  never be judged on a guess where the truth is within reach).
* **estimated**: otherwise every play is searched to the same depth with a full window (an
  alpha-beta search only bounds the plays that are not the best) and a play is right when
  its value is within :data:`MARGIN` of the best one's, unless what is proven already shows
  it worse (its proven upper bound below what another play is proven to reach).

Pure Python, no Django; the values are from the view of the side to move.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .analysis import PlyAnalysis
from .core import State
from .game import Game
from .moves import Play, after
from .search import RootMove, Searcher, score_value

#: A play is right when its estimated value is at most this far below the best estimate.
MARGIN = 0.05
#: The verdicts an exercise is made of, and at most how many a game gives (the turns that
#: lost most first).
EXERCISE_VERDICTS = ("mistake", "blunder")
EXERCISES_PER_GAME = 8


@dataclass(frozen=True, slots=True)
class JudgedPlay:
    """One play of the position: its canonical text, value, whether that value is proven,
    and whether it is a right answer."""

    play: str
    value: float
    proven: bool
    right: bool


@dataclass(frozen=True, slots=True)
class Judgement:
    """Every play of a position judged: ``proven`` when the answer is exact (the best value
    is proven and every play settled against it)."""

    best: str
    value: float
    proven: bool
    plays: tuple[JudgedPlay, ...]
    depth: int

    def right(self, play: str) -> bool:
        """Is ``play`` (canonical text of a play of this position) a right answer?"""
        return any(p.play == play and p.right for p in self.plays)

    @property
    def answers(self) -> list[str]:
        return [p.play for p in self.plays if p.right]

    def as_dict(self) -> dict[str, Any]:
        return {
            "best": self.best,
            "value": self.value,
            "proven": self.proven,
            "depth": self.depth,
            "plays": [[p.play, p.value, p.proven, p.right] for p in self.plays],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Judgement:
        return cls(
            best=data["best"],
            value=data["value"],
            proven=data["proven"],
            depth=data["depth"],
            plays=tuple(
                JudgedPlay(str(a), float(b), bool(c), bool(d)) for a, b, c, d in data["plays"]
            ),
        )


def judge_position(
    state: State,
    *,
    ms: float | None = 200,
    max_nodes: int | None = None,
    searcher: Searcher | None = None,
    margin: float = MARGIN,
) -> Judgement | None:
    """Judge every play of ``state`` (undecided, the side to move has a playable card)
    within about twice ``ms`` (or ``max_nodes`` twice): one search, then every play settled
    (proven) or rescored (estimated) within as much again. None when that budget ran out
    before every play was judged."""
    searcher = searcher or Searcher()
    result = searcher.search(state, ms=ms, max_nodes=max_nodes)
    moves = result.moves
    judged: list[JudgedPlay] = []
    if result.proven:
        target = result.lo
        # Settling every play shares one budget (as much again as the search had).
        deadline = None if ms is None else time.perf_counter() + ms / 1000.0
        nodes_left = max_nodes
        for mv in moves:
            if not mv.proven or mv.lo != target:
                left_ms = None if deadline is None else (deadline - time.perf_counter()) * 1000
                if (left_ms is not None and left_ms <= 0) or (
                    nodes_left is not None and nodes_left <= 0
                ):
                    return None
                reached = searcher.reaches(mv, target, ms=left_ms, max_nodes=nodes_left)
                if nodes_left is not None:
                    nodes_left -= searcher.nodes
                if reached is None:
                    return None
            right = mv.lo >= target
            value = float(target) if right else float(mv.hi) if mv.proven else _value(mv)
            judged.append(JudgedPlay(mv.play.text, value, mv.proven or right, right))
        return Judgement(
            best=result.best.text,
            value=float(target),
            proven=True,
            plays=tuple(judged),
            depth=result.depth,
        )
    depth = max(result.depth, 1)
    # Every play to the same depth (as much time again as the search had); if that is too
    # deep for the budget, all of them less deep — the last try, one ply, is the static
    # evaluation of each play (and the race solver's fixed budget where the armies have
    # parted): bounded work, so it runs without a clock and always gives an answer.
    deadline = None if ms is None else time.perf_counter() + ms / 1000.0
    while True:
        left = None if deadline is None else (deadline - time.perf_counter()) * 1000
        if depth > 1 and left is not None and left <= 0:
            depth = 1
        if depth == 1:
            left = None
        scores = searcher.rescore(moves, depth, ms=left, max_nodes=max_nodes)
        if scores is not None or depth == 1:
            break
        depth -= 1
    if scores is None:
        return None
    values = [round(score_value(s, mv.lo, mv.hi), 4) for s, mv in zip(scores, moves, strict=True)]
    best_value = max(values)
    guaranteed = max(mv.lo for mv in moves)
    best_index = values.index(best_value)
    for mv, value in zip(moves, values, strict=True):
        right = value >= best_value - margin and mv.hi >= guaranteed
        judged.append(JudgedPlay(mv.play.text, value, mv.proven, right))
    return Judgement(
        best=moves[best_index].play.text,
        value=best_value,
        proven=False,
        plays=tuple(judged),
        depth=depth,
    )


def exercises_of(
    game: Game,
    plies: Sequence[PlyAnalysis],
    *,
    ms: float | None = 200,
    max_nodes: int | None = None,
    limit: int = EXERCISES_PER_GAME,
) -> list[tuple[PlyAnalysis, Judgement]]:
    """The positions of an analysed game that make exercises, in ply order: the turns with a
    mistake or a blunder (not forced; at most ``limit``, those that lost most), each with
    every play judged. Left out: a position whose plays could not all be judged in the
    budget, or where the judgement finds the turn played right after all."""
    wrong = [p for p in plies if p.verdict in EXERCISE_VERDICTS and not p.forced]
    wrong.sort(key=lambda p: (p.value_played - p.value_best, p.ply))
    searcher = Searcher()
    out = []
    for p in wrong[:limit]:
        judgement = judge_position(
            game.states[p.ply - 1], ms=ms, max_nodes=max_nodes, searcher=searcher
        )
        if judgement is None or judgement.right(p.played) or not judgement.answers:
            continue
        out.append((p, judgement))
    out.sort(key=lambda pj: pj[0].ply)
    return out


def _value(mv: RootMove) -> float:
    return round(score_value(mv.score, mv.lo, mv.hi), 4) if mv.score is not None else 0.0


def same_play(state: State, a: Play, b: Play) -> bool:
    """Do two plays of ``state`` play the same card to the same board?"""
    if a.card != b.card:
        return False
    x, y = after(state, a.steps), after(state, b.steps)
    return x.white == y.white and x.black == y.black


__all__ = [
    "EXERCISES_PER_GAME",
    "EXERCISE_VERDICTS",
    "MARGIN",
    "JudgedPlay",
    "Judgement",
    "exercises_of",
    "judge_position",
    "same_play",
]
