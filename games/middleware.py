"""An unchanged spectator's poll answered before the rest of the middleware (issue 22: the
hall's load, docs/performance.md "The hall", runs 81 and after).

Nearly every request of a round in play is a poll that gets ``304``: 600 spectators on the
multiboard and 300 on a game's page ask every 2 s, and between two turns nothing they poll
changes. The poll's view answers such a request from the cache with no query, yet each went
through all of the middleware (the session, the language, CSRF, the user, the messages, the
rate limit) and the resolution of the URL against every pattern of the site: four fifths of
its cost. This middleware, placed after the ones that only add headers (security, CSP,
X-Frame-Options) and before the session's, sends such a request to the poll's own view at
once (``games.urls_polls``) and returns the view's ``304``; anything else (a changed poll, an
error, a 404) goes on through the whole stack as before, and the view's answer there is the
same one, kept.

Only for requests that the whole stack would treat as an anonymous visitor's: a GET or HEAD
with ``If-None-Match``, no query string, no session cookie (so no logged-in user: an arbiter
or organiser sees the games undelayed, ``games.delay``, and never takes this path), no pending
message. The language is chosen as ``LocaleMiddleware`` chooses it (the language cookie, then
the browser's), and the answer carries what the skipped middleware adds to it (``Content-Language``, ``Vary:
Accept-Language, Cookie``, ``Content-Length``): a test compares every header with the whole
stack's.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest, HttpResponse
from django.urls import Resolver404, get_resolver
from django.utils import translation
from django.utils.cache import patch_vary_headers

from common.cache import anonymous

#: The polls answered early (``games.urls_polls``: the same patterns the site's URLs take).
POLLS = "games.urls_polls"


class EarlyPollMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.early(request)
        return self.get_response(request) if response is None else response

    @staticmethod
    def early(request: HttpRequest) -> HttpResponse | None:
        """The poll view's ``304`` for this request, or None: the whole stack answers it."""
        meta = request.META
        if "HTTP_IF_NONE_MATCH" not in meta or meta.get("QUERY_STRING"):
            return None
        if settings.SESSION_COOKIE_NAME in request.COOKIES:
            return None
        request.user = AnonymousUser()
        if not anonymous(request):  # not a GET or HEAD, or a message pending
            return None
        try:
            match = get_resolver(POLLS).resolve(request.path_info)
        except Resolver404:
            return None
        language = translation.get_language_from_request(request)
        with translation.override(language):
            try:
                response: HttpResponse = match.func(request, *match.args, **match.kwargs)
            except Exception:  # noqa: BLE001 - the whole stack answers it, as it would have:
                return None  # its 404 page, its 503 while the database is down, its report
        if response.status_code != 304:
            return None
        patch_vary_headers(response, ("Accept-Language",))  # as LocaleMiddleware
        patch_vary_headers(response, ("Cookie",))  # as the session's: the viewer is in it
        response.headers.setdefault("Content-Language", language)
        response.headers.setdefault("Content-Length", str(len(response.content)))  # Common
        return response
