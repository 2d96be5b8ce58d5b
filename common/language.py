"""Links that open a page in a given language (those in e-mails): ``?lang=ru``.

A view decorated with :func:`language_from_query` shows its page in the language named by
``?lang=`` (one of ``LANGUAGES``; anything else is ignored) and remembers it in the language
cookie, as the language switcher does, so the next pages stay in it whatever the browser's
language.

Such an address carries the language it was opened in: a link back to it (the switcher's
``next``, a form's ``next``, a login's ``next``) would open it in that language again, undoing
the very choice the link was for. :func:`without_language` is the one rule: every address a
view redirects back to goes through it (``common.views.switch_language``, the organisers'
forms), so ``lang=`` never outlives the page it opened."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, QueryDict
from django.utils import translation

#: The query parameter of a link that opens a page in a language.
PARAMETER = "lang"


def query_language(request: HttpRequest) -> str | None:
    code = request.GET.get(PARAMETER, "")
    return code if code in dict(settings.LANGUAGES) else None


def without_language(url: str) -> str:
    """``url`` without its ``lang=`` (also inside a ``next=`` it carries, as the login's), the
    rest as it was: the address to go back to once the language is chosen."""
    path, mark, query = url.partition("?")
    if not mark:
        return url
    fragment = ""
    if "#" in query:
        query, fragment = query.split("#", 1)
        fragment = "#" + fragment
    params = QueryDict(query, mutable=True)
    if PARAMETER not in params and "next" not in params:
        return url
    params.pop(PARAMETER, None)
    if "next" in params:
        params.setlist("next", [without_language(n) for n in params.getlist("next")])
    rest = params.urlencode(safe="/")
    return f"{path}?{rest}{fragment}" if rest else f"{path}{fragment}"


def language_from_query(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        code = query_language(request)
        if code is None:
            return view(request, *args, **kwargs)
        translation.activate(code)
        request.LANGUAGE_CODE = code
        response = view(request, *args, **kwargs)
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            code,
            max_age=settings.LANGUAGE_COOKIE_AGE or 365 * 86400,
            samesite="Lax",
            secure=request.is_secure(),
        )
        return response

    return wrapped
