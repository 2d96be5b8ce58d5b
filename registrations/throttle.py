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

An address or e-mail at its limit gets the 429 page (``RATELIMIT_VIEW``) until its window ends.
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


def _address(group: str, request: HttpRequest) -> str:
    return client_network(request)


def _used_up(request: HttpRequest, group: str, key: object, rate: str) -> bool:
    usage = get_usage(request, group=group, key=key, rate=rate, increment=False)
    return usage is not None and usage["count"] >= usage["limit"]


def check_address(request: HttpRequest) -> None:
    """Before handling a post: refuse it (429) if this address has used up its successful or
    its refused posts."""
    if _used_up(request, DONE, _address, settings.REGISTRATIONS_PER_ADDRESS) or _used_up(
        request, REFUSED, _address, settings.REFUSED_POSTS_PER_ADDRESS
    ):
        raise Ratelimited()


def _email_key(email: str) -> object:
    normalised = email.strip().lower()
    return lambda group, request: normalised


def check_email(request: HttpRequest, email: str) -> None:
    """Before e-mailing ``email``: refuse (429) if it has had its posts."""
    if _used_up(request, PER_EMAIL, _email_key(email), settings.POSTS_PER_EMAIL):
        raise Ratelimited()


def count_done(request: HttpRequest, email: str) -> None:
    """A post that did something (and e-mailed ``email``)."""
    get_usage(
        request, group=DONE, key=_address, rate=settings.REGISTRATIONS_PER_ADDRESS, increment=True
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
