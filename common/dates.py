"""Dates and times as people read them, in the active language and Toronto time: "Wednesday,
December 23, 2026, 6:30 p.m." / "среда, 23 декабря 2026, 18:30" (Django's localised
formats; the long date's pattern is translated in the catalogue).

Russian writes the days of the week in lower case ("среда"; Django's catalogue capitalises
them as standalone names): the functions here give them in lower case, so that a date reads
right inside a sentence ("…, среда, 23 декабря", "с 30 декабря до четверга"); a date that
starts a line is capitalised by :func:`sentence` (the template filters do it)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime

from django.utils import formats, timezone
from django.utils.text import capfirst
from django.utils.translation import get_language, pgettext

#: Languages whose days of the week are common nouns, written in lower case in a sentence.
LOWER_CASE_WEEKDAYS = ("ru",)


def sentence(text: str) -> str:
    """A date that starts a line: its first letter capitalised."""
    return str(capfirst(text))


def long_date(value: date | datetime) -> str:
    """The weekday and the date in words."""
    # Translators: a Django date format (https://docs.djangoproject.com/en/stable/ref/templates/builtins/#date); Russian: "l, j E Y" (E is the month in the genitive).
    return _dated(value, pgettext("long date with weekday", "l, F j, Y"), "l")


def short_date(value: date | datetime) -> str:
    """The weekday and the date, short, with the month in words: ``Thu 3 Dec`` / ``чт 3 декабря``
    (a numeric day and month, ``03.12``, reads as the 3rd of December in Russian and as March
    12 to many in English)."""
    # Translators: a Django date format (https://docs.djangoproject.com/en/stable/ref/templates/builtins/#date), short, the month in words; Russian: "D j E" (E is the month in the genitive).
    return _dated(value, pgettext("short date with weekday", "D j M"), "D")


def _dated(value: date | datetime, fmt: str, weekday_fmt: str) -> str:
    """``value`` (a moment: on the local clocks) in ``fmt``, its weekday (``weekday_fmt``) in
    lower case in the languages that write it so."""
    if isinstance(value, datetime):
        value = timezone.localtime(value)
    text = formats.date_format(value, fmt)
    if (get_language() or "").split("-")[0] in LOWER_CASE_WEEKDAYS:
        weekday = formats.date_format(value, weekday_fmt)
        text = text.replace(weekday, weekday.lower(), 1)
    return text


def time_of_day(value: datetime) -> str:
    return formats.time_format(timezone.localtime(value), "TIME_FORMAT")


def date_and_time(value: datetime) -> str:
    """``Wednesday, December 23, 2026, 6:30 p.m.``"""
    return f"{long_date(value)}, {time_of_day(value)}"


def plain_date(value: date) -> str:
    """The language's date format, no weekday: ``Jan. 6, 2027`` / ``6 января 2027 г.``."""
    return formats.date_format(value, "DATE_FORMAT")


def date_range(first: date, last: date, write: Callable[[date], str] = long_date) -> str:
    """One day, or the first and the last day (each as ``write`` writes a day)."""
    if first == last:
        return write(first)
    return f"{write(first)} – {write(last)}"


def time_range(start: datetime, end: datetime) -> str:
    """``Wednesday, December 23, 2026, 6:30 p.m.–8:00 p.m.``"""
    return f"{date_and_time(start)}–{time_of_day(end)}"


def short_date_time(value: datetime) -> str:
    """For tables: ``12/23/2026 6:30 p.m.`` / ``23.12.2026 18:30``."""
    return formats.date_format(timezone.localtime(value), "SHORT_DATETIME_FORMAT")
