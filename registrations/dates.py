"""Dates and times as people read them, in the active language and Toronto time: "Wednesday,
December 23, 2026, 6:30 p.m." / "Среда, 23 декабря 2026, 18:30" (Django's localised
formats; the long date's pattern is translated in the catalogue)."""

from __future__ import annotations

from datetime import date, datetime

from django.utils import formats, timezone
from django.utils.translation import pgettext


def long_date(value: date | datetime) -> str:
    """The weekday and the date in words."""
    if isinstance(value, datetime):
        value = timezone.localtime(value)
    # Translators: a Django date format (https://docs.djangoproject.com/en/stable/ref/templates/builtins/#date); Russian: "l, j E Y" (E is the month in the genitive).
    return formats.date_format(value, pgettext("long date with weekday", "l, F j, Y"))


def time_of_day(value: datetime) -> str:
    return formats.time_format(timezone.localtime(value), "TIME_FORMAT")


def date_and_time(value: datetime) -> str:
    """``Wednesday, December 23, 2026, 6:30 p.m.``"""
    return f"{long_date(value)}, {time_of_day(value)}"


def date_range(first: date, last: date) -> str:
    """One day, or the first and the last day."""
    if first == last:
        return long_date(first)
    return f"{long_date(first)} – {long_date(last)}"


def time_range(start: datetime, end: datetime) -> str:
    """``Wednesday, December 23, 2026, 6:30 p.m.–8:00 p.m.``"""
    return f"{date_and_time(start)}–{time_of_day(end)}"


def short_date_time(value: datetime) -> str:
    """For tables: ``12/23/2026 6:30 p.m.`` / ``23.12.2026 18:30``."""
    return formats.date_format(timezone.localtime(value), "SHORT_DATETIME_FORMAT")
