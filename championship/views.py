"""Public pages of the championship app and the project-wide error views."""

from __future__ import annotations

from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone

from registrations.models import MasterClassSession, Registration

from .models import Tournament


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
    return render(
        request,
        "championship/tournament_detail.html",
        {"tournament": tournament, "entrants": entrants},
    )


def ratelimited(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return render(request, "429.html", status=429)


def healthz(request: HttpRequest) -> HttpResponse:
    """For load balancers and monitoring (and the load test's trivial baseline)."""
    return HttpResponse("ok", content_type="text/plain")


def switch_language(request: HttpRequest, code: str) -> HttpResponse:
    """Choose the site's language by a plain link (no form, so public pages carry no CSRF
    token and can be cached whole for anonymous visitors)."""
    from django.conf import settings
    from django.http import HttpResponseRedirect
    from django.utils.http import url_has_allowed_host_and_scheme

    nxt = request.GET.get("next", "/")
    if not url_has_allowed_host_and_scheme(nxt, allowed_hosts={request.get_host()}):
        nxt = "/"
    response = HttpResponseRedirect(nxt)
    if code in dict(settings.LANGUAGES):
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            code,
            max_age=settings.LANGUAGE_COOKIE_AGE or 365 * 86400,
            samesite="Lax",
            secure=request.is_secure(),
        )
    return response
