"""Template filters of the registrations pages and e-mails: dates in words in the active
language and Toronto time (``registrations.dates``)."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from django import template

from .. import dates

register = template.Library()


@register.filter
def long_date(value: date | datetime | None) -> str:
    return dates.long_date(value) if value else ""


@register.filter
def date_and_time(value: datetime | None) -> str:
    return dates.date_and_time(value) if value else ""


@register.filter
def short_date_time(value: datetime | None) -> str:
    return dates.short_date_time(value) if value else ""


@register.filter
def tournament_dates(tournament: Any) -> str:
    """The tournament's day, or its first and last days."""
    return dates.date_range(tournament.starts_on, tournament.ends_on)


@register.filter
def session_when(session: Any) -> str:
    """The session's day, start and end."""
    return dates.time_range(session.starts_at, session.ends_at)
