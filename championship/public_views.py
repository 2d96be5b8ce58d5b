"""Public pages of a tournament: overview, players, pairings, standings, crosstable, a
player's games, exports. Thin: selectors do the reading (cached)."""

from __future__ import annotations

from functools import partial, wraps
from typing import Any

import tablib
from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from . import html_tables, manager, pagecache, selectors
from .models import Board, Entrant, Round, Tournament
from .pairing import TIEBREAKS, write_trf

TB = {t.key: t for t in TIEBREAKS}


def _tournament(slug: str) -> Tournament:
    return get_object_or_404(Tournament, slug=slug)


class _NotCacheable(Exception):
    def __init__(self, response: HttpResponse) -> None:
        self.response = response


def _page_query(request: HttpRequest) -> str:
    """The part of the query string a public page depends on (only ``round``, a number), so
    that other parameters (tracking tags, junk) do not make a page to render and keep each."""
    value = request.GET.get("round", "")
    return value if value.isdigit() else ""


def anonymous_cache(view: Any, round_keyed: bool = False) -> Any:
    """Whole public pages for anonymous visitors, cached under the tournament's version (so a
    new result or round shows at once) and language. Organisers, exports and visitors with a
    pending message get the page rendered for them, from the newest version only."""

    @wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
        if (
            request.method not in ("GET", "HEAD")
            or request.GET.get("format")
            or "messages" in request.COOKIES
            or request.user.is_authenticated
        ):
            with selectors.fresh():
                return view(request, slug, *args, **kwargs)  # type: ignore[no-any-return]
        # Only the id and version are needed to find the page; the view reads the whole
        # tournament if the page has to be rendered.
        t = selectors.tournament_key(slug)
        if t is None:
            raise Http404

        def render_now() -> pagecache.Page:
            response = view(request, slug, *args, **kwargs)
            if response.status_code != 200:
                raise _NotCacheable(response)
            return pagecache.page(response.content, response["Content-Type"])

        version = None
        if round_keyed:
            # A round's pairings change only with that round: other rounds' results do not
            # invalidate them.
            number = kwargs.get("number")
            rounds = selectors.round_versions(t)
            # ... but a newly published round changes the round buttons on every page.
            version = f"r{number}.{rounds.get(number, 'x')}.{len(rounds)}"
        try:
            page = selectors.cached(
                t,
                f"{pagecache.FORMAT}:{get_language()}:{request.path}:{_page_query(request)}",
                render_now,
                version,
                in_memory=True,
            )
        except _NotCacheable as exc:
            return exc.response
        return pagecache.respond(request, page)

    return wrapper


def _context(t: Tournament, **extra: Any) -> dict[str, Any]:
    rounds = selectors.published_rounds(t)
    return {
        "tournament": t,
        "rounds": rounds,
        "tiebreak_columns": [TB[k] for k in t.tiebreak_order if k in TB],
        "poll_seconds": settings.LIVE_POLL_SECONDS,
        # The version the page shows: none if it shows a previous version's tables (computed
        # meanwhile by the worker), so that its live reload fetches the new ones.
        "page_version": "" if selectors.served_stale() else t.version,
        **extra,
    }


@anonymous_cache
def overview(request: HttpRequest, slug: str) -> HttpResponse:
    t = _tournament(slug)
    rows = selectors.top_rows(t)
    return render(request, "championship/t_overview.html", _context(t, top=rows))


@anonymous_cache
def players(request: HttpRequest, slug: str) -> HttpResponse:
    t = _tournament(slug)
    entrants = list(t.entrants.exclude(starting_number=None).order_by("starting_number"))
    if not entrants:
        entrants = list(t.entrants.order_by("name"))
    return render(request, "championship/t_players.html", _context(t, entrants=entrants))


@anonymous_cache
def player(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    t = _tournament(slug)
    entrant = get_object_or_404(Entrant, tournament=t, pk=pk)
    games = selectors.entrant_games(t, entrant)
    rows = {r.number: r for r in selectors.standings_rows(t)}
    two = t.games_per_pairing == 2
    from games.models import Game

    sheets: dict[int, list[tuple[int, int]]] = {}
    for board_id, number, pk in (
        Game.objects.filter(board__in=games)
        .values_list("board_id", "number", "pk")
        .order_by("number")
    ):
        sheets.setdefault(board_id, []).append((number, pk))
    lines = []
    for b in games:
        if b.black_id is None:
            lines.append(
                {
                    "round": b.round.number,
                    "board": b,
                    "opponent": None,
                    "colour": "",
                    "score": b.bye,
                }
            )
            continue
        white = b.white_id == entrant.pk
        opponent = b.black if white else b.white
        # The pairing's score as in the crosstable (with two games: the mini-match).
        pair = manager.codes(
            b.black_id, b.bye, b.result, b.termination, b.result2, b.termination2, two
        )
        lines.append(
            {
                "round": b.round.number,
                "board": b,
                "opponent": opponent,
                "colour": "w" if white else "b",
                "score": selectors.RESULT_SYMBOLS.get(pair[0 if white else 1] or "*", ""),
                "terminations": [
                    str(name)
                    for name in (
                        b.get_termination_display(),
                        b.get_termination2_display() if two else "",
                    )
                    if name
                ],
                "games": sheets.get(b.pk, []),
            }
        )
    return render(
        request,
        "championship/t_player.html",
        _context(t, entrant=entrant, lines=lines, row=rows.get(entrant.starting_number)),
    )


@partial(anonymous_cache, round_keyed=True)
def pairings(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    t = _tournament(slug)
    if number not in selectors.published_rounds(t):
        raise Http404(_("This round is not published yet."))
    # Lazy: the rows are read only when the cached table fragment is missing.
    boards = (
        Board.objects.filter(
            round__tournament=t, round__number=number, round__status=Round.Status.PUBLISHED
        )
        .select_related("white", "black")
        .order_by("number")
    )
    return render(
        request,
        "championship/t_pairings.html",
        _context(
            t, boards=boards, number=number, round_version=selectors.round_versions(t)[number]
        ),
    )


@anonymous_cache
def standings_page(request: HttpRequest, slug: str) -> HttpResponse:
    t = _tournament(slug)
    upto = request.GET.get("round")
    upto_n = int(upto) if upto and upto.isdigit() else None
    fmt = request.GET.get("format")
    if fmt in ("csv", "xlsx"):
        return _export_standings(t, selectors.standings_rows(t, upto_n), fmt)
    two = t.games_per_pairing == 2
    body, empty = html_tables.standings_table(t, upto_n)
    return render(
        request,
        "championship/t_standings.html",
        _context(t, body=body, empty=empty, upto=upto_n, game_points=two),
    )


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


def _export_standings(t: Tournament, rows: list[Any], fmt: str) -> HttpResponse:
    data = _standings_dataset(t, rows)
    return _download(data, fmt, f"standings-{t.slug}")


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


@anonymous_cache
def crosstable_page(request: HttpRequest, slug: str) -> HttpResponse:
    t = _tournament(slug)
    fmt = request.GET.get("format")
    if fmt not in ("csv", "xlsx"):
        return render(
            request,
            "championship/t_crosstable.html",
            _context(t, body=html_tables.crosstable_table(t)),
        )
    rows = selectors.crosstable(t)
    n = max((len(r.cells) for r in rows), default=0)
    data = tablib.Dataset(
        headers=[_("Rank"), _("Name"), *[str(i) for i in range(1, n + 1)], _("Points")]
    )
    for r in rows:
        cells = [f"{c['opponent'] or ''}{c['colour']}{c['result']}" for c in r.cells]
        data.append([r.row.rank, r.row.name, *cells, *[""] * (n - len(cells)), float(r.row.points)])
    return _download(data, fmt, f"crosstable-{t.slug}")


def trf_export(request: HttpRequest, slug: str) -> HttpResponse:
    t = _tournament(slug)
    return text_download(write_trf(selectors.published_data(t)), f"{t.slug}.trf")


def text_download(text: str, name: str) -> HttpResponse:
    """A UTF-8 text file to save (TRF, game records)."""
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def version_json(rows: Any) -> JsonResponse:
    """``{"version": n}`` of the one row of ``rows`` (a queryset), or 404."""
    value = rows.values_list("version", flat=True).first()
    if value is None:
        raise Http404
    return JsonResponse({"version": value})


@never_cache
def version(request: HttpRequest, slug: str) -> JsonResponse:
    """Polled by the pages (static/js/live.js) to reload when a result or round changes."""
    return version_json(Tournament.objects.filter(slug=slug))
