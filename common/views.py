"""Site-wide views that belong to no app: health check, language switch, rate-limit page."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.utils.http import url_has_allowed_host_and_scheme

from .language import without_language


def ratelimited(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return render(request, "429.html", status=429)


def healthz(request: HttpRequest) -> HttpResponse:
    """For load balancers and monitoring (and the load test's trivial baseline)."""
    return HttpResponse("ok", content_type="text/plain")


def switch_language(request: HttpRequest, code: str) -> HttpResponse:
    """Choose the site's language by a plain link (no form, so public pages carry no CSRF
    token and can be cached whole for anonymous visitors). Back to ``next`` without its
    ``lang=`` (``common.language.without_language``): a page opened from an e-mail's link
    would otherwise open in the link's language again, and the switch would do nothing."""
    nxt = request.GET.get("next", "/")
    if not url_has_allowed_host_and_scheme(nxt, allowed_hosts={request.get_host()}):
        nxt = "/"
    nxt = without_language(nxt)
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
