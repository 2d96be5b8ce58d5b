"""Public downloads of a tournament: standings and crosstable as CSV or XLSX, and the FIDE
tournament report (TRF)."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.http import HttpResponse
from django.utils.translation import gettext as _

from common.exports import Sheet, export_response
from common.responses import text_download

from .labels import PROVISIONAL
from .models import Tournament
from .pairing import TIEBREAKS, TournamentData, TrfHeader, write_trf
from .selectors import Marks

TB = {t.key: t for t in TIEBREAKS}


def standings(
    t: Tournament,
    rows: list[Any],
    fmt: str,
    *,
    marks: Marks | None = None,
    upto: int | None = None,
) -> HttpResponse:
    """The standings as a spreadsheet (formula-safe, typed cells: common.exports). While some
    points include a provisional result, a last column marks them † (as the pages do)."""
    cols = [TB[k] for k in t.tiebreak_order if k in TB]
    marked = marks is not None and any(marks.provisional_points(r.number, upto) for r in rows)
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
        *([_("Includes a provisional result")] if marked else []),
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
            *(
                [PROVISIONAL if marks.provisional_points(r.number, upto) else ""]  # type: ignore[union-attr]
                if marked
                else []
            ),
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


#: TRF 092, as Swiss-Manager writes it.
TRF_KINDS = {
    Tournament.System.SWISS: "Individual: Swiss-System",
    Tournament.System.ROUND_ROBIN: "Individual: Round-Robin",
    Tournament.System.DOUBLE_ROUND_ROBIN: "Individual: Double Round-Robin",
}


def trf_header(t: Tournament, round_dates: dict[int, date]) -> TrfHeader:
    """The TRF header of a tournament (English, as chess programs read it): ``round_dates``
    the date of each published round (its set date, or the day it was published)."""
    last = max(round_dates, default=0)
    return TrfHeader(
        city=t.city or t.venue,
        federation=t.federation.upper(),
        start=t.starts_on.strftime("%Y/%m/%d"),
        end=t.ends_on.strftime("%Y/%m/%d"),
        kind=TRF_KINDS.get(t.system, ""),
        chief_arbiter=t.chief_arbiter,
        deputy_arbiters=tuple(t.deputy_arbiter_names),
        time_control=f"{t.phase1_minutes} min + {t.phase2_minutes} min",
        round_dates=tuple(
            round_dates[n].strftime("%y/%m/%d") if n in round_dates else ""
            for n in range(1, last + 1)
        ),
    )


def trf(t: Tournament, data: TournamentData, round_dates: dict[int, date]) -> HttpResponse:
    """The FIDE tournament report with its whole header; a Swiss says its pairing rules
    (line 192)."""
    ruleset = t.ruleset if t.system == Tournament.System.SWISS else None
    text = write_trf(data, ruleset=ruleset, header=trf_header(t, round_dates))
    return text_download(text, f"{t.slug}.trf")
