"""Master-class sessions and sign-ups: the organisers create, change and cancel sessions;
people book a seat or a place on the waiting list (newcomers only: ``signup_refusal``),
cancel, and are reminded the day before. A session's seats are guarded by a row lock on the
session."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from phonenumber_field.phonenumber import PhoneNumber

from ..models import Experience, MasterClassSession, MasterClassSignup, Registration
from .outbox import outbox_enqueue
from .waiting_list import session_seats_fill, session_status_for_newcomer


class MasterClassError(Exception):
    """A master-class request that cannot be carried out (a user error): the message says
    why, in the user's language, and nothing was changed."""


def signup_refusal(*, experience: str) -> str | None:
    """The one rule of who may sign up for the master class, read by both doors (the
    registration form's master-class choice and the sign-up page) through their forms, and
    enforced by ``signup_create`` whatever is posted: it is the master class *for newcomers*
    (README: "Newcomers can book a master-class session"; the pages' title; the form's "New to
    Modern Nardy? Learn the rules"), i.e. for those who have never played — not a beginner,
    who has played a few games already. None: allowed; else why not."""
    if experience != Experience.NEWCOMER:
        return str(
            _(
                "The master class is for newcomers (who have never played Modern Nardy); "
                "choose 'Newcomer' or leave it out."
            )
        )
    return None


def session_refusal(*, session: MasterClassSession, now: datetime | None = None) -> str | None:
    """Why nobody can sign up for ``session`` now (cancelled, or begun), or None."""
    now = now or timezone.now()
    if session.cancelled_at is not None:
        return str(_("This session is cancelled."))
    if session.starts_at <= now:
        return str(_("This session has begun: sign-ups are closed."))
    return None


def signup_create(
    *,
    session: MasterClassSession,
    name: str,
    email: str,
    phone: str | PhoneNumber,
    language: str,
    experience: str,
    registration: Registration | None = None,
    now: datetime | None = None,
) -> tuple[MasterClassSignup, bool]:
    """Book a seat, or a place on the waiting list when the session is full. A second
    sign-up with the same e-mail creates nothing and re-sends the link. ``MasterClassError``
    when the person may not sign up (``signup_refusal``: the master class is for newcomers)
    or the session is cancelled or has begun — whichever page posted it."""
    now = now or timezone.now()
    refusal = signup_refusal(experience=experience)
    if refusal is not None:
        raise MasterClassError(refusal)
    with transaction.atomic():
        locked = MasterClassSession.objects.select_for_update().get(pk=session.pk)
        refusal = session_refusal(session=locked, now=now)
        if refusal is not None:
            raise MasterClassError(refusal)
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


# Sessions (the organisers' pages) ------------------------------------------------------------


@dataclass
class SessionSaved:
    """What saving a session did, for the page to say it."""

    session: MasterClassSession
    created: bool
    #: People told by e-mail that the time or the place changed.
    told: int = 0
    #: Names booked from the waiting list into seats added.
    promoted: list[str] = field(default_factory=list)

    def message(self) -> str:
        title = self.session.localized_title
        parts = [
            _("The session %(title)s is created.") % {"title": title}
            if self.created
            else _("The session %(title)s is saved.") % {"title": title}
        ]
        if self.told:
            parts.append(
                ngettext(
                    "%(n)d person signed up is e-mailed the new time and place.",
                    "%(n)d people signed up are e-mailed the new time and place.",
                    self.told,
                )
                % {"n": self.told}
            )
        if self.promoted:
            parts.append(
                _("Seats added go to %(names)s from the waiting list (e-mailed).")
                % {"names": ", ".join(self.promoted)}
            )
        return " ".join(parts)


def session_save(*, session: MasterClassSession, now: datetime | None = None) -> SessionSaved:
    """Create or change a session (validated). Refused (``MasterClassError``): a session in the
    past, a change once it has begun or after it was cancelled, and fewer seats than are
    booked (cancel sign-ups first). When its time or place changes, everyone signed up
    (booked or waiting) is e-mailed; seats added go to the waiting list, in order."""
    now = now or timezone.now()
    try:
        session.full_clean(exclude=["cancelled_at"])
    except ValidationError as exc:
        raise MasterClassError(" ".join(exc.messages)) from None
    created = session.pk is None
    with transaction.atomic():
        waiting: set[int] = set()
        told: list[int] = []
        if created:
            if session.starts_at <= now:
                raise MasterClassError(_("A new session must start in the future."))
        else:
            locked = MasterClassSession.objects.select_for_update().get(pk=session.pk)
            if locked.cancelled_at is not None:
                raise MasterClassError(_("This session is cancelled."))
            if locked.starts_at <= now:
                raise MasterClassError(_("This session has begun: it can no longer change."))
            signups = MasterClassSignup.objects.filter(session=locked)
            booked = signups.filter(status=MasterClassSignup.Status.BOOKED).count()
            if session.seats < booked:
                raise MasterClassError(
                    ngettext(
                        "%(n)d seat is booked: the session cannot have fewer seats. Cancel "
                        "sign-ups first (their seats go to the waiting list), or keep %(n)d.",
                        "%(n)d seats are booked: the session cannot have fewer seats. Cancel "
                        "sign-ups first (their seats go to the waiting list), or keep %(n)d.",
                        booked,
                    )
                    % {"n": booked}
                )
            moved = (locked.starts_at, locked.duration_minutes, locked.place) != (
                session.starts_at,
                session.duration_minutes,
                session.place,
            )
            active = signups.exclude(status=MasterClassSignup.Status.CANCELLED)
            if moved:
                told = list(active.values_list("pk", flat=True))
            waiting = set(
                signups.filter(status=MasterClassSignup.Status.WAITLISTED).values_list(
                    "pk", flat=True
                )
            )
        session.save()
        for pk in told:
            outbox_enqueue(kind="signup_changed", object_id=pk)
        if waiting:
            session_seats_fill(session_id=session.pk, now=now)
        promoted = list(
            MasterClassSignup.objects.filter(
                pk__in=waiting, status=MasterClassSignup.Status.BOOKED
            ).values_list("name", flat=True)
        )
    return SessionSaved(session, created, told=len(told), promoted=promoted)


@dataclass
class SessionCancelled:
    title: str
    deleted: bool
    told: int = 0

    def message(self) -> str:
        if self.deleted:
            return _("The session %(title)s is deleted (nobody had signed up).") % {
                "title": self.title
            }
        return ngettext(
            "The session %(title)s is cancelled; %(n)d person signed up is e-mailed.",
            "The session %(title)s is cancelled; %(n)d people signed up are e-mailed.",
            self.told,
        ) % {"title": self.title, "n": self.told}


def session_cancel(*, session: MasterClassSession, now: datetime | None = None) -> SessionCancelled:
    """Cancel a session still to come. Nobody ever signed up: it is deleted. Otherwise it is
    kept, marked cancelled (off the public pages, no more sign-ups), and every sign-up booked
    or waiting is cancelled with an e-mail saying so — nobody is moved to another session."""
    now = now or timezone.now()
    with transaction.atomic():
        locked = MasterClassSession.objects.select_for_update().get(pk=session.pk)
        title = locked.localized_title
        if locked.cancelled_at is not None:
            raise MasterClassError(_("This session is cancelled already."))
        if locked.starts_at <= now:
            raise MasterClassError(_("This session has begun: it can no longer be cancelled."))
        signups = MasterClassSignup.objects.filter(session=locked)
        if not signups.exists():
            locked.delete()
            return SessionCancelled(title, deleted=True)
        active = list(
            signups.exclude(status=MasterClassSignup.Status.CANCELLED).values_list("pk", flat=True)
        )
        # UPDATEs, not saves: nothing is to be filled from a waiting list (registrations.signals).
        MasterClassSignup.objects.filter(pk__in=active).update(
            status=MasterClassSignup.Status.CANCELLED
        )
        MasterClassSession.objects.filter(pk=locked.pk).update(cancelled_at=now)
        for pk in active:
            outbox_enqueue(kind="signup_session_cancelled", object_id=pk)
    session.cancelled_at = now
    return SessionCancelled(title, deleted=False, told=len(active))
