"""The big public tables as HTML built in Python (a 500-row table is ~8,500 template nodes
otherwise, most of a page's time). The rows come from ``tables``; the page around them is kept
whole by the page cache."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from . import tables
from .labels import PROVISIONAL, tiebreak_name
from .models import Tournament
from .pairing import TIEBREAKS
from .selectors import Marks

TB = {t.key: t for t in TIEBREAKS}


def num(value: object) -> str:
    """1.5 → "1.5", 2.0 → "2", 10.75 → "10.75" (like floatformat:"-2")."""
    return f"{float(value):.2f}".rstrip("0").rstrip(".")  # type: ignore[arg-type]


def _name(t: Tournament, number: int, name: str, marks: Marks, player_url: str) -> str:
    """A player's name linking to their page, with the withdrawn mark."""
    pk = marks.entrants.get(number)
    text = escape(name)
    if pk is not None:
        text = f'<a href="{player_url.format(pk)}">{text}</a>'
    after = marks.withdrawn.get(number)
    if after is not None:
        label = escape(_("withdrawn after round %(n)d") % {"n": after})
        text += (
            f' <span class="badge text-bg-secondary withdrawn" title="{label}">'
            f"{escape(_('withdrawn'))}</span>"
        )
    return text


def _player_url(t: Tournament) -> str:
    return reverse("championship:player", args=[t.slug, 0]).replace("/0/", "/{}/")


def _provisional(rounds: set[int] | None, upto: int | None = None) -> str:
    if not rounds or (upto is not None and min(rounds) > upto):
        return ""
    title = escape(_("includes a provisional result"))
    return f' <span class="prov" title="{title}">{PROVISIONAL}</span>'


def standings_body(
    rows: list[Any],
    cols: list[Any],
    game_points: bool = False,
    *,
    t: Tournament | None = None,
    marks: Marks | None = None,
    upto: int | None = None,
) -> SafeString:
    marks = marks or Marks()
    url = _player_url(t) if t is not None else ""
    provisional: dict[int, set[int]] = {}
    for rnd, sno in marks.provisional:
        provisional.setdefault(sno, set()).add(rnd)
    out = []
    for r in rows:
        club = f' <span class="text-muted small">{escape(r.club)}</span>' if r.club else ""
        name = _name(t, r.number, r.name, marks, url) if t is not None else escape(r.name)
        tbs = "".join(f'<td class="num">{num(r.tiebreaks.get(c.key, 0))}</td>' for c in cols)
        if game_points:
            tbs = f'<td class="num">{num(r.game_points or 0)}</td>' + tbs
        mark = _provisional(provisional.get(r.number), upto)
        out.append(
            f'<tr><td class="c-rank">{"=" if r.shared else ""}{r.rank}</td>'
            f'<td class="c-name">{name}{club}</td>'
            f'<td class="num c-pts"><strong>{num(r.points)}</strong>{mark}</td>'
            f'<td class="num">{r.games}</td>'
            f'<td class="num">{r.wins}</td><td class="num">{r.draws}</td><td class="num">{r.losses}</td>'
            f'<td class="num">{r.time_losses}</td><td class="num">{r.unplayed}</td>{tbs}</tr>'
        )
    return mark_safe("".join(out))  # noqa: S308 - every value above is escaped or a number


def standings_table(t: Tournament, upto: int | None) -> tuple[SafeString, bool]:
    """(rows HTML, empty) of the standings after round ``upto`` (None: live)."""
    rows = tables.standings(t, upto)
    cols = [TB[k] for k in t.tiebreak_order if k in TB]
    body = standings_body(
        rows, cols, t.games_per_pairing == 2, t=t, marks=tables.marks(t), upto=upto
    )
    return body, not rows


def tiebreak_legend(t: Tournament) -> list[tuple[str, str, str]]:
    """(abbreviation, full name, what it counts) of the tournament's tie-breaks, in order."""
    from .labels import TIEBREAK_NAMES

    return [
        (TB[k].abbreviation, tiebreak_name(k), str(TIEBREAK_NAMES[k][1]))
        for k in t.tiebreak_order
        if k in TB
    ]


def crosstable_table(t: Tournament) -> SafeString:
    """Rows HTML of the crosstable: per round the opponent's rank, colour and result."""

    # The public page of game 1 of a pairing, by the board's id (one reverse for all cells).
    game_url = reverse("games:pairing", args=[0, 1]).replace("/0/", "/{}/")
    player_url = _player_url(t)
    marks = tables.marks(t)
    prov_title = escape(_("provisional result"))

    def result(c: dict[str, Any], board: int | None, provisional: bool) -> str:
        text = f"<strong>{escape(c['result'])}</strong>"
        if provisional:
            text += f'<span class="prov" title="{prov_title}">{PROVISIONAL}</span>'
        return f'<a href="{game_url.format(board)}">{text}</a>' if board and c["opponent"] else text

    out = []
    links = tables.sheet_links(t)
    for x in tables.crosstable(t):
        number = x.row.number
        cells = "".join(
            "<td>"
            + (
                f'{c["opponent"]}<span class="text-muted">{"w" if c["colour"] == "w" else "b"}</span>'
                if c["opponent"]
                else ""
            )
            + result(c, links.get((i, number)), (i, number) in marks.provisional)
            + "</td>"
            for i, c in enumerate(x.cells, start=1)
        )
        out.append(
            f'<tr><td class="c-rank">{x.row.rank}</td>'
            f'<td class="name c-name">{_name(t, number, x.row.name, marks, player_url)}</td>'
            f'<td class="c-pts"><strong>{num(x.row.points)}</strong></td>{cells}</tr>'
        )
    return mark_safe("".join(out))  # noqa: S308 - every value above is escaped or a number
