"""Login throttling for the site (``/accounts/login/``) and the admin (``/admin/login/``).

Failed logins are counted with django-ratelimit (the cache: local memory by default, Redis in
production) per account and client address, and per client address alone. Once either count
reaches its limit (``LOGIN_FAILURES_PER_ACCOUNT``, ``LOGIN_FAILURES_PER_ADDRESS``), the login
form of that address answers 429 with a message saying how long to wait, without checking the
password, until the counting window ends. The organiser can still log in from another
address: the lock is per (account, address), and only spraying many accounts from one address
locks that address as a whole. The address is :func:`common.client_ip.client_network`, the
one the rate limiter uses. ``RATELIMIT_ENABLE=0`` turns it off, and while the cache is down
logins are not throttled (``RATELIMIT_FAIL_OPEN``), like the public forms.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.utils.translation import ngettext
from django_ratelimit.core import get_usage

from .client_ip import client_network

Key = Callable[[str, HttpRequest], str]


def _counters(username: str) -> list[tuple[str, Key, str]]:
    """(group, key, rate) of the two failure counts a login attempt is checked against."""
    account = username.casefold()
    return [
        (
            "login-failures-account",
            lambda group, request: f"{client_network(request)} {account}",
            settings.LOGIN_FAILURES_PER_ACCOUNT,
        ),
        (
            "login-failures-address",
            lambda group, request: client_network(request),
            settings.LOGIN_FAILURES_PER_ADDRESS,
        ),
    ]


def seconds_locked(request: HttpRequest, username: str) -> int:
    """0 if this address may try to log in as ``username`` now, else the seconds to wait."""
    wait = 0
    for group, key, rate in _counters(username):
        usage = get_usage(request, group=group, key=key, rate=rate, increment=False)
        if usage is not None and usage["count"] >= usage["limit"]:
            wait = max(wait, usage["time_left"], 1)
    return wait


def record_failure(request: HttpRequest, username: str) -> None:
    for group, key, rate in _counters(username):
        get_usage(request, group=group, key=key, rate=rate, increment=True)


def lock_message(seconds: int) -> str:
    minutes = max(1, math.ceil(seconds / 60))
    return ngettext(
        "Too many failed login attempts. Please wait %(minutes)d minute and try again.",
        "Too many failed login attempts. Please wait %(minutes)d minutes and try again.",
        minutes,
    ) % {"minutes": minutes}


if TYPE_CHECKING:
    _LoginForm = AuthenticationForm
else:
    _LoginForm = object


class ThrottledLoginMixin(_LoginForm):
    """For an ``AuthenticationForm``: refuse while locked (without checking the password) and
    count each failed authentication. ``throttled`` tells the view to answer 429."""

    request: HttpRequest | None
    cleaned_data: dict[str, Any]
    throttled = False

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username")
        password = self.cleaned_data.get("password")
        if self.request is None or username is None or not password:
            return super().clean()
        wait = seconds_locked(self.request, username)
        if wait:
            self.throttled = True
            raise ValidationError(lock_message(wait), code="throttled")
        try:
            return super().clean()
        except ValidationError:
            if self.get_user() is None:
                record_failure(self.request, username)  # a wrong password, not a refusal
            raise


class LoginForm(ThrottledLoginMixin, AuthenticationForm):
    pass


class AdminLoginForm(ThrottledLoginMixin, AdminAuthenticationForm):
    pass


def _status_for(response: HttpResponse) -> HttpResponse:
    if isinstance(response, TemplateResponse):
        form = (response.context_data or {}).get("form")
        if getattr(form, "throttled", False):
            response.status_code = 429
    return response


class LoginView(auth_views.LoginView):
    """The site's login page (``/accounts/login/``)."""

    authentication_form = LoginForm

    def form_invalid(self, form: Any) -> HttpResponse:
        return _status_for(super().form_invalid(form))


class AdminSite(admin.AdminSite):
    """The admin (``/admin/``) with the throttled login form; installed as the default site
    by :class:`common.apps.AdminConfig`."""

    login_form = AdminLoginForm

    def login(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> Any:
        return _status_for(super().login(request, extra_context))
