"""Writes of the registrations app: registering, confirming, withdrawing, master-class
sign-ups and their waiting lists. Capacity is guarded by a row lock on the tournament (or
session) taken inside the transaction, so concurrent submissions are serialised by the
database and a cap is never exceeded."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from championship.models import Tournament

from .models import MasterClassSession, MasterClassSignup, Registration


class RegistrationClosed(Exception):
    """Registration for this tournament is closed (a user error)."""


def _queue_email(kind: str, object_id: int) -> None:
    from .tasks import send_email_task

    transaction.on_commit(lambda: send_email_task.delay(kind, object_id))


@dataclass(frozen=True)
class Outcome:
    registration: Registration
    created: bool


def registration_create(
    *,
    tournament: Tournament,
    name: str,
    email: str,
    phone: str,
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
                _queue_email("registration_link", existing.pk)
                return Outcome(existing, created=False)
            if not locked.registration_open:
                raise RegistrationClosed
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
                status=_status_for_new_entry(locked),
            )
            registration.full_clean()
            registration.save()
            _queue_email("registration_confirm", registration.pk)
            return Outcome(registration, created=True)
    except IntegrityError:
        # The unique constraint is the last line of defence against a duplicate.
        existing = Registration.objects.get(tournament=tournament, email__iexact=email)
        _queue_email("registration_link", existing.pk)
        return Outcome(existing, created=False)


def _entered_count(tournament: Tournament) -> int:
    return Registration.objects.filter(
        tournament=tournament, status=Registration.Status.ENTERED
    ).count()


def _status_for_new_entry(locked: Tournament) -> str:
    if locked.entry_cap is None or _entered_count(locked) < locked.entry_cap:
        return Registration.Status.ENTERED
    return Registration.Status.WAITLISTED


def registration_confirm_email(*, registration: Registration, now: datetime | None = None) -> bool:
    """Mark the address confirmed; False if it already was."""
    updated = Registration.objects.filter(
        pk=registration.pk, email_confirmed_at__isnull=True
    ).update(email_confirmed_at=now or timezone.now())
    registration.refresh_from_db()
    return bool(updated)


def registration_update(
    *, registration: Registration, name: str, phone: str, club: str, experience: str, language: str
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
    *, registration: Registration, now: datetime | None = None
) -> Registration:
    """Withdraw; a freed seat goes to the first player on the waiting list (e-mailed)."""
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=registration.tournament_id)
        reg = Registration.objects.select_for_update().get(pk=registration.pk)
        if reg.status != Registration.Status.WITHDRAWN:
            reg.status = Registration.Status.WITHDRAWN
            reg.withdrawn_at = now or timezone.now()
            reg.save(update_fields=["status", "withdrawn_at", "updated_at"])
            promote_waitlisted(tournament=locked)
    return reg


def registration_reenter(*, registration: Registration) -> Registration:
    """A withdrawn player enters again (at the end of the queue if the field is full)."""
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=registration.tournament_id)
        reg = Registration.objects.select_for_update().get(pk=registration.pk)
        if reg.status == Registration.Status.WITHDRAWN:
            if not locked.registration_open:
                raise RegistrationClosed
            reg.status = _status_for_new_entry(locked)
            reg.created_at = timezone.now()
            reg.withdrawn_at = None
            reg.save(update_fields=["status", "created_at", "withdrawn_at", "updated_at"])
    return reg


def promote_waitlisted(*, tournament: Tournament) -> list[Registration]:
    """Fill free seats from the waiting list in order. Call with the tournament row locked."""
    promoted: list[Registration] = []
    entered = _entered_count(tournament)
    waiting = Registration.objects.filter(
        tournament=tournament, status=Registration.Status.WAITLISTED
    ).order_by("created_at", "pk")
    for reg in waiting:
        if tournament.entry_cap is not None and entered >= tournament.entry_cap:
            break
        reg.status = Registration.Status.ENTERED
        reg.save(update_fields=["status", "updated_at"])
        _queue_email("registration_promoted", reg.pk)
        promoted.append(reg)
        entered += 1
    return promoted


# --- Master class ----------------------------------------------------------------------------
def signup_create(
    *,
    session: MasterClassSession,
    name: str,
    email: str,
    phone: str,
    language: str,
    registration: Registration | None = None,
    now: datetime | None = None,
) -> tuple[MasterClassSignup, bool]:
    """Book a seat, or a place on the waiting list when the session is full. A second
    sign-up with the same e-mail creates nothing and re-sends the link."""
    now = now or timezone.now()
    with transaction.atomic():
        locked = MasterClassSession.objects.select_for_update().get(pk=session.pk)
        existing = MasterClassSignup.objects.filter(session=locked, email__iexact=email).first()
        if existing is not None and existing.status != MasterClassSignup.Status.CANCELLED:
            _queue_email("signup_link", existing.pk)
            return existing, False
        booked = MasterClassSignup.objects.filter(
            session=locked, status=MasterClassSignup.Status.BOOKED
        ).count()
        status = (
            MasterClassSignup.Status.BOOKED
            if booked < locked.seats
            else MasterClassSignup.Status.WAITLISTED
        )
        signup = existing or MasterClassSignup(session=locked, email=email)
        signup.name = name
        signup.phone = phone
        signup.language = language
        signup.registration = registration
        signup.status = status
        signup.consent_at = now
        signup.created_at = now
        signup.reminder_sent_at = None
        signup.full_clean()
        signup.save()
        _queue_email("signup_confirm", signup.pk)
        return signup, True


def signup_cancel(*, signup: MasterClassSignup) -> MasterClassSignup:
    """Cancel; a freed seat goes to the first on the session's waiting list (e-mailed)."""
    with transaction.atomic():
        session = MasterClassSession.objects.select_for_update().get(pk=signup.session_id)
        locked = MasterClassSignup.objects.select_for_update().get(pk=signup.pk)
        if locked.status == MasterClassSignup.Status.CANCELLED:
            return locked
        was_booked = locked.status == MasterClassSignup.Status.BOOKED
        locked.status = MasterClassSignup.Status.CANCELLED
        locked.save(update_fields=["status"])
        if was_booked:
            nxt = (
                MasterClassSignup.objects.filter(
                    session=session, status=MasterClassSignup.Status.WAITLISTED
                )
                .order_by("created_at", "pk")
                .first()
            )
            if nxt is not None:
                nxt.status = MasterClassSignup.Status.BOOKED
                nxt.save(update_fields=["status"])
                _queue_email("signup_promoted", nxt.pk)
    return locked


def reminders_due(now: datetime | None = None) -> list[int]:
    """Claim the sign-ups whose session is tomorrow (local date) and not yet reminded; each is
    claimed once, so a rerun of the beat task sends no second reminder."""
    now = now or timezone.now()
    tomorrow = timezone.localtime(now).date() + timedelta(days=1)
    ids = list(
        MasterClassSignup.objects.filter(
            status=MasterClassSignup.Status.BOOKED,
            reminder_sent_at__isnull=True,
            session__starts_at__date=tomorrow,
        ).values_list("pk", flat=True)
    )
    claimed = []
    for pk in ids:
        if MasterClassSignup.objects.filter(pk=pk, reminder_sent_at__isnull=True).update(
            reminder_sent_at=now
        ):
            claimed.append(pk)
    return claimed
