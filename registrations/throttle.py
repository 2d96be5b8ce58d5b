"""Rate limits of the public registration, sign-up and lost-link forms: they stop bots, not a
group registering over the venue's Wi-Fi.

Per client address (``common.client_ip.client_network``, as the rest of the site), two counts
kept apart (settings, with their defaults):

- ``REGISTRATIONS_PER_ADDRESS`` (40 per 10 minutes): posts that did something — a
  registration or sign-up made, links e-mailed. Thirty people registering from one address
  in ten minutes pass; a script posting a hundred a minute is stopped at the fortieth.
- ``REFUSED_POSTS_PER_ADDRESS`` (50 per 10 minutes): posts refused — a form with mistakes, a
  honeypot filled in. People's typos do not use up the group's registrations.

Per e-mail address, ``POSTS_PER_EMAIL`` (5 per hour): posts that would e-mail that address
(a registration, a duplicate's fresh link, a lost-link request), from any client address, so
nobody can fill someone else's mailbox through the site.

A master-class sign-up that follows the offer on the thank-you page of a registration just
made in the same browser, for the same e-mail address, is part of that registration: it does
not use the address's count a second time (a group of thirty newcomers, each registering and
taking the offered master class, passes), though it still counts for the e-mail address.

An address or e-mail at its limit gets a 429 page that says which limit and for how long
(:class:`Throttled`, rendered by the views) until its window ends; nothing is saved.
``RATELIMIT_ENABLE=0`` turns the limits off; while the cache is down they are not applied
(``RATELIMIT_FAIL_OPEN``), like the rest of the site's limits."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from django_ratelimit.core import get_usage
from django_ratelimit.exceptions import Ratelimited

from common.client_ip import client_network

DONE = "registrations-done-per-address"
REFUSED = "registrations-refused-per-address"
PER_EMAIL = "registrations-per-email"


class Throttled(Ratelimited):
    """A post refused by a limit: ``per_email`` tells which one, ``minutes`` how long the
    window is (the most a person has to wait)."""

    def __init__(self, *, per_email: bool, rate: str) -> None:
        super().__init__()
        self.per_email = per_email
        self.minutes = max(1, -(-_window_seconds(rate) // 60))


_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def _window_seconds(rate: str) -> int:
    """The window of a django-ratelimit rate: ``40/10m`` is 600 seconds, ``5/h`` 3600."""
    period = rate.partition("/")[2].strip() or "m"
    digits = period[:-1]
    return (int(digits) if digits.isdigit() else 1) * _UNIT_SECONDS.get(period[-1], 60)


def _address(group: str, request: HttpRequest) -> str:
    return client_network(request)


def _used_up(request: HttpRequest, group: str, key: object, rate: str) -> bool:
    usage = get_usage(request, group=group, key=key, rate=rate, increment=False)
    return usage is not None and usage["count"] >= usage["limit"]


def check_address(request: HttpRequest, *, same_registration: bool = False) -> None:
    """Before handling a post: refuse it (429) if this address has used up its successful or
    its refused posts (``same_registration``, the offered sign-up of a registration already
    counted: only the refused ones)."""
    if not same_registration and _used_up(
        request, DONE, _address, settings.REGISTRATIONS_PER_ADDRESS
    ):
        raise Throttled(per_email=False, rate=settings.REGISTRATIONS_PER_ADDRESS)
    if _used_up(request, REFUSED, _address, settings.REFUSED_POSTS_PER_ADDRESS):
        raise Throttled(per_email=False, rate=settings.REFUSED_POSTS_PER_ADDRESS)


def _email_key(email: str) -> object:
    normalised = email.strip().lower()
    return lambda group, request: normalised


def check_email(request: HttpRequest, email: str) -> None:
    """Before e-mailing ``email``: refuse (429) if it has had its posts."""
    if _used_up(request, PER_EMAIL, _email_key(email), settings.POSTS_PER_EMAIL):
        raise Throttled(per_email=True, rate=settings.POSTS_PER_EMAIL)


def count_done(request: HttpRequest, email: str, *, same_registration: bool = False) -> None:
    """A post that did something (and e-mailed ``email``). ``same_registration``: a sign-up
    taken from the offer of the registration just made (counted for the e-mail only)."""
    if not same_registration:
        get_usage(
            request,
            group=DONE,
            key=_address,
            rate=settings.REGISTRATIONS_PER_ADDRESS,
            increment=True,
        )
    get_usage(
        request,
        group=PER_EMAIL,
        key=_email_key(email),
        rate=settings.POSTS_PER_EMAIL,
        increment=True,
    )


def count_refused(request: HttpRequest) -> None:
    """A post refused (mistakes in the form, or a bot's)."""
    get_usage(
        request,
        group=REFUSED,
        key=_address,
        rate=settings.REFUSED_POSTS_PER_ADDRESS,
        increment=True,
    )
