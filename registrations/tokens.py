"""Signed links in e-mails: confirm an address, manage a registration, cancel a sign-up, open
the player's own page of the tournament day.

A token is ``django.core.signing`` output (HMAC with SECRET_KEY and a salt per purpose,
with a timestamp), so it cannot be forged or reused for another purpose, and it expires after
``SIGNED_LINK_MAX_AGE`` seconds.
"""

from __future__ import annotations

from django.conf import settings
from django.core import signing

CONFIRM = "registrations.confirm"
MANAGE = "registrations.manage"
SIGNUP = "registrations.signup"
#: The player's own page on the tournament day (registrations.player_views).
PLAYER = "registrations.player"


class LinkError(Exception):
    """The link is tampered with (``expired`` False) or too old (``expired`` True)."""

    def __init__(self, expired: bool) -> None:
        super().__init__("expired" if expired else "invalid")
        self.expired = expired


def make_token(purpose: str, pk: int, email: str) -> str:
    return signing.dumps({"id": pk, "e": email.lower()}, salt=purpose, compress=True)


def read_token(purpose: str, token: str) -> tuple[int, str]:
    try:
        data = signing.loads(token, salt=purpose, max_age=settings.SIGNED_LINK_MAX_AGE)
    except signing.SignatureExpired:
        raise LinkError(expired=True) from None
    except signing.BadSignature:
        raise LinkError(expired=False) from None
    if not isinstance(data, dict) or not isinstance(data.get("id"), int):
        raise LinkError(expired=False)
    return data["id"], str(data.get("e", ""))
