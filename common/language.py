"""Links that open a page in a given language (those in e-mails): ``?lang=ru``.

A view decorated with :func:`language_from_query` shows its page in the language named by
``?lang=`` (one of ``LANGUAGES``; anything else is ignored) and remembers it in the language
cookie, as the language switcher does, so the next pages stay in it whatever the browser's
language."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation


def query_language(request: HttpRequest) -> str | None:
    code = request.GET.get("lang", "")
    return code if code in dict(settings.LANGUAGES) else None


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
