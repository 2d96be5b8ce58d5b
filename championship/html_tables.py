"""The big public tables as HTML built in Python (a 500-row table is ~8,500 template nodes
otherwise, most of a page's time). The rows come from ``tables``; the page around them is kept
whole by the page cache."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from . import tables
from .models import Tournament
from .pairing import TIEBREAKS

TB = {t.key: t for t in TIEBREAKS}


def num(value: object) -> str:
    """1.5 → "1.5", 2.0 → "2", 10.75 → "10.75" (like floatformat:"-2")."""
    return f"{float(value):.2f}".rstrip("0").rstrip(".")  # type: ignore[arg-type]


def standings_body(rows: list[Any], cols: list[Any], game_points: bool = False) -> SafeString:
    out = []
    for r in rows:
        club = f' <span class="text-muted small">{escape(r.club)}</span>' if r.club else ""
        tbs = "".join(f'<td class="num">{num(r.tiebreaks.get(c.key, 0))}</td>' for c in cols)
        if game_points:
            tbs = f'<td class="num">{num(r.game_points or 0)}</td>' + tbs
        out.append(
            f"<tr><td>{'=' if r.shared else ''}{r.rank}</td><td>{escape(r.name)}{club}</td>"
            f'<td class="num"><strong>{num(r.points)}</strong></td><td class="num">{r.games}</td>'
            f'<td class="num">{r.wins}</td><td class="num">{r.draws}</td><td class="num">{r.losses}</td>'
            f'<td class="num">{r.time_losses}</td><td class="num">{r.unplayed}</td>{tbs}</tr>'
        )
    return mark_safe("".join(out))  # noqa: S308 - every value above is escaped or a number


def standings_table(t: Tournament, upto: int | None) -> tuple[SafeString, bool]:
    """(rows HTML, empty) of the standings after round ``upto`` (None: live)."""
    rows = tables.standings(t, upto)
    cols = [TB[k] for k in t.tiebreak_order if k in TB]
    return standings_body(rows, cols, t.games_per_pairing == 2), not rows


def crosstable_table(t: Tournament) -> SafeString:
    """Rows HTML of the crosstable: per round the opponent's rank, colour and result."""

    # The public page of game 1 of a pairing, by the board's id (one reverse for all cells).
    game_url = reverse("games:pairing", args=[0, 1]).replace("/0/", "/{}/")

    def result(c: dict[str, Any], board: int | None) -> str:
        text = f"<strong>{escape(c['result'])}</strong>"
        return f'<a href="{game_url.format(board)}">{text}</a>' if board and c["opponent"] else text

    out = []
    links = tables.sheet_links(t)
    for x in tables.crosstable(t):
        cells = "".join(
            "<td>"
            + (
                f'{c["opponent"]}<span class="text-muted">{"w" if c["colour"] == "w" else "b"}</span>'
                if c["opponent"]
                else ""
            )
            + result(c, links.get((i, x.row.number)))
            + "</td>"
            for i, c in enumerate(x.cells, start=1)
        )
        out.append(
            f'<tr><td>{x.row.rank}</td><td class="name">{escape(x.row.name)}</td>{cells}'
            f"<td><strong>{num(x.row.points)}</strong></td></tr>"
        )
    return mark_safe("".join(out))  # noqa: S308 - every value above is escaped or a number
