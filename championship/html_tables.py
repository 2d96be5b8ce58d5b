"""The big public tables as HTML built in Python (a 500-row table is ~8,500 template nodes
otherwise, most of a page's time). The rows come from ``tables``; the page around them is kept
whole by the page cache."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from . import manager, selectors, tables
from .labels import BYE_NAMES, PROVISIONAL, num, tiebreak_name
from .models import TERMINATION_NAMES, Tournament
from .pairing import TIEBREAKS
from .selectors import Marks

TB = {t.key: t for t in TIEBREAKS}


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


def points_mark(marks: Marks, number: int | None, upto: int | None = None) -> str:
    """The † beside points that include a provisional result (``Marks.provisional_points``),
    or nothing: the same mark in every table that shows points."""
    if not marks.provisional_points(number, upto):
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
    out = []
    for r in rows:
        club = f' <span class="text-muted small">{escape(r.club)}</span>' if r.club else ""
        name = _name(t, r.number, r.name, marks, url) if t is not None else escape(r.name)
        tbs = "".join(f'<td class="num">{num(r.tiebreaks.get(c.key, 0))}</td>' for c in cols)
        if game_points:
            tbs = f'<td class="num">{num(r.game_points or 0)}</td>' + tbs
        mark = points_mark(marks, r.number, upto)
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
            f'<td class="c-pts"><strong>{num(x.row.points)}</strong>'
            f"{points_mark(marks, number)}</td>{cells}</tr>"
        )
    return mark_safe("".join(out))  # noqa: S308 - every value above is escaped or a number


def score(result: str) -> str:
    """A game's result as the public pages write it ("1–0", "½–½")."""
    return {"1/2-1/2": "½–½", "1-0": "1–0", "0-1": "0–1"}.get(result, result)


def pairings_table(t: Tournament, number: int) -> tuple[SafeString, bool]:
    """(rows HTML, any provisional result) of the public pairings of round ``number``: board,
    both players with their points before the round, each game's result and how it ended."""
    rows = selectors.pairing_rows(t, number)
    before = tables.points_before(t, number)
    bye_points = manager.points_system(t).table
    player_url = _player_url(t)
    confirmation = t.two_person_confirmation
    game_2 = escape(_("game 2"))
    prov_title = escape(_("provisional: awaiting confirmation"))
    any_provisional = False
    marks = tables.marks(t)

    def side(p: selectors.PairingSide) -> tuple[str, str, str, str]:
        """(number, linked name, rating, points before) cells' contents; the points before
        the round marked † when they include a provisional result of an earlier round."""
        nonlocal any_provisional
        name = f'<a href="{player_url.format(p.pk)}">{escape(p.name)}</a>'
        mark = points_mark(marks, p.number, number - 1)
        any_provisional = any_provisional or bool(mark)
        return (
            str(p.number or ""),
            name,
            str(p.rating or ""),
            before.get(p.number or 0, "") + mark,
        )

    out = []
    for b in rows:
        w_no, w_name, w_rating, w_before = side(b.white)
        if b.black is None:
            code = b.bye or "U"
            out.append(
                f'<tr class="bye-row"><td class="text-end">{b.number}</td>'
                f'<td class="text-end">{w_no}</td><td class="pname">{w_name}</td>'
                f'<td class="text-end">{w_rating}</td><td class="text-end">{w_before}</td>'
                f'<td class="text-center result"><strong>{num(bye_points.get(code, 0))}</strong></td>'
                f'<td></td><td class="pname text-muted fst-italic">{escape(BYE_NAMES.get(code, ""))}</td>'
                "<td></td><td></td></tr>"
            )
            continue
        b_no, b_name, b_rating, b_before = side(b.black)
        cells = []
        for i, g in enumerate(b.games):
            text = '<div class="small">' if i else "<div>"
            if i:
                text += f'<span class="text-muted">{game_2}:</span> '
            if g.result:
                text += f"<strong>{score(g.result)}</strong>"
                if g.termination:
                    ended = escape(str(TERMINATION_NAMES.get(g.termination, g.termination)))
                    text += f' <span class="small text-muted termination">({ended})</span>'
                if confirmation and not g.confirmed:
                    any_provisional = True
                    text += f' <span class="prov" title="{prov_title}">{PROVISIONAL}</span>'
            else:
                text += "–"
            cells.append(text + "</div>")
        out.append(
            f'<tr><td class="text-end">{b.number}</td>'
            f'<td class="text-end">{w_no}</td><td class="pname">{w_name}</td>'
            f'<td class="text-end">{w_rating}</td><td class="text-end">{w_before}</td>'
            f'<td class="text-center result">{"".join(cells) or "–"}</td>'
            f'<td>{b_before}</td><td class="pname">{b_name}</td>'
            f'<td class="text-end">{b_rating}</td><td class="text-end">{b_no}</td></tr>'
        )
    return mark_safe("".join(out)), any_provisional  # noqa: S308 - values escaped or numbers


def results_form_rows(t: Tournament, boards: list[Any]) -> SafeString:
    """Rows HTML of the organisers' results table of a published round (a 250-board round is
    about 20,000 template nodes otherwise). ``boards`` carry ``game_rows`` with their chosen
    ``result_options``/``termination_options`` and ``conflict``, and ``open``/``unconfirmed``
    (organiser_views._round_page)."""
    two = t.games_per_pairing == 2
    sheet_url = reverse("games:board_game", args=[0, 1]).replace("/0/1/", "/{}/{}/")
    label = {
        "board": escape(_("Board")),
        "white": escape(_("White")),
        "black": escape(_("Black")),
        "result": escape(_("Result")),
        "game2": escape(_("Game 2")),
        "termination": escape(_("Termination")),
        "now": escape(_("now")),
        "sheet": escape(_("Sheet")),
        "sheet2": escape(_("Sheet 2")),
        "no_games": escape(_("no games")),
        "bye": escape(_("bye")),
        "provisional": escape(_("provisional")),
        "confirm": escape(_("Confirm")),
    }
    out = []
    for b in boards:
        white = escape(str(b.white))
        black = escape(str(b.black)) if b.black is not None else ""
        attrs = f' data-board="{b.number}" data-players="{white} {black}"'
        if b.black is not None and b.open:
            attrs += " data-open"
        row = [
            f'<tr{attrs}><td data-label="{label["board"]}">{b.number}</td>'
            f'<td data-label="{label["white"]}">{white}</td>'
        ]
        if b.black is None:
            row.append(
                f'<td colspan="3" data-label="{label["black"]}">{label["bye"]} '
                f"({escape(b.bye)})</td><td></td><td></td></tr>"
            )
            out.append("".join(row))
            continue
        black_cell = f'<td data-label="{label["black"]}">{black}</td>'
        if not b.game_rows:
            row.append(f'<td colspan="2" class="text-muted small">{label["no_games"]}</td>')
            row.append(black_cell)
        for g in b.game_rows:
            warn = ' class="table-warning"' if g.conflict else ""
            if g.number == 1:
                result_aria = _("Result, board %(n)s") % {"n": b.number}
                termination_aria = _("Termination, board %(n)s") % {"n": b.number}
            else:
                result_aria = _("Result of game 2 (colours reversed), board %(n)s") % {
                    "n": b.number
                }
                termination_aria = _("Termination of game 2, board %(n)s") % {"n": b.number}
            now = ""
            if g.conflict:
                current = g.conflict.result or "–"
                now = (
                    f'<div class="small">{label["now"]}: {escape(current)} '
                    f"{escape(g.conflict.get_termination_display())}</div>"
                )
            row.append(
                f'<td data-label="{label["result"] if g.number == 1 else label["game2"]}"{warn}>'
                f'<div><input type="hidden" name="version-{g.pk}" value="{g.version}">'
                f'<select class="form-select form-select-sm" name="result-{g.pk}" data-result '
                f'aria-label="{escape(result_aria)}">{g.result_options}</select>{now}</div></td>'
                f'<td data-label="{label["termination"]}"{warn}>'
                f'<select class="form-select form-select-sm" name="termination-{g.pk}" '
                f'data-termination aria-label="{escape(termination_aria)}">'
                f"{g.termination_options}</select></td>"
            )
            if g.number == 1:
                row.append(black_cell)
        sheets = (
            f'<a class="btn btn-sm btn-outline-primary" href="{sheet_url.format(b.pk, 1)}">'
            f"{label['sheet']}</a>"
        )
        if two:
            sheets += (
                f' <a class="btn btn-sm btn-outline-primary" href="{sheet_url.format(b.pk, 2)}">'
                f"{label['sheet2']}</a>"
            )
        row.append(f'<td class="text-nowrap">{sheets}</td>')
        confirm = ""
        if b.unconfirmed:
            confirm = (
                f'<span class="badge text-bg-warning me-1" data-provisional>'
                f"{label['provisional']}</span>"
                f'<button class="btn btn-sm btn-outline-success" form="confirm-{b.pk}">'
                f"{label['confirm']}</button>"
            )
        row.append(f"<td>{confirm}</td></tr>")
        out.append("".join(row))
    return mark_safe("".join(out))  # noqa: S308 - every value above is escaped or a number
