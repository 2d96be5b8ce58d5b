"""Celery tasks: thin wrappers that load by id and call a service."""

from __future__ import annotations

import logging
from datetime import timedelta
from smtplib import SMTPException
from typing import Any

from celery import shared_task

from .selectors import outbox_pending
from .services.announcements import digests_claim
from .services.masterclass import signup_reminders_claim
from .services.outbox import outbox_give_up, outbox_send
from .services.privacy import personal_data_expire

log = logging.getLogger(__name__)

MAX_RETRIES = 8


@shared_task(bind=True, max_retries=MAX_RETRIES, acks_late=True)
def send_email_task(self: Any, outbox_id: int) -> bool:
    """Send one recorded e-mail; on a mail-server error retry with exponential backoff (the
    service has put it back to pending with the error)."""
    try:
        return outbox_send(outbox_id=outbox_id)
    except (SMTPException, OSError) as exc:
        if self.request.retries >= MAX_RETRIES:
            outbox_give_up(outbox_id=outbox_id)
            raise
        raise self.retry(exc=exc, countdown=min(600, 10 * 2**self.request.retries)) from exc


@shared_task
def send_pending_emails() -> int:
    """Run every minute by Celery beat: send what is still pending (e.g. the broker was down
    when it was recorded) and reconcile what a dead worker left "sending" (sent again with the
    same Message-ID). Sends in this worker, one by one."""
    sent = 0
    for pk in outbox_pending(older_than=timedelta(seconds=60)):
        try:
            sent += outbox_send(outbox_id=pk)
        except (SMTPException, OSError):
            log.warning("e-mail %s not sent; it stays pending", pk, exc_info=True)
    return sent


@shared_task
def send_masterclass_reminders() -> int:
    """Run daily by Celery beat: remind the sign-ups of tomorrow's sessions."""
    claimed = signup_reminders_claim()
    log.info("queued %d master-class reminders", len(claimed))
    return len(claimed)


@shared_task
def expire_personal_data() -> int:
    """Run daily by Celery beat: anonymise what is kept longer than
    ``PERSONAL_DATA_RETENTION_DAYS`` after its tournament or session."""
    count = personal_data_expire()
    log.info("anonymised %d registrations and sign-ups past their retention", count)
    return count


@shared_task
def send_registration_digests() -> int:
    """Run daily by Celery beat: the digest of new registrations, to the organisers who asked
    for it."""
    return len(digests_claim())
