"""The home page and a tournament's registration page: the public front of registration
(its counts are the registrations'), in this app since the championship below knows nothing of
registrations. Routed without a namespace (``urls_site``): ``home``, ``tournament_detail``."""

from __future__ import annotations

from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone

from championship import selectors
from championship.models import Round, Tournament

from .models import MasterClassSession, Registration


def _with_counts(queryset: QuerySet[Tournament]) -> QuerySet[Tournament]:
    """Tournaments with their numbers of players entered and waiting (for "full" notices)."""
    return queryset.annotate(
        entered_count=Count(
            "registrations", filter=Q(registrations__status=Registration.Status.ENTERED)
        ),
        waitlisted_count=Count(
            "registrations", filter=Q(registrations__status=Registration.Status.WAITLISTED)
        ),
    )


def _full(t: Tournament) -> bool:
    """Would someone registering now join the waiting list? (As the form says.)"""
    waiting: int = getattr(t, "waitlisted_count", 0)
    entered: int = getattr(t, "entered_count", 0)
    return waiting > 0 or (t.entry_cap is not None and entered >= t.entry_cap)


def home(request: HttpRequest) -> HttpResponse:
    today = timezone.localdate()
    tournaments = list(
        _with_counts(Tournament.objects.filter(ends_on__gte=today)).order_by("starts_on")
    )
    for t in tournaments:
        t.is_full = _full(t)  # type: ignore[attr-defined]
    sessions = MasterClassSession.objects.upcoming().with_counts()[:6]
    return render(
        request, "championship/home.html", {"tournaments": tournaments, "sessions": sessions}
    )


def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(_with_counts(Tournament.objects.all()), slug=slug)
    # Who is in the tournament: one answer for the count and the list (names and clubs only,
    # never e-mail or phone), the same as the public players page's.
    field = selectors.tournament_field(tournament)
    rounds = list(
        tournament.round_set.filter(status=Round.Status.PUBLISHED)
        .order_by("number")
        .values_list("number", flat=True)
    )
    schedule = selectors.schedule_rows(tournament)
    return render(
        request,
        "championship/tournament_detail.html",
        {
            "tournament": tournament,
            "schedule": schedule,
            "check_in_times": selectors.check_in_times(tournament, schedule),
            "field": field,
            "full": _full(tournament),
            "last_round": rounds[-1] if rounds else None,
        },
    )
