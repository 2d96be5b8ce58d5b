"""Analysis of positions and whole games: the best play, its value, and a verdict on every
turn played (the pure API behind ``python -m games.engine best`` and ``analyse``).

Everything here returns plain frozen dataclasses of strings, numbers and booleans, so a
caller (a Celery task, say) can store ``[a.to_json() for a in analyse_game(...)]`` as JSON
and rebuild them with :meth:`PlyAnalysis.from_json`.

Values are from the point of view of the side that is to move (for a ply: the side that
played it), in [−1, 1]: 1 a certain win, 0 a draw, −1 a certain loss. A value is *proven*
when the search settled it from the ends of the game (then it is exactly −1, 0 or 1 and
never wrong); otherwise it is the search's estimate, strictly between −1 and 1.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from .core import WHITE, SideName, State
from .errors import EngineError
from .game import Game, Outcome, decide
from .moves import Play
from .record import Record, parse_record
from .search import RootMove, Searcher, score_value

#: Plies of the engine's line kept after a better play.
LINE_PLIES = 12

DEFAULT_MS = 200

#: Verdict thresholds on the value lost by the play (value_best − value_played), each an
#: upper bound (exclusive) for its verdict; anything larger is a blunder. A play whose
#: proven value is below the best play's proven value is always a blunder.
VERDICTS: tuple[tuple[str, float], ...] = (
    ("best", 0.005),
    ("good", 0.1),
    ("inaccuracy", 0.2),
    ("mistake", 0.3),
)
BLUNDER = "blunder"


@dataclass(frozen=True, slots=True)
class BestPlay:
    """The engine's choice in one position."""

    play: str
    value: float
    proven: bool
    nodes: int
    depth: int

    def to_json(self) -> dict[str, Any]:
        return {"play": self.play, "value": self.value, "proven": self.proven, "nodes": self.nodes}


@dataclass(frozen=True, slots=True)
class PlyAnalysis:
    """One turn of a game compared with the engine's best play in the same position.

    ``ply`` counts from 1 (White's first turn); ``side`` played it; the values are from that
    side's view. ``proven`` is True when both values are proven.
    """

    ply: int
    side: SideName
    played: str
    best: str
    value_played: float
    value_best: float
    proven_played: bool
    proven_best: bool
    verdict: str
    nodes: int
    depth: int
    #: The distinct plays (card and resulting board) the side had: 1 is a forced turn, not
    #: counted in an error rate; 0 in analyses stored before it was recorded.
    choices: int = 0
    #: Where the engine's play differs from the turn played: the line the search expects
    #: after the engine's play (canonical turn texts) and how it ends (``home``: its last
    #: play brings that side home; ``blocked``: the side to move after it is blocked;
    #: ``cards``: ply 72 is played, a draw; empty: the search saw no further).
    line: tuple[str, ...] = ()
    line_end: str = ""

    @property
    def proven(self) -> bool:
        return self.proven_played and self.proven_best

    @property
    def loss(self) -> float:
        """The value the play gave away (0 for the best play)."""
        return max(0.0, self.value_best - self.value_played)

    @property
    def white_value(self) -> float:
        """The value after this ply from White's view (for a graph over the game)."""
        return self.value_played if self.side == WHITE else -self.value_played

    def to_json(self) -> dict[str, Any]:
        """The line ``analyse`` writes: ply, played, best, value_played, value_best, proven,
        verdict (:meth:`as_dict` has every field)."""
        return {
            "ply": self.ply,
            "played": self.played,
            "best": self.best,
            "value_played": self.value_played,
            "value_best": self.value_best,
            "proven": self.proven,
            "verdict": self.verdict,
        }

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def forced(self) -> bool:
        """The side had one play only (a turn no error rate counts)."""
        return self.choices == 1

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PlyAnalysis:
        """Rebuild from :meth:`as_dict` (the complete form; older rows lack the fields
        that have defaults)."""
        fields = dict(data)
        if "line" in fields:
            fields["line"] = tuple(fields["line"])
        return cls(**fields)


def verdict(
    value_played: float,
    value_best: float,
    *,
    proven_played: bool = False,
    proven_best: bool = False,
    same: bool = False,
) -> str:
    """The verdict on a play (see :data:`VERDICTS`)."""
    if same:
        return "best"
    if proven_played and proven_best and value_played < value_best:
        return BLUNDER
    lost = value_best - value_played
    for name, bound in VERDICTS:
        if lost < bound:
            return name
    return BLUNDER


def _value(x: float) -> float:
    return round(x, 4)


def best_play(
    state: State,
    *,
    ms: float | None = DEFAULT_MS,
    max_nodes: int | None = None,
    max_depth: int | None = None,
    searcher: Searcher | None = None,
) -> BestPlay:
    """The best play for the side to move in an undecided position."""
    searcher = searcher or Searcher()
    result = searcher.search(state, ms=ms, max_nodes=max_nodes, max_depth=max_depth)
    return BestPlay(
        play=result.best.text,
        value=_value(result.value),
        proven=result.proven,
        nodes=result.nodes,
        depth=result.depth,
    )


def analyse_position(
    state: State,
    played: Play,
    *,
    ms: float | None = DEFAULT_MS,
    max_nodes: int | None = None,
    max_depth: int | None = None,
    searcher: Searcher | None = None,
) -> PlyAnalysis:
    """Compare ``played`` with the best play in ``state`` (one search, the played play
    searched first so that both values come from the same search)."""
    searcher = searcher or Searcher()
    result = searcher.search(state, ms=ms, max_nodes=max_nodes, max_depth=max_depth, first=played)
    mine = result.moves[0]
    if result.proven and not mine.proven and mine.hi >= result.lo:
        # The best play's value is proven and the played one's is not: settle whether the
        # played play keeps that value (the exact solver, half the time again at most), so
        # that a verdict never calls "good" a play that gives a proven result away.
        searcher.reaches(
            mine,
            result.lo,
            ms=None if ms is None else ms / 2,
            max_nodes=None if max_nodes is None else max_nodes // 2,
        )
    assert mine.score is not None
    value_played = _value(score_value(mine.score, mine.lo, mine.hi))
    value_best = _value(result.value)
    best, proven_best = result.best, result.proven
    beaten: bool | None = None
    if mine.proven and not result.proven and mine.lo < 1:
        # The played play's value is proven and the best one's is not: settle whether any
        # play does better (the exact solver, half the time again at most), so that a
        # verdict never calls a play that keeps the position's proven value a mistake.
        beaten, better = _beaten(searcher, result.moves, mine, ms, max_nodes)
        if better is not None:
            assert better.score is not None
            best, proven_best = better.play, better.proven
            value_best = _value(score_value(better.score, better.lo, better.hi))
    same = mine.play is best or value_played > value_best or beaten is False
    if not same and mine.proven and proven_best and value_played == value_best:
        same = True  # another play of the same proven value: the played one is as good
    if same:
        # The played play is the best the search found: one play (as written), one value —
        # proven as the position's best only if nothing can do better (the search proved
        # the position, or no play beats the played one's proven value).
        exact = (
            (mine.play is result.best and result.proven)
            or beaten is False
            or (mine.proven and mine.lo == 1)  # nothing beats a proven win
            or (mine.proven and proven_best and value_played == value_best)
        )
        best, value_best, proven_best = played, value_played, mine.proven and exact
        if not proven_best:
            # An estimate of the position's best (a better play may exist unseen): kept
            # inside the estimates' range, never below the played play's value.
            value_best = max(-0.99, min(value_played, 0.99))
    line: tuple[str, ...] = ()
    line_end = ""
    if not same:
        after_best = best.position()
        ended = decide(after_best, state.to_move)
        if ended is not None:
            line_end = ended.termination  # home, blocked or cards: the line's own words
        else:
            plays, line_end = searcher.line(after_best, LINE_PLIES)
            line = tuple(p.text for p in plays)
    return PlyAnalysis(
        ply=state.ply + 1,
        side=state.to_move,
        played=played.text,
        best=best.text,
        value_played=value_played,
        value_best=value_best,
        proven_played=mine.proven,
        proven_best=proven_best,
        verdict=verdict(
            value_played,
            value_best,
            proven_played=mine.proven,
            proven_best=proven_best,
            same=same,
        ),
        nodes=result.nodes,
        depth=result.depth,
        choices=len(result.moves),
        line=line,
        line_end=line_end,
    )


def _beaten(
    searcher: Searcher,
    moves: list[RootMove],
    mine: RootMove,
    ms: float | None,
    max_nodes: int | None,
) -> tuple[bool | None, RootMove | None]:
    """Does any play beat the played one's proven value? (True and that play, its value
    settled; False when no play can; None when the budget ran out.) The plays most likely
    to are tried first."""
    target = mine.lo + 1
    deadline = None if ms is None else time.perf_counter() + ms / 2000.0
    nodes_left = None if max_nodes is None else max_nodes // 2
    candidates = [mv for mv in moves if mv is not mine and mv.hi >= target]
    candidates.sort(key=lambda mv: -(mv.score if mv.score is not None else -(1 << 40)))
    for mv in candidates:
        left = None if deadline is None else (deadline - time.perf_counter()) * 1000
        if (left is not None and left <= 0) or (nodes_left is not None and nodes_left <= 0):
            return None, None
        reached = searcher.reaches(mv, target, ms=left, max_nodes=nodes_left)
        if nodes_left is not None:
            nodes_left -= searcher.nodes
        if reached is None:
            return None, None
        if reached:
            return True, mv
    return False, None


def game_of(source: Game | Record | str | Sequence[str]) -> Game:
    """A game from a record's text, a parsed record, a game, or a list of turn texts played
    from the start. Raises EngineError for an invalid record or turn."""
    if isinstance(source, Game):
        return source
    if isinstance(source, Record):
        return source.game
    if isinstance(source, str):
        return parse_record(source).game
    game = Game()
    for text in source:
        game.play(text)
    return game


Progress = Callable[[int, int, PlyAnalysis], None]


def analyse_game(
    source: Game | Record | str | Sequence[str],
    *,
    ms_per_ply: float | None = DEFAULT_MS,
    max_nodes: int | None = None,
    max_depth: int | None = None,
    progress: Progress | None = None,
) -> list[PlyAnalysis]:
    """Analyse every turn of a game (a record's text, a Record, a Game or turn texts).

    Plies are analysed from the last to the first, so that what the search proves near the
    end serves the earlier positions; the list returned is in ply order. ``progress(done,
    total, analysis)`` is called after each ply.
    """
    game = game_of(source)
    total = len(game.turns)
    searcher = Searcher()
    out: list[PlyAnalysis] = []
    for index in range(total - 1, -1, -1):
        state = game.states[index]
        analysis = analyse_position(
            state,
            game.turns[index].play,
            ms=ms_per_ply,
            max_nodes=max_nodes,
            max_depth=max_depth,
            searcher=searcher,
        )
        out.append(analysis)
        if progress is not None:
            progress(len(out), total, analysis)
    out.reverse()
    return out


def moves_outcome(game: Game) -> Outcome | None:
    """How the moves alone ended the game (home, blocked, cards), ignoring an organiser's
    termination; None while the moves leave the game undecided."""
    return game.outcomes[-1]


def best_for_record(
    text: str,
    *,
    ms: float | None = DEFAULT_MS,
    max_nodes: int | None = None,
    searcher: Searcher | None = None,
) -> BestPlay:
    """The best play after the last turn of a record. Raises EngineError if the record is
    invalid or its moves have already ended the game (code ``game_over``)."""
    game = parse_record(text).game
    decided = moves_outcome(game)
    if decided is not None:
        raise EngineError("game_over", result=decided.result, termination=decided.termination)
    return best_play(game.state, ms=ms, max_nodes=max_nodes, searcher=searcher)


__all__ = [
    "DEFAULT_MS",
    "BestPlay",
    "PlyAnalysis",
    "VERDICTS",
    "analyse_game",
    "analyse_position",
    "best_for_record",
    "best_play",
    "game_of",
    "verdict",
]
