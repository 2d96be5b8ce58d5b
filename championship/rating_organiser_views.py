"""Organisers' pages of the club's rating in a tournament: seeding the starting ranks by the
rating (the entrants page's form), and which games of a round count for it (mark a result
unrated, or rated again). Thin: the services do the writes."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from common.converters import posted_id
from common.permissions import organiser_required

from . import services
from .models import GameResult, Round, Tournament
from .services.ratings import SCORES

organiser = organiser_required("championship.change_tournament")


@require_POST
@organiser
def seed_by_rating(request: HttpRequest, slug: str) -> HttpResponse:
    t = get_object_or_404(Tournament, slug=slug)
    then = request.POST.get("then", services.seeding.THEN_NAME)
    try:
        field = services.entrants_seed_by_rating(tournament=t, then=then)
    except services.ChampionshipError as exc:
        messages.error(request, str(exc))
    else:
        rated = sum(1 for e in field if e.rating is not None)
        messages.success(
            request,
            _(
                "Starting numbers 1 to %(n)d follow the club rating (%(rated)d rated), then "
                "%(then)s. The rating column now holds the club rating."
            )
            % {
                "n": len(field),
                "rated": rated,
                "then": _("by name") if then == services.seeding.THEN_NAME else _("by lot"),
            },
        )
    return redirect("championship:entrants", slug=slug)


@organiser
def round_rated(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    t = get_object_or_404(Tournament, slug=slug)
    rnd = get_object_or_404(Round, tournament=t, number=number, status=Round.Status.PUBLISHED)
    if request.method == "POST" and "date" in request.POST:
        form = RoundDateForm(request.POST)
        if not form.is_valid():
            messages.error(request, _("Give the date as a calendar date, e.g. 2026-05-03."))
        else:
            try:
                services.round_date_set(round=rnd, day=form.cleaned_data["date"])
            except services.ChampionshipError as exc:
                messages.error(request, str(exc))
            else:
                messages.success(request, _("The round's date is saved."))
        return redirect("championship:round_rated", slug=slug, number=number)
    if request.method == "POST" and request.POST.get("game") == "all":
        rated = request.POST.get("rated") == "yes"
        try:
            for game in GameResult.objects.filter(board__round=rnd).exclude(rated=rated):
                services.game_result_rated_set(game_result=game, rated=rated, user=request.user)
        except services.ChampionshipError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(
                request,
                _("Every game of the round counts for the club rating.")
                if rated
                else _("No game of the round counts for the club rating."),
            )
        return redirect("championship:round_rated", slug=slug, number=number)
    if request.method == "POST":
        game_id = posted_id(request.POST.get("game"))
        game = GameResult.objects.filter(pk=game_id, board__round=rnd).first()
        if game is None:
            messages.error(request, _("That game is not in this round."))
        else:
            rated = request.POST.get("rated") == "yes"
            try:
                services.game_result_rated_set(game_result=game, rated=rated, user=request.user)
            except services.ChampionshipError as exc:
                messages.error(request, str(exc))
            else:
                text = (
                    _("Board %(board)d counts for the club rating again.")
                    if rated
                    else _(
                        "Board %(board)d is marked unrated: it does not count for the club rating."
                    )
                )
                messages.success(request, text % {"board": game.board.number})
        return redirect("championship:round_rated", slug=slug, number=number)
    games = list(
        GameResult.objects.filter(board__round=rnd)
        .select_related("board__white", "board__black", "rating")
        .order_by("board__number", "number")
    )
    for g in games:
        g.counts = (  # type: ignore[attr-defined]
            g.rated and g.confirmed and g.result in SCORES and g.termination != "forfeit"
        )
    return render(
        request,
        "championship/manage_round_rated.html",
        {
            "tournament": t,
            "round": rnd,
            "games": games,
        },
    )


class RoundDateForm(forms.Form):
    date = forms.DateField(
        label=gettext_lazy("The day the round was played"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
    )
