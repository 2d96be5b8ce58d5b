"""The club's rating list (docs/ratings.md): recomputed from every rated game in order,
deterministically, and stored (``RatingRun``, ``PersonRating``, ``RatedGame``) for the pages to
read. The only bridge between the database and the pure ``championship.rating``: load the
games as plain data, rate them, save the result.

Recomputation is queued after every commit that changes what a tournament's pages show
(``changes``) and after every change of people (``people.signals.people_changed``), coalesced:
one queued at a time (``queue_now``); it first reads the rated games and stops when they
are those of the list in force (``fingerprint``), so that most changes (a check-in, a bye, a
result entered twice) cost one query. A correction in an old event re-rates everything after
it."""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import date
from typing import Any
from zoneinfo import ZoneInfo

from django.core.cache import cache
from django.db import connection, transaction
from django.db.models.functions import Coalesce, TruncDate
from django.utils import timezone

from games.engine.vocabulary import Result, Termination

from ..models import GameResult, PersonRating, RatedGame, RatingRun, Round
from ..rating import DEFAULT_TAU, Game, History, month_index, month_of, rate_history
from .changes import tournament_changed

log = logging.getLogger(__name__)

#: A rating period is a calendar month in Toronto time (a round without a date counts on the
#: day it was published there).
RATING_TIME_ZONE = ZoneInfo("America/Toronto")
#: White's score by result, for the results of a game played over the board.
SCORES = {Result.WHITE_WINS.value: 1.0, Result.DRAW.value: 0.5, Result.BLACK_WINS.value: 0.0}

#: The cache keys of the queued recomputation and of its progress (the list page shows it).
QUEUED_KEY = "ratings:queued"
RUNNING_KEY = "ratings:running"
AGAIN_KEY = "ratings:again"
STATUS_KEY = "ratings:status"
#: A queued recomputation starts this many seconds after the first change it covers: the
#: changes of those seconds (a round's results entered one after another) are one
#: recomputation (about 1.5 s of a worker for 10,000 games), not one each.
INTERVAL = 5.0
#: Longer than any recomputation; a lock or a queued mark older than this is forgotten.
LOCK_SECONDS = 600
#: Set while this thread recomputes: the new versions it gives tournaments change no rated
#: game, so they queue no recomputation.
_recomputing: ContextVar[bool] = ContextVar("ratings_recomputing", default=False)


@dataclass(frozen=True)
class RatedRow:
    """A rated game as the rating needs it: the game result's id, the day of its round, the
    persons with White and Black (game 2 of a pairing has the colours reversed), White's score
    and the tournament (its pages show the ratings)."""

    ref: int
    day: date
    white: int
    black: int
    score: float
    tournament: int


def rated_rows() -> list[RatedRow]:
    """Every game the rules rate (docs/ratings.md), in one query: a result of a published
    round's pairing, confirmed, a win, draw or loss over the board (not a forfeit, double
    forfeit or bye), not marked unrated, between two different people."""
    rows = (
        GameResult.objects.filter(
            board__round__status=Round.Status.PUBLISHED,
            board__black__isnull=False,
            result__in=list(SCORES),
            confirmed=True,
            rated=True,
        )
        .exclude(termination=Termination.FORFEIT.value)
        .annotate(
            day=Coalesce(
                "board__round__date",
                TruncDate("board__round__published_at", tzinfo=RATING_TIME_ZONE),
            )
        )
        .values_list(
            "pk",
            "number",
            "result",
            "board__white__person_id",
            "board__black__person_id",
            "day",
            "board__round__tournament_id",
        )
        .order_by("pk")
    )
    out = []
    for pk, number, result, white, black, day, tournament in rows:
        if day is None:
            continue  # a published round always has a day it was published
        if white == black:
            log.warning("game result %s: one person on both sides, not rated", pk)
            continue
        if number == 2:
            white, black = black, white
        out.append(RatedRow(pk, day, white, black, SCORES[result], tournament))
    return out


def fingerprint(rows: list[RatedRow]) -> str:
    """A digest of what the ratings are computed from (the same games give the same one)."""
    digest = hashlib.sha256(f"tau={DEFAULT_TAU}".encode())
    for r in rows:
        digest.update(f"{r.ref}:{month_index(r.day)}:{r.white}:{r.black}:{r.score};".encode())
    return digest.hexdigest()


def _status(**values: object) -> None:
    try:
        cache.set(STATUS_KEY, {**values, "at": time.time()}, 24 * 3600)
    except Exception:  # progress is a nicety
        log.warning("could not store the ratings' progress", exc_info=True)


def ratings_status() -> dict[str, object]:
    """The recomputation as the list page shows it: ``{"state": "idle" | "queued" |
    "running" | "failed", "percent": n}``."""
    try:
        found = cache.get(STATUS_KEY)
    except Exception:
        return {"state": "idle"}
    return found if isinstance(found, dict) else {"state": "idle"}


#: The columns written, in the order of the rows' values.
RATING_COLUMNS = ("person_id", "month", "rating", "rd", "volatility", "games")
GAME_COLUMNS = ("game_result_id", "month", *RatedGame.SIDE_COLUMNS)


def _insert(
    model: type[PersonRating] | type[RatedGame],
    columns: tuple[str, ...],
    rows: list[tuple[Any, ...]],
) -> None:
    """Insert many new rows: PostgreSQL's ``COPY``, elsewhere one ``executemany``. (The ORM's
    ``bulk_create`` builds a model instance for each row and prepares each value through its
    field: most of a recomputation's time with 27,000 rows, whose values here are plain
    numbers and dates already.)"""
    quote = connection.ops.quote_name
    table = quote(model._meta.db_table)
    names = ", ".join(quote(name) for name in columns)  # attnames are the columns here
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.cursor.copy(f"COPY {table} ({names}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
            return
        marks = ", ".join(["%s"] * len(columns))
        cursor.executemany(f"INSERT INTO {table} ({names}) VALUES ({marks})", rows)  # noqa: S608


def _games_of(history: History[int], rows: list[RatedRow]) -> list[tuple[Any, ...]]:
    out = []
    for r in rows:
        white, black = history.games[r.ref]
        out.append(
            (
                r.ref,
                month_of(month_index(r.day)),
                white.before.rating,
                white.before.rd,
                white.after.rating,
                white.after.rd,
                white.share,
                black.before.rating,
                black.before.rd,
                black.after.rating,
                black.after.rd,
                black.share,
            )
        )
    return out


def _shown(values: tuple[float, ...]) -> tuple[float, ...]:
    """A rated game's values as the pages show them (rounded)."""
    return tuple(round(v, 1) for v in values)


def ratings_recompute(
    *, progress: Callable[[int], None] | None = None, force: bool = False
) -> RatingRun:
    """Recompute the list from every rated game, unless the games are those of the list in
    force (``force``: recompute anyway); ``progress(percent)`` as it goes. The tournaments
    whose games' ratings changed get a new version of their pages."""
    token = _recomputing.set(True)
    try:
        return _recompute(progress=progress, force=force)
    finally:
        _recomputing.reset(token)


def _recompute(*, progress: Callable[[int], None] | None, force: bool) -> RatingRun:
    started = time.perf_counter()
    rows = rated_rows()
    digest = fingerprint(rows)
    last = RatingRun.objects.order_by("-computed_at", "-pk").first()
    if last is not None and last.fingerprint == digest and not force:
        return last

    def step(done: int, total: int) -> None:
        if progress is not None:
            progress(int(90 * done / max(total, 1)))

    history = rate_history(
        (Game(month_index(r.day), r.white, r.black, r.score, r.ref) for r in rows),
        progress=step,
    )
    entries = [
        (
            person,
            month_of(month),
            s.rating.rating,
            s.rating.rd,
            s.rating.volatility,
            s.games,
        )
        for month in history.months
        for person, s in sorted(history.lists[month].items())
    ]
    games = _games_of(history, rows)
    tournament_of = {r.ref: r.tournament for r in rows}
    with transaction.atomic():
        before = {
            row[0]: _shown(row[1:])
            for row in RatedGame.objects.values_list(
                "game_result_id", *RatedGame.SIDE_COLUMNS
            ).iterator()
        }
        after = {g[0]: _shown(g[2:]) for g in games}
        changed = {tournament_of[ref] for ref in after if before.get(ref) != after[ref]}
        gone = set(before) - set(after)
        changed |= set(
            GameResult.objects.filter(pk__in=gone).values_list(
                "board__round__tournament_id", flat=True
            )
        )
        PersonRating.objects.all().delete()
        RatedGame.objects.all().delete()
        _insert(PersonRating, RATING_COLUMNS, entries)
        _insert(RatedGame, GAME_COLUMNS, games)
        RatingRun.objects.all().delete()
        run = RatingRun.objects.create(
            computed_at=timezone.now(),
            fingerprint=digest,
            games=len(rows),
            players=len(history.final()),
            first_month=month_of(history.months[0]) if history.months else None,
            last_month=month_of(history.months[-1]) if history.months else None,
            seconds=time.perf_counter() - started,
        )
        for tournament_id in sorted(changed):
            tournament_changed(tournament_id)  # their crosstables show the ratings
    if progress is not None:
        progress(100)
    return run


def queue_now() -> None:
    """Queue a recomputation now (after a commit), unless one is queued already that has not
    started (it will read this commit's games too)."""
    from ..tasks import ratings_recompute_task

    if _recomputing.get():
        return
    try:
        if not cache.add(QUEUED_KEY, time.time(), LOCK_SECONDS):
            return
        _status(state="queued", percent=0)
        ratings_recompute_task.apply_async(countdown=INTERVAL)
    except Exception:  # the next change queues it again; the list shown stays the last one
        cache.delete(QUEUED_KEY)
        log.warning("could not queue the ratings' recomputation", exc_info=True)


def ratings_run_queued() -> None:
    """In the worker: run the queued recomputation, one at a time. A task that finds another
    one running leaves it a note (``AGAIN_KEY``, written before it looks) and ends; the one
    running reads the games again when it finds the note after it is done, so no change is
    left out. Changes committed from the start on queue the next task."""
    while True:
        cache.set(AGAIN_KEY, time.time(), LOCK_SECONDS)
        if not cache.add(RUNNING_KEY, time.time(), LOCK_SECONDS):
            return
        try:
            cache.delete_many([AGAIN_KEY, QUEUED_KEY])
            _status(state="running", percent=0)
            ratings_recompute(progress=lambda percent: _status(state="running", percent=percent))
            _status(state="idle", percent=100)
        except Exception:
            _status(state="failed", percent=0)
            raise
        finally:
            cache.delete(RUNNING_KEY)
        if cache.get(AGAIN_KEY) is None:
            return


def people_changed_received(sender: object, **kwargs: object) -> None:
    """A merge, split or undo (sent after its commit): the ratings follow the people."""
    queue_now()
