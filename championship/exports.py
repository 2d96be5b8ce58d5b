"""Public downloads of a tournament: standings and crosstable as CSV or XLSX, and the FIDE
tournament report (TRF)."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.utils.translation import gettext as _

from common.exports import Sheet, export_response
from common.responses import text_download

from .models import Tournament
from .pairing import TIEBREAKS, TournamentData, write_trf

TB = {t.key: t for t in TIEBREAKS}


def standings(t: Tournament, rows: list[Any], fmt: str) -> HttpResponse:
    """The standings as a spreadsheet (formula-safe, typed cells: common.exports)."""
    cols = [TB[k] for k in t.tiebreak_order if k in TB]
    headers = [
        _("Rank"),
        _("No."),
        _("Name"),
        _("Club"),
        _("Points"),
        _("Games"),
        _("Wins"),
        _("Draws"),
        _("Losses"),
        _("Lost on time"),
        _("Unplayed"),
        *[c.abbreviation for c in cols],
    ]
    body = [
        [
            r.rank,
            r.number,
            r.name,
            r.club,
            r.points,
            r.games,
            r.wins,
            r.draws,
            r.losses,
            r.time_losses,
            r.unplayed,
            *[r.tiebreaks.get(c.key, 0) for c in cols],
        ]
        for r in rows
    ]
    sheet = Sheet(title=_("Standings"), headers=headers, rows=body)
    return export_response(sheet, fmt=fmt, filename=f"standings-{t.slug}")


def crosstable(t: Tournament, rows: list[Any], fmt: str) -> HttpResponse:
    """The crosstable as a spreadsheet: a cell per round, opponent's rank, colour, result."""
    n = max((len(r.cells) for r in rows), default=0)
    headers = [_("Rank"), _("Name"), *[str(i) for i in range(1, n + 1)], _("Points")]
    body = []
    for r in rows:
        cells = [f"{c['opponent'] or ''}{c['colour']}{c['result']}" for c in r.cells]
        body.append([r.row.rank, r.row.name, *cells, *[""] * (n - len(cells)), r.row.points])
    sheet = Sheet(title=_("Crosstable"), headers=headers, rows=body)
    return export_response(sheet, fmt=fmt, filename=f"crosstable-{t.slug}")


def trf(t: Tournament, data: TournamentData) -> HttpResponse:
    """The FIDE tournament report; a Swiss says its pairing rules (line 192)."""
    ruleset = t.ruleset if t.system == Tournament.System.SWISS else None
    return text_download(write_trf(data, ruleset=ruleset), f"{t.slug}.trf")
