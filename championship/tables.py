"""The computed tables of a tournament's public pages, kept under its version (common.cache's
first layer): its data, standings, crosstable and leaders. A write makes a new version
(services.changes), after which a worker computes them (``warm``) before spectators ask."""

from __future__ import annotations

from common.cache import computed

from . import selectors
from .models import Tournament
from .pairing import Row, TournamentData


def _key(t: Tournament, name: str) -> str:
    return f"tables:{t.pk}:v{t.version}:{name}"


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


def published_rounds(t: Tournament) -> list[int]:
    return computed(_key(t, "rounds"), lambda: selectors.published_rounds(t))


def sheet_links(t: Tournament) -> dict[tuple[int, int], int]:
    return computed(_key(t, "sheets"), lambda: selectors.sheet_links(t))


def marks(t: Tournament) -> selectors.Marks:
    """Player links, withdrawals and provisional results of the public tables."""
    return computed(_key(t, "marks"), lambda: selectors.marks(t))


def warm(tournament_id: int) -> None:
    """Compute the tables for the tournament's current version (in the worker, after a write),
    so that spectators' requests find them ready."""
    t = Tournament.objects.filter(pk=tournament_id).first()
    if t is None:
        return
    standings(t)
    crosstable(t)
    published_rounds(t)
    sheet_links(t)
    marks(t)
