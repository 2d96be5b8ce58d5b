"""A round in the hall, for organisers: the arbiter's live view of every board, the sheet of
the tablets' links with their QR codes, and the paper move sheets for boards without a
tablet. One page each per round, all printable."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from championship.models import Board, Round
from common.converters import posted_id
from common.links import absolute_url

from . import hall as boards
from . import services, tablet
from .engine.core import PHASE_PLIES
from .models import Game
from .views import organiser


def _round(slug: str, number: int) -> Round:
    rnd = get_object_or_404(
        Round.objects.select_related("tournament"), tournament__slug=slug, number=number
    )
    if rnd.status != Round.Status.PUBLISHED:
        raise Http404(_("This round is not published yet."))
    return rnd


@require_http_methods(["GET", "HEAD", "POST"])
@organiser
def hall(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Every board of the round, live; POST: the arbiter has settled a disagreement."""
    rnd = _round(slug, number)
    if request.method == "POST":
        game = Game.objects.filter(pk=posted_id(request.POST.get("game")), board__round=rnd).first()
        if game is None:
            messages.error(request, _("Choose a game of this round."))
            return redirect("games:hall", slug=slug, number=number)
        try:
            services.game_dispute_settle(game=game, user=request.user)
            messages.success(request, _("The disagreement is settled."))
        except services.GameError as exc:
            messages.error(request, str(exc))
        return redirect("games:hall", slug=slug, number=number)
    rows = boards.round_rows(rnd)
    items = [boards.as_json(i) for i in boards.hall_games(rnd, rows)]
    return render(
        request,
        "games/hall.html",
        {
            "tournament": rnd.tournament,
            "round": rnd,
            "items": items,
            "etag": boards.etag(rnd, rows[0], rows[1]),
            "two_games": rnd.tournament.games_per_pairing == 2,
            "frozen": rnd.tournament.is_finished,
        },
    )


@organiser
def hall_json(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """What the hall view polls: every board's game, with an ETag (the versions of the
    round's games and results): an unchanged round answers 304 after three small queries. The
    clocks are as of the answer; the page counts them down itself until something changes."""
    rnd = _round(slug, number)
    rows = boards.round_rows(rnd)
    tag = boards.etag(rnd, rows[0], rows[1])
    if request.headers.get("If-None-Match") == tag:
        response = HttpResponse(status=304)
    else:
        items = boards.hall_games(rnd, rows)
        response = JsonResponse({"games": [boards.as_json(i) for i in items]})
    response["ETag"] = tag
    patch_cache_control(response, private=True, no_cache=True)
    return response


def _pairing_games(rnd: Round) -> list[tuple[Board, int, Game | None]]:
    boards = list(
        rnd.boards.exclude(black=None).select_related("white", "black").order_by("number")
    )
    games = {(g.board_id, g.number): g for g in Game.objects.filter(board__round=rnd)}
    return [
        (b, n, games.get((b.pk, n)))
        for b in boards
        for n in range(1, rnd.tournament.games_per_pairing + 1)
    ]


@require_http_methods(["GET", "HEAD", "POST"])
@organiser
def tablets(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The tablets' links of a round with their QR codes, one printed sheet. POST: make the
    games of the pairings that have none yet (their links need them)."""
    rnd = _round(slug, number)
    if request.method == "POST":
        try:
            for board, game_number, game in _pairing_games(rnd):
                if game is None:
                    board.round = rnd
                    services.game_for(board, game_number)
        except services.GameError as exc:  # a finished tournament gets no new games
            messages.error(request, str(exc))
        return redirect("games:tablets", slug=slug, number=number)
    cards = []
    missing = 0
    for board, game_number, game in _pairing_games(rnd):
        if game is None:
            missing += 1
            continue
        url = absolute_url(tablet.path_for(game.pk))  # SITE_URL, never the Host header
        first, second = str(board.white), str(board.black)
        cards.append(
            {
                "board": board,
                "number": game_number,
                "white": first if game_number == 1 else second,
                "black": second if game_number == 1 else first,
                "url": url,
                "qr": tablet.qr_svg(url),
            }
        )
    return render(
        request,
        "games/tablets.html",
        {
            "tournament": rnd.tournament,
            "round": rnd,
            "cards": cards,
            "missing": missing,
            "frozen": rnd.tournament.is_finished,
            "two_games": rnd.tournament.games_per_pairing == 2,
        },
    )


@organiser
def paper_sheets(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A printable move sheet for every game of the round, one page each."""
    rnd = _round(slug, number)
    sheets: list[dict[str, Any]] = []
    for board, game_number, _game in _pairing_games(rnd):
        first, second = str(board.white), str(board.black)
        sheets.append(
            {
                "board": board,
                "number": game_number,
                "white": first if game_number == 1 else second,
                "black": second if game_number == 1 else first,
                "halves": [
                    range(1, PHASE_PLIES + 1),
                    range(PHASE_PLIES + 1, 2 * PHASE_PLIES + 1),
                ],
            }
        )
    return render(
        request,
        "games/paper_sheets.html",
        {
            "tournament": rnd.tournament,
            "round": rnd,
            "sheets": sheets,
            "two_games": rnd.tournament.games_per_pairing == 2,
        },
    )
