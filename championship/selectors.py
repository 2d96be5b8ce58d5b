"""Reads for the public and organiser pages: a constant number of queries whatever the field
size, cached under the tournament's version (bumped on every result or round change)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, TypeVar

from django.core.cache import cache
from django.db import connection
from django.db.models import Q

from . import manager
from .models import Board, Entrant, Round, Tournament
from .pagecache import recent
from .pairing import Row, TournamentData, standings

T = TypeVar("T")
CACHE_SECONDS = 3600


#: True while the value being computed used a previous version's value somewhere inside.
_served_stale: ContextVar[bool] = ContextVar("served_stale", default=False)
#: False for readers who must see the newest version (organisers, exports).
_stale_allowed: ContextVar[bool] = ContextVar("stale_allowed", default=True)


@contextmanager
def fresh() -> Iterator[None]:
    """Within: values are never the previous version's (an organiser who has just entered a
    result sees it in the standings, even while the worker is still computing them)."""
    allowed, served = _stale_allowed.set(False), _served_stale.set(False)
    try:
        yield
    finally:
        _stale_allowed.reset(allowed)
        _served_stale.reset(served)


def served_stale() -> bool:
    """Has the page being rendered used a previous version's value? (Then it must not claim
    the new version: its live reload would never fetch the new tables.)"""
    return _served_stale.get()


def cached(
    t: Tournament,
    key: str,
    compute: Callable[[], T],
    version: str | None = None,
    in_memory: bool = False,
) -> T:
    """Computed once per tournament version; a result change makes a new key.

    While another process computes a new version (the worker warming the pages after a
    result, or another request), this one serves the previous version's value (stale by one
    result, for a second) instead of all recomputing at once. A value computed from such a
    stale part (a page around a stale table) is served but not stored under the new version,
    so the new version is never stuck with old content. A cache that is down only means
    computing every time. ``in_memory``: also kept in this process (``pagecache.recent``),
    for the small values read on every request (whole pages)."""
    full = f"champ:{t.pk}:v{t.version if version is None else version}:{key}"
    latest = f"champ:{t.pk}:latest:{key}"
    if in_memory and (value := recent.get(full)) is not None:
        return value  # type: ignore[no-any-return]
    value = cache.get(full)
    if value is not None:
        if in_memory:
            recent.put(full, value)
        return value  # type: ignore[no-any-return]
    locked = cache.add(full + ":lock", 1, 30)
    if not locked and _stale_allowed.get():
        stale = cache.get(latest)
        if stale is not None:
            _served_stale.set(True)
            return stale  # type: ignore[no-any-return]
    outer = _served_stale.get()
    _served_stale.set(False)
    try:
        value = compute()
        if not _served_stale.get():
            cache.set_many({full: value, latest: value}, CACHE_SECONDS)
            if in_memory:
                recent.put(full, value)
    finally:
        if locked:
            cache.delete(full + ":lock")
        _served_stale.set(outer or _served_stale.get())
    return value


def tournament_key(slug: str) -> Tournament | None:
    """A tournament holding only its id, slug and version: what a cached page's key needs.
    Read by one indexed query written out, because it runs on every spectator's request and
    the ORM's query building costs more than the query itself (0.6 of 1.5 ms a cached page)."""
    table = connection.ops.quote_name(Tournament._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT id, version FROM {table} WHERE slug = %s", [slug])  # noqa: S608
        row = cursor.fetchone()
    return None if row is None else Tournament(id=row[0], slug=slug, version=row[1])


def published_data(t: Tournament) -> TournamentData:
    return cached(t, "data", lambda: manager.tournament_data(t, published_only=True))


def published_rounds(t: Tournament) -> list[int]:
    return list(round_versions(t))


def round_versions(t: Tournament) -> dict[int, int]:
    """Published round number → its version (for per-round cache keys)."""
    return cached(
        t,
        "rounds",
        lambda: dict(
            t.round_set.filter(status=Round.Status.PUBLISHED)
            .order_by("number")
            .values_list("number", "version")
        ),
        in_memory=True,  # small, and read by every request for a round's pairings
    )


def standings_rows(t: Tournament, upto: int | None = None) -> list[Row]:
    """Standings after round ``upto`` (None: with every result entered so far). The cached
    rows are looked up first: the tournament's data is loaded only on a miss."""

    def compute() -> list[Row]:
        data = published_data(t)
        last = data.rounds_played if upto is None else min(upto, data.rounds_played)
        return standings(data, upto=last, order=t.tiebreak_order)

    return cached(t, f"standings:{'live' if upto is None else upto}", compute)


@dataclass
class CrossRow:
    row: Row
    cells: list[dict[str, Any]] = field(default_factory=list)


#: How a player's TRF code for a round is shown (crosstable, player page).
RESULT_SYMBOLS = {
    "1": "1",
    "0": "0",
    "=": "½",
    "+": "+",
    "-": "−",
    "U": "+",
    "H": "½",
    "F": "+",
    "Z": "0",
    "*": "",
}


def crosstable(t: Tournament) -> list[CrossRow]:
    """Per player and round: opponent's rank, colour and result, like chess-results."""

    def compute() -> list[CrossRow]:
        data = published_data(t)
        rows = standings_rows(t)
        rank_of = {r.number: r.rank for r in rows}
        by = {p.number: p for p in data.players}
        return [
            CrossRow(
                row,
                [
                    {
                        "opponent": rank_of.get(e.opponent) if e.opponent else None,
                        "colour": e.colour or "",
                        "result": RESULT_SYMBOLS.get(e.code, e.code),
                        "code": e.code,
                    }
                    for e in by[row.number].rounds
                ],
            )
            for row in rows
        ]

    return cached(t, "crosstable", compute)


def entrant_games(t: Tournament, entrant: Entrant) -> list[Board]:
    return list(
        Board.objects.filter(round__tournament=t, round__status=Round.Status.PUBLISHED)
        .filter(Q(white=entrant) | Q(black=entrant))
        .select_related("round", "white", "black")
        .order_by("round__number")
    )


def game_links(t: Tournament) -> dict[tuple[int, int], int]:
    """(round number, starting number) → the public game page's game id (game 1 of the
    pairing), for both players of every published pairing that has a sheet."""
    from games.models import Game

    rows = Game.objects.filter(
        board__round__tournament=t, board__round__status=Round.Status.PUBLISHED, number=1
    ).values_list(
        "pk",
        "board__round__number",
        "board__white__starting_number",
        "board__black__starting_number",
    )
    links: dict[tuple[int, int], int] = {}
    for pk, number, white, black in rows:
        for sno in (white, black):
            if sno is not None:
                links[(number, sno)] = pk
    return links


def warm(tournament_id: int) -> None:
    """Compute the expensive parts of the public pages for the tournament's current version
    (in the worker, after a result is saved), so that spectators' requests find them ready
    instead of one of them paying for the recomputation; until then they serve the previous
    version's tables."""
    t = Tournament.objects.filter(pk=tournament_id).first()
    if t is None:
        return
    from . import html_tables

    html_tables.standings_table(t, None)
    html_tables.crosstable_table(t)
    top_rows(t)


def top_rows(t: Tournament, n: int = 10) -> list[Row]:
    """The leaders, for the overview page."""
    return cached(t, f"top{n}", lambda: standings_rows(t)[:n])
