"""The player's own page of the tournament day, reached from the signed link of their
registration's e-mails (no account, no password): their status, the schedule with a countdown,
self check-in while the window is open, their board, colour and opponent as soon as a round is
published, their results and standing, their games, and the way to withdraw; once the
tournament is finished, their final place instead of what is to come (no countdown, check-in
or withdrawal). It follows the day without a reload: ``static/js/player.js`` polls
``state.json`` and, when the version changes (or a time the page depends on passes), fetches
the page and swaps its content.

In the registrations app (a layer above the championship, whose pages and tables it reads):
the page belongs to a registration. Keyed by the registration (the token is ``registrations.tokens`` with the ``PLAYER`` purpose,
checked against the registration's address): a walk-in entrant without a registration has no
e-mail and so no page. Nothing of other players is shown beyond what the public pages show
(names and clubs)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods

from championship import selectors, tables
from championship.models import Entrant, Round
from championship.public_views import entrant_lines
from championship.services import ChampionshipError
from common.language import language_from_query

from . import tokens
from .absence_views import absence_context
from .forms import LostLinkForm
from .models import Registration
from .selectors import registration_waiting_position
from .services import entries, field


def _registration(slug: str, token: str) -> Registration:
    """The registration the token was signed for (``tokens.LinkError`` otherwise: tampered,
    expired, another tournament's address, an anonymised person), through the door of every
    link (``entries.registration_by_link``, which confirms the address)."""
    reg = entries.registration_by_link(tokens.PLAYER, token)
    if reg.anonymised_at is not None or reg.tournament.slug != slug:
        raise tokens.LinkError(expired=False)
    return reg


def _link_error(request: HttpRequest, error: tokens.LinkError) -> HttpResponse:
    return render(
        request,
        "registrations/link_error.html",
        {"expired": error.expired, "lost_link_form": LostLinkForm()},
        status=410 if error.expired else 400,
    )


def live_version(reg: Registration) -> str:
    """What the page shows changes with this: the tournament's version (rounds, results,
    check-ins, the schedule) and the registration's own changes."""
    return f"{reg.tournament.version}.{int(reg.updated_at.timestamp())}.{reg.status}"


def _current(lines: list[dict[str, Any]], rows: list[selectors.ScheduleRow]) -> Any:
    """The player's board in the last published round they are in, if that round is the
    tournament's last published one (their game now, or just played)."""
    published = [r.number for r in rows if r.status == Round.Status.PUBLISHED]
    if not lines or not published or lines[-1]["round"] != published[-1]:
        return None
    return lines[-1]


def _context(reg: Registration, token: str) -> dict[str, Any]:
    t = reg.tournament
    now = timezone.now()
    entrant = Entrant.objects.filter(registration=reg).first()
    rows = selectors.schedule_rows(t)
    window = selectors.check_in_window(t, now=now, rows=rows)
    lines = entrant_lines(t, entrant) if entrant is not None else []
    standing = None
    if entrant is not None and entrant.starting_number is not None and lines and tables.ranked(t):
        standing = next(
            (r for r in tables.standings(t) if r.number == entrant.starting_number), None
        )
    current = _current(lines, rows)
    # A finished tournament has no next round (its schedule is the rounds played).
    next_round = None if t.is_finished else selectors.next_start(rows, now)
    starts = {r.number: r.starts_at for r in rows}
    refresh = [
        moment
        for moment in (window.next_change, next_round.starts_at if next_round else None)
        if moment is not None and not t.is_finished
    ]
    manage_token = tokens.make_token(tokens.MANAGE, reg.pk, reg.email)
    absence = absence_context(reg, manage_token)
    return {
        "tournament": t,
        "registration": reg,
        "entrant": entrant,
        "token": token,
        "rows": rows,
        "window": window,
        "window_state": window.state.value,
        "refusal": field.self_check_in_refusal(reg, window),
        "checked_in": entrant is not None and entrant.checked_in,
        "withdrawn_after": entrant.withdrawn_after if entrant is not None else None,
        # Withdrawn, by either record: no countdown to rounds the player does not play.
        "withdrawn": reg.status == Registration.Status.WITHDRAWN
        or (entrant is not None and entrant.withdrawn_after is not None),
        # Once round 1 is under way, a player checked in needs no check-in card any more.
        "checked_in_and_started": (
            entrant is not None
            and entrant.checked_in
            and bool(rows)
            and rows[0].status == Round.Status.PUBLISHED
        ),
        "lines": lines,
        "current": current,
        "current_starts": starts.get(current["round"]) if current else None,
        "standing": standing,
        "next_round": next_round,
        "refresh_at": min(refresh) if refresh else None,
        "version": live_version(reg),
        "poll_seconds": settings.LIVE_POLL_SECONDS,
        "manage_url": reverse("registrations:manage", args=[manage_token]),
        "withdraw_url": reverse("registrations:withdraw", args=[manage_token]),
        "position": (
            registration_waiting_position(registration=reg)
            if reg.status == Registration.Status.WAITLISTED
            else None
        ),
        # The hall's question to a player absent from a round (issue 22, point 4): do they
        # continue? Answered on this page, through ``absence_views`` (one query).
        **absence,
        "absence_question": bool(absence["absences"]),
    }


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
@language_from_query
def my_day(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    """GET: the page; POST ``action=check_in``: the player checks themselves in."""
    try:
        reg = _registration(slug, token)
    except tokens.LinkError as error:
        return _link_error(request, error)
    if request.method == "POST":
        if request.POST.get("action") != "check_in":
            messages.error(request, _("Unknown action."))
        else:
            try:
                field.registration_self_check_in(registration=reg)
            except ChampionshipError as exc:
                messages.error(request, str(exc))
            else:
                messages.success(request, _("You are checked in. See you at the board!"))
        return redirect("registrations:my_day", slug=slug, token=token)
    return render(request, "championship/player/day.html", _context(reg, token))


@never_cache
@require_GET
def my_day_state(request: HttpRequest, slug: str, token: str) -> JsonResponse:
    """What the page polls: the version of what it shows (one query)."""
    try:
        reg = _registration(slug, token)
    except tokens.LinkError as error:
        return JsonResponse({"error": "expired" if error.expired else "invalid"}, status=404)
    return JsonResponse({"version": live_version(reg)})
