"""E-mails are never lost: recorded with the registration, sent after commit, swept later."""

from __future__ import annotations

from datetime import timedelta
from smtplib import SMTPServerDisconnected

import pytest
from django.urls import reverse
from django.utils import timezone

from championship.celery import app as celery_app
from registrations import emails
from registrations.models import OutboundEmail, Registration
from registrations.services import outbox
from registrations.services.entries import registration_create
from registrations.tasks import send_pending_emails
from tests.conftest import registration_form

pytestmark = pytest.mark.django_db


@pytest.fixture
def broker_down(settings):  # type: ignore[no-untyped-def]
    """A real, unreachable broker: tasks are published, not run inline, and publishing fails."""
    conf = celery_app.conf
    saved = (conf.task_always_eager, conf.broker_url, conf.task_publish_retry_policy)
    conf.task_always_eager = False
    conf.broker_url = "redis://127.0.0.1:1/0"
    conf.task_publish_retry_policy = {"max_retries": 0}
    celery_app._pool = None
    celery_app.amqp._producer_pool = None
    yield
    conf.task_always_eager, conf.broker_url, conf.task_publish_retry_policy = saved
    celery_app._pool = None
    celery_app.amqp._producer_pool = None


def test_broker_down_registration_succeeds_and_the_email_stays_pending(
    client, tournament, broker_down, mailoutbox, caplog
):
    response = client.post(
        reverse("registrations:register", args=[tournament.slug]), registration_form()
    )
    assert "could not queue e-mail" in caplog.text  # the publish really failed
    assert response.status_code == 302
    assert Registration.objects.count() == 1
    outbox = OutboundEmail.objects.get()
    assert (outbox.kind, outbox.status) == ("registration_confirm", "pending")
    assert not mailoutbox


def test_the_sweeper_sends_pending_emails_once(tournament, mailoutbox, monkeypatch):
    monkeypatch.setattr(outbox, "_dispatch", lambda outbox_id: None)  # as if the broker were down
    outcome = registration_create(
        tournament=tournament,
        name="A",
        email="a@example.org",
        phone="+14165550123",
        club="",
        experience="club",
        language="en",
    )
    row = OutboundEmail.objects.get(object_id=outcome.registration.pk)
    assert row.status == "pending" and not mailoutbox
    assert send_pending_emails() == 0  # too fresh: the normal task may still be on its way
    OutboundEmail.objects.update(created_at=timezone.now() - timedelta(minutes=5))
    assert send_pending_emails() == 1
    assert send_pending_emails() == 0
    row.refresh_from_db()
    assert row.status == "sent" and row.attempts == 1 and len(mailoutbox) == 1
    # A late task for the same e-mail sends nothing more.
    assert outbox.outbox_send(outbox_id=row.pk) is False
    assert len(mailoutbox) == 1


def test_mail_server_error_keeps_it_pending_with_the_error(tournament, mailoutbox, monkeypatch):
    monkeypatch.setattr(outbox, "_dispatch", lambda outbox_id: None)
    registration_create(
        tournament=tournament,
        name="A",
        email="a@example.org",
        phone="+14165550123",
        club="",
        experience="club",
        language="en",
    )
    OutboundEmail.objects.update(created_at=timezone.now() - timedelta(minutes=5))

    def boom(
        kind: str, object_id: int, message_id: str | None = None, params: object = None
    ) -> bool:
        raise SMTPServerDisconnected("mail server went away")

    monkeypatch.setattr(emails, "send", boom)
    assert send_pending_emails() == 0
    row = OutboundEmail.objects.get()
    assert row.status == "pending" and row.attempts == 1 and "went away" in row.last_error
    monkeypatch.undo()
    assert send_pending_emails() == 1 and len(mailoutbox) == 1


def test_beat_schedule_has_the_sweeper(settings):
    assert settings.CELERY_BEAT_SCHEDULE["pending-emails"]["task"] == (
        "registrations.tasks.send_pending_emails"
    )
