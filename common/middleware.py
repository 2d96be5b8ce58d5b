"""Security headers that Django does not set by itself."""

import logging
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

# Every script and style is served from our own static files: no inline code, no CDN.
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not request.path.startswith("/admin/"):
            response.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        response.setdefault("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
        return response


class RejectNulBytesMiddleware:
    """A NUL byte in the path, a query parameter or a form field is refused with 400 before any
    view sees it: no person types one, PostgreSQL cannot store or compare it (a search or an
    admin filter with ``%00`` would fail with a server error), and text with one is never
    something to keep. Form fields refuse it too (Django's ProhibitNullCharactersValidator);
    this covers the parameters read without a form."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if self._has_nul(request):
            from django.shortcuts import render

            return render(request, "400.html", status=400)
        return self.get_response(request)

    @staticmethod
    def _has_nul(request: HttpRequest) -> bool:
        if "\x00" in request.path_info:
            return True
        sources = [request.GET]
        if request.method == "POST" and request.content_type in (
            "application/x-www-form-urlencoded",
            "multipart/form-data",
        ):
            sources.append(request.POST)
        return any(
            "\x00" in key or any("\x00" in value for value in values)
            for source in sources
            for key, values in source.lists()
        )


class DatabaseUnavailableMiddleware:
    """If the database goes away in the middle of a request (a restart, a failover), answer
    503 with a page that needs no database, saying that nothing was saved. Every write is one
    transaction, so nothing is half-saved; the next request reconnects."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        from django.db import InterfaceError, OperationalError, connections
        from django.template.loader import render_to_string

        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        logging.getLogger(__name__).error("database unavailable: %s", exception)
        for conn in connections.all():
            conn.close_if_unusable_or_obsolete()
        html = render_to_string("503.html")
        response = HttpResponse(html, status=503)
        response["Retry-After"] = "5"
        return response
