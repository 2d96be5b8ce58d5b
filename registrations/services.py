"""Writes of the registrations app: registering, confirming, withdrawing, master-class
sign-ups and their waiting lists. Capacity is guarded by a row lock on the tournament (or
session) taken inside the transaction, so concurrent submissions are serialised by the
database and a cap is never exceeded."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.utils import parseaddr

from django.conf import settings
from django.core.mail import make_msgid
from django.db import IntegrityError, transaction
from django.db.models import Case, F, Q, QuerySet, Value, When
from django.utils import timezone

from championship.models import Tournament

from . import emails
from .models import MasterClassSession, MasterClassSignup, OutboundEmail, Registration

log = logging.getLogger(__name__)


class RegistrationClosed(Exception):
    """Registration for this tournament is closed (a user error)."""


def _queue_email(kind: str, object_id: int) -> OutboundEmail:
    """Record the e-mail in the current transaction; hand it to a worker after the commit.

    If the broker cannot be reached then, the e-mail stays pending and the periodic task
    ``send_pending_emails`` sends it later; the user's request succeeds either way."""
    outbox = OutboundEmail.objects.create(kind=kind, object_id=object_id)
    transaction.on_commit(lambda: _dispatch(outbox.pk))
    return outbox


def _dispatch(outbox_id: int) -> None:
    from .tasks import send_email_task

    try:
        send_email_task.delay(outbox_id)
    except Exception:  # the broker is down: the periodic task will send it
        log.warning("could not queue e-mail %s; it stays pending", outbox_id, exc_info=True)


def outbox_send(*, outbox_id: int, now: datetime | None = None) -> bool:
    """Send one recorded e-mail; False if there is nothing to do (sent already, or another
    worker is sending it right now). Call it outside any transaction.

    1. Claim the row in a transaction of its own, committed before the mail server is
       contacted: ``sending``, since when, and the Message-ID the message will carry (made at
       the first attempt, kept for every later one).
    2. Send the message with that Message-ID.
    3. Mark it ``sent``.

    A worker that dies between 1 and 3 leaves the row ``sending``; once that is older than
    ``OUTBOX_SENDING_TIMEOUT`` the sweeper (``send_pending_emails``) claims it again and sends
    it with the same Message-ID. So no e-mail is lost, and one goes out twice only if its
    worker died after the mail server had accepted it and before step 3 was committed, i.e.
    inside the SMTP exchange itself; both copies then carry the same Message-ID, by which
    mail servers and clients can tell the second for a duplicate. A mail-server error puts the
    row back to ``pending`` (Message-ID kept) and is raised for the caller to retry."""
    row = _outbox_claim(outbox_id=outbox_id, now=now or timezone.now())
    if row is None:
        return False
    try:
        emails.send(row.kind, row.object_id, message_id=row.message_id)
    except Exception as exc:
        _outbox_claimed_by(row).update(
            status=OutboundEmail.Status.PENDING, last_error=repr(exc)[:2000]
        )
        raise
    _outbox_mark_sent(row, now=now or timezone.now())
    return True


def _outbox_claimed_by(row: OutboundEmail) -> QuerySet[OutboundEmail]:
    """The row while it is still this claim's (not claimed again after a timeout meanwhile)."""
    return OutboundEmail.objects.filter(
        pk=row.pk, status=OutboundEmail.Status.SENDING, sending_since=row.sending_since
    )


def _claimable(now: datetime) -> Q:
    """Pending, or left ``sending`` by a worker that died."""
    stale = now - timedelta(seconds=settings.OUTBOX_SENDING_TIMEOUT)
    return Q(status=OutboundEmail.Status.PENDING) | Q(
        status=OutboundEmail.Status.SENDING, sending_since__lt=stale
    )


def _outbox_claim(*, outbox_id: int, now: datetime) -> OutboundEmail | None:
    """Step 1 of ``outbox_send``. One conditional UPDATE: of two workers claiming the same row
    at once exactly one gets it (PostgreSQL re-checks the condition after the first commits;
    SQLite runs writes one at a time)."""
    with transaction.atomic():
        claimed = OutboundEmail.objects.filter(_claimable(now), pk=outbox_id).update(
            status=OutboundEmail.Status.SENDING,
            sending_since=now,
            attempts=F("attempts") + 1,
            message_id=Case(
                When(message_id="", then=Value(_new_message_id())), default=F("message_id")
            ),
        )
        if not claimed:
            return None
        return OutboundEmail.objects.get(pk=outbox_id)


def _outbox_mark_sent(row: OutboundEmail, *, now: datetime) -> None:
    """Step 3 of ``outbox_send`` (a row claimed again meanwhile is left to its new worker)."""
    _outbox_claimed_by(row).update(status=OutboundEmail.Status.SENT, sent_at=now)


def _new_message_id() -> str:
    domain = parseaddr(settings.DEFAULT_FROM_EMAIL)[1].rpartition("@")[2] or "nardy.local"
    return make_msgid(domain=domain)


def outbox_give_up(*, outbox_id: int) -> None:
    """After the last retry: the e-mail is ``failed`` (the admin shows its last error)."""
    OutboundEmail.objects.filter(pk=outbox_id, status=OutboundEmail.Status.PENDING).update(
        status=OutboundEmail.Status.FAILED
    )


def outbox_pending(*, older_than: timedelta, now: datetime | None = None) -> list[int]:
    """What the sweeper sends: pending e-mails older than ``older_than`` (younger ones have a
    task on its way) and those left ``sending`` by a worker that died."""
    now = now or timezone.now()
    return list(
        OutboundEmail.objects.filter(_claimable(now), created_at__lte=now - older_than).values_list(
            "pk", flat=True
        )[:500]
    )


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
        with transaction.atomic():
            if MasterClassSignup.objects.filter(pk=pk, reminder_sent_at__isnull=True).update(
                reminder_sent_at=now
            ):
                _queue_email("signup_reminder", pk)
                claimed.append(pk)
    return claimed


# --- Privacy ---------------------------------------------------------------------------------
def person_export(*, email: str) -> dict[str, object]:
    """Everything stored about the person with this e-mail address."""
    regs = Registration.objects.filter(email__iexact=email).select_related("tournament")
    signups = MasterClassSignup.objects.filter(email__iexact=email).select_related("session")
    reg_ids = [r.pk for r in regs]
    signup_ids = [s.pk for s in signups]
    outbox = OutboundEmail.objects.filter(models_q_for_outbox(reg_ids, signup_ids)).order_by(
        "created_at"
    )

    def stamp(value: datetime | None) -> str | None:
        return value.isoformat() if value else None

    return {
        "email": email,
        "exported_at": timezone.now().isoformat(),
        "registrations": [
            {
                "tournament": r.tournament.name,
                "name": r.name,
                "email": r.email,
                "phone": str(r.phone or ""),
                "club": r.club,
                "experience": r.experience,
                "language": r.language,
                "status": r.status,
                "consent_at": stamp(r.consent_at),
                "email_confirmed_at": stamp(r.email_confirmed_at),
                "created_at": stamp(r.created_at),
                "withdrawn_at": stamp(r.withdrawn_at),
                "checked_in_at": stamp(r.checked_in_at),
            }
            for r in regs
        ],
        "masterclass_signups": [
            {
                "session": str(s.session),
                "name": s.name,
                "email": s.email,
                "phone": str(s.phone or ""),
                "language": s.language,
                "status": s.status,
                "consent_at": stamp(s.consent_at),
                "created_at": stamp(s.created_at),
                "reminder_sent_at": stamp(s.reminder_sent_at),
            }
            for s in signups
        ],
        "emails": [
            {
                "kind": o.kind,
                "status": o.status,
                "created_at": stamp(o.created_at),
                "sent_at": stamp(o.sent_at),
            }
            for o in outbox
        ],
    }


def models_q_for_outbox(reg_ids: list[int], signup_ids: list[int]) -> Q:
    return Q(kind__startswith="registration_", object_id__in=reg_ids) | Q(
        kind__startswith="signup_", object_id__in=signup_ids
    )


def initials(name: str) -> str:
    return " ".join(part[0].upper() + "." for part in name.split() if part[:1].isalpha()) or "—"


def person_anonymise(*, email: str, now: datetime | None = None) -> int:
    """Remove a person's contact data and name (keeping the rows, so results and counts stay);
    pending e-mails to them are dropped. Returns the number of rows anonymised."""
    now = now or timezone.now()
    count = 0
    with transaction.atomic():
        regs = list(Registration.objects.select_for_update().filter(email__iexact=email))
        signups = list(MasterClassSignup.objects.select_for_update().filter(email__iexact=email))
        OutboundEmail.objects.filter(
            models_q_for_outbox([r.pk for r in regs], [s.pk for s in signups]),
            status__in=[OutboundEmail.Status.PENDING, OutboundEmail.Status.SENDING],
        ).delete()
        for reg in regs:
            reg.name = initials(reg.name)
            reg.email = f"anonymised-r{reg.pk}@invalid.invalid"
            reg.phone = ""
            reg.club = ""
            reg.anonymised_at = now
            reg.save(
                update_fields=["name", "email", "phone", "club", "anonymised_at", "updated_at"]
            )
            count += 1
        for signup in signups:
            signup.name = initials(signup.name)
            signup.email = f"anonymised-s{signup.pk}@invalid.invalid"
            signup.phone = ""
            signup.anonymised_at = now
            signup.save(update_fields=["name", "email", "phone", "anonymised_at"])
            count += 1
    return count


def registration_toggle_check_in(
    *, registration: Registration, now: datetime | None = None
) -> Registration:
    registration.checked_in_at = None if registration.checked_in_at else (now or timezone.now())
    registration.save(update_fields=["checked_in_at", "updated_at"])
    return registration
