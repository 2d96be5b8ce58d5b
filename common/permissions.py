"""Who may use the organisers' pages."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.decorators import login_required, permission_required
from django.http import HttpResponse


def organiser_required(
    perm: str,
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """Anonymous visitors go to the login page; logged-in users without ``perm`` get 403."""

    def wrap(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        wrapped = login_required(permission_required(perm, raise_exception=True)(view))
        # The mark by which tests find every organisers' page (decorators built with
        # functools.wraps, such as require_POST, carry it outwards).
        wrapped.organiser_required = perm  # type: ignore[attr-defined]
        return wrapped

    return wrap
