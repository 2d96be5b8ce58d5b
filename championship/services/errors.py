"""The championship's user errors: translated, fixable by the organiser; nothing was changed."""

from __future__ import annotations

from typing import Any


class ChampionshipError(Exception):
    """A request that cannot be carried out; the message says why and nothing changed.

    An error of the pairing also carries a stable ``code`` and its ``params`` (like the rules
    engine's and the pairing engine's errors), so that a page can say it again in its reader's
    language (``pairing_text.error_text``): the pairing runs in a worker, and the organiser who
    reads its outcome may read another language than the one who asked."""

    def __init__(self, message: str, *, code: str = "", params: dict[str, Any] | None = None):
        super().__init__(message)
        self.code = code
        self.params: dict[str, Any] = dict(params or {})


class RegistrationClosed(ChampionshipError):
    """Registration for this tournament is closed (``Tournament.registration_state``)."""

    def __init__(self, message: str = "") -> None:
        super().__init__(message or "registration closed", code="registration.closed")
