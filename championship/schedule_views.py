"""The organisers' schedule page of a tournament: its zone, round length and check-in window;
each round's start (typed, or suggested from the tournament's days and the round length, then
saved); and "shift from round N by M minutes", which moves the later rounds with it. Every
action is a POST ending with a message; a refused one changes nothing and keeps what was
typed."""

from __future__ import annotations

from typing import Any
from zoneinfo import ZoneInfo

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from common.permissions import organiser_required

from . import forms, schedule, selectors, services
from .models import Entrant, Tournament

organiser = organiser_required("championship.change_tournament")


def _initial(t: Tournament, rows: list[selectors.ScheduleRow]) -> dict[str, Any]:
    zone = ZoneInfo(t.time_zone)
    initial: dict[str, Any] = {}
    for row in rows:
        if row.starts_at is not None:
            local = timezone.localtime(row.starts_at, zone)
            initial[f"day_{row.number}"] = local.date()
            initial[f"time_{row.number}"] = local.time().replace(second=0, microsecond=0)
    return initial


def _suggested(t: Tournament, form: forms.SuggestForm, rounds: int) -> dict[str, Any]:
    data = form.cleaned_data
    starts = schedule.suggest(
        first=t.starts_on,
        last=t.ends_on,
        rounds=rounds,
        first_start=data["first_start"],
        round_minutes=t.round_length,
        per_day=data.get("per_day"),
        zone=t.time_zone,
    )
    zone = ZoneInfo(t.time_zone)
    initial: dict[str, Any] = {}
    for n, at in enumerate(starts, start=1):
        local = timezone.localtime(at, zone)
        initial[f"day_{n}"] = local.date()
        initial[f"time_{n}"] = local.time()
    return initial


@organiser
def schedule_page(request: HttpRequest, slug: str) -> HttpResponse:
    t = get_object_or_404(Tournament, slug=slug)
    total = services.total_rounds(t)
    rows = selectors.schedule_rows(t, total=total)
    rounds = len(rows)
    settings_form = forms.ScheduleSettingsForm(instance=t)
    suggest_form = forms.SuggestForm(request.GET if "first_start" in request.GET else None)
    times_form = forms.RoundStartsForm(rounds=rounds, zone=t.time_zone, initial=_initial(t, rows))
    shift_form = forms.ShiftForm()
    status = 200
    if suggest_form.is_bound:
        if suggest_form.is_valid():
            times_form = forms.RoundStartsForm(
                rounds=rounds, zone=t.time_zone, initial=_suggested(t, suggest_form, rounds)
            )
            messages.info(
                request,
                _("Suggested times below: nothing is saved until you press Save the times."),
            )
        else:
            status = 400
    if request.method == "POST":
        action = request.POST.get("action")
        if t.is_finished:
            messages.error(
                request, _("The tournament is finished: reopen it first to change anything.")
            )
            return redirect("championship:schedule", slug=slug)
        try:
            if action == "settings":
                settings_form = forms.ScheduleSettingsForm(request.POST, instance=t)
                if settings_form.is_valid():
                    changed = settings_form.changed_data
                    services.schedule_settings_save(tournament=settings_form.save(commit=False))
                    if changed:
                        messages.success(request, _("The schedule's settings are saved."))
                    else:
                        messages.info(request, _("Nothing was changed."))
                    return redirect("championship:schedule", slug=slug)
                messages.error(request, _("The settings were not saved: see the fields marked."))
                t = get_object_or_404(Tournament, slug=slug)  # the form changed the instance
                status = 400
            elif action == "times":
                times_form = forms.RoundStartsForm(request.POST, rounds=rounds, zone=t.time_zone)
                if times_form.is_valid():
                    changed_rounds = services.round_starts_set(
                        tournament=t, starts=times_form.starts()
                    )
                    _say_saved(request, changed_rounds)
                    return redirect("championship:schedule", slug=slug)
                messages.error(request, _("The times were not saved: see the rounds marked."))
                status = 400
            elif action == "shift":
                shift_form = forms.ShiftForm(request.POST)
                if shift_form.is_valid():
                    data = shift_form.cleaned_data
                    moved = services.round_starts_shift(
                        tournament=t, from_round=data["from_round"], minutes=data["minutes"]
                    )
                    if moved:
                        messages.success(
                            request,
                            ngettext(
                                "Round %(rounds)s moved %(by)s.",
                                "Rounds %(rounds)s moved %(by)s.",
                                len(moved),
                            )
                            % {"rounds": ", ".join(map(str, moved)), "by": _by(data["minutes"])},
                        )
                    else:
                        messages.info(request, _("Nothing was changed."))
                    return redirect("championship:schedule", slug=slug)
                messages.error(request, _("Nothing was moved: see the fields marked."))
                status = 400
            else:
                messages.error(request, _("Unknown action."))
                return redirect("championship:schedule", slug=slug)
        except services.ChampionshipError as exc:
            messages.error(request, str(exc))
            status = 400
    window = selectors.check_in_window(t, now=timezone.now(), rows=rows)
    checked = t.entrants.filter(checked_in=True).values_list("checked_in_by", flat=True)
    by_player = sum(1 for by in checked if by == Entrant.CheckedInBy.PLAYER)
    return render(
        request,
        "championship/manage_schedule.html",
        {
            "tournament": t,
            "rows": rows,
            "settings_form": settings_form,
            "times_form": times_form,
            "table": [
                (n, day, at, row.status)
                for (n, day, at), row in zip(times_form.rows(), rows, strict=True)
            ],
            "suggest_form": suggest_form if suggest_form.is_bound else forms.SuggestForm(),
            "shift_form": shift_form,
            "window": window,
            "checked_in": len(checked),
            "checked_in_by_player": by_player,
        },
        status=status,
    )


def _say_saved(request: HttpRequest, changed: list[int]) -> None:
    if not changed:
        messages.info(request, _("Nothing was changed."))
        return
    messages.success(
        request,
        ngettext(
            "The start of round %(rounds)s is saved.",
            "The starts of rounds %(rounds)s are saved.",
            len(changed),
        )
        % {"rounds": ", ".join(map(str, changed))},
    )


def _by(minutes: int) -> str:
    """A shift in words: "40 minutes earlier", "5 minutes later" (never "by -40 minutes")."""
    n = abs(minutes)
    if minutes < 0:
        return ngettext("%(n)d minute earlier", "%(n)d minutes earlier", n) % {"n": n}
    return ngettext("%(n)d minute later", "%(n)d minutes later", n) % {"n": n}
