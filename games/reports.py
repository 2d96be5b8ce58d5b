"""What players do with the engine's analysis (issue 24, docs/analysis.md): the report on a
game, exercises from their own mistakes and the event's awards.

All of it is *derived* from a finished ``GameAnalysis`` (``games.analysis``) once it is done:
:func:`derive` (called by ``analysis.run`` after storing the analysis, in the same task)
stores a ``GameReport`` row (the pure ``engine.report`` of the game, and the few numbers the
awards and a player's summary read) and the game's ``Exercise`` rows (each position where a
player made a mistake or a blunder, every play of it judged by ``engine.exercise``). Both
carry the ``token`` of the analysis request they come from and are read only while it is the
analysis' current one (:func:`current`), and they go with the analysis row (cascade): a sheet
that changes deletes them with it.

The game's page computes its report from the analysis itself (pure and cheap), so that it is
never behind the analysis it shows.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Exists, F, OuterRef, Q, QuerySet
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from championship.models import Entrant, Round, Tournament

from . import analysis, selectors
from .engine import BLACK, WHITE, EngineError, legal_plays
from .engine.analysis import PlyAnalysis
from .engine.core import State, hand_cards, other
from .engine.exercise import Judgement, exercises_of
from .engine.game import Game as EngineGame
from .engine.moves import Play
from .engine.notation import parse_turn, resolve_turn
from .engine.report import BANDS, GameReport, game_report, reportable, time_used
from .messages import SIDE_NAMES
from .models import Exercise, Game, GameAnalysis, Turn
from .models import GameReport as ReportRow

log = logging.getLogger(__name__)

Status = GameAnalysis.Status

#: The most accurate player of an event needs at least this many analysed games.
AWARD_MIN_GAMES = 3
#: Plies of the engine's line shown in words (the rest is summed up by how it ends).
LINE_SHOWN = 6


# --- Deriving ---------------------------------------------------------------------------------
def current() -> Q:
    """The derived rows that may be shown (for queries on ``GameReport`` and ``Exercise``):
    those of their analysis' current request, done. Every change of a game's sheet deletes
    its analysis (and these rows with it), and a request made again gets a new token, so
    the token says "these moves, this analysis" — whatever else changed on the game's row
    (a confirmation at the tablet bumps ``Game.version`` without touching the moves)."""
    return Q(analysis__status=Status.DONE, analysis__token=F("token"))


def with_choices(plies: list[PlyAnalysis], eg: EngineGame) -> list[PlyAnalysis]:
    """Analyses stored before the number of plays was recorded, with it (one move
    generation per ply)."""
    if all(p.choices for p in plies):
        return plies
    out = []
    for p in plies:
        if not p.choices:
            state = eg.states[p.ply - 1]
            n = sum(len(legal_plays(state, card)) for card in hand_cards(state.hand(p.side)))
            p = PlyAnalysis.from_json({**p.as_dict(), "choices": n})
        out.append(p)
    return out


def derive(analysis_id: int, token: str, *, ms_per_ply: float | None = None) -> str:
    """Store the report and the exercises of a done analysis (request ``token``): ``done``,
    ``none`` (a game that gets no report: a forfeit, an adjudication, fewer than 10
    plies) or ``stale`` (the analysis changed meanwhile). The exercises' positions are
    judged within about twice the analysis' time per ply each."""
    row = (
        GameAnalysis.objects.select_related("game")
        .filter(pk=analysis_id, token=token, status=Status.DONE)
        .first()
    )
    if row is None:
        return "stale"
    game = row.game
    turns = list(game.turns.order_by("ply"))
    eg = selectors.replay(game, turns)
    outcome = eg.outcome
    if outcome is None or not reportable(len(eg.turns), outcome.termination):
        return "none"
    plies = with_choices(analysis.plies_of(row), eg)
    report = game_report(plies, seconds_of(game, turns))
    ms = ms_per_ply if ms_per_ply is not None else (row.ms_per_ply or None)
    exercises = _exercises(row, game, eg, plies, ms)
    with transaction.atomic():
        if (
            not GameAnalysis.objects.select_for_update()
            .filter(pk=row.pk, token=token, status=Status.DONE)
            .exists()
        ):
            return "stale"
        ReportRow.objects.update_or_create(
            analysis=row, defaults={"game": game, "token": token, **_columns(report, outcome)}
        )
        Exercise.objects.filter(analysis=row).delete()
        Exercise.objects.bulk_create(exercises)
    return "done"


def seconds_of(game: Game, turns: Sequence[Turn]) -> list[int | None]:
    return time_used(
        [t.clock or None for t in turns],
        phase1_seconds=game.phase1_seconds,
        phase2_seconds=game.phase2_seconds,
    )


def _columns(report: GameReport, outcome: Any) -> dict[str, Any]:
    w, b = report.white.total, report.black.total
    return {
        "data": report.as_dict(),
        "accuracy": report.accuracy,
        "accuracy_white": w.accuracy,
        "accuracy_black": b.accuracy,
        "error_white": w.error_rate,
        "error_black": b.error_rate,
        "turns_white": w.turns,
        "turns_black": b.turns,
        "accuracy_sum_white": round(w.accuracy_sum, 3),
        "accuracy_sum_black": round(b.accuracy_sum, 3),
        "lowest_white": report.white.lowest,
        "lowest_black": report.black.lowest,
        "result": outcome.result,
    }


def _exercises(
    row: GameAnalysis, game: Game, eg: EngineGame, plies: list[PlyAnalysis], ms: float | None
) -> list[Exercise]:
    """The game's exercises (``engine.exercise.exercises_of``) as rows, each for the player
    who erred."""
    white, black = selectors.entrants(game)
    return [
        Exercise(
            analysis=row,
            game=game,
            token=row.token,
            ply=p.ply,
            side=p.side,
            entrant=white if p.side == WHITE else black,
            played=p.played,
            verdict=p.verdict,
            judgement=judgement.as_dict(),
        )
        for p, judgement in exercises_of(eg, plies, ms=ms)
    ]


# --- Words ------------------------------------------------------------------------------------
def side_name(side: str) -> str:
    return str(SIDE_NAMES[side])


def line_words(
    side: str,
    best: str,
    line: Sequence[str],
    line_end: str,
    value_best: float,
    proven: bool,
) -> dict[str, Any]:
    """The engine's line after its play, for a page: the play, the next plies (at most
    :data:`LINE_SHOWN`, ``more`` says how many are left out) and how it ends in words."""
    plies = [best, *line]  # every ply of the line, the engine's play first
    n = len(plies)
    last_mover = side if n % 2 else other(side)  # type: ignore[arg-type]
    if line_end == "home" and n == 1:
        end = _("%(side)s brings the last checker home with this play.") % {
            "side": side_name(last_mover)
        }
    elif line_end == "blocked" and n == 1:
        end = _("%(side)s is then blocked: no card can be played.") % {
            "side": side_name(other(last_mover))  # type: ignore[arg-type]
        }
    elif line_end == "home":
        end = ngettext(
            "%(side)s brings every checker home in %(n)d turn.",
            "%(side)s brings every checker home in %(n)d turns.",
            n,
        ) % {"side": side_name(last_mover), "n": n}
    elif line_end == "blocked":
        blocked = other(last_mover)  # type: ignore[arg-type]
        end = ngettext(
            "%(side)s is blocked in %(n)d turn.",
            "%(side)s is blocked in %(n)d turns.",
            n,
        ) % {"side": side_name(blocked), "n": n}
    elif line_end == "cards":
        end = _("The cards run out: a draw.")
    elif proven:
        if value_best == 0:
            end = _("A draw with best play on both sides.")
        else:
            winner = side if value_best > 0 else other(side)  # type: ignore[arg-type]
            end = _("%(side)s wins with best play on both sides.") % {"side": side_name(winner)}
    else:
        white = value_best if side == WHITE else -value_best
        sign = "+" if white > 0 else "−" if white < 0 else ""
        end = _("The engine's value then: %(value)s from White's view.") % {
            "value": sign + number_format(abs(white), 2)
        }
    return {
        "best": best,
        "line": list(line[:LINE_SHOWN]),
        "more": max(0, len(line) - LINE_SHOWN),
        "end": end,
    }


def after_line(state: State, texts: Sequence[str]) -> State:
    """The position after the turns of a line from ``state`` (as far as they are legal)."""
    eg = EngineGame(state)
    for text in texts:
        try:
            eg.play(text)
        except EngineError:
            break
    return eg.state


BAND_NAMES = {
    "winning": lambda: _("winning"),
    "drawn": lambda: _("drawn"),
    "lost": lambda: _("lost"),
}


def band_name(band: str) -> str:
    return BAND_NAMES[band]()


# --- The game's page --------------------------------------------------------------------------
@dataclass(frozen=True)
class SideRow:
    side: str
    name: str
    phase: str
    turns: int
    error_rate: float | None
    accuracy: float | None
    inaccuracies: int
    mistakes: int
    blunders: int


def game_page(
    game: Game, eg: EngineGame, plies: list[PlyAnalysis], turns: Sequence[Turn]
) -> dict[str, Any] | None:
    """The report on the game's page (None: the game gets none)."""
    outcome = eg.outcome
    if outcome is None or not reportable(len(eg.turns), outcome.termination):
        return None
    plies = with_choices(plies, eg)
    seconds = seconds_of(game, turns)
    report = game_report(plies, seconds)
    names = dict(zip((WHITE, BLACK), selectors.names(game), strict=True))
    rows = []
    for side in (WHITE, BLACK):
        s = report.side(side)
        for label, tally in (
            ("1–36", s.phases[1]),
            ("37–72", s.phases[2]),
            (_("all"), s.total),
        ):
            if tally is not s.total and not tally.turns:
                continue
            rows.append(
                SideRow(
                    side=side,
                    name=names[side],
                    phase=label,
                    turns=tally.turns,
                    error_rate=tally.error_rate,
                    accuracy=tally.accuracy,
                    inaccuracies=tally.inaccuracies,
                    mistakes=tally.mistakes,
                    blunders=tally.blunders,
                )
            )
    points = []
    for t in report.turning_points:
        points.append(
            {
                "ply": t.ply,
                "number": (t.ply + 1) // 2,
                "white": t.side == WHITE,
                "side": side_name(t.side),
                "name": names[t.side],
                "played": t.played,
                "before": band_name(t.before),
                "after": band_name(t.after),
                "proven": t.proven,
                "words": line_words(t.side, t.best, t.line, t.line_end, t.value_best, t.proven),
            }
        )
    return {
        "rows": rows,
        "turning_points": points,
        "seconds": seconds if any(x is not None for x in seconds) else None,
        "accuracy": report.accuracy,
    }


# --- Selectors for a player's pages ----------------------------------------------------------
def closed_rounds() -> Q:
    """Games of rounds that are over (for queries on ``Game``): the tournament is finished
    or a later round has been paired."""
    later = Round.objects.filter(
        tournament_id=OuterRef("board__round__tournament_id"),
        number__gt=OuterRef("board__round__number"),
    )
    return Q(board__round__tournament__status=Tournament.Status.FINISHED) | Q(Exists(later))


def exercises_for(*, entrants: Iterable[int] = (), games: Iterable[int] = ()) -> QuerySet[Exercise]:
    """The exercises of these players (entrant ids: the positions where *they* erred) and/or
    of these games (every side's), from finished games of finished rounds with a current
    analysis, oldest game first. The person across events feeds it all their entrants."""
    entrant_ids, game_ids = list(entrants), list(games)
    who = Q(entrant_id__in=entrant_ids) | Q(game_id__in=game_ids)
    games_ok = Game.objects.filter(closed_rounds(), pk=OuterRef("game_id"))
    return (
        Exercise.objects.filter(who, current())
        .filter(Exists(games_ok))
        .select_related("game__board__round")
        .order_by("game__created_at", "game_id", "ply")
    )


def reports_for(entrant_ids: Iterable[int]) -> list[dict[str, Any]]:
    """Each analysed game of these players with its report, as the player's summary shows
    it (one query)."""
    ids = set(entrant_ids)
    rows = (
        ReportRow.objects.filter(current())
        .filter(Q(game__board__white_id__in=ids) | Q(game__board__black_id__in=ids))
        .select_related(
            "game__board__round__tournament", "game__board__white", "game__board__black"
        )
        .order_by(
            "game__board__round__tournament__starts_on",
            "game__board__round__number",
            "game__number",
        )
    )
    out = []
    for r in rows:
        game = r.game
        white, black = selectors.entrants(game)
        side = WHITE if white is not None and white.pk in ids else BLACK
        opponent = black if side == WHITE else white
        board = game.board
        assert board is not None
        out.append(
            {
                "game": game,
                "round": board.round.number,
                "tournament": board.round.tournament,
                "side": side,
                "side_name": side_name(side),
                "opponent": opponent,
                "result": r.result,
                "accuracy": r.accuracy_white if side == WHITE else r.accuracy_black,
                "error_rate": r.error_white if side == WHITE else r.error_black,
                "counts": r.data.get(side, {}).get("total", {}),
                "turning_points": sum(
                    1 for t in r.data.get("turning_points", []) if t.get("side") == side
                ),
            }
        )
    return out


# --- An exercise ------------------------------------------------------------------------------
def judgement_of(exercise: Exercise) -> Judgement:
    return Judgement.from_json(exercise.judgement)


def answer_play(state: State, text: str) -> Play | None:
    """The play an answer means (one of the listed plays, or a turn typed in notation), or
    None if it is not a legal play of ``state``."""
    text = " ".join(text.split())[:60]
    if not text:
        return None
    try:
        return resolve_turn(state, parse_turn(text))
    except EngineError:
        return None


def exercise_state(exercise: Exercise, turns: Sequence[Turn] | None = None) -> State:
    """The position of the exercise (before its ply)."""
    eg = selectors.sheet(
        exercise.game, list(turns) if turns is not None else None, terminations=False
    )
    return eg.states[exercise.ply - 1]


# --- The event's awards -----------------------------------------------------------------------
def awards(t: Tournament) -> dict[str, Any]:
    """The awards of a finished tournament from its games' reports (two queries): the most
    accurate game (both sides' turns together), the best game by a loser (the highest
    accuracy of a side that lost), the biggest comeback (the lowest value a winner came back
    from) and the most accurate player (all their counted turns, at least
    :data:`AWARD_MIN_GAMES` analysed games). Ties go to the earlier round and board."""
    rows = list(
        ReportRow.objects.filter(current(), game__board__round__tournament=t)
        .select_related("game__board__round", "game__board__white", "game__board__black")
        .order_by("game__board__round__number", "game__board__number", "game__number")
    )
    games = []
    for r in rows:
        game = r.game
        white, black = selectors.entrants(game)
        games.append((r, game, white, black))

    def entry(r: ReportRow, game: Game, **extra: Any) -> dict[str, Any]:
        w, b = selectors.names(game)
        board = game.board
        assert board is not None
        return {
            "game": game,
            "round": board.round.number,
            "white": w,
            "black": b,
            "result": r.result,
            **extra,
        }

    most_accurate = None
    best = None
    for r, game, _w, _b in games:
        if r.accuracy is not None and (best is None or r.accuracy > best):
            best, most_accurate = r.accuracy, entry(r, game, accuracy=r.accuracy)
    loser_game = None
    best = None
    for r, game, _w, _b in games:
        if r.result not in ("1-0", "0-1"):
            continue
        loser = BLACK if r.result == "1-0" else WHITE
        acc = r.accuracy_black if loser == BLACK else r.accuracy_white
        if acc is not None and (best is None or acc > best):
            name = selectors.names(game)[0 if loser == WHITE else 1]
            best, loser_game = acc, entry(r, game, accuracy=acc, player=name)
    comeback = None
    lowest = None
    for r, game, _w, _b in games:
        if r.result not in ("1-0", "0-1"):
            continue
        winner = WHITE if r.result == "1-0" else BLACK
        low = r.lowest_white if winner == WHITE else r.lowest_black
        if lowest is None or low < lowest:
            name = selectors.names(game)[0 if winner == WHITE else 1]
            lowest, comeback = low, entry(r, game, lowest=low, player=name)
    players: dict[int, dict[str, Any]] = {}
    for r, _game, white, black in games:
        for side, who in ((WHITE, white), (BLACK, black)):
            turns = r.turns_white if side == WHITE else r.turns_black
            if who is None or not turns:
                continue
            p = players.setdefault(who.pk, {"entrant": who, "games": 0, "turns": 0, "sum": 0.0})
            p["games"] += 1
            p["turns"] += turns
            p["sum"] += r.accuracy_sum_white if side == WHITE else r.accuracy_sum_black
    player = None
    best = None
    for p in players.values():
        if p["games"] < AWARD_MIN_GAMES:
            continue
        acc = round(p["sum"] / p["turns"], 1)
        if best is None or acc > best:
            best = acc
            player = {"entrant": p["entrant"], "accuracy": acc, "games": p["games"]}
    return {
        "most_accurate": most_accurate,
        "best_loser": loser_game,
        "comeback": comeback,
        "player": player,
        "analysed": len(rows),
        "min_games": AWARD_MIN_GAMES,
    }


def player_entrants(entrant: Entrant) -> list[int]:
    """The entrants whose games are this player's (one entrant now; the person across
    events after the merge: all of that person's entrants)."""
    return [entrant.pk]


__all__ = [
    "AWARD_MIN_GAMES",
    "BANDS",
    "awards",
    "derive",
    "exercises_for",
    "game_page",
    "line_words",
    "reports_for",
]
