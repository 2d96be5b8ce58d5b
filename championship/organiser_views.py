"""Organisers' pages: entrants and check-in, pairing (a Celery task with progress), manual
edits and publishing, fast result entry with conflict detection, result history."""

from __future__ import annotations

import logging
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext_lazy, ngettext, pgettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from common.permissions import organiser_required

from . import forms, html_tables, jobs, pairing_text, selectors, services
from .models import (
    TERMINATIONS,
    Entrant,
    GameResult,
    RequestedBye,
    ResultChange,
    Round,
    Tournament,
)
from .tasks import pair_round_task

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


def _form_errors(form: Any) -> str:
    """A form's errors as one line for a message (hidden fields have no place to show them)."""
    return " ".join(str(e) for errors in form.errors.values() for e in errors)


@organiser
def dashboard(request: HttpRequest, slug: str) -> HttpResponse:
    t = _t(slug)
    if request.method == "POST":
        from .organiser_setup import entrant_action

        return entrant_action(request, t, reverse("championship:dashboard", args=[slug]))
    return _dashboard_page(request, t, forms.EntrantAddForm())


def _dashboard_page(
    request: HttpRequest, t: Tournament, add_form: Any, status: int = 200
) -> HttpResponse:
    entrants = list(t.entrants.order_by("starting_number", "name"))
    rounds = list(t.round_set.order_by("number"))
    status_now = _job_status(t)
    last = rounds[-1] if rounds else None
    all_paired = last is not None and last.number >= t.rounds
    finish_hint = (
        all_paired
        and last is not None
        and last.status == Round.Status.PUBLISHED
        and t.status != Tournament.Status.FINISHED
        and not GameResult.objects.filter(board__round=last, result="").exists()
    )
    schedule = selectors.schedule_rows(t)
    now = timezone.now()
    return render(
        request,
        "championship/manage_dashboard.html",
        {
            "tournament": t,
            "entrants": entrants,
            "rounds_list": rounds,
            # The round being played: the last published one (its progress, games.noshow).
            "playing_round": next(
                (r for r in reversed(rounds) if r.status == Round.Status.PUBLISHED), None
            ),
            "status": status_now,
            "add_form": add_form,
            "stale": services.stale_draft(t),
            "checked_in": sum(1 for e in entrants if e.checked_in),
            "checked_in_by_player": sum(
                1
                for e in entrants
                if e.checked_in and e.checked_in_by == Entrant.CheckedInBy.PLAYER
            ),
            "next_round": (
                None
                if t.is_finished
                else selectors.next_start(schedule, now, done=selectors.rounds_done(t))
            ),
            "any_time": any(r.starts_at for r in schedule),
            "window": selectors.check_in_window(t, now=now, rows=schedule),
            "withdrawn": sum(1 for e in entrants if e.withdrawn_after is not None),
            "byes": RequestedBye.objects.filter(entrant__tournament=t).count(),
            "all_paired": all_paired,
            "finish_hint": finish_hint,
        },
        status=status,
    )


#: What the organiser's page says of each step of a pairing job and of each way it can fail.
JOB_STEPS = {
    "queued": gettext_lazy("Waiting for a worker"),
    "loading": gettext_lazy("Loading the tournament"),
    "pairing": gettext_lazy("Pairing"),
    "saving": gettext_lazy("Saving"),
    "done": gettext_lazy("Done"),
}
JOB_FAILURES = {
    "worker_lost": gettext_lazy(
        "The pairing stopped: the worker doing it was interrupted. Nothing was saved; "
        "start it again."
    ),
    "not_started": gettext_lazy(
        "No worker started the pairing in time. Nothing was saved; start it again."
    ),
    "crashed": gettext_lazy("The pairing failed with an internal error. Nothing was saved."),
}


def _job_status(t: Tournament) -> dict[str, Any]:
    job = jobs.status(t.pk)
    if job["state"] == "error" and job.get("version", t.version) != t.version:
        # The pairing was refused for the tournament as it was then ("round 1 is still a
        # draft"); it has changed since (the draft published): the refusal is old news.
        job = {"state": "idle"}
    if job["state"] == "failed":
        text = JOB_FAILURES.get(job.get("reason", ""), JOB_FAILURES["crashed"])
    elif job["state"] == "error":
        params = job.get("params")
        text = pairing_text.error_text(
            job.get("code") or "", params if isinstance(params, dict) else {}, job.get("text", "")
        )
    else:
        text = JOB_STEPS.get(job.get("step", ""), "")
    return {
        "state": job["state"],
        "percent": job.get("percent", 0),
        "text": str(text),
        "round": job.get("round"),
    }


def _unconfirmed_before_pairing(t: Tournament) -> tuple[Round | None, list[int]]:
    """The last round and its boards whose results await confirmation (two-person
    confirmation on), which the organiser must see before pairing the next round."""
    if not t.two_person_confirmation:
        return None, []
    last = t.round_set.filter(status=Round.Status.PUBLISHED).order_by("-number").first()
    if last is None or t.round_set.filter(number__gt=last.number).exists():
        return None, []
    return last, selectors.unconfirmed_boards(last)


@require_POST
@organiser
def pair_next(request: HttpRequest, slug: str) -> HttpResponse:
    t = _t(slug)
    if jobs.busy(t.pk):
        messages.info(request, _("The next round is being paired already."))
        return redirect("championship:dashboard", slug=slug)
    anyway = request.POST.get("anyway") == "1"
    last, unconfirmed = _unconfirmed_before_pairing(t)
    if unconfirmed and not anyway:
        # Nothing is queued: the organiser reads which boards and decides.
        return render(
            request,
            "championship/pair_confirm.html",
            {"tournament": t, "round": last, "boards": unconfirmed},
        )
    job_id = jobs.request(t.pk)
    try:
        pair_round_task.delay(t.pk, job_id, get_language(), bool(unconfirmed))
    except Exception:  # the broker is unreachable: nothing was queued
        logging.getLogger(__name__).warning("could not queue the pairing", exc_info=True)
        jobs.forget(t.pk, job_id)
        messages.error(
            request,
            _(
                "The pairing cannot start now: the task queue does not answer. Nothing was "
                "changed; try again in a minute."
            ),
        )
        return redirect("championship:dashboard", slug=slug)
    if unconfirmed:
        messages.warning(
            request,
            _(
                "Pairing the next round although boards %(boards)s of round %(n)d are not "
                "confirmed yet."
            )
            % {"boards": ", ".join(map(str, unconfirmed)), "n": last.number if last else 0},
        )
    job = jobs.status(t.pk)
    if job["state"] == "done" and job.get("round"):
        messages.success(
            request,
            _("Round %(n)d is paired as a draft: check it, then publish it.") % {"n": job["round"]},
        )
        # The next step is on the draft's page: check it, publish it.
        return redirect("championship:round_manage", slug=slug, number=job["round"])
    elif job["state"] in ("queued", "running"):
        messages.info(request, _("Pairing the next round: its progress is shown below."))
    return redirect("championship:dashboard", slug=slug)


@never_cache
@organiser
def pair_status(request: HttpRequest, slug: str) -> JsonResponse:
    return JsonResponse(_job_status(_t(slug)))


@organiser
def round_manage(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    t = _t(slug)
    rnd = get_object_or_404(Round.objects.select_related("tournament"), tournament=t, number=number)
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "publish":
                services.round_publish(round=rnd)
                messages.success(request, _("Round %(n)d is published.") % {"n": number})
            elif action == "delete":
                if rnd.status != Round.Status.DRAFT:
                    raise services.ChampionshipError(_("A published round cannot be deleted."))
                if request.POST.get("confirm") != "1":
                    # A destructive action asks first: nothing is deleted yet.
                    return _round_page(request, rnd, confirm_delete=True)
                services.round_delete_draft(round=rnd)
                messages.success(
                    request,
                    _("The draft of round %(n)d is deleted; the round can be paired again.")
                    % {"n": number},
                )
                return redirect("championship:dashboard", slug=slug)
            elif action == "swap_colours":
                form = forms.BoardForm(request.POST, round=rnd)
                if not form.is_valid():
                    raise services.ChampionshipError(_("Choose a board of this round."))
                board = services.board_swap_colours(board=form.cleaned_data["board"])
                messages.success(
                    request,
                    _("Board %(n)d: colours swapped, %(white)s now has White.")
                    % {"n": board.number, "white": board.white},
                )
            elif action == "swap_players":
                seats = request.POST.getlist("seat")
                posted = {"a": seats[0], "b": seats[1]} if len(seats) == 2 else request.POST
                swap = forms.SwapPlayersForm(posted, round=rnd)
                if not swap.is_valid() or swap.cleaned_data["a"] == swap.cleaned_data["b"]:
                    raise services.ChampionshipError(_("Tick two players to exchange."))
                first, first_side = swap.seat("a")
                second, second_side = swap.seat("b")
                names = (getattr(first, first_side), getattr(second, second_side))
                services.boards_swap_players(
                    first=first, first_side=first_side, second=second, second_side=second_side
                )
                messages.success(
                    request,
                    _("%(a)s and %(b)s exchanged places.") % {"a": names[0], "b": names[1]},
                )
            elif action == "results":
                refused = _save_results(request, rnd)
                if refused is not None:
                    return refused
            elif action == "confirm":
                form = forms.BoardForm(request.POST, round=rnd)
                if not form.is_valid():
                    raise services.ChampionshipError(_("Choose a board of this round."))
                services.game_results_confirm(board=form.cleaned_data["board"], user=request.user)
                messages.success(request, _("The result is confirmed."))
            else:
                raise services.ChampionshipError(_("Unknown action."))
        except services.ChampionshipError as exc:
            messages.error(request, str(exc))
        return redirect("championship:round_manage", slug=slug, number=number)
    return _round_page(request, rnd)


def _save_results(request: HttpRequest, rnd: Round) -> HttpResponse | None:
    """Save the results table: all changed games or none. None when saved (the caller
    redirects); otherwise the page again with what was typed and why it was refused."""
    boards = list(rnd.boards.exclude(black=None).order_by("number"))
    for board in boards:
        board.round = rnd  # the write door checks the round and its tournament
    games = selectors.board_results(boards)
    table = forms.ResultsTable(request.POST, boards=boards, games=games)
    if not table.is_valid():
        for message in table.problems:
            messages.error(request, message)
        return _round_page(request, rnd, typed=table.typed, status=400)
    try:
        saved = services.game_result_set(entries=table.entries, user=request.user)
    except services.ResultsRefused as exc:
        for board_number, _game, message in exc.problems:
            messages.error(request, _("Board %(n)d: %(msg)s") % {"n": board_number, "msg": message})
        return _round_page(
            request,
            rnd,
            typed=table.typed,
            conflicts=exc.conflicts,
            status=409 if exc.conflicts else 400,
        )
    if saved:
        messages.success(
            request,
            ngettext("%(n)d result saved.", "%(n)d results saved.", len(saved)) % {"n": len(saved)},
        )
    else:
        messages.info(request, _("No result was changed."))
    return None


#: The result history's actions (ResultChange.action) in words.
HISTORY_ACTIONS = {
    "enter": pgettext_lazy("result history", "entered"),
    "correct": pgettext_lazy("result history", "corrected"),
    "clear": pgettext_lazy("result history", "cleared"),
    "confirm": pgettext_lazy("result history", "confirmed"),
    "players": pgettext_lazy("result history", "confirmed by both players"),
    "rated": pgettext_lazy("result history", "rated again"),
    "unrated": pgettext_lazy("result history", "marked unrated"),
}
#: An action the history does not know by name (never its raw key on the page).
HISTORY_OTHER = pgettext_lazy("result history", "changed")


def _history_text(text: str) -> str:
    """A result as the history stores it (``1-0 resign``) in words: ``1-0 (resign)``."""
    if not text:
        return ""
    result, _space, termination = text.partition(" ")
    return services.describe(result, termination)


def _history_change(old: str, new: str) -> str:
    """What changed: ``old → new`` for a correction, else the one result there is."""
    old_text, new_text = _history_text(old), _history_text(new)
    if old_text and new_text and old_text != new_text:
        return f"{old_text} → {new_text}"
    return new_text or old_text


def _round_page(
    request: HttpRequest,
    rnd: Round,
    *,
    typed: dict[int, tuple[str, str]] | None = None,
    conflicts: dict[int, Any] | None = None,
    status: int = 200,
    confirm_delete: bool = False,
) -> HttpResponse:
    """The round page; after a refused save the boxes show what was typed (``typed``: game
    result id → (result, termination)) and games changed meanwhile are marked;
    ``confirm_delete`` asks whether to delete the draft."""
    t = rnd.tournament
    boards = list(rnd.boards.select_related("white", "black").order_by("number"))
    terminations = _option_sets(TERMINATIONS)
    games = selectors.board_results(boards)
    draft = rnd.status == Round.Status.DRAFT
    names = (
        dict(t.entrants.exclude(starting_number=None).values_list("starting_number", "name"))
        if draft
        else {}
    )
    typed = typed or {}
    conflicts = conflicts or {}
    for b in boards:
        if draft:  # the pairing's reasons are shown while the draft can still be changed
            b.why = pairing_text.explanation(b.explanation, names, rnd.number)  # type: ignore[attr-defined]
        b.game_rows = games.get(b.pk, [])  # type: ignore[attr-defined]
        for g in b.game_rows:  # type: ignore[attr-defined]
            result, termination = typed.get(g.pk, (g.result, g.termination))
            g.result_chosen = result
            g.termination_options = terminations.get(termination, terminations[""])
            g.conflict = conflicts.get(g.pk)
        b.open = any(not g.result for g in b.game_rows)  # type: ignore[attr-defined]
        b.unconfirmed = any(g.result and not g.confirmed for g in b.game_rows)  # type: ignore[attr-defined]
    warnings = services.edit_warnings(rnd) if rnd.status == Round.Status.DRAFT else []
    history = list(
        ResultChange.objects.filter(game_result__board__round=rnd).select_related(
            "game_result__board", "user"
        )[:50]
    )
    for change in history:
        change.what = HISTORY_ACTIONS.get(change.action, HISTORY_OTHER)  # type: ignore[attr-defined]
        change.change = _history_change(change.old, change.new)  # type: ignore[attr-defined]
    return render(
        request,
        "championship/manage_round.html",
        {
            "tournament": t,
            "round": rnd,
            "boards": boards,
            "results_rows": (html_tables.results_form_rows(t, boards) if not draft else ""),
            "warnings": warnings,
            "history": history,
            "confirm_delete": confirm_delete,
            "manage_page": "round",
            **_next_step(t, rnd, boards),
        },
        status=status,
    )


def _next_step(t: Tournament, rnd: Round, boards: list[Any]) -> dict[str, Any]:
    """What the round page offers after its results: pairing the next round (from the latest
    published round of a tournament with rounds left), or finishing the tournament (after
    the last round, every result in)."""
    latest = (
        rnd.status == Round.Status.PUBLISHED
        and not t.round_set.filter(number__gt=rnd.number).exists()
    )
    all_in = not any(getattr(b, "open", False) for b in boards if b.black is not None)
    running = t.status != Tournament.Status.FINISHED
    return {
        "can_pair_next": running and latest and rnd.number < t.rounds,
        "results_in": all_in,
        "finish_hint": running and latest and rnd.number >= t.rounds and all_in,
    }
