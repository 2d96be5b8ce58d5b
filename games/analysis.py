"""The engine's analysis of finished games, in the product (issue 15, docs/analysis.md).

An analysis belongs to the sheet it analysed: it is keyed by the game's moves (``moves_key``,
a hash of the turns in order, as lichess keys analyses by moves), not by every change of the
game's row. The players' confirmations at the tablet, a disagreement and its settling, the
clock, an adjournment or a termination recorded after the last turn change the row and its
version but not the moves, so they keep the analysis (issue 21: each confirmation made a new
version, and the analysis queued at the game's end was dropped as stale and never queued
again). A finished game is analysed once per sheet of moves by a Celery task
(``games.tasks.analyse_game_task``) that runs ``games.engine.analysis.analyse_game`` and
stores the verdict on every ply in a ``GameAnalysis`` row. A tournament game is analysed as
soon as its sheet finishes it (the services call :func:`sheet_changed` in the transaction
that changed the sheet; the request is queued once it commits); a friendly game when an
organiser asks (:func:`request`).

**Never during play.** A player must not be able to consult the engine at the board, so:

- nothing is analysed unless the game is finished (checked when asked, when the task starts
  and again when it stores its result);
- a change of the moves deletes the analysis of the earlier moves in the same transaction (a
  turn taken back after the end reopens the game: its analysis is gone), and a task that
  finds the moves changed, or the game reopened, drops its work;
- the reads (:func:`shown`, the page, the progress JSON, the better-play page) show an
  analysis only while the game is finished and its moves are the ones analysed — a result
  entered by hand and then cleared reopens a game without changing its moves.

For a game of a pairing the counts of mistakes and blunders go to the championship through
its write doors (``championship.services.game_result_analysis_set`` when an analysis is done,
and with every change of the sheet: the counts of the analysis that still holds, or none),
which store them on the ``GameResult`` and make the tournament's pages new; the championship
never imports the games app (import-linter), and the player's page reads the counts from the
rows it already loads, with no extra query.
"""

from __future__ import annotations

import hashlib
import logging
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from championship import services as championship

from . import selectors
from .engine import BLACK, WHITE
from .engine.analysis import PlyAnalysis, analyse_game
from .engine.core import State
from .engine.game import Game as EngineGame
from .models import Game, GameAnalysis

log = logging.getLogger(__name__)

Status = GameAnalysis.Status

#: The verdicts of docs/analysis.md, best first, with their names on the pages.
VERDICT_NAMES: dict[str, Promise] = {
    "best": gettext_lazy("best"),
    "good": gettext_lazy("good"),
    "inaccuracy": gettext_lazy("inaccuracy"),
    "mistake": gettext_lazy("mistake"),
    "blunder": gettext_lazy("blunder"),
}
#: What each verdict looks like (Bootstrap badges; the legend uses the same).
VERDICT_CLASSES = {
    "best": "text-bg-success",
    "good": "text-bg-light border",
    "inaccuracy": "text-bg-info",
    "mistake": "text-bg-warning",
    "blunder": "text-bg-danger",
}
#: The verdicts counted on a player's page.
COUNTED = ("mistake", "blunder")


class Abandoned(Exception):
    """The analysis being run was replaced or deleted meanwhile: its work is dropped."""


def finished(eg: EngineGame) -> bool:
    """Is the game over (by its moves, a termination or a result entered by hand) with turns
    to analyse?"""
    return eg.outcome is not None and bool(eg.turns)


def moves_key(eg: EngineGame) -> str:
    """What an analysis is derived from: the sheet's moves, as a hash of its turns in order
    (the turns' canonical texts, one a line)."""
    moves = "\n".join(turn.text for turn in eg.turns)
    return hashlib.sha256(moves.encode()).hexdigest()


# --- Writes -------------------------------------------------------------------------------
def sheet_changed(game: Game, eg: EngineGame) -> dict[str, tuple[int, int]] | None:
    """Called by ``games.services`` inside every transaction that changes a game's sheet
    (``eg`` the sheet now): the analysis of other moves is deleted (one of the same moves
    stays), and a tournament game the sheet finished is queued for analysis once the
    transaction commits (nothing is queued if its analysis is there already). Returns the
    counts of mistakes and blunders of the analysis that holds for the sheet now (None: none
    is done), which the championship is told with the sheet."""
    key = moves_key(eg)
    # One a game, if any (none when the turn's lock read that there is none).
    none = selectors.taken(game, "analysis") is False
    row = None if none else GameAnalysis.objects.filter(game_id=game.pk).first()
    if row is not None and row.moves != key:
        row.delete()
        row = None
    if game.board_id is not None and finished(eg):
        game_id = game.pk
        transaction.on_commit(lambda: request(game_id, moves=key))
    return done_counts(row) if row is not None and finished(eg) else None


def done_counts(row: GameAnalysis) -> dict[str, tuple[int, int]] | None:
    """Each side's mistakes and blunders of a done analysis (None for any other)."""
    if row.status != Status.DONE:
        return None
    return {
        WHITE: (row.mistakes_white or 0, row.blunders_white or 0),
        BLACK: (row.mistakes_black or 0, row.blunders_black or 0),
    }


def request(game_id: int, *, moves: str | None = None) -> GameAnalysis | None:
    """Queue the analysis of the game's moves if it is finished, unless one is already
    queued, running or done for these moves (a failed one is started again). ``moves``: only
    if the game still has those (``moves_key``). None when there is nothing to analyse (not
    finished, no turns, changed meanwhile)."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None:
            return None
        eg = selectors.replay(game)
        key = moves_key(eg)
        if (moves is not None and key != moves) or not finished(eg):
            return None
        current = GameAnalysis.objects.filter(game=game).first()
        if current is not None and current.moves == key and state(current) != Status.FAILED:
            return current
        token = uuid.uuid4().hex
        row, _created = GameAnalysis.objects.update_or_create(
            game=game,
            defaults={
                "moves": key,
                "token": token,
                "status": Status.QUEUED,
                "progress": 0,
                "ms_per_ply": settings.ANALYSIS_MS_PER_PLY,
                "plies": [],
                "mistakes_white": None,
                "blunders_white": None,
                "mistakes_black": None,
                "blunders_black": None,
                "error": "",
                "requested_at": timezone.now(),
                "started_at": None,
                "beat_at": None,
                "finished_at": None,
            },
        )
        pk = row.pk
        transaction.on_commit(lambda: _queue(pk, token))
    return row


def _queue(analysis_id: int, token: str) -> None:
    """Send the task (inline without a worker). A broker that is down, or an analysis that
    crashed inline, never breaks the request that finished the game: the row says failed."""
    from .tasks import analyse_game_task

    try:
        analyse_game_task.delay(analysis_id, token)
    except Exception:
        log.warning("the analysis %s could not be run", analysis_id, exc_info=True)
        GameAnalysis.objects.filter(
            pk=analysis_id, token=token, status__in=[Status.QUEUED, Status.RUNNING]
        ).update(status=Status.FAILED, error="not_started", finished_at=timezone.now())


def run(analysis_id: int, token: str) -> str:
    """Carry out the request ``token`` (the task's work): ``done``, or ``stale`` when it was
    replaced, is running elsewhere, or the game's moves changed or it reopened meanwhile. An analysis
    whose worker died (its heartbeat stale) is taken over by a task delivered again."""
    now = timezone.now()
    stale = now - timedelta(seconds=settings.ANALYSIS_HEARTBEAT_STALE)
    claimed = (
        GameAnalysis.objects.filter(pk=analysis_id, token=token)
        .filter(Q(status=Status.QUEUED) | Q(status=Status.RUNNING, beat_at__lt=stale))
        .update(status=Status.RUNNING, started_at=now, beat_at=now, progress=0)
    )
    if not claimed:
        return "stale"
    row = GameAnalysis.objects.select_related("game").get(pk=analysis_id)
    eg = selectors.replay(row.game)
    if moves_key(eg) != row.moves or not finished(eg):
        GameAnalysis.objects.filter(pk=analysis_id, token=token).delete()
        return "stale"

    def progress(done: int, total: int, _ply: PlyAnalysis) -> None:
        percent = min(99, done * 100 // max(total, 1))
        if not GameAnalysis.objects.filter(
            pk=analysis_id, token=token, status=Status.RUNNING
        ).update(progress=percent, beat_at=timezone.now()):
            raise Abandoned

    try:
        plies = analyse_game(eg, ms_per_ply=row.ms_per_ply or None, progress=progress)
    except Abandoned:
        return "stale"
    except Exception as exc:
        GameAnalysis.objects.filter(pk=analysis_id, token=token).update(
            status=Status.FAILED, error=type(exc).__name__[:200], finished_at=timezone.now()
        )
        raise
    outcome = _store(row, token, plies)
    if outcome == "done":
        _derive(analysis_id, token)
    return outcome


def _derive(analysis_id: int, token: str) -> None:
    """The report and the exercises of the analysis just stored (``games.reports``); a
    failure there never undoes the analysis."""
    from . import reports

    try:
        reports.derive(analysis_id, token)
    except Exception:
        log.warning("the report of analysis %s could not be made", analysis_id, exc_info=True)


def counts(plies: list[PlyAnalysis]) -> dict[str, tuple[int, int]]:
    """Each side's mistakes and blunders."""
    return {
        side: (
            sum(1 for p in plies if p.side == side and p.verdict == "mistake"),
            sum(1 for p in plies if p.side == side and p.verdict == "blunder"),
        )
        for side in (WHITE, BLACK)
    }


def _store(row: GameAnalysis, token: str, plies: list[PlyAnalysis]) -> str:
    found = counts(plies)
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=row.game_id)
        eg = selectors.replay(game)
        if moves_key(eg) != row.moves or not finished(eg):
            GameAnalysis.objects.filter(pk=row.pk, token=token).delete()
            return "stale"
        stored = GameAnalysis.objects.filter(pk=row.pk, token=token).update(
            status=Status.DONE,
            progress=100,
            plies=[p.as_dict() for p in plies],
            mistakes_white=found[WHITE][0],
            blunders_white=found[WHITE][1],
            mistakes_black=found[BLACK][0],
            blunders_black=found[BLACK][1],
            finished_at=timezone.now(),
        )
        if not stored:
            return "stale"
        if game.board_id is not None:
            championship.game_result_analysis_set(
                board_id=game.board_id, number=game.number, counts=found
            )
    return "done"


# --- Reads --------------------------------------------------------------------------------
def state(row: GameAnalysis, now: datetime | None = None) -> str:
    """The row's status as the pages show it: a running analysis whose heartbeat is stale, or
    one queued for longer than ``ANALYSIS_QUEUE_TIMEOUT``, has failed."""
    now = now or timezone.now()
    if row.status == Status.RUNNING:
        beat = row.beat_at or row.started_at or row.requested_at
        if now - beat > timedelta(seconds=settings.ANALYSIS_HEARTBEAT_STALE):
            return Status.FAILED
    elif row.status == Status.QUEUED and now - row.requested_at > timedelta(
        seconds=settings.ANALYSIS_QUEUE_TIMEOUT
    ):
        return Status.FAILED
    return str(row.status)


def shown(game: Game, eg: EngineGame) -> GameAnalysis | None:
    """The analysis anyone may see: only of a finished game, of the moves it has now."""
    if not finished(eg):
        return None
    return GameAnalysis.objects.filter(game=game, moves=moves_key(eg)).first()


def plies_of(row: GameAnalysis) -> list[PlyAnalysis]:
    return [PlyAnalysis.from_json(d) for d in row.plies]


@dataclass(frozen=True)
class Line:
    """A ply of the analysed move sheet."""

    ply: PlyAnalysis
    number: int
    white: bool
    verdict_name: str
    verdict_class: str
    better: bool
    value: float


def lines(plies: list[PlyAnalysis]) -> list[Line]:
    return [
        Line(
            ply=p,
            number=(p.ply + 1) // 2,
            white=p.side == WHITE,
            verdict_name=str(VERDICT_NAMES.get(p.verdict, p.verdict)),
            verdict_class=VERDICT_CLASSES.get(p.verdict, "text-bg-secondary"),
            better=p.best != p.played,
            value=p.white_value,
        )
        for p in plies
    ]


def legend() -> list[dict[str, str]]:
    return [
        {"verdict": v, "name": str(name), "class": VERDICT_CLASSES[v]}
        for v, name in VERDICT_NAMES.items()
    ]


# The graph: the value after each ply from White's view (+1 White wins, −1 Black wins).
GRAPH_W, GRAPH_H, PAD_X, PAD_Y = 600, 160, 6, 10
MARK_COLOURS = {"inaccuracy": "#0dcaf0", "mistake": "#fd7e14", "blunder": "#dc3545"}


def graph(plies: list[PlyAnalysis]) -> SafeString:
    """An inline SVG (drawn here: no script, no style attribute, so the page's CSP holds):
    the value after each ply, a dot on each inaccuracy, mistake and blunder with its ply and
    verdict as a tooltip."""
    if not plies:
        return mark_safe("")  # noqa: S308
    n = len(plies)
    inner_w, inner_h = GRAPH_W - 2 * PAD_X, GRAPH_H - 2 * PAD_Y

    def x(i: int) -> float:
        return round(PAD_X + inner_w * i / n, 1)

    def y(v: float) -> float:
        return round(PAD_Y + inner_h * (1 - v) / 2, 1)

    start = plies[0].value_best  # before the first ply, from White's (the mover's) view
    points = [(x(0), y(start))] + [(x(i + 1), y(p.white_value)) for i, p in enumerate(plies)]
    line = " ".join(f"{a},{b}" for a, b in points)
    area = f"{x(0)},{y(0)} {line} {x(n)},{y(0)}"
    label = _("The value after each ply, from White's view: up, White is winning; down, Black.")
    parts = [
        f'<svg class="analysis-graph w-100" viewBox="0 0 {GRAPH_W} {GRAPH_H}" role="img" '
        f'aria-label="{escape(label)}" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(label)}</title>",
        f'<rect x="0" y="0" width="{GRAPH_W}" height="{GRAPH_H}" fill="#f8f9fa" rx="4"/>',
        f'<polygon points="{area}" fill="#e9ecef"/>',
        f'<line x1="{PAD_X}" y1="{y(0)}" x2="{GRAPH_W - PAD_X}" y2="{y(0)}" stroke="#adb5bd" '
        'stroke-dasharray="4 3"/>',
        f'<polyline points="{line}" fill="none" stroke="#212529" stroke-width="2"/>',
    ]
    # A column per ply, a link to that ply of the replay above (#ply-N; replay.js shows it
    # and brings the board into view).
    width = round(inner_w / n, 1)
    for i, p in enumerate(plies):
        tip = f"{p.ply}. {p.played} ({p.white_value:+.2f})"
        parts.append(
            f'<a href="#ply-{p.ply}" class="graph-ply" data-ply="{p.ply}">'
            f"<title>{escape(tip)}</title>"
            f'<rect x="{round(x(i + 1) - width / 2, 1)}" y="0" width="{width}" '
            f'height="{GRAPH_H}" fill="#0d6efd" fill-opacity="0" class="graph-column"/></a>'
        )
    for i, p in enumerate(plies):
        colour = MARK_COLOURS.get(p.verdict)
        if colour is None:
            continue
        tip = f"{p.ply}. {p.played} — {VERDICT_NAMES[p.verdict]}"
        parts.append(
            f'<a href="#ply-{p.ply}" class="graph-ply" data-ply="{p.ply}">'
            f'<circle class="graph-mark" data-ply="{p.ply}" cx="{x(i + 1)}" '
            f'cy="{y(p.white_value)}" r="4" fill="{colour}"><title>{escape(tip)}</title>'
            "</circle></a>"
        )
    parts.append("</svg>")
    return mark_safe("".join(parts))  # noqa: S308 — numbers and escaped text only


def page(game: Game, eg: EngineGame, *, can_manage: bool) -> dict[str, Any] | None:
    """What ``games/_analysis.html`` shows on a game's page (None during play: nothing)."""
    if not finished(eg):
        return None
    row = shown(game, eg)
    now_state = state(row) if row is not None else "none"
    out: dict[str, Any] = {
        "row": row,
        "state": now_state,
        "percent": row.progress if row is not None else 0,
        "can_start": can_manage and now_state in ("none", Status.FAILED),
        "waiting": now_state in (Status.QUEUED, Status.RUNNING),
    }
    if row is not None and now_state == Status.DONE:
        plies = plies_of(row)
        out.update(
            graph=graph(plies),
            lines=lines(plies),
            legend=legend(),
            counts={
                WHITE: (row.mistakes_white or 0, row.blunders_white or 0),
                BLACK: (row.mistakes_black or 0, row.blunders_black or 0),
            },
        )
    return out


def better_play(eg: EngineGame, ply: PlyAnalysis) -> tuple[State, State, State]:
    """The position before ``ply``, after the turn played, and after the engine's best play."""
    before = eg.states[ply.ply - 1]
    after_best = EngineGame(before)
    after_best.play(ply.best)
    return before, eg.states[ply.ply], after_best.state
