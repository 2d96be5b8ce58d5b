"""Tournament registrations: registering, confirming the address, editing, withdrawing,
entering again, check-in, and fresh links for a lost e-mail.

The entry cap is guarded by a row lock on the tournament taken inside the transaction, so
concurrent submissions are serialised by the database and the cap is never exceeded; places
are filled from the waiting list by ``waiting_list`` only."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone
from phonenumber_field.phonenumber import PhoneNumber

from championship.models import Entrant, RegistrationState, Tournament
from championship.services import CheckIn, WithdrawnBy
from championship.services.changes import tournament_changed
from championship.services.errors import RegistrationClosed as _RegistrationClosed

from .. import tokens
from ..models import MasterClassSignup, Registration
from .outbox import outbox_enqueue
from .participation import participant_reinstate, participant_withdraw
from .waiting_list import tournament_places_fill, tournament_status_for_newcomer

#: Registration for this tournament is closed (a user error): the one rule is
#: ``Tournament.registration_state``, checked with the tournament's row locked, so a form shown
#: while it was open and sent after it closed (or after the tournament started or finished)
#: registers nobody.
RegistrationClosed = _RegistrationClosed


@dataclass(frozen=True)
class Outcome:
    registration: Registration
    created: bool


def registration_create(
    *,
    tournament: Tournament,
    name: str,
    email: str,
    phone: str | PhoneNumber,
    club: str,
    experience: str,
    language: str,
    now: datetime | None = None,
) -> Outcome:
    """Register a player. A second registration with the same e-mail (any case) creates
    nothing: the existing one gets a fresh management link by e-mail."""
    now = now or timezone.now()
    try:
        with transaction.atomic():
            locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
            existing = Registration.objects.filter(tournament=locked, email__iexact=email).first()
            if existing is not None:
                outbox_enqueue(kind="registration_link", object_id=existing.pk)
                return Outcome(existing, created=False)
            if locked.registration_state(now) != RegistrationState.OPEN:
                raise RegistrationClosed
            tournament_places_fill(tournament_id=locked.pk)
            registration = Registration(
                tournament=locked,
                name=name,
                email=email,
                phone=phone,
                club=club,
                experience=experience,
                language=language,
                consent_at=now,
                created_at=now,
                status=tournament_status_for_newcomer(tournament=locked),
            )
            registration.full_clean()
            registration.save()
            outbox_enqueue(kind="registration_confirm", object_id=registration.pk)
            return Outcome(registration, created=True)
    except IntegrityError:
        # The unique constraint is the last line of defence against a duplicate.
        existing = Registration.objects.get(tournament=tournament, email__iexact=email)
        outbox_enqueue(kind="registration_link", object_id=existing.pk)
        return Outcome(existing, created=False)


def registration_confirm_email(*, registration: Registration, now: datetime | None = None) -> bool:
    """Mark the address confirmed; False if it already was. A newly confirmed address joins
    the registration to the person of the others confirmed under it (``people``), and a
    confirmed name is listed on the public pages (``championship.selectors``)."""
    from .people import registration_person_match

    with transaction.atomic():
        updated = Registration.objects.filter(
            pk=registration.pk, email_confirmed_at__isnull=True
        ).update(email_confirmed_at=now or timezone.now())
        registration.refresh_from_db()
        if updated:
            registration_person_match(registration=registration)
            tournament_changed(registration.tournament_id)
    return bool(updated)


def registration_by_link(purpose: str, token: str) -> Registration:
    """The registration a signed link names (``tokens.LinkError``: tampered with, expired, or
    its address changed since), the one door of every page reached by a link. Following it
    confirms the address: the link went only to that address by e-mail and names it, so it
    proves the address receives mail as the confirmation link does (``registration_confirm_email``;
    nothing is written once confirmed, nor for an anonymised person). The confirmation link's
    own page confirms it itself, saying whether it was new."""
    pk, email = tokens.read_token(purpose, token)
    registration = Registration.objects.select_related("tournament").filter(pk=pk).first()
    if registration is None or registration.email.lower() != email:
        raise tokens.LinkError(expired=False)
    if (
        purpose != tokens.CONFIRM
        and registration.email_confirmed_at is None
        and registration.anonymised_at is None
    ):
        registration_confirm_email(registration=registration)
    return registration


def registration_update(
    *,
    registration: Registration,
    name: str,
    phone: str | PhoneNumber,
    club: str,
    experience: str,
    language: str,
) -> Registration:
    registration.name = name
    registration.phone = phone
    registration.club = club
    registration.experience = experience
    registration.language = language
    registration.full_clean()
    registration.save(
        update_fields=["name", "phone", "club", "experience", "language", "updated_at"]
    )
    return registration


def registration_withdraw(
    *, registration: Registration, by_organiser: bool = False, now: datetime | None = None
) -> Registration:
    """Withdraw through the one door (``championship.services.participant_withdraw``): the
    registration and its entrant together, the e-mail, the waiting list."""
    participant_withdraw(
        registration=registration,
        by=WithdrawnBy.ORGANISER if by_organiser else WithdrawnBy.PLAYER,
        now=now,
    )
    return registration


def registration_reenter(
    *, registration: Registration, by_organiser: bool = False, now: datetime | None = None
) -> Registration:
    """Enter again through the one door (``championship.services.participant_reinstate``):
    entered if a place is free and nobody waits, else at the end of the waiting list; a player
    needs registration to be open (``RegistrationClosed``)."""
    participant_reinstate(
        registration=registration,
        by=WithdrawnBy.ORGANISER if by_organiser else WithdrawnBy.PLAYER,
        now=now,
    )
    return registration


def registration_check_in_toggle(
    *, registration: Registration, missed_rounds: str = "Z"
) -> CheckIn:
    """Check a registered player in, or undo it. Check-in is one fact, the tournament's
    (``Entrant.checked_in``, ``field.registration_check_in``): checking in here makes or
    updates the player's entrant, and the list shows the same fact. After round 1 it is a
    late entry, whose missed rounds score as ``missed_rounds`` says ("Z" zero, "H" half-point
    byes up to the tournament's cap). ``ChampionshipError`` says why it cannot be done
    (nothing changed)."""
    from .field import registration_check_in

    entrant = Entrant.objects.filter(registration=registration).first()
    now_in = entrant.checked_in if entrant is not None else False
    result = registration_check_in(
        registration=registration, checked_in=not now_in, missed_rounds=missed_rounds
    )
    registration.refresh_from_db(fields=["checked_in_at", "updated_at"])
    return result


def person_links_send(*, email: str) -> int:
    """E-mail fresh links for every registration and sign-up under this address (one e-mail
    each); nothing for an unknown address. Returns how many e-mails were queued — for tests
    only: the page never tells whether an address is known."""
    queued = 0
    with transaction.atomic():
        registrations = Registration.objects.filter(
            email__iexact=email, anonymised_at__isnull=True
        ).values_list("pk", flat=True)
        for pk in registrations:
            outbox_enqueue(kind="registration_link", object_id=pk, params={"asked": True})
            queued += 1
        signups = (
            MasterClassSignup.objects.filter(email__iexact=email, anonymised_at__isnull=True)
            .exclude(status=MasterClassSignup.Status.CANCELLED)
            .values_list("pk", flat=True)
        )
        for pk in signups:
            outbox_enqueue(kind="signup_link", object_id=pk, params={"asked": True})
            queued += 1
    return queued
