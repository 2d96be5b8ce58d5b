"""The home page and a tournament's registration page."""

from __future__ import annotations

from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone

from registrations.models import MasterClassSession, Registration

from .models import Round, Tournament


def home(request: HttpRequest) -> HttpResponse:
    today = timezone.localdate()
    tournaments = Tournament.objects.filter(ends_on__gte=today).order_by("starts_on")
    sessions = MasterClassSession.objects.upcoming().with_counts()[:6]
    return render(
        request, "championship/home.html", {"tournaments": tournaments, "sessions": sessions}
    )


def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(
        Tournament.objects.annotate(
            entered_count=Count(
                "registrations", filter=Q(registrations__status=Registration.Status.ENTERED)
            ),
            waitlisted_count=Count(
                "registrations", filter=Q(registrations__status=Registration.Status.WAITLISTED)
            ),
        ),
        slug=slug,
    )
    # Public list: names and clubs only, never e-mail or phone.
    entrants = (
        tournament.registrations.filter(
            status=Registration.Status.ENTERED, email_confirmed_at__isnull=False
        )
        .order_by("name")
        .values("name", "club")
    )
    rounds = list(
        tournament.round_set.filter(status=Round.Status.PUBLISHED)
        .order_by("number")
        .values_list("number", flat=True)
    )
    return render(
        request,
        "championship/tournament_detail.html",
        {
            "tournament": tournament,
            "entrants": entrants,
            "players": tournament.entrants.count(),
            "last_round": rounds[-1] if rounds else None,
        },
    )
