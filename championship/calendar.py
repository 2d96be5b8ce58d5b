""".ics calendar files (RFC 5545) of a tournament's schedule, written with the ``icalendar``
library (line folding, escaping, the time zone's definition).

One event per round that has a start: from its start to its start plus the round's length, on
the clocks of the tournament's zone (``TZID`` with the zone's ``VTIMEZONE``, so a calendar
anywhere shows the right moment, summer time or not). Each round's ``UID`` is stable
(``tournament-<id>-round-<n>@<domain>``) and its ``SEQUENCE`` rises each time its start moves
(``RoundStart.sequence``), so a calendar that imports the file again — or reads the
subscription, ``/t/<slug>/schedule.ics`` — moves the event instead of adding a copy. A
tournament without a single round time yet is one whole-day event over its days (``UID``
``tournament-<id>``, as before times existed). Once the tournament is finished, the rounds it
never played are ``STATUS:CANCELLED`` (their ``SEQUENCE`` one higher), so a calendar that reads
the file again no longer shows them as to come (docs/tournament-day.md)."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime, timedelta
from email.utils import parseaddr
from zoneinfo import ZoneInfo

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _
from icalendar import Calendar, Event

from . import schedule
from .models import RoundStart, Tournament

CONTENT_TYPE = "text/calendar; charset=utf-8; method=PUBLISH"


def domain() -> str:
    """The right-hand side of the events' UIDs: the sender's domain."""
    return parseaddr(settings.DEFAULT_FROM_EMAIL)[1].rpartition("@")[2] or "nardy.local"


def calendar_bytes(events: list[Event], *, name: str = "") -> bytes:
    calendar = Calendar()
    calendar.add("prodid", "-//Modern Nardy Toronto//Registrations//EN")
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    if name:
        calendar.add("x-wr-calname", name)
    for event in events:
        calendar.add_component(event)
    calendar.add_missing_timezones()
    return calendar.to_ical()


def event(
    *,
    uid: str,
    summary: str,
    location: str,
    description: str,
    url: str,
    now: datetime | None = None,
) -> Event:
    made = Event()
    made.add("uid", f"{uid}@{domain()}")
    made.add("dtstamp", now or timezone.now())
    made.add("summary", summary)
    if location:
        made.add("location", location)
    if description:
        made.add("description", description)
    if url:
        made.add("url", url)
    return made


def tournament_events(
    t: Tournament,
    starts: list[RoundStart],
    *,
    description: str = "",
    url: str = "",
    now: datetime | None = None,
    cancelled: Collection[int] = (),
) -> list[Event]:
    """The tournament's events: one per round with a start, else one over its days; the
    rounds ``cancelled`` (a finished tournament's rounds never played) marked so."""
    if not starts:
        whole = event(
            uid=f"tournament-{t.pk}",
            summary=t.localized_name,
            location=t.venue,
            description=description,
            url=url,
            now=now,
        )
        whole.add("dtstart", t.starts_on)
        whole.add("dtend", t.ends_on + timedelta(days=1))
        whole.add("transp", "OPAQUE")
        return [whole]
    zone = ZoneInfo(t.time_zone)
    out = []
    for start in sorted(starts, key=lambda s: s.number):
        text = description
        if start.number == 1 and t.self_check_in:
            opens = schedule.after(start.starts_at, -t.check_in_opens_minutes)
            closes = schedule.after(start.starts_at, -t.check_in_closes_minutes)
            window = _("Check-in: %(opens)s–%(closes)s.") % {
                "opens": timezone.localtime(opens, zone).strftime("%H:%M"),
                "closes": timezone.localtime(closes, zone).strftime("%H:%M"),
            }
            text = f"{window}\n{description}".strip()
        round_event = event(
            uid=f"tournament-{t.pk}-round-{start.number}",
            summary=_("%(name)s: round %(n)d") % {"name": t.localized_name, "n": start.number},
            location=t.venue,
            description=text,
            url=url,
            now=now,
        )
        begins = timezone.localtime(start.starts_at, zone)
        round_event.add("dtstart", begins)
        round_event.add(
            "dtend", schedule.on_clocks(schedule.after(begins, t.round_length), t.time_zone)
        )
        if start.number in cancelled:
            round_event.add("status", "CANCELLED")
            round_event.add("sequence", start.sequence + 1)
            round_event.add("transp", "TRANSPARENT")
        else:
            round_event.add("sequence", start.sequence)
            round_event.add("transp", "OPAQUE")
        out.append(round_event)
    return out


def tournament_ics(
    t: Tournament, *, description: str = "", url: str = "", now: datetime | None = None
) -> bytes:
    """The tournament's calendar file: its rounds (or its days) as events."""
    starts = list(t.round_starts.order_by("number"))
    played = set(t.round_set.values_list("number", flat=True)) if t.is_finished else None
    cancelled = [s.number for s in starts if played is not None and s.number not in played]
    return calendar_bytes(
        tournament_events(
            t, starts, description=description, url=url, now=now, cancelled=cancelled
        ),
        name=t.localized_name,
    )
