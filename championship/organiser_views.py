"""Organisers' pages: entrants and check-in, pairing (a Celery task with progress), manual
edits and publishing, fast result entry with conflict detection, result history."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.html import format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from registrations.organiser_views import organiser_required

from . import services
from .models import TERMINATIONS, Board, Entrant, RequestedBye, ResultChange, Round, Tournament
from .tasks import pair_round_task, set_status, status_key

PERM = "championship.change_tournament"


#: Anonymous visitors go to the login page; users without the permission get 403.
organiser = organiser_required(PERM)


def _t(slug: str) -> Tournament:
    return get_object_or_404(Tournament, slug=slug)


def _option_sets(choices: Any) -> dict[str, SafeString]:
    """For each value, the ``<option>``s of a select with that value chosen. A round of 250
    boards has four selects a board: built once here instead of ~10,000 template nodes."""
    options = [("", "–"), *choices]
    return {
        chosen: format_html_join(
            "",
            '<option value="{}"{}>{}</option>',
            # mark_safe on a constant; values and labels are escaped by format_html_join.
            (
                (v, mark_safe(" selected") if v and v == chosen else "", label)
                for v, label in options
            ),
        )
        for chosen, _label in options
    }


@organiser
def dashboard(request: HttpRequest, slug: str) -> HttpResponse:
    t = _t(slug)
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "import":
            n = services.entrants_import_registrations(tournament=t)
            messages.success(
                request, _("%(n)d confirmed registration(s) added as entrants.") % {"n": n}
            )
        elif action == "add":
            name = request.POST.get("name", "").strip()
            if not name:
                messages.error(request, _("Enter the entrant's name."))
            else:
                rating = request.POST.get("rating", "").strip()
                services.entrant_add(
                    tournament=t,
                    name=name,
                    club=request.POST.get("club", "").strip(),
                    rating=int(rating) if rating.isdigit() else None,
                    checked_in=True,
                    joined_round=int(request.POST.get("joined_round") or 1),
                    missed_rounds="H" if request.POST.get("missed_rounds") == "H" else "Z",
                )
                messages.success(request, _("%(name)s added.") % {"name": name})
        elif action in ("check_in", "check_out", "withdraw"):
            entrant = get_object_or_404(Entrant, tournament=t, pk=request.POST.get("entrant"))
            if action == "withdraw":
                services.entrant_withdraw(entrant=entrant)
            else:
                entrant.checked_in = action == "check_in"
                entrant.save(update_fields=["checked_in"])
        elif action == "bye":
            entrant = get_object_or_404(Entrant, tournament=t, pk=request.POST.get("entrant"))
            number = int(request.POST.get("round") or 0)
            if number > 0:
                RequestedBye.objects.update_or_create(
                    entrant=entrant,
                    round_number=number,
                    defaults={"kind": request.POST.get("kind", "H")},
                )
                messages.success(request, _("Bye requested for round %(n)d.") % {"n": number})
        return redirect("championship:dashboard", slug=slug)
    entrants = list(t.entrants.order_by("starting_number", "name"))
    rounds = list(t.round_set.order_by("number"))
    status = cache.get(status_key(t.pk))
    return render(
        request,
        "championship/manage_dashboard.html",
        {"tournament": t, "entrants": entrants, "rounds_list": rounds, "status": status},
    )


@require_POST
@organiser
def pair_next(request: HttpRequest, slug: str) -> HttpResponse:
    t = _t(slug)
    set_status(t.pk, state="queued", text=_("Waiting for a worker"), percent=0)
    pair_round_task.delay(t.pk)
    return redirect("championship:dashboard", slug=slug)


@never_cache
@organiser
def pair_status(request: HttpRequest, slug: str) -> JsonResponse:
    t = _t(slug)
    return JsonResponse(cache.get(status_key(t.pk)) or {"state": "idle"})


@organiser
def round_manage(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    t = _t(slug)
    rnd = get_object_or_404(Round, tournament=t, number=number)
    conflicts: dict[int, Board] = {}
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "publish":
                services.round_publish(round=rnd)
                messages.success(request, _("Round %(n)d is published.") % {"n": number})
            elif action == "delete":
                services.round_delete_draft(round=rnd)
                messages.success(request, _("The draft of round %(n)d is deleted.") % {"n": number})
                return redirect("championship:dashboard", slug=slug)
            elif action == "swap_colours":
                services.board_swap_colours(
                    board=get_object_or_404(Board, round=rnd, pk=request.POST.get("board"))
                )
            elif action == "swap_players":
                a_board, a_side = request.POST.get("a", ":").split(":")
                b_board, b_side = request.POST.get("b", ":").split(":")
                if a_side not in ("white", "black") or b_side not in ("white", "black"):
                    raise services.ChampionshipError(_("Choose two players."))
                services.boards_swap_players(
                    first=get_object_or_404(Board, round=rnd, pk=a_board),
                    first_side=a_side,
                    second=get_object_or_404(Board, round=rnd, pk=b_board),
                    second_side=b_side,
                )
            elif action == "results":
                saved = 0
                for board in rnd.boards.select_related("round__tournament").exclude(black=None):
                    post = request.POST
                    result = post.get(f"result-{board.pk}", board.result)
                    termination = post.get(f"termination-{board.pk}", board.termination)
                    result2 = post.get(f"result2-{board.pk}", board.result2)
                    termination2 = post.get(f"termination2-{board.pk}", board.termination2)
                    version = int(post.get(f"version-{board.pk}", board.version))
                    wanted = (
                        result,
                        termination if result else "",
                        result2,
                        termination2 if result2 else "",
                    )
                    if wanted == (
                        board.result,
                        board.termination,
                        board.result2,
                        board.termination2,
                    ):
                        continue
                    try:
                        services.result_enter(
                            board=board,
                            result=result,
                            termination=termination,
                            result2=result2,
                            termination2=termination2,
                            user=request.user,
                            expected_version=version,
                        )
                        saved += 1
                    except services.ConcurrentEdit as exc:
                        conflicts[board.pk] = exc.board
                        messages.warning(
                            request, _("Board %(n)d: %(msg)s") % {"n": board.number, "msg": exc}
                        )
                    except services.ChampionshipError as exc:
                        messages.error(
                            request, _("Board %(n)d: %(msg)s") % {"n": board.number, "msg": exc}
                        )
                if saved:
                    messages.success(request, _("%(n)d result(s) saved.") % {"n": saved})
            elif action == "confirm":
                services.result_confirm(
                    board=get_object_or_404(Board, round=rnd, pk=request.POST.get("board")),
                    user=request.user,
                )
        except services.ChampionshipError as exc:
            messages.error(request, str(exc))
        if not conflicts:
            return redirect("championship:round_manage", slug=slug, number=number)
    boards = list(rnd.boards.select_related("white", "black").order_by("number"))
    results = _option_sets(Board._meta.get_field("result").choices)
    terminations = _option_sets(TERMINATIONS)
    for b in boards:
        b.result_options = results.get(b.result, results[""])  # type: ignore[attr-defined]
        b.termination_options = terminations.get(b.termination, terminations[""])  # type: ignore[attr-defined]
        b.result2_options = results.get(b.result2, results[""])  # type: ignore[attr-defined]
        b.termination2_options = terminations.get(b.termination2, terminations[""])  # type: ignore[attr-defined]
    warnings = services.edit_warnings(rnd) if rnd.status == Round.Status.DRAFT else []
    history = ResultChange.objects.filter(board__round=rnd).select_related("board", "user")[:50]
    return render(
        request,
        "championship/manage_round.html",
        {
            "tournament": t,
            "round": rnd,
            "boards": boards,
            "warnings": warnings,
            "conflicts": conflicts,
            "history": history,
        },
    )
