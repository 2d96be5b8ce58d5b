"""Master-class sign-ups: booking a seat or a place on the waiting list, cancelling, and the
reminder the day before. A session's seats are guarded by a row lock on the session."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from phonenumber_field.phonenumber import PhoneNumber

from ..models import MasterClassSession, MasterClassSignup, Registration
from .outbox import outbox_enqueue
from .waiting_list import session_seats_fill, session_status_for_newcomer


def signup_create(
    *,
    session: MasterClassSession,
    name: str,
    email: str,
    phone: str | PhoneNumber,
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
            outbox_enqueue(kind="signup_link", object_id=existing.pk)
            return existing, False
        session_seats_fill(session_id=locked.pk, now=now)
        status = session_status_for_newcomer(session=locked)
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
        outbox_enqueue(kind="signup_confirm", object_id=signup.pk)
        return signup, True


def signup_cancel(*, signup: MasterClassSignup, now: datetime | None = None) -> MasterClassSignup:
    """Cancel a seat or leave the waiting list; the person gets a confirmation by e-mail and a
    freed seat goes to the first on the session's waiting list (e-mailed too)."""
    with transaction.atomic():
        MasterClassSession.objects.select_for_update().get(pk=signup.session_id)
        locked = MasterClassSignup.objects.select_for_update().get(pk=signup.pk)
        if locked.status == MasterClassSignup.Status.CANCELLED:
            return locked
        locked.status = MasterClassSignup.Status.CANCELLED
        locked.save(update_fields=["status"])
        outbox_enqueue(kind="signup_cancelled", object_id=locked.pk)
        session_seats_fill(session_id=locked.session_id, now=now)
    return locked


def signup_reminders_claim(*, now: datetime | None = None) -> list[int]:
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
        with transaction.atomic():
            if MasterClassSignup.objects.filter(pk=pk, reminder_sent_at__isnull=True).update(
                reminder_sent_at=now
            ):
                outbox_enqueue(kind="signup_reminder", object_id=pk)
                claimed.append(pk)
    return claimed
