""".ics calendar files (RFC 5545) attached to the e-mails of a tournament entry and of a
master-class seat, written with the ``icalendar`` library (line folding, escaping, time zones).

The events' UIDs are stable (one per round of a tournament, one per sign-up), so a calendar
that imports a second file for the same thing updates the event instead of adding a copy. A
tournament's file is its schedule: one event per round at its time in the tournament's zone
(``championship.calendar``; whole days while no round has a time). A session starts and ends
at its times in Toronto, with the time zone's definition included."""

from __future__ import annotations

from django.utils import timezone

from championship import calendar as schedule_calendar
from championship.models import Tournament

from .models import MasterClassSignup

CONTENT_TYPE = schedule_calendar.CONTENT_TYPE


def tournament_ics(*, tournament: Tournament, description: str = "", url: str = "") -> bytes:
    """The tournament's rounds at their times (whole days before the schedule is set)."""
    return schedule_calendar.tournament_ics(tournament, description=description, url=url)


def signup_ics(*, signup: MasterClassSignup, description: str = "", url: str = "") -> bytes:
    session = signup.session
    event = schedule_calendar.event(
        uid=f"masterclass-signup-{signup.pk}",
        summary=session.localized_title,
        location=session.place,
        description=description,
        url=url,
    )
    event.add("dtstart", timezone.localtime(session.starts_at))
    event.add("dtend", timezone.localtime(session.ends_at))
    return schedule_calendar.calendar_bytes([event])
