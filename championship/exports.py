"""Public downloads of a tournament: standings and crosstable as CSV or XLSX, and the FIDE
tournament report (TRF)."""

from __future__ import annotations

from typing import Any

import tablib
from django.http import HttpResponse
from django.utils.translation import gettext as _

from common.responses import text_download

from .models import Tournament
from .pairing import TIEBREAKS, TournamentData, write_trf

TB = {t.key: t for t in TIEBREAKS}


def _standings_dataset(t: Tournament, rows: list[Any]) -> tablib.Dataset:
    cols = [TB[k] for k in t.tiebreak_order if k in TB]
    data = tablib.Dataset(
        headers=[
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
    )
    for r in rows:
        data.append(
            [
                r.rank,
                r.number,
                r.name,
                r.club,
                float(r.points),
                r.games,
                r.wins,
                r.draws,
                r.losses,
                r.time_losses,
                r.unplayed,
                *[r.tiebreaks.get(c.key, 0) for c in cols],
            ]
        )
    return data


def standings(t: Tournament, rows: list[Any], fmt: str) -> HttpResponse:
    return _download(_standings_dataset(t, rows), fmt, f"standings-{t.slug}")


def crosstable(t: Tournament, rows: list[Any], fmt: str) -> HttpResponse:
    n = max((len(r.cells) for r in rows), default=0)
    data = tablib.Dataset(
        headers=[_("Rank"), _("Name"), *[str(i) for i in range(1, n + 1)], _("Points")]
    )
    for r in rows:
        cells = [f"{c['opponent'] or ''}{c['colour']}{c['result']}" for c in r.cells]
        data.append([r.row.rank, r.row.name, *cells, *[""] * (n - len(cells)), float(r.row.points)])
    return _download(data, fmt, f"crosstable-{t.slug}")


def trf(t: Tournament, data: TournamentData) -> HttpResponse:
    """The FIDE tournament report; a Swiss says its pairing rules (line 192)."""
    ruleset = t.ruleset if t.system == Tournament.System.SWISS else None
    return text_download(write_trf(data, ruleset=ruleset), f"{t.slug}.trf")


def _download(data: tablib.Dataset, fmt: str, name: str) -> HttpResponse:
    if fmt == "csv":
        response = HttpResponse(data.export("csv"), content_type="text/csv; charset=utf-8")
    else:
        response = HttpResponse(
            data.export("xlsx"),
            content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        )
    response["Content-Disposition"] = f'attachment; filename="{name}.{fmt}"'
    return response
