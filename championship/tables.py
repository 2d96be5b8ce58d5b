"""The computed tables of a tournament's public pages, kept under its version (common.cache's
first layer): its data, standings, crosstable and leaders. A write makes a new version
(services.changes), after which a worker computes them (``warm``) before spectators ask.

While the worker computes them, spectators' pages are built on the last version it finished
(``spectators_version``, ``as_of``) instead of every request computing the new tables itself:
at most ``STALE_SECONDS`` behind the results, and never for organisers or downloads, which read
the current version. Without a worker (tasks inline) the tables are ready at the commit."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.core.cache import cache

from common.cache import computed

from . import selectors
from .labels import num
from .models import Tournament
from .pairing import Row, TournamentData

#: The longest spectators' pages may show the tables of an earlier version while the worker
#: computes the current one (a stopped worker: after this the requests compute them).
STALE_SECONDS = 10

#: (tournament id, version) whose tables a spectator's page is being built on (``as_of``).
_as_of: ContextVar[tuple[int, int] | None] = ContextVar("tables_as_of", default=None)


def version_of(t: Tournament) -> int:
    """The version whose tables are read for ``t``: its own, or the one a spectator's page is
    built on (``as_of``)."""
    pinned = _as_of.get()
    return pinned[1] if pinned is not None and pinned[0] == t.pk else t.version


@contextmanager
def as_of(tournament_id: int, version: int) -> Iterator[None]:
    """Read the tables of ``version`` (computed already) while building a spectator's page."""
    token = _as_of.set((tournament_id, version))
    try:
        yield
    finally:
        _as_of.reset(token)


def _key(t: Tournament, name: str) -> str:
    return f"tables:{t.pk}:v{version_of(t)}:{name}"


def _ready_key(tournament_id: int) -> str:
    return f"tables:{tournament_id}:ready"


def _pending_key(tournament_id: int) -> str:
    return f"tables:{tournament_id}:pending-since"


def queued(tournament_id: int) -> None:
    """A worker has been asked to compute the new version's tables (after a commit): from now
    until it has, spectators may be shown the last version it finished."""
    cache.add(_pending_key(tournament_id), time.time(), 3600)


def not_queued(tournament_id: int) -> None:
    """The request to the worker could not be sent: the requests compute the tables."""
    cache.delete(_pending_key(tournament_id))


def spectators_version(tournament_id: int, current: int) -> int | None:
    """The earlier version whose tables a spectator's page may be built on, because the worker
    is computing the current one's (asked less than ``STALE_SECONDS`` ago); None: use the
    current version."""
    found = cache.get_many([_ready_key(tournament_id), _pending_key(tournament_id)])
    ready = found.get(_ready_key(tournament_id))
    since = found.get(_pending_key(tournament_id))
    if ready is None or since is None or ready >= current:
        return None
    if time.time() - since >= STALE_SECONDS:
        return None
    return int(ready)


def data(t: Tournament) -> TournamentData:
    return computed(_key(t, "data"), lambda: selectors.published_data(t))


def standings(t: Tournament, upto: int | None = None) -> list[Row]:
    """Standings after round ``upto`` (None: with every result entered so far)."""
    return computed(
        _key(t, f"standings:{'live' if upto is None else upto}"),
        lambda: selectors.standings_rows(data(t), t, upto),
    )


def crosstable(t: Tournament) -> list[selectors.CrossRow]:
    return computed(_key(t, "crosstable"), lambda: selectors.crosstable(data(t), standings(t)))


def top(t: Tournament, n: int = 10) -> list[Row]:
    """The leaders, for the overview page."""
    return standings(t)[:n]


def points_before(t: Tournament, number: int) -> dict[int, str]:
    """Starting number → points before round ``number``, as the pairings show them (a small
    table: the pairings page need not read the whole tournament's data)."""

    def compute() -> dict[int, str]:
        d = data(t)
        return {p.number: num(p.points(d.points, number - 1)) for p in d.players}

    return computed(_key(t, f"before:{number}"), compute)


def published_rounds(t: Tournament) -> list[int]:
    return computed(_key(t, "rounds"), lambda: selectors.published_rounds(t))


def sheet_links(t: Tournament) -> dict[tuple[int, int], int]:
    return computed(_key(t, "sheets"), lambda: selectors.sheet_links(t))


def marks(t: Tournament) -> selectors.Marks:
    """Player links, withdrawals and provisional results of the public tables."""
    return computed(_key(t, "marks"), lambda: selectors.marks(t))


def warm(tournament_id: int) -> None:
    """Compute the tables for the tournament's current version (in the worker, after a write),
    so that spectators' requests find them ready; then say which version is ready."""
    t = Tournament.objects.filter(pk=tournament_id).first()
    if t is None:
        return
    started = time.time()
    standings(t)
    crosstable(t)
    for number in published_rounds(t):
        points_before(t, number)
    sheet_links(t)
    marks(t)
    ready = cache.get(_ready_key(tournament_id))
    if ready is None or ready < t.version:
        cache.set(_ready_key(tournament_id), t.version, 3600)
    current = Tournament.objects.filter(pk=tournament_id).values_list("version", flat=True).first()
    if current == t.version:
        not_queued(tournament_id)  # caught up: nothing pending
    else:
        # Newer results came in while this ran, after ``started``: a warm for them is queued.
        cache.set(_pending_key(tournament_id), started, 3600)
