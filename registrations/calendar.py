""".ics calendar files (RFC 5545) attached to the e-mails of a tournament entry and of a
master-class seat, written with the ``icalendar`` library (line folding, escaping, time zones).

The event's UID is stable (one per tournament, one per sign-up), so a calendar that imports a
second file for the same thing updates the event instead of adding a copy. A tournament has
dates and no start time: it is a whole-day event over its days. A session starts and ends at
its times in Toronto, with the time zone's definition included."""

from __future__ import annotations

from datetime import timedelta
from email.utils import parseaddr

from django.conf import settings
from django.utils import timezone
from icalendar import Calendar, Event

from championship.models import Tournament

from .models import MasterClassSignup

CONTENT_TYPE = "text/calendar; charset=utf-8; method=PUBLISH"


def _domain() -> str:
    return parseaddr(settings.DEFAULT_FROM_EMAIL)[1].rpartition("@")[2] or "nardy.local"


def _calendar(event: Event) -> bytes:
    calendar = Calendar()
    calendar.add("prodid", "-//Modern Nardy Toronto//Registrations//EN")
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    calendar.add_component(event)
    calendar.add_missing_timezones()
    return calendar.to_ical()


def _event(*, uid: str, summary: str, location: str, description: str, url: str) -> Event:
    event = Event()
    event.add("uid", f"{uid}@{_domain()}")
    event.add("dtstamp", timezone.now())
    event.add("summary", summary)
    if location:
        event.add("location", location)
    if description:
        event.add("description", description)
    if url:
        event.add("url", url)
    return event


def tournament_ics(*, tournament: Tournament, description: str = "", url: str = "") -> bytes:
    """A whole-day event from the first to the last day (DTEND is the day after, RFC 5545)."""
    event = _event(
        uid=f"tournament-{tournament.pk}",
        summary=tournament.localized_name,
        location=tournament.venue,
        description=description,
        url=url,
    )
    event.add("dtstart", tournament.starts_on)
    event.add("dtend", tournament.ends_on + timedelta(days=1))
    event.add("transp", "OPAQUE")
    return _calendar(event)


def signup_ics(*, signup: MasterClassSignup, description: str = "", url: str = "") -> bytes:
    session = signup.session
    event = _event(
        uid=f"masterclass-signup-{signup.pk}",
        summary=session.localized_title,
        location=session.place,
        description=description,
        url=url,
    )
    event.add("dtstart", timezone.localtime(session.starts_at))
    event.add("dtend", timezone.localtime(session.ends_at))
    return _calendar(event)
