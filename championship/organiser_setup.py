"""Organisers' pages of a tournament's life besides its rounds: the organisers' start page,
creating and editing a tournament, finishing it, its entrants (add, edit, delete, check in,
withdraw and back), requested byes and forbidden pairs. Every action is a POST (CSRF), ends
with a message saying what happened, and a destructive one asks first (a confirmation page
posting ``confirm=yes``); a refused one changes nothing."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _

from common.converters import posted_id
from common.permissions import organiser_required

from . import forms, selectors, services
from .models import Entrant, ForbiddenPair, RequestedBye, Round, Tournament

PERM = "championship.change_tournament"
organiser = organiser_required(PERM)


def _t(slug: str) -> Tournament:
    return get_object_or_404(Tournament, slug=slug)


def _errors(form: Any) -> str:
    return " ".join(str(e) for errors in form.errors.values() for e in errors)


def _confirmed(request: HttpRequest) -> bool:
    return forms.ConfirmForm(request.POST).is_valid()


# The organisers' start page ----------------------------------------------------------------


@login_required
def organiser_home(request: HttpRequest) -> HttpResponse:
    """Where an organiser lands after logging in: the tournament under way (its dashboard)
    when there is exactly one, otherwise the list of tournaments. Others go home."""
    if not request.user.has_perm(PERM):
        return redirect("home")
    tournaments = list(Tournament.objects.order_by("-starts_on", "name"))
    current = [t for t in tournaments if t.status == Tournament.Status.RUNNING]
    if len(current) == 1 and not request.GET.get("all"):
        return redirect("championship:dashboard", slug=current[0].slug)
    return render(
        request,
        "championship/manage_home.html",
        {
            "tournaments": tournaments,
            "can_add": request.user.has_perm("championship.add_tournament"),
            "any_demo": any(t.demo for t in tournaments),
        },
    )


# Settings ----------------------------------------------------------------------------------


def _settings_page(
    request: HttpRequest, form: forms.TournamentForm, t: Tournament | None, status: int = 200
) -> HttpResponse:
    return render(
        request,
        "championship/manage_settings.html",
        {"form": form, "tournament": t, "paired": bool(t and t.round_set.exists())},
        status=status,
    )


@organiser_required("championship.add_tournament")
def tournament_create(request: HttpRequest) -> HttpResponse:
    form = forms.TournamentForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            t = form.save(commit=False)
            try:
                services.tournament_save(tournament=t)
            except services.ChampionshipError as exc:
                messages.error(request, str(exc))
                return _settings_page(request, form, None, status=400)
            messages.success(
                request, _("The tournament %(name)s is created.") % {"name": t.localized_name}
            )
            return redirect("championship:dashboard", slug=t.slug)
        messages.error(request, _("The tournament was not created: see the fields marked."))
        return _settings_page(request, form, None, status=400)
    return _settings_page(request, form, None)


@organiser
def tournament_settings(request: HttpRequest, slug: str) -> HttpResponse:
    t = _t(slug)
    form = forms.TournamentForm(request.POST or None, instance=t)
    if request.method == "POST":
        if t.is_finished:
            messages.error(
                request, _("The tournament is finished: reopen it first to change anything.")
            )
            return redirect("championship:settings", slug=slug)
        if form.is_valid():
            changed = form.changed_data
            t = form.save(commit=False)
            try:
                services.tournament_save(tournament=t)
            except services.ChampionshipError as exc:
                messages.error(request, str(exc))
                return _settings_page(request, form, _t(slug), status=400)
            if changed:
                messages.success(request, _("The settings are saved."))
            else:
                messages.info(request, _("Nothing was changed."))
            return redirect("championship:settings", slug=slug)
        messages.error(request, _("The settings were not saved: see the fields marked."))
        return _settings_page(request, form, _t(slug), status=400)
    return _settings_page(request, form, t)


@organiser
def tournament_finish(request: HttpRequest, slug: str) -> HttpResponse:
    """Finish (after a confirmation) or reopen the tournament."""
    t = _t(slug)
    if request.method == "POST":
        action = request.POST.get("action", "finish")
        if action == "reopen":
            if not _confirmed(request):
                return _finish_page(request, t, reopen=True)
            try:
                services.tournament_reopen(tournament=t)
            except services.ChampionshipError as exc:
                messages.error(request, str(exc))
            else:
                messages.success(
                    request, _("The tournament is reopened: the standings are no longer final.")
                )
            return redirect("championship:dashboard", slug=slug)
        if action != "finish" or not _confirmed(request):
            return _finish_page(request, t)
        try:
            services.tournament_finish(tournament=t)
        except services.ChampionshipError as exc:
            messages.error(request, str(exc))
            return redirect("championship:finish", slug=slug)
        messages.success(
            request,
            _("The tournament is finished: its standings are final and marked so on every page."),
        )
        return redirect("championship:dashboard", slug=slug)
    return _finish_page(request, t, reopen=t.is_finished)


def _finish_page(request: HttpRequest, t: Tournament, *, reopen: bool = False) -> HttpResponse:
    return render(
        request,
        "championship/manage_finish.html",
        {
            "tournament": t,
            "reopen": reopen,
            "problems": [] if reopen else services.finish_problems(t),
            # Rounds of the schedule never paired: finishing now means they are not played.
            "not_played": [] if reopen else selectors.rounds_not_played(t),
        },
    )


# Entrants ----------------------------------------------------------------------------------


def _search_words(text: str) -> list[str]:
    """The words of a text as the entrants search compares them: any script, any case,
    accents aside (the same as static/js/checkin.js does as one types)."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()
    return [w for w in re.split(r"[\s\-'’.,()]+", plain) if w]


def _matches(query: list[str], text: str) -> bool:
    """Every word of the query begins a word of the text, in any order."""
    own = _search_words(text)
    return all(any(o.startswith(w) for o in own) for w in query)


def _not_imported(t: Tournament) -> int:
    """Entered registrations not among the entrants yet (the registrations app tells)."""
    registered = selectors.registered_not_entered(t)
    return len(registered.confirmed) + registered.unconfirmed


def _check_in_counts(t: Tournament, entrants: list[Entrant]) -> dict[str, int]:
    """Checked in of expected (the entrants not withdrawn), and the entered registrations not
    yet among the entrants (one query)."""
    active = [e for e in entrants if e.withdrawn_after is None]
    return {
        "checked_in": sum(1 for e in active if e.checked_in),
        "expected": len(active),
        "not_imported": _not_imported(t),
    }


def _entrants_page(
    request: HttpRequest, t: Tournament, add_form: Any = None, status: int = 200, **extra: Any
) -> HttpResponse:
    entrants = list(t.entrants.select_related("registration").order_by("starting_number", "name"))
    names: dict[str, int] = {}
    for e in entrants:
        key = " ".join(e.name.split()).casefold()
        names[key] = names.get(key, 0) + 1
    for e in entrants:
        e.duplicate = names[" ".join(e.name.split()).casefold()] > 1  # type: ignore[attr-defined]
        e.paired = False  # type: ignore[attr-defined]
    paired = set(
        Round.objects.filter(tournament=t).values_list("boards__white_id", flat=True)
    ) | set(Round.objects.filter(tournament=t).values_list("boards__black_id", flat=True))
    for e in entrants:
        e.paired = e.pk in paired  # type: ignore[attr-defined]
    counts = _check_in_counts(t, entrants)
    query = request.GET.get("q", "").strip()[:100]
    shown = entrants
    if query:  # without JavaScript the search is a GET form; with it, the list filters itself
        words = _search_words(query)
        shown = [
            e for e in entrants if _matches(words, f"{e.starting_number or ''} {e.name} {e.club}")
        ]
    return render(
        request,
        "championship/manage_entrants.html",
        {
            "tournament": t,
            "entrants": shown,
            "total": len(entrants),
            "query": query,
            "add_form": add_form or forms.EntrantAddForm(),
            "rounds_paired": services.last_paired_round(t),
            "late_from": services.late_entry_from(t),
            "stale": services.stale_draft(t),
            **counts,
            **extra,
        },
        status=status,
    )


def _wants_json(request: HttpRequest) -> bool:
    """A check-in sent by the page's script (static/js/checkin.js), which updates the row in
    place; a plain form post gets a redirect instead."""
    return "application/json" in request.headers.get("Accept", "")


def _check_in_answer(
    request: HttpRequest, t: Tournament, entrant: Entrant | None, text: str, ok: bool
) -> JsonResponse:
    """The in-page check-in's answer: what happened, the row as it is now, the counts."""
    t.refresh_from_db()
    entrants = list(t.entrants.all())
    row = ""
    if entrant is not None:
        entrant.refresh_from_db()
        entrant.duplicate = len(services.same_name(t, entrant.name)) > 1  # type: ignore[attr-defined]
        entrant.paired = (  # type: ignore[attr-defined]
            Round.objects.filter(tournament=t)
            .filter(Q(boards__white=entrant) | Q(boards__black=entrant))
            .exists()
        )
        row = render_to_string(
            "championship/_entrant_row.html",
            {"e": entrant, "tournament": t, "late_from": services.late_entry_from(t)},
            request=request,
        )
    stale = services.stale_draft(t)
    return JsonResponse(
        {
            "ok": ok,
            "message": text,
            "row": row,
            "stale_text": (
                _("The draft of round %(n)d no longer fits the field (%(why)s): pair it again.")
                % {"n": stale[0].number, "why": " ".join(stale[1])}
                if stale is not None
                else ""
            ),
            **_check_in_counts(t, entrants),
        },
        status=200 if ok else 400,
    )


def entrant_action(request: HttpRequest, t: Tournament, next_url: str) -> HttpResponse:
    """The entrants' POST actions (from the entrants page, or the dashboard's old forms)."""
    action = request.POST.get("action")
    if t.is_finished and action in ("import", "add", "check_in", "check_out", "unwithdraw", "bye"):
        text = _("The tournament is finished: reopen it first to change anything.")
        if _wants_json(request):
            return _check_in_answer(request, t, None, text, ok=False)
        messages.error(request, text)
        return redirect(next_url)
    try:
        if action == "add":
            add_form = forms.EntrantAddForm(request.POST)
            if not add_form.is_valid():
                messages.error(
                    request,
                    _("The entrant was not added: %(errors)s") % {"errors": _errors(add_form)},
                )
                return _entrants_page(request, t, add_form, status=400)
            data = add_form.cleaned_data
            twins = services.same_name(t, data["name"])
            if twins and request.POST.get("duplicate") != "yes":
                messages.warning(
                    request,
                    _(
                        "There is already an entrant called %(name)s. Add a second one with "
                        "the same name?"
                    )
                    % {"name": twins[0].name},
                )
                return _entrants_page(request, t, add_form, status=200, confirm_duplicate=True)
            entrant = services.entrant_add(
                tournament=t,
                name=data["name"],
                club=data["club"],
                rating=data["rating"],
                checked_in=True,
                joined_round=data["joined_round"] or 1,
                missed_rounds=data["missed_rounds"] or "Z",
            )
            late = getattr(entrant, "late", None)
            if late is not None:
                messages.success(request, late.message(entrant.name))
            else:
                messages.success(request, _("%(name)s added.") % {"name": entrant.name})
        elif action in ("check_in", "check_out", "unwithdraw", "withdraw", "delete"):
            form = forms.EntrantForm(request.POST, tournament=t)
            if not form.is_valid():
                text = _("Choose an entrant of this tournament.")
                if _wants_json(request):
                    return _check_in_answer(request, t, None, text, ok=False)
                messages.error(request, text)
                return redirect(next_url)
            entrant = form.cleaned_data["entrant"]
            if action == "withdraw":
                return redirect("championship:entrant_withdraw", slug=t.slug, pk=entrant.pk)
            if action == "delete":
                return redirect("championship:entrant_delete", slug=t.slug, pk=entrant.pk)
            if action == "unwithdraw":
                back = services.participant_reinstate(
                    entrant=entrant, by=services.WithdrawnBy.ORGANISER
                )
                messages.success(request, back.message())
            else:
                return _check_in(request, t, entrant, action == "check_in", next_url)
        elif action == "bye":
            bye_form = forms.ByeRequestForm(request.POST, tournament=t)
            if not bye_form.is_valid():
                messages.error(
                    request,
                    _("The bye was not requested: %(errors)s") % {"errors": _errors(bye_form)},
                )
                return redirect(next_url)
            bye = services.bye_request(
                entrant=bye_form.cleaned_data["entrant"],
                round_number=bye_form.cleaned_data["round"],
                kind=bye_form.cleaned_data["kind"],
            )
            messages.success(request, _bye_message(bye))
        else:
            messages.error(request, _("Unknown action."))
    except services.ChampionshipError as exc:
        messages.error(request, str(exc))
    _say_if_stale(request, t)
    return redirect(next_url)


def _check_in(
    request: HttpRequest, t: Tournament, entrant: Entrant, checked_in: bool, next_url: str
) -> HttpResponse:
    """Check in (or undo): in place for the page's script (JSON), else back to the same
    player on the page (its anchor)."""
    try:
        done = services.entrant_check_in(
            entrant=entrant,
            checked_in=checked_in,
            missed_rounds=request.POST.get("missed_rounds") or "Z",
        )
    except services.ChampionshipError as exc:
        if _wants_json(request):
            return _check_in_answer(request, t, entrant, str(exc), ok=False)
        messages.error(request, str(exc))
    else:
        if _wants_json(request):
            return _check_in_answer(request, t, entrant, done.message(), ok=True)
        messages.success(request, done.message())
        _say_if_stale(request, t)
    return redirect(f"{next_url}#entrant-{entrant.pk}")


def _say_if_stale(request: HttpRequest, t: Tournament) -> None:
    stale = services.stale_draft(t)
    if stale is not None:
        draft, problems = stale
        messages.warning(
            request,
            _("The draft of round %(n)d no longer fits the field (%(why)s): pair it again.")
            % {"n": draft.number, "why": " ".join(problems)},
        )


def _bye_message(bye: RequestedBye) -> str:
    if bye.kind == RequestedBye.Kind.HALF:
        return _("%(name)s: a half-point bye in round %(n)d.") % {
            "name": bye.entrant.name,
            "n": bye.round_number,
        }
    return _("%(name)s: a zero-point bye (absent) in round %(n)d.") % {
        "name": bye.entrant.name,
        "n": bye.round_number,
    }


@organiser
def entrants(request: HttpRequest, slug: str) -> HttpResponse:
    t = _t(slug)
    if request.method == "POST":
        return entrant_action(request, t, reverse("championship:entrants", args=[slug]))
    return _entrants_page(request, t)


def _entrant(t: Tournament, pk: int) -> Entrant:
    return get_object_or_404(Entrant.objects.select_related("registration"), tournament=t, pk=pk)


@organiser
def entrant_edit(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    t = _t(slug)
    e = _entrant(t, pk)
    numbered = not t.round_set.exists()
    initial = {
        "name": e.name,
        "club": e.club,
        "rating": e.rating,
        "starting_number": e.starting_number,
    }
    form = forms.EntrantEditForm(request.POST or None, initial=initial, numbered=numbered)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            twins = services.same_name(t, data["name"], exclude=e.pk)
            try:
                services.entrant_edit(
                    entrant=e,
                    name=data["name"],
                    club=data["club"],
                    rating=data["rating"],
                    starting_number=data.get("starting_number") if numbered else None,
                )
            except services.ChampionshipError as exc:
                messages.error(request, str(exc))
                status = 400
            else:
                messages.success(request, _("%(name)s is saved.") % {"name": e.name})
                if twins:
                    messages.warning(
                        request,
                        _("Another entrant is called %(name)s too.") % {"name": e.name},
                    )
                return redirect("championship:entrants", slug=slug)
        else:
            messages.error(request, _("Nothing was saved: see the fields marked."))
            status = 400
    return render(
        request,
        "championship/manage_entrant.html",
        {"tournament": t, "entrant": e, "form": form, "numbered": numbered},
        status=status,
    )


@organiser
def entrant_withdraw(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Withdraw after round N (N shown and chosen), after a confirmation."""
    t = _t(slug)
    e = _entrant(t, pk)
    rounds = services.withdraw_rounds(e)
    default = max(services.last_published_round(t), rounds[0])
    form = forms.WithdrawForm(request.POST or None, rounds=rounds, initial={"after": default})
    status = 200
    if request.method == "POST":
        if not form.is_valid():
            messages.error(request, _("Choose the round after which the player withdraws."))
            status = 400
        elif _confirmed(request):
            try:
                done = services.participant_withdraw(
                    entrant=e, after=form.cleaned_data["after"], by=services.WithdrawnBy.ORGANISER
                )
            except services.ChampionshipError as exc:
                messages.error(request, str(exc))
                status = 400
            else:
                messages.success(request, done.message())
                _say_if_stale(request, t)
                return redirect("championship:entrants", slug=slug)
    registration = e.registration
    return render(
        request,
        "championship/manage_withdraw.html",
        {
            "tournament": t,
            "entrant": e,
            "form": form,
            "draft": t.round_set.filter(status=Round.Status.DRAFT).first(),
            "registration": registration,
            "started": t.status != Tournament.Status.REGISTRATION,
            "waiting": (
                selectors.registered_not_entered(t).waiting if registration is not None else 0
            ),
        },
        status=status,
    )


@organiser
def entrant_delete(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Delete an entrant never paired, after a confirmation."""
    t = _t(slug)
    e = _entrant(t, pk)
    if request.method == "POST" and _confirmed(request):
        name = e.name
        try:
            services.entrant_delete(entrant=e)
        except services.ChampionshipError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, _("%(name)s is deleted.") % {"name": name})
        return redirect("championship:entrants", slug=slug)
    return render(
        request,
        "championship/manage_confirm.html",
        {
            "tournament": t,
            "title": _("Delete %(name)s?") % {"name": e.name},
            "text": _(
                "The entrant is removed from the tournament (their registration, if any, stays)."
            ),
            "button": _("Delete"),
            "back": reverse("championship:entrants", args=[slug]),
        },
    )


# Requested byes ----------------------------------------------------------------------------


@organiser
def byes(request: HttpRequest, slug: str) -> HttpResponse:
    t = _t(slug)
    form = forms.ByeForm(tournament=t)
    status = 200
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "cancel":
            bye = RequestedBye.objects.filter(
                entrant__tournament=t, pk=posted_id(request.POST.get("bye"))
            ).first()
            if bye is None:
                messages.error(request, _("Choose a requested bye of this tournament."))
            else:
                try:
                    services.bye_cancel(bye=bye)
                except services.ChampionshipError as exc:
                    messages.error(request, str(exc))
                else:
                    messages.success(
                        request,
                        _("The bye of %(name)s in round %(n)d is cancelled.")
                        % {"name": bye.entrant.name, "n": bye.round_number},
                    )
            return redirect("championship:byes", slug=slug)
        if action == "add":
            form = forms.ByeForm(request.POST, tournament=t)
            if form.is_valid():
                try:
                    bye = services.bye_request(
                        entrant=form.cleaned_data["entrant"],
                        round_number=form.cleaned_data["round"],
                        kind=form.cleaned_data["kind"],
                    )
                except services.ChampionshipError as exc:
                    messages.error(request, str(exc))
                    status = 400
                else:
                    messages.success(request, _bye_message(bye))
                    return redirect("championship:byes", slug=slug)
            else:
                messages.error(request, _("The bye was not requested: see the fields marked."))
                status = 400
        else:
            messages.error(request, _("Unknown action."))
            return redirect("championship:byes", slug=slug)
    requested = RequestedBye.objects.filter(entrant__tournament=t).select_related("entrant")
    paired = set(t.round_set.values_list("number", flat=True))
    by_round: dict[int, list[RequestedBye]] = {}
    for b in requested.order_by("round_number", "entrant__name"):
        b.paired = b.round_number in paired  # type: ignore[attr-defined]
        by_round.setdefault(b.round_number, []).append(b)
    return render(
        request,
        "championship/manage_byes.html",
        {
            "tournament": t,
            "form": form,
            "by_round": sorted(by_round.items()),
            "total_rounds": services.total_rounds(t),
        },
        status=status,
    )


# Forbidden pairs ---------------------------------------------------------------------------


@organiser
def forbidden_pairs(request: HttpRequest, slug: str) -> HttpResponse:
    t = _t(slug)
    form = forms.ForbiddenPairForm(tournament=t)
    status = 200
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "remove":
            pair = ForbiddenPair.objects.filter(
                tournament=t, pk=posted_id(request.POST.get("pair"))
            ).first()
            if pair is None:
                messages.error(request, _("Choose a forbidden pair of this tournament."))
            else:
                try:
                    services.forbidden_pair_remove(pair=pair)
                except services.ChampionshipError as exc:
                    messages.error(request, str(exc))
                else:
                    messages.success(
                        request,
                        _("%(a)s and %(b)s may meet again.")
                        % {"a": pair.first.name, "b": pair.second.name},
                    )
            return redirect("championship:forbidden", slug=slug)
        if action == "add":
            form = forms.ForbiddenPairForm(request.POST, tournament=t)
            if form.is_valid():
                data = form.cleaned_data
                try:
                    services.forbidden_pair_add(
                        tournament=t,
                        first=data["first"],
                        second=data["second"],
                        kind=data["kind"],
                        reason=data["reason"],
                    )
                except services.ChampionshipError as exc:
                    messages.error(request, str(exc))
                    status = 400
                else:
                    messages.success(
                        request,
                        _("%(a)s and %(b)s will not be paired with each other.")
                        % {"a": data["first"].name, "b": data["second"].name},
                    )
                    _say_if_stale(request, t)
                    return redirect("championship:forbidden", slug=slug)
            else:
                messages.error(request, _("The pair was not added: see the fields marked."))
                status = 400
        else:
            messages.error(request, _("Unknown action."))
            return redirect("championship:forbidden", slug=slug)
    pairs = ForbiddenPair.objects.filter(tournament=t).select_related("first", "second")
    return render(
        request,
        "championship/manage_forbidden.html",
        {"tournament": t, "form": form, "pairs": pairs.order_by("first__name", "second__name")},
        status=status,
    )


# A stale draft -----------------------------------------------------------------------------


@organiser
def round_pair_again(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Delete a draft and pair the round again (asks first)."""
    t = _t(slug)
    rnd = get_object_or_404(Round, tournament=t, number=number, status=Round.Status.DRAFT)
    if request.method == "POST" and _confirmed(request):
        from .organiser_views import pair_next

        try:
            services.round_pair_again(round=rnd)
        except services.ChampionshipError as exc:
            messages.error(request, str(exc))
            return redirect("championship:dashboard", slug=slug)
        messages.success(
            request, _("The draft of round %(n)d is deleted; pairing it again.") % {"n": number}
        )
        return pair_next(request, slug)
    return render(
        request,
        "championship/manage_confirm.html",
        {
            "tournament": t,
            "title": _("Pair round %(n)d again?") % {"n": number},
            "text": _(
                "The draft and any edits made to it are deleted, and the round is paired again."
            ),
            "button": _("Delete the draft and pair again"),
            "back": reverse("championship:dashboard", args=[slug]),
        },
    )
