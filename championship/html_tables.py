"""The big public tables as HTML built in Python (a 500-row table is ~8,500 template nodes
otherwise, most of a page's time). The rows come from ``tables``; the page around them is kept
whole by the page cache."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from . import manager, person_selectors, selectors, tables
from .labels import BYE_NAMES, PROVISIONAL, points_writer, tiebreak_name
from .models import RESULTS, TERMINATION_NAMES, Tournament
from .pairing import TIEBREAKS
from .selectors import Marks
from .templatetags.rating_tags import rating, rating_change

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
    num = points_writer()
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
    num = points_writer()
    prov_title = escape(_("provisional result"))

    def result(c: dict[str, Any], board: int | None, provisional: bool) -> str:
        text = f"<strong>{escape(c['result'])}</strong>"
        if provisional:
            text += f'<span class="prov" title="{prov_title}">{PROVISIONAL}</span>'
        return f'<a href="{game_url.format(board)}">{text}</a>' if board and c["opponent"] else text

    out = []
    links = tables.sheet_links(t)
    ratings = person_selectors.tournament_ratings(t)
    share_title = escape(_("club rating: this game's share of the month's change"))

    def share(entrant: int | None, i: int) -> str:
        value = ratings.cells.get((i, entrant)) if entrant is not None else None
        if value is None:
            return ""
        return f' <span class="rating-share" title="{share_title}">{rating_change(value)}</span>'

    for x in tables.crosstable(t):
        number = x.row.number
        entrant = marks.entrants.get(number)
        cells = "".join(
            "<td>"
            + (
                f'{c["opponent"]}<span class="text-muted">{"w" if c["colour"] == "w" else "b"}</span>'
                if c["opponent"]
                else ""
            )
            + result(c, links.get((i, number)), (i, number) in marks.provisional)
            + share(entrant, i)
            + "</td>"
            for i, c in enumerate(x.cells, start=1)
        )
        out.append(
            f'<tr><td class="c-rank">{x.row.rank}</td>'
            f'<td class="name c-name">{_name(t, number, x.row.name, marks, player_url)}</td>'
            f'<td class="c-pts"><strong>{num(x.row.points)}</strong>'
            f"{points_mark(marks, number)}</td>"
            f'<td class="c-rating">{_rating_cell(ratings.rows.get(entrant) if entrant else None)}</td>'
            f"{cells}</tr>"
        )
    return mark_safe("".join(out))  # noqa: S308 - every value above is escaped or a number


def _rating_cell(found: tuple[float, float, float, float, float] | None) -> str:
    """The club rating before the tournament → after it, and the change (the sum of its
    games' shares): ``1500? → 1584? (+84)``."""
    if found is None:
        return ""
    before, before_rd, after, after_rd, change = found
    return (
        f'<span class="text-nowrap">{rating(before, before_rd)} → {rating(after, after_rd)}'
        f' <span class="text-muted">({rating_change(change)})</span></span>'
    )


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
    game_url = reverse("games:pairing", args=[0, 1]).replace("/0/1/", "/{}/{}/")
    confirmation = t.two_person_confirmation
    num = points_writer()
    game_2 = escape(_("game 2"))
    white, black = escape(_("White")), escape(_("Black"))
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
            num(before.get(p.number or 0, "")) + mark,
        )

    out = []
    for b in rows:
        w_no, w_name, w_rating, w_before = side(b.white)
        if b.black is None:
            code = b.bye or "U"
            out.append(
                f'<tr class="bye-row"><td class="text-end c-bd">{b.number}</td>'
                f'<td class="text-end c-no">{w_no}</td>'
                f'<td class="pname c-w" data-label="{white}">{w_name}</td>'
                f'<td class="text-end c-rtg">{w_rating}</td>'
                f'<td class="text-end c-wpts">{w_before}</td>'
                f'<td class="text-center result c-res"><strong>{num(bye_points.get(code, 0))}</strong></td>'
                f'<td class="c-bpts"></td><td class="pname c-b text-muted fst-italic">'
                f"{escape(BYE_NAMES.get(code, ''))}</td>"
                '<td class="c-rtg"></td><td class="c-no"></td></tr>'
            )
            continue
        b_no, b_name, b_rating, b_before = side(b.black)
        cells = []
        for i, g in enumerate(b.games):
            text = '<div class="small">' if i else "<div>"
            if i:
                text += f'<span class="text-muted">{game_2}:</span> '
            shown = f"<strong>{score(g.result)}</strong>" if g.result else "–"
            if g.has_sheet:  # the game's own page: its replay, or the game followed live
                shown = f'<a href="{game_url.format(b.board_id, g.number)}">{shown}</a>'
            if g.result:
                text += shown
                if g.termination:
                    ended = escape(str(TERMINATION_NAMES.get(g.termination, g.termination)))
                    text += f' <span class="small text-muted termination">({ended})</span>'
                if confirmation and not g.confirmed:
                    any_provisional = True
                    text += f' <span class="prov" title="{prov_title}">{PROVISIONAL}</span>'
            else:
                text += shown
            cells.append(text + "</div>")
        out.append(
            f'<tr><td class="text-end c-bd">{b.number}</td>'
            f'<td class="text-end c-no">{w_no}</td>'
            f'<td class="pname c-w" data-label="{white}">{w_name}</td>'
            f'<td class="text-end c-rtg">{w_rating}</td><td class="text-end c-wpts">{w_before}</td>'
            f'<td class="text-center result c-res">{"".join(cells) or "–"}</td>'
            f'<td class="c-bpts">{b_before}</td>'
            f'<td class="pname c-b" data-label="{black}">{b_name}</td>'
            f'<td class="text-end c-rtg">{b_rating}</td><td class="text-end c-no">{b_no}</td></tr>'
        )
    return mark_safe("".join(out)), any_provisional  # noqa: S308 - values escaped or numbers


def _result_choice(pk: int, chosen: str, aria: str, sheet: str, plies: int = 0) -> str:
    """A game's result as a row of buttons (radio buttons: one tap each, no list to open);
    "–" clears it. ``sheet``: the move sheet's own result and termination, if decided (the
    page's script proposes its termination); ``plies``: the turns on the sheet (on a sheet
    under way only the moves bring a game home, block it or use up the cards: the script
    proposes a resignation or an agreement instead)."""
    options = [("", "–"), *RESULTS]
    buttons = "".join(
        f'<input type="radio" class="btn-check" name="result-{pk}" id="result-{pk}-{i}" '
        f'value="{escape(value)}" autocomplete="off"{" checked" if value == chosen else ""}>'
        f'<label class="btn btn-outline-primary" for="result-{pk}-{i}">{escape(text)}</label>'
        for i, (value, text) in enumerate(options)
    )
    return (
        f'<div class="btn-group btn-group-sm result-choice" role="radiogroup" data-result '
        f'data-sheet="{escape(sheet)}" data-sheet-plies="{int(plies)}" '
        f'aria-label="{escape(aria)}">{buttons}</div>'
    )


def results_form_rows(t: Tournament, boards: list[Any]) -> SafeString:
    """Rows HTML of the organisers' results table of a published round (a 250-board round is
    about 20,000 template nodes otherwise). ``boards`` carry ``game_rows`` with their chosen
    ``result_chosen``/``termination_options`` and ``conflict``, and ``open``/``unconfirmed``
    (organiser_views._round_page)."""
    two = t.games_per_pairing == 2
    frozen = t.is_finished
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
            sheet = f"{g.sheet_result} {g.sheet_termination}" if g.sheet_result else ""
            row.append(
                f'<td data-label="{label["result"] if g.number == 1 else label["game2"]}"{warn}>'
                f'<div><input type="hidden" name="version-{g.pk}" value="{g.version}">'
                f"{_result_choice(g.pk, g.result_chosen, result_aria, sheet, g.sheet_plies)}"
                f"{now}</div></td>"
                f'<td data-label="{label["termination"]}"{warn}>'
                f'<select class="form-select form-select-sm" name="termination-{g.pk}" '
                f'data-termination aria-label="{escape(termination_aria)}">'
                f"{g.termination_options}</select></td>"
            )
            if g.number == 1:
                row.append(black_cell)
        # A finished tournament gets no new sheet: only the games that have one link to it.
        with_sheet = {g.number for g in b.game_rows if g.has_sheet}
        sheets = " ".join(
            f'<a class="btn btn-sm btn-outline-primary" href="{sheet_url.format(b.pk, n)}">'
            f"{label['sheet' if n == 1 else 'sheet2']}</a>"
            for n in ((1, 2) if two else (1,))
            if not frozen or n in with_sheet
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
