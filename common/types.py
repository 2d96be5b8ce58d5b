"""Types shared by the apps' services."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User

#: Who makes a change: a logged-in user, an anonymous request, or nobody (a task, a command).
Actor = User | AnonymousUser | None


def user_or_none(actor: Actor) -> User | None:
    """The user to record as the author of a change (None for an anonymous one)."""
    return actor if isinstance(actor, User) else None
