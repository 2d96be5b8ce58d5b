"""Public pages of a tournament: overview, players, pairings, standings, crosstable, a
player's games, exports. Thin: selectors do the reading (cached)."""

from __future__ import annotations

import io
import logging
from contextlib import nullcontext
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.core.handlers.wsgi import WSGIRequest
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from common.cache import FORMAT as PAGE_FORMAT
from common.cache import anonymous, page_for, reading
from common.converters import int_or_none
from common.exports import EXPORT_FORMATS
from common.links import absolute_url
from common.responses import version_json

from . import calendar, exports, html_tables, manager, screen, selectors, tables
from .labels import (
    BYE_NAMES,
    PROVISIONAL,
    RESULT_LEGEND,
    RESULT_SYMBOLS,
    outcome,
    shown,
    tiebreak_name,
)
from .models import Entrant, Tournament
from .pairing import TIEBREAKS

TB = {t.key: t for t in TIEBREAKS}
log = logging.getLogger(__name__)


def _tournament(slug: str) -> Tournament:
    return get_object_or_404(Tournament, slug=slug)


def _page_query(request: HttpRequest) -> str:
    """The part of the query string a public page depends on (only ``round``, a number), so
    that other parameters (tracking tags, junk) do not make a page to render and keep each."""
    number = int_or_none(request.GET.get("round"))
    return "" if number is None else str(number)


def public_page(view: Any) -> Any:
    """A public page of a tournament: for anonymous visitors the whole page is kept under the
    tournament's version, language and address (a write makes a new version, so a new result
    shows on the next request; while a worker computes the new version's tables, within
    ``tables.STALE_SECONDS``). Organisers, downloads and visitors with a pending message get it
    rendered for them, on the current version."""

    @wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
        if not anonymous(request) or request.GET.get("format"):
            return view(request, slug, *args, **kwargs)  # type: ignore[no-any-return]
        t = tables.tournament_key(slug)  # what the key needs (kept a second, else one query)
        if t is None:
            raise Http404
        language, query = get_language(), _page_query(request)

        def key(version: int) -> str:
            return _page_key(t.pk, version, language, request.path, query)

        def earlier() -> HttpResponse | None:
            # The worker is computing this version's tables: the page on the last ones it
            # finished, rather than every request computing them (tables.STALE_SECONDS).
            version = tables.spectators_version(t.pk, t.version)
            if version is None:
                return None
            return page_for(
                request,
                key(version),
                lambda: _rendered(view, request, slug, args, kwargs, (t.pk, version)),
            )

        return page_for(
            request,
            key(t.version),
            lambda: _rendered(view, request, slug, args, kwargs),
            instead=earlier,
        )

    return wrapper


def _rendered(
    view: Any,
    request: HttpRequest,
    slug: str,
    args: Any,
    kwargs: Any,
    as_of: tuple[int, int] | None = None,
) -> HttpResponse:
    """A public page rendered for the page cache: each table read once, on the tables of
    ``as_of`` (tournament id, version) if given, else of the tournament's current version."""
    with reading(), tables.as_of(*as_of) if as_of is not None else nullcontext():
        return view(request, slug, *args, **kwargs)  # type: ignore[no-any-return]


def _page_key(tournament_id: int, version: int, language: str, path: str, query: str) -> str:
    return f"t{tournament_id}:v{version}:{language}:{path}:{query}"


def prerender(t: Tournament, previous: int | None) -> int:
    """Render and keep the main public pages of ``t`` at its version (whose tables the worker
    has just computed), in each language in which spectators read them at the ``previous``
    ready version (the site's language if none): spectators' requests then find them, rather
    than a dozen of them rendering at once each time the tables are new. Returns how many
    were rendered."""
    pages: list[tuple[Any, str, dict[str, Any]]] = [
        (overview, reverse("championship:overview", args=[t.slug]), {}),
        (standings_page, reverse("championship:standings", args=[t.slug]), {}),
        (crosstable_page, reverse("championship:crosstable", args=[t.slug]), {}),
    ]
    pages += [
        (pairings, reverse("championship:pairings", args=[t.slug, n]), {"number": n})
        for n in tables.published_rounds(t)
    ]
    rendered = 0
    for language, _name in settings.LANGUAGES:
        for view, path, kwargs in pages:
            if previous is None:
                wanted = language == settings.LANGUAGE_CODE
            else:
                wanted = cache.has_key(
                    f"{PAGE_FORMAT}:{_page_key(t.pk, previous, language, path, '')}"
                )
            if not wanted:
                continue
            request = WSGIRequest(
                {
                    "REQUEST_METHOD": "GET",
                    "PATH_INFO": path,
                    "SERVER_NAME": "localhost",
                    "SERVER_PORT": "443",
                    "wsgi.url_scheme": "https",
                    "wsgi.input": io.BytesIO(),
                }
            )
            request.user = AnonymousUser()

            def render_page(
                view: Any = view.__wrapped__, request: HttpRequest = request, kwargs: Any = kwargs
            ) -> HttpResponse:
                return _rendered(view, request, t.slug, (), kwargs, (t.pk, t.version))

            try:
                with translation.override(language):
                    page_for(request, _page_key(t.pk, t.version, language, path, ""), render_page)
            except Exception:  # that page is rendered by the first request for it instead
                log.exception("could not prerender %s in %s", path, language)
                continue
            rendered += 1
    return rendered


def _context(t: Tournament, page: str, **extra: Any) -> dict[str, Any]:
    return {
        "tournament": t,
        "page": page,
        "rounds": tables.published_rounds(t),
        "tiebreak_columns": [
            {"abbreviation": TB[k].abbreviation, "name": tiebreak_name(k)}
            for k in t.tiebreak_order
            if k in TB
        ],
        "provisional_mark": PROVISIONAL,
        "poll_seconds": settings.LIVE_POLL_SECONDS,
        # The version the page shows (an earlier one while the worker computes the tables:
        # then its live reload fetches the new page).
        "page_version": tables.version_of(t),
        **extra,
    }


@public_page
def overview(request: HttpRequest, slug: str) -> HttpResponse:
    t = _tournament(slug)
    rows = tables.top(t)
    marks = tables.marks(t)
    top = [
        {
            "row": r,
            "pk": marks.entrants.get(r.number),
            "provisional": marks.provisional_points(r.number),
        }
        for r in rows
    ]
    # The schedule is the same for every visitor (no "now" in it: the page is kept under the
    # tournament's version; the countdown is the browser's, static/js/countdown.js).
    schedule = selectors.schedule_rows(t)
    return render(
        request,
        "championship/t_overview.html",
        _context(
            t,
            "overview",
            top=top,
            any_provisional=any(leader["provisional"] for leader in top),
            schedule=schedule,
            check_in_times=selectors.check_in_times(t, schedule),
        ),
    )


@public_page
def players(request: HttpRequest, slug: str) -> HttpResponse:
    t = _tournament(slug)
    field = selectors.tournament_field(t)
    return render(request, "championship/t_players.html", _context(t, "players", field=field))


@public_page
def player(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    t = _tournament(slug)
    entrant = get_object_or_404(Entrant, tournament=t, pk=pk)
    lines = entrant_lines(t, entrant)
    rows = {r.number: r for r in tables.standings(t)}
    return render(
        request,
        "championship/t_player.html",
        _context(
            t,
            "players",
            entrant=entrant,
            lines=lines,
            # No rank before the first result ("Rank 1, 0 points").
            row=rows.get(entrant.starting_number) if tables.ranked(t) else None,
            row_provisional=tables.marks(t).provisional_points(entrant.starting_number),
            any_provisional=any(line.get("provisional") for line in lines),
        ),
    )


def entrant_lines(t: Tournament, entrant: Entrant) -> list[dict[str, Any]]:
    """An entrant's published rounds as their pages show them (the public player page and the
    player's own page): board, colour, opponent or bye, the pairing's score, how the games
    ended, the games with a sheet, whether the result is provisional, the engine's counts.
    Three queries and the tournament's kept tables, whatever the number of rounds."""
    games = selectors.entrant_games(t, entrant)
    two = t.games_per_pairing == 2
    results = selectors.board_results(games)
    provisional = tables.marks(t).provisional
    system = manager.points_system(t)
    lines: list[dict[str, Any]] = []
    for b in games:
        if b.black_id is None:
            lines.append(
                {
                    "round": b.round.number,
                    "board": b,
                    "opponent": None,
                    "colour": "",
                    "bye": BYE_NAMES.get(b.bye or "U", ""),
                    "score": RESULT_SYMBOLS.get(b.bye or "U", ""),
                    # What it counts, in the player's own words ("+1"): not the crosstable's code.
                    "points": f"+{shown(system.points(b.bye or 'U'))}",
                }
            )
            continue
        white = b.white_id == entrant.pk
        opponent = b.black if white else b.white
        played = results.get(b.pk, [])
        # The pairing's score as in the crosstable (with two games: the mini-match).
        pair = manager.codes(b.black_id, b.bye, [(g.result, g.termination) for g in played], two)
        code = pair[0 if white else 1] or "*"
        terminations = [str(g.get_termination_display()) for g in played if g.termination]
        lines.append(
            {
                "round": b.round.number,
                "board": b,
                "opponent": opponent,
                "colour": "w" if white else "b",
                "score": RESULT_SYMBOLS.get(code, ""),
                # In words, from the player's point of view: "Win (home)" (the own page).
                "outcome": outcome(code, terminations),
                "decided": code != "*",
                "terminations": terminations,
                "games": [g.number for g in played if g.has_sheet],
                "provisional": (b.round.number, entrant.starting_number) in provisional,
                "analysis": _analysis_counts(played, white),
            }
        )
    return lines


def _analysis_counts(played: list[Any], white_in_game_1: bool) -> list[dict[str, int]]:
    """The player's mistakes and blunders in each analysed game of a pairing (game 2 has the
    colours reversed). The games app tells the counts through the championship's write door
    (``services.game_result_analysis_set``) onto the rows read anyway: no extra query, and
    storing them makes the tournament's pages new."""
    out = []
    for g in played:
        white = white_in_game_1 if g.number == 1 else not white_in_game_1
        found = g.analysis_counts("white" if white else "black")
        if found is not None:
            out.append({"number": g.number, "mistakes": found[0], "blunders": found[1]})
    return out


@public_page
def pairings(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    t = _tournament(slug)
    if number not in tables.published_rounds(t):
        raise Http404(_("This round is not published yet."))
    body, any_provisional = html_tables.pairings_table(t, number)
    return render(
        request,
        "championship/t_pairings.html",
        _context(t, "pairings", body=body, number=number, any_provisional=any_provisional),
    )


@public_page
def standings_page(request: HttpRequest, slug: str) -> HttpResponse:
    t = _tournament(slug)
    upto_n = int_or_none(request.GET.get("round"))
    fmt = request.GET.get("format")
    if fmt in EXPORT_FORMATS:
        return exports.standings(
            t, tables.standings(t, upto_n), fmt, marks=tables.marks(t), upto=upto_n
        )
    two = t.games_per_pairing == 2
    body, empty = html_tables.standings_table(t, upto_n)
    provisional = tables.marks(t).provisional
    if upto_n is not None:
        provisional = {p for p in provisional if p[0] <= upto_n}
    return render(
        request,
        "championship/t_standings.html",
        _context(
            t,
            "standings",
            body=body,
            empty=empty,
            upto=upto_n,
            game_points=two,
            legend=html_tables.tiebreak_legend(t),
            any_provisional=bool(provisional),
            final=t.status == Tournament.Status.FINISHED and upto_n is None,
            # The live table counts the results of a round under way: its heading says so,
            # as the venue screen's does (championship.screen.Progress).
            playing=screen.progress(t).playing if upto_n is None else None,
        ),
    )


@public_page
def crosstable_page(request: HttpRequest, slug: str) -> HttpResponse:
    t = _tournament(slug)
    fmt = request.GET.get("format")
    if fmt not in EXPORT_FORMATS:
        return render(
            request,
            "championship/t_crosstable.html",
            _context(
                t,
                "crosstable",
                body=html_tables.crosstable_table(t),
                result_legend=RESULT_LEGEND,
                any_provisional=bool(tables.marks(t).provisional),
            ),
        )
    return exports.crosstable(t, tables.crosstable(t), fmt)


def schedule_ics(request: HttpRequest, slug: str) -> HttpResponse:
    """The tournament's schedule as a calendar file to import or subscribe to: one event per
    round (stable UIDs, a SEQUENCE that rises when a round moves), no personal data."""
    t = _tournament(slug)
    page = absolute_url(reverse("championship:overview", args=[t.slug]))  # never the Host
    response = HttpResponse(
        calendar.tournament_ics(t, url=page), content_type=calendar.CONTENT_TYPE
    )
    response["Content-Disposition"] = f'inline; filename="{t.slug}.ics"'
    return response


def trf_export(request: HttpRequest, slug: str) -> HttpResponse:
    t = _tournament(slug)
    return exports.trf(t, tables.data(t), selectors.round_dates(t))


@never_cache
def version(request: HttpRequest, slug: str) -> JsonResponse:
    """Polled by the pages (static/js/live.js) to reload when a result or round changes."""
    return version_json(Tournament.objects.filter(slug=slug))
