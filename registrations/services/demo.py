"""The demo data ``seed_demo`` makes (tournaments marked ``Tournament.demo``, with their
entrants, rounds, games, registrations, master-class sessions and sign-ups, and the people left
with nothing else), removed by an organiser (``manage/demo/remove/``) or ``manage.py
remove_demo``. Nothing else is touched: a tournament an organiser made is never marked demo, and
the organisers' accounts stay. In this app, the layer above the championship: it removes
registrations and tournaments together."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import QuerySet

from championship.models import Entrant, Round, Tournament
from championship.services.ratings import queue_now
from people.models import Person

from ..models import MasterClassSession, MasterClassSignup, OutboundEmail, Registration
from ..selectors import outbox_about


@dataclass
class DemoData:
    """What the demo data holds (to say it before removing it, and after)."""

    tournaments: list[str] = field(default_factory=list)
    registrations: int = 0
    sessions: int = 0
    signups: int = 0

    def __bool__(self) -> bool:
        return bool(self.tournaments)


def _querysets() -> tuple[QuerySet[Any], QuerySet[Any], QuerySet[Any], QuerySet[Any]]:
    """The demo tournaments, their registrations, sessions and sign-ups."""
    tournaments = Tournament.objects.filter(demo=True)
    sessions = MasterClassSession.objects.filter(tournament__in=tournaments)
    signups = MasterClassSignup.objects.filter(session__in=sessions)
    registrations = Registration.objects.filter(tournament__in=tournaments)
    return tournaments, registrations, sessions, signups


def demo_data() -> DemoData:
    """The demo data there is now (four queries)."""
    tournaments, registrations, sessions, signups = _querysets()
    return DemoData(
        tournaments=list(tournaments.order_by("starts_on", "name").values_list("name", flat=True)),
        registrations=registrations.count(),
        sessions=sessions.count(),
        signups=signups.count(),
    )


def demo_remove() -> DemoData:
    """Remove every demo object, in one transaction (all or nothing); returns what it
    removed. Their e-mails not yet sent go too."""
    with transaction.atomic():
        found = demo_data()
        tournaments, registrations, sessions, signups = _querysets()
        OutboundEmail.objects.filter(
            outbox_about(
                registration_ids=list(registrations.values_list("pk", flat=True)),
                signup_ids=list(signups.values_list("pk", flat=True)),
            )
        ).delete()
        # The demo's people: those of its entrants and registrations.
        people = set(registrations.values_list("person_id", flat=True)) | set(
            Entrant.objects.filter(tournament__in=tournaments).values_list("person_id", flat=True)
        )
        signups.delete()
        sessions.delete()
        registrations.delete()
        # Rounds first: their boards (with results and games) protect the entrants.
        Round.objects.filter(tournament__in=tournaments).delete()
        tournaments.delete()  # entrants, requested byes, forbidden pairs go with them
        # The demo's people left with no entrant and no registration (played nowhere else, never
        # merged or split) go too.
        Person.objects.filter(
            pk__in=people,
            entrants__isnull=True,
            registrations__isnull=True,
            changes__isnull=True,
        ).delete()
    transaction.on_commit(queue_now)  # the club's rating again, without the demo's games
    return found
