"""E-mail once, as far as it can be: the outbox row is marked "sending", with the Message-ID
the message will carry, in a transaction committed before the mail server is contacted; a row
a dead worker left "sending" is sent again with the same Message-ID after a timeout."""

from __future__ import annotations

from datetime import timedelta
from smtplib import SMTPServerDisconnected

import pytest
from django.db import transaction
from django.utils import timezone

from registrations import emails
from registrations.models import OutboundEmail
from registrations.services import outbox
from registrations.services.entries import registration_create
from registrations.services.privacy import person_anonymise
from registrations.tasks import MAX_RETRIES, send_email_task, send_pending_emails

pytestmark = pytest.mark.django_db


class WorkerDied(BaseException):  # noqa: N818 - what happens, not an error the code handles
    """The worker process killed: no ``except Exception`` runs, nothing more is written."""


@pytest.fixture
def row(tournament, monkeypatch) -> OutboundEmail:  # type: ignore[no-untyped-def]
    """One recorded e-mail, left pending (as if the broker were down), older than a minute."""
    monkeypatch.setattr(outbox, "_dispatch", lambda outbox_id: None)
    outcome = registration_create(
        tournament=tournament,
        name="Anna",
        email="anna@example.org",
        phone="+14165550123",
        club="",
        experience="club",
        language="en",
    )
    OutboundEmail.objects.update(created_at=timezone.now() - timedelta(minutes=5))
    return OutboundEmail.objects.get(object_id=outcome.registration.pk)


def age_the_claim(settings) -> None:  # type: ignore[no-untyped-def]
    """Time passes beyond OUTBOX_SENDING_TIMEOUT: the worker that claimed the row is dead."""
    stale = timezone.now() - timedelta(seconds=settings.OUTBOX_SENDING_TIMEOUT + 1)
    OutboundEmail.objects.filter(status="sending").update(sending_since=stale)


def header(message) -> str:  # type: ignore[no-untyped-def]
    return str(message.message()["Message-ID"])


def test_the_normal_path_pending_sending_sent(row, mailoutbox):
    assert outbox.outbox_send(outbox_id=row.pk) is True
    row.refresh_from_db()
    assert (row.status, row.attempts) == ("sent", 1)
    assert row.message_id.startswith("<") and row.message_id.endswith("@nardy.local>")
    assert row.sending_since is not None and row.sent_at >= row.sending_since
    assert len(mailoutbox) == 1 and header(mailoutbox[0]) == row.message_id
    assert outbox.outbox_send(outbox_id=row.pk) is False  # a late task sends nothing more
    assert len(mailoutbox) == 1


@pytest.mark.django_db(transaction=True)
def test_sending_is_committed_with_its_message_id_before_the_mail_server_is_contacted(
    row, monkeypatch
):
    seen = {}
    real_send = emails.send

    def send(
        kind: str, object_id: int, message_id: str | None = None, params: object = None
    ) -> bool:
        seen["in_transaction"] = transaction.get_connection().in_atomic_block
        seen["row"] = OutboundEmail.objects.values("status", "message_id").get(pk=row.pk)
        seen["message_id"] = message_id
        return real_send(kind, object_id, message_id=message_id)

    monkeypatch.setattr(emails, "send", send)
    assert outbox.outbox_send(outbox_id=row.pk)
    assert seen["in_transaction"] is False  # the claim is committed, the SMTP call is outside
    assert seen["row"]["status"] == "sending"
    assert seen["row"]["message_id"] == seen["message_id"] != ""


def test_a_worker_dying_before_the_smtp_call_is_reconciled_with_the_same_message_id(
    row, mailoutbox, monkeypatch, settings
):
    def killed(
        kind: str, object_id: int, message_id: str | None = None, params: object = None
    ) -> bool:
        raise WorkerDied

    monkeypatch.setattr(emails, "send", killed)
    with pytest.raises(WorkerDied):
        outbox.outbox_send(outbox_id=row.pk)
    monkeypatch.undo()
    row.refresh_from_db()
    claimed_id = row.message_id
    assert row.status == "sending" and claimed_id and not mailoutbox
    # Within the timeout the worker may still be at it: nobody else sends.
    assert send_pending_emails() == 0 and outbox.outbox_send(outbox_id=row.pk) is False
    age_the_claim(settings)
    assert send_pending_emails() == 1
    row.refresh_from_db()
    assert (row.status, row.attempts, row.message_id) == ("sent", 2, claimed_id)
    assert [header(m) for m in mailoutbox] == [claimed_id]


def test_a_worker_dying_after_the_smtp_call_sends_a_copy_with_the_same_message_id(
    row, mailoutbox, monkeypatch, settings
):
    """The one duplicate left: the mail server accepted the message and the worker died before
    marking it sent. The second copy carries the same Message-ID, so it can be recognised."""

    def killed(row: OutboundEmail, *, now: object) -> None:
        raise WorkerDied

    monkeypatch.setattr(outbox, "_outbox_mark_sent", killed)
    with pytest.raises(WorkerDied):
        outbox.outbox_send(outbox_id=row.pk)
    monkeypatch.undo()
    row.refresh_from_db()
    assert row.status == "sending" and len(mailoutbox) == 1
    assert send_pending_emails() == 0  # not before the timeout
    age_the_claim(settings)
    assert send_pending_emails() == 1
    row.refresh_from_db()
    assert row.status == "sent"
    assert [header(m) for m in mailoutbox] == [row.message_id, row.message_id]


def test_a_row_being_sent_is_not_sent_by_another_worker(row, mailoutbox, monkeypatch):
    real_send = emails.send
    others = []

    def send(
        kind: str, object_id: int, message_id: str | None = None, params: object = None
    ) -> bool:
        # Meanwhile the beat task and a second delivery of the task look at the same row.
        others.append((send_pending_emails(), outbox.outbox_send(outbox_id=row.pk)))
        return real_send(kind, object_id, message_id=message_id)

    monkeypatch.setattr(emails, "send", send)
    assert outbox.outbox_send(outbox_id=row.pk) is True
    assert others == [(0, False)] and len(mailoutbox) == 1


def test_a_mail_server_error_keeps_the_message_id_for_the_next_attempt(
    row, mailoutbox, monkeypatch
):
    def refused(
        kind: str, object_id: int, message_id: str | None = None, params: object = None
    ) -> bool:
        raise SMTPServerDisconnected("mail server went away")

    monkeypatch.setattr(emails, "send", refused)
    with pytest.raises(SMTPServerDisconnected):
        outbox.outbox_send(outbox_id=row.pk)
    monkeypatch.undo()
    row.refresh_from_db()
    first_id = row.message_id
    assert (row.status, row.attempts) == ("pending", 1) and "went away" in row.last_error
    assert outbox.outbox_send(outbox_id=row.pk) is True
    row.refresh_from_db()
    assert (row.status, row.attempts, row.message_id) == ("sent", 2, first_id)
    assert [header(m) for m in mailoutbox] == [first_id]


def test_the_task_gives_up_after_its_last_retry(row, monkeypatch):
    def refused(
        kind: str, object_id: int, message_id: str | None = None, params: object = None
    ) -> bool:
        raise SMTPServerDisconnected("mail server went away")

    monkeypatch.setattr(emails, "send", refused)
    with pytest.raises(SMTPServerDisconnected):  # raised, not retried again
        send_email_task.apply(args=[row.pk], retries=MAX_RETRIES)
    row.refresh_from_db()
    assert row.status == "failed" and "went away" in row.last_error
    assert outbox.outbox_send(outbox_id=row.pk) is False  # failed stays failed


def test_anonymising_drops_an_email_stuck_in_sending(row, monkeypatch, settings, mailoutbox):
    def killed(
        kind: str, object_id: int, message_id: str | None = None, params: object = None
    ) -> bool:
        raise WorkerDied

    monkeypatch.setattr(emails, "send", killed)
    with pytest.raises(WorkerDied):
        outbox.outbox_send(outbox_id=row.pk)
    monkeypatch.undo()
    person_anonymise(email="anna@example.org")
    age_the_claim(settings)
    assert send_pending_emails() == 0 and not mailoutbox
    assert not OutboundEmail.objects.filter(pk=row.pk).exists()
