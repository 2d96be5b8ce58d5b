"""Template filters of the registrations pages and e-mails: dates in words in the active
language and Toronto time (``common.dates``). They start with a capital letter, as a
date that starts a line; ``:"inline"`` gives the date as it reads inside a sentence, and after a
label, which the sentence goes on from (in Russian, "…, среда, 23 декабря", "Начало: среда,
23 декабря": the e-mails' labelled dates and the lines of what changed read alike)."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from django import template
from django.utils.translation import pgettext

from common import dates

register = template.Library()


@register.filter
def _placed(text: str, where: str) -> str:
    return text if where == "inline" else dates.sentence(text)


@register.filter
def long_date(value: date | datetime | None, where: str = "") -> str:
    return _placed(dates.long_date(value), where) if value else ""


@register.filter
def date_and_time(value: datetime | None, where: str = "") -> str:
    return _placed(dates.date_and_time(value), where) if value else ""


@register.filter
def short_date_time(value: datetime | None) -> str:
    return dates.short_date_time(value) if value else ""


@register.filter
def tournament_dates(tournament: Any, where: str = "") -> str:
    """The tournament's day, or its first and last days."""
    return _placed(dates.date_range(tournament.starts_on, tournament.ends_on), where)


@register.filter
def tournament_days(tournament: Any) -> str:
    """The tournament's day, or its first and last days, short (a page's heading)."""
    return dates.date_range(tournament.starts_on, tournament.ends_on, dates.plain_date)


@register.filter
def session_when(session: Any, where: str = "") -> str:
    """The session's day, start and end."""
    return _placed(dates.time_range(session.starts_at, session.ends_at), where)


@register.filter
def taught_in(session: Any) -> str:
    """The language a session is taught in, as a phrase of the page's language: "in English",
    "на английском" (not the language's own name, which reads oddly in a Russian sentence)."""
    phrases = {
        "en": pgettext("master class taught", "in English"),
        "ru": pgettext("master class taught", "in Russian"),
    }
    return phrases.get(session.language, session.get_language_display())
