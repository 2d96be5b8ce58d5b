"""The e-mail outbox: every e-mail is a row (``OutboundEmail``) written in the same transaction
as what it is about, handed to a worker after the commit and sent once (README, "E-mails")."""

from __future__ import annotations

import logging
from datetime import datetime
from email.utils import parseaddr

from django.conf import settings
from django.core.mail import make_msgid
from django.db import transaction
from django.db.models import Case, F, QuerySet, Value, When
from django.utils import timezone

from .. import emails
from ..models import OutboundEmail
from ..selectors import outbox_claimable

log = logging.getLogger(__name__)


def outbox_enqueue(
    *, kind: str, object_id: int, params: dict[str, object] | None = None
) -> OutboundEmail:
    """Record the e-mail in the current transaction; hand it to a worker after the commit.
    ``params`` is what the e-mail of this kind needs besides its object (``emails.send``).

    If the broker cannot be reached then, the e-mail stays pending and the periodic task
    ``send_pending_emails`` sends it later; the user's request succeeds either way."""
    outbox = OutboundEmail(kind=kind, object_id=object_id, params=params or {})
    outbox.full_clean()
    outbox.save()
    transaction.on_commit(lambda: _dispatch(outbox.pk))
    return outbox


def _dispatch(outbox_id: int) -> None:
    from ..tasks import send_email_task

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
        emails.send(row.kind, row.object_id, message_id=row.message_id, params=row.params)
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


def _outbox_claim(*, outbox_id: int, now: datetime) -> OutboundEmail | None:
    """Step 1 of ``outbox_send``. One conditional UPDATE: of two workers claiming the same row
    at once exactly one gets it (PostgreSQL re-checks the condition after the first commits;
    SQLite runs writes one at a time)."""
    with transaction.atomic():
        claimed = OutboundEmail.objects.filter(outbox_claimable(now), pk=outbox_id).update(
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
