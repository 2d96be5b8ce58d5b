"""Privacy: removing a person's name and contact data, on request (an organiser, for one
e-mail address) or automatically ``PERSONAL_DATA_RETENTION_DAYS`` after the tournament ended
or the session took place. The rows stay, initials instead of the name, so counts and results
stay true; e-mails not yet sent to the person are dropped."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from championship.models import Entrant, Tournament
from championship.services import WithdrawnBy
from people.models import Person

from ..models import MasterClassSession, MasterClassSignup, OutboundEmail, Registration
from ..selectors import outbox_about
from .participation import participant_withdraw
from .waiting_list import session_seats_fill, tournament_places_fill


def _initials(name: str) -> str:
    return " ".join(part[0].upper() + "." for part in name.split() if part[:1].isalpha()) or "—"


def _registration_strip(registration: Registration, *, now: datetime) -> None:
    registration.name = _initials(registration.name)
    # The entrant made from the registration shows the name on the public pages: initials
    # there too (a save, so the public pages are made new), the results stay.
    for entrant in Entrant.objects.filter(registration=registration):
        entrant.name, entrant.club = registration.name, ""
        entrant.save(update_fields=["name", "club"])
    registration.email = f"anonymised-r{registration.pk}@invalid.invalid"
    registration.phone = ""
    registration.club = ""
    registration.anonymised_at = now
    registration.save(
        update_fields=[
            "name",
            "email",
            "phone",
            "club",
            "status",
            "withdrawn_at",
            "anonymised_at",
            "updated_at",
        ]
    )
    # The person's name, too, unless they played in a tournament (the results stay public
    # under the entrant's name, as they always did).
    Person.objects.filter(pk=registration.person_id, entrants__isnull=True).update(
        name=registration.name
    )


def _signup_strip(signup: MasterClassSignup, *, now: datetime) -> None:
    signup.name = _initials(signup.name)
    signup.email = f"anonymised-s{signup.pk}@invalid.invalid"
    signup.phone = ""
    signup.anonymised_at = now
    signup.save(update_fields=["name", "email", "phone", "status", "anonymised_at"])


def _drop_unsent(registrations: list[Registration], signups: list[MasterClassSignup]) -> None:
    OutboundEmail.objects.filter(
        outbox_about(
            registration_ids=[r.pk for r in registrations], signup_ids=[s.pk for s in signups]
        ),
        status__in=[OutboundEmail.Status.PENDING, OutboundEmail.Status.SENDING],
    ).delete()


def person_anonymise(*, email: str, now: datetime | None = None) -> int:
    """Remove the name and contact data of the person with this e-mail address from all their
    registrations and sign-ups. A place they hold in a tournament not yet started, or a seat
    in a session to come, is given up first (they cannot be reached any more) and goes to the
    waiting list. Returns the number of rows anonymised."""
    now = now or timezone.now()
    with transaction.atomic():
        # Lock in the order the other services do: the tournament or session, then the rows.
        tournament_ids = sorted(
            set(
                Registration.objects.filter(email__iexact=email).values_list(
                    "tournament_id", flat=True
                )
            )
        )
        session_ids = sorted(
            set(
                MasterClassSignup.objects.filter(email__iexact=email).values_list(
                    "session_id", flat=True
                )
            )
        )
        tournaments = {
            t.pk: t for t in Tournament.objects.select_for_update().filter(pk__in=tournament_ids)
        }
        sessions = {
            s.pk: s
            for s in MasterClassSession.objects.select_for_update().filter(pk__in=session_ids)
        }
        registrations = list(
            Registration.objects.select_for_update().filter(email__iexact=email).order_by("pk")
        )
        signups = list(
            MasterClassSignup.objects.select_for_update().filter(email__iexact=email).order_by("pk")
        )
        _drop_unsent(registrations, signups)
        for registration in registrations:
            upcoming = tournaments[registration.tournament_id].status == (
                Tournament.Status.REGISTRATION
            )
            if upcoming and registration.status != Registration.Status.WITHDRAWN:
                # The one door of withdrawals: the entrant follows; no e-mail (unreachable).
                participant_withdraw(registration=registration, by=WithdrawnBy.PRIVACY, now=now)
            _registration_strip(registration, now=now)
        for signup in signups:
            upcoming = sessions[signup.session_id].starts_at > now
            if upcoming and signup.status != MasterClassSignup.Status.CANCELLED:
                signup.status = MasterClassSignup.Status.CANCELLED
            _signup_strip(signup, now=now)
        for tournament_id in tournament_ids:
            tournament_places_fill(tournament_id=tournament_id)
        for session_id in session_ids:
            session_seats_fill(session_id=session_id, now=now)
    return len(registrations) + len(signups)


def personal_data_expire(*, now: datetime | None = None) -> int:
    """Anonymise what is kept longer than ``PERSONAL_DATA_RETENTION_DAYS``: registrations of
    tournaments that ended that many days ago, sign-ups of sessions held that many days ago.
    Run daily by Celery beat. Returns the number of rows anonymised."""
    now = now or timezone.now()
    days = settings.PERSONAL_DATA_RETENTION_DAYS
    last_day = timezone.localtime(now).date() - timedelta(days=days)
    with transaction.atomic():
        registrations = list(
            Registration.objects.select_for_update(of=("self",)).filter(
                anonymised_at__isnull=True, tournament__ends_on__lt=last_day
            )
        )
        signups = list(
            MasterClassSignup.objects.select_for_update(of=("self",)).filter(
                anonymised_at__isnull=True, session__starts_at__lt=now - timedelta(days=days)
            )
        )
        _drop_unsent(registrations, signups)
        for registration in registrations:
            _registration_strip(registration, now=now)
        for signup in signups:
            _signup_strip(signup, now=now)
    return len(registrations) + len(signups)
