"""A round in the hall, for organisers: the arbiter's live view of every board, the sheet of
the tablets' links with their QR codes, and the paper move sheets for boards without a
tablet. One page each per round, all printable."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from championship import services as championship
from championship.models import Board, GameResult, NoShow, Round
from common.converters import posted_id
from common.links import absolute_url

from . import hall as boards
from . import noshow, services, tablet
from .engine.core import PHASE_PLIES
from .engine.vocabulary import UNPLAYED_TERMINATIONS
from .models import Game
from .views import organiser


def _round(slug: str, number: int) -> Round:
    rnd = get_object_or_404(
        Round.objects.select_related("tournament"), tournament__slug=slug, number=number
    )
    if rnd.status != Round.Status.PUBLISHED:
        raise Http404(_("This round is not published yet."))
    return rnd


@dataclass
class _RoundNow:
    """What the hall shows of a round beside its games: the no-shows to decide and the
    round's progress (``games.noshow``)."""

    items: list[boards.HallGame]
    proposals: list[noshow.Proposal]
    progress: noshow.Progress
    due_at: datetime | None


def _extra(rnd: Round, now: datetime) -> tuple[str, datetime | None, dict[int, str]]:
    """The no-shows' state for the hall's ETag (proposals come due with time, not with a
    change of a game), with the round's start and its decisions: two queries."""
    began = championship.round_began(rnd)
    due_at = noshow.due(rnd, began)
    decided = noshow.decided_boards(rnd)
    is_due = due_at is not None and now >= due_at
    return f"{began}:{is_due}:{sorted(decided.items())}", began, decided


def _round_now(
    rnd: Round, rows: Any, now: datetime, began: datetime | None, decided: dict[int, str]
) -> _RoundNow:
    items = boards.hall_games(rnd, rows, now)
    due_at = noshow.due(rnd, began)
    return _RoundNow(
        items=items,
        proposals=noshow.proposals(items, decided=decided, due_at=due_at, now=now),
        progress=noshow.progress(items, began, frozen=rnd.tournament.is_finished),
        due_at=due_at,
    )


def _no_show(request: HttpRequest, rnd: Round, action: str) -> None:
    """The arbiter's tap on a proposed no-show: the forfeit (who did not come) or dismiss."""
    board = (
        Board.objects.filter(pk=posted_id(request.POST.get("board")), round=rnd)
        .exclude(black=None)
        .select_related("round__tournament", "white", "black")
        .first()
    )
    if board is None:
        messages.error(request, _("Choose a board of this round."))
        return
    try:
        if action == "dismiss":
            decision, made = championship.board_no_show_dismiss(board=board, user=request.user)
        else:
            decision, made = noshow.board_no_show_confirm(
                board=board, absent=request.POST.get("absent", ""), user=request.user
            )
    except services.GameError as exc:
        messages.error(request, str(exc))
        return
    if not made:
        messages.info(
            request,
            _("Board %(n)d was decided already: %(decision)s.")
            % {"n": board.number, "decision": decision.get_decision_display()},
        )
    elif decision.decision == NoShow.Decision.DISMISSED:
        messages.success(request, _("Board %(n)d: the no-show is dismissed.") % {"n": board.number})
    else:
        messages.success(
            request,
            _("Board %(n)d: the forfeit is recorded (%(absent)s did not come).")
            % {"n": board.number, "absent": _absent_names(board, decision.absent)},
        )


def _absent_names(board: Board, absent: str) -> str:
    if absent == NoShow.Absent.BOTH:
        return f"{board.white}, {board.black}"
    return str(board.white if absent == NoShow.Absent.WHITE else board.black)


@require_http_methods(["GET", "HEAD", "POST"])
@organiser
def hall(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Every board of the round, live, with the no-shows to decide and the round's progress;
    POST: the arbiter has settled a disagreement, or decided a no-show."""
    rnd = _round(slug, number)
    if request.method == "POST":
        action = request.POST.get("action", "")
        if action in ("no_show", "dismiss"):
            _no_show(request, rnd, action)
            return redirect("games:hall", slug=slug, number=number)
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
    now = timezone.now()
    rows = boards.round_rows(rnd)
    tag, began, decided = _extra(rnd, now)
    state = _round_now(rnd, rows, now, began, decided)
    return render(
        request,
        "games/hall.html",
        {
            "tournament": rnd.tournament,
            "round": rnd,
            "items": [boards.as_json(i) for i in state.items],
            "etag": boards.etag(rnd, rows[0], rows[1], tag),
            "two_games": rnd.tournament.games_per_pairing == 2,
            "frozen": rnd.tournament.is_finished,
            "proposals": state.proposals,
            "progress": state.progress,
            "running_for": state.progress.running_for(now),
            "due_at": state.due_at,
        },
    )


@organiser
def hall_json(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """What the hall view polls: every board's game, the no-shows to decide and the round's
    progress, with an ETag (the versions of the round's games and results, and the no-shows'
    state): an unchanged round answers 304 after five small queries. The clocks are as of the
    answer; the page counts them down itself until something changes."""
    rnd = _round(slug, number)
    now = timezone.now()
    rows = boards.round_rows(rnd)
    extra, began, decided = _extra(rnd, now)
    tag = boards.etag(rnd, rows[0], rows[1], extra)
    if request.headers.get("If-None-Match") == tag:
        response = HttpResponse(status=304)
    else:
        state = _round_now(rnd, rows, now, began, decided)
        response = JsonResponse(
            {
                "games": [boards.as_json(i) for i in state.items],
                "no_shows": [p.as_json() for p in state.proposals],
                "progress": state.progress.as_json(),
            }
        )
    response["ETag"] = tag
    patch_cache_control(response, private=True, no_cache=True)
    return response


@organiser
def progress(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The round's progress as a fragment of HTML (the organisers' dashboard fetches it)."""
    rnd = _round(slug, number)
    now = timezone.now()
    _tag, began, decided = _extra(rnd, now)
    state = _round_now(rnd, boards.round_rows(rnd), now, began, decided)
    response = render(
        request,
        "games/_round_progress.html",
        {
            "tournament": rnd.tournament,
            "round": rnd,
            "progress": state.progress,
            "running_for": state.progress.running_for(now),
            "proposals": state.proposals,
            "linked": True,
        },
    )
    patch_cache_control(response, private=True, no_cache=True)
    return response


def _pairing_games(rnd: Round) -> list[tuple[Board, int, Game | None]]:
    """The round's games played at a board, with their game where it exists: a game not
    played (a forfeit, as the hall records for a no-show) needs no tablet and no paper
    sheet."""
    boards = list(
        rnd.boards.exclude(black=None).select_related("white", "black").order_by("number")
    )
    games = {(g.board_id, g.number): g for g in Game.objects.filter(board__round=rnd)}
    decided = set(
        GameResult.objects.filter(board__round=rnd, termination__in=UNPLAYED_TERMINATIONS)
        .exclude(result="")
        .values_list("board_id", "number")
    )
    return [
        (b, n, games.get((b.pk, n)))
        for b in boards
        for n in range(1, rnd.tournament.games_per_pairing + 1)
        if (b.pk, n) not in decided
    ]


@require_http_methods(["GET", "HEAD", "POST"])
@organiser
def tablets(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The tablets' links of a round with their QR codes, one printed sheet. POST: make the
    games of the pairings that have none yet (their links need them)."""
    rnd = _round(slug, number)
    if request.method == "POST":
        try:
            if rnd.tournament.is_finished:  # (every pairing decided: nothing would be tried)
                raise services.Frozen
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
