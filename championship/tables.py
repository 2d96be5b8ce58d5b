"""The computed tables of a tournament's public pages, kept under its version (common.cache's
first layer): its data, standings, crosstable and leaders. A write makes a new version
(services.changes), after which a worker computes them (``warm``) before spectators ask.

While the worker computes them, spectators' pages are built on the last version it finished
(``spectators_version``, ``as_of``) instead of every request computing the new tables itself:
at most ``STALE_SECONDS`` behind the results, and never for organisers or downloads, which read
the current version. Without a worker (tasks inline) the tables are ready at the commit."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from fractions import Fraction

from django.core.cache import cache

from common.cache import computed, current, forget_current, keep_current, reading

from . import selectors
from .labels import num
from .models import Tournament
from .pairing import Row, TournamentData

#: The longest spectators' pages may show the tables of an earlier version while the worker
#: computes the current one (a stopped worker: after this the requests compute them).
STALE_SECONDS = 10

#: The worker recomputes a tournament's tables at most once in this many seconds, however
#: fast results come in (the results of the seconds between are in the next recomputation).
WARM_INTERVAL = 2.0

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


#: How long a tournament's id and version, read for a kept page's key, are reused without
#: reading them again (a write forgets them at its commit; only a read racing a write can keep
#: the previous version, for this long at most).
KEY_SECONDS = 1


def _version_key(slug: str) -> str:
    return f"tables:key:{slug}"


def tournament_key(slug: str) -> selectors.TournamentKey | None:
    """A tournament's id and version for a kept page's key: from the cache (a spectator's
    request for a kept page then reads no database), else read and kept ``KEY_SECONDS``."""
    found = current(_version_key(slug))
    if found is not None:
        return selectors.TournamentKey(*found)
    key = selectors.tournament_key(slug)
    if key is not None:
        keep_current(_version_key(slug), tuple(key), KEY_SECONDS)
    return key


def version_changed(tournament_id: int) -> None:
    """After a commit that made a new version: forget the version kept for page keys."""
    slug = Tournament.objects.filter(pk=tournament_id).values_list("slug", flat=True).first()
    if slug is not None:
        forget_current([_version_key(slug)])


def _key(t: Tournament, name: str) -> str:
    return f"tables:{t.pk}:v{version_of(t)}:{name}"


def _ready_key(tournament_id: int) -> str:
    return f"tables:{tournament_id}:ready"


def _pending_key(tournament_id: int) -> str:
    return f"tables:{tournament_id}:pending-since"


def _task_key(tournament_id: int) -> str:
    return f"tables:{tournament_id}:task-queued"


def _last_key(tournament_id: int) -> str:
    return f"tables:{tournament_id}:last-warm"


def queued(tournament_id: int) -> float | None:
    """After a commit: from now until the worker has computed the new version's tables,
    spectators may be shown the last version it finished. Returns in how many seconds the
    worker is to compute them (at most one recomputation per ``WARM_INTERVAL``), or None when
    one is queued already that has not started (it will read this version too)."""
    now = time.time()
    cache.add(_pending_key(tournament_id), now, 3600)
    if cache.add(_task_key(tournament_id), 1, WARM_INTERVAL + 30) is False:
        return None
    last = cache.get(_last_key(tournament_id)) or 0.0
    return max(0.0, min(last + WARM_INTERVAL - now, WARM_INTERVAL))


def not_queued(tournament_id: int) -> None:
    """The request to the worker could not be sent: the requests compute the tables."""
    cache.delete_many([_pending_key(tournament_id), _task_key(tournament_id)])


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


def ranked(t: Tournament) -> bool:
    """Do the standings rank anyone yet: has a game of a published round a result (a forfeit
    counts, a bye does not)? Before that every player has the points of their bye only, and
    a player's page shows no rank ("Rank 1, 0 points" before a game was played)."""
    return any(r.opponent is not None and r.code != "*" for p in data(t).players for r in p.rounds)


def crosstable(t: Tournament) -> list[selectors.CrossRow]:
    return computed(_key(t, "crosstable"), lambda: selectors.crosstable(data(t), standings(t)))


def top(t: Tournament, n: int = 10) -> list[Row]:
    """The leaders, for the overview page."""
    return standings(t)[:n]


def points_before(t: Tournament, number: int) -> dict[int, str]:
    """Starting number → points before round ``number``, as the pairings show them (a small
    table: the pairings page need not read the whole tournament's data)."""
    return _points_by_round(t).get(number, {})


def _points_by_round(t: Tournament) -> dict[int, dict[int, str]]:
    """Round → starting number → points before that round, for every round played and the
    next one, computed in one pass."""

    def compute() -> dict[int, dict[int, str]]:
        d = data(t)
        table = d.points.table
        out: dict[int, dict[int, str]] = {n: {} for n in range(1, d.rounds_played + 2)}
        for p in d.players:
            total = Fraction(0)
            for n in out:
                out[n][p.number] = num(total)
                if n <= len(p.rounds):
                    total += table[p.rounds[n - 1].code]
        return out

    return computed(_key(t, "before"), compute)


def published_rounds(t: Tournament) -> list[int]:
    return computed(_key(t, "rounds"), lambda: selectors.published_rounds(t))


def sheet_links(t: Tournament) -> dict[tuple[int, int], int]:
    return computed(_key(t, "sheets"), lambda: selectors.sheet_links(t))


def marks(t: Tournament) -> selectors.Marks:
    """Player links, withdrawals and provisional results of the public tables."""
    return computed(_key(t, "marks"), lambda: selectors.marks(t))


def warm(
    tournament_id: int, then: Callable[[Tournament, int | None], object] | None = None
) -> None:
    """Compute the tables for the tournament's current version (in the worker, after a write),
    so that spectators' requests find them ready; then (``then``: the tournament and the version
    ready before) prepare what else is to be ready, and say which version is."""
    started = time.time()
    # Commits from now on queue the next recomputation (this one may not see them).
    cache.delete(_task_key(tournament_id))
    cache.set(_last_key(tournament_id), started, 3600)
    t = Tournament.objects.filter(pk=tournament_id).first()
    if t is None:
        return
    with reading():
        standings(t)
        crosstable(t)
        published_rounds(t)
        _points_by_round(t)
        sheet_links(t)
        marks(t)
    ready = cache.get(_ready_key(tournament_id))
    if then is not None:
        then(t, ready)
    if ready is None or ready < t.version:
        cache.set(_ready_key(tournament_id), t.version, 3600)
    current = Tournament.objects.filter(pk=tournament_id).values_list("version", flat=True).first()
    if current == t.version:
        not_queued(tournament_id)  # caught up: nothing pending
    else:
        # Newer results came in while this ran, after ``started``: a warm for them is queued.
        cache.set(_pending_key(tournament_id), started, 3600)
