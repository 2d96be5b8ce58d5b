"""Helpers of the tournament-day tests: a weekend tournament across the change to summer time
in Toronto (Sunday 14 March 2027, 02:00 → 03:00), players registered with an e-mail in both
languages, a schedule."""

from __future__ import annotations

from datetime import date, datetime, time
from zoneinfo import ZoneInfo

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from championship import schedule, services
from championship.models import Entrant, Tournament
from registrations import tokens
from registrations.models import Registration
from registrations.services import field as registration_field

TORONTO = ZoneInfo("America/Toronto")
SATURDAY = date(2027, 3, 13)
SUNDAY = date(2027, 3, 14)  # summer time starts at 02:00


def at(day: date, hour: int, minute: int = 0) -> datetime:
    """A time on Toronto's clocks."""
    return schedule.local(day, time(hour, minute), "America/Toronto")


def weekend(slug: str = "day", rounds: int = 6, **extra: object) -> Tournament:
    return Tournament.objects.create(
        name="Spring Open",
        name_ru="Весенний турнир",
        slug=slug,
        venue="North York Civic Centre",
        starts_on=SATURDAY,
        ends_on=SUNDAY,
        rounds=rounds,
        **extra,
    )


def register(t: Tournament, name: str, *, language: str = "en", **extra: object) -> Registration:
    now = timezone.now()
    fields: dict[str, object] = {
        "name": name,
        "email": f"{name.lower().replace(' ', '.')}@example.org",
        "phone": "+14165550123",
        "club": "Toronto",
        "experience": "club",
        "language": language,
        "consent_at": now,
        "email_confirmed_at": now,
        **extra,
    }
    return Registration.objects.create(tournament=t, **fields)


@transaction.atomic  # one transaction: the pages renewed once, not after every row
def field(t: Tournament, n: int, *, walk_ins: int = 0) -> list[Registration]:
    """``n`` registered players checked in (entrants made by the one check-in service),
    half of them Russian-speaking, and ``walk_ins`` entrants without a registration."""
    regs = []
    for i in range(n):
        reg = register(t, f"Player {i + 1}", language="ru" if i % 2 else "en")
        registration_field.registration_check_in(registration=reg, checked_in=True)
        regs.append(reg)
    for i in range(walk_ins):
        Entrant.objects.create(tournament=t, name=f"Walk-in {i + 1}", checked_in=True)
    return regs


def timetable(t: Tournament) -> dict[int, datetime]:
    """Three rounds on Saturday from 10:00, three on Sunday from 10:00, 150 minutes apart."""
    starts = schedule.suggest(
        first=t.starts_on,
        last=t.ends_on,
        rounds=t.rounds,
        first_start=time(10, 0),
        round_minutes=150,
        zone=t.time_zone,
    )
    wanted: dict[int, datetime | None] = dict(enumerate(starts, start=1))
    services.round_starts_set(tournament=t, starts=wanted)
    return {n: s for n, s in wanted.items() if s is not None}


def page_url(reg: Registration) -> str:
    token = tokens.make_token(tokens.PLAYER, reg.pk, reg.email)
    return reverse("registrations:my_day", args=[reg.tournament.slug, token])
