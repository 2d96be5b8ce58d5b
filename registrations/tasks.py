"""Celery tasks: thin wrappers that load by id and call a service."""

from __future__ import annotations

import logging
from smtplib import SMTPException

from celery import shared_task

from . import emails, services

log = logging.getLogger(__name__)


@shared_task(
    bind=True,
    autoretry_for=(SMTPException, ConnectionError, TimeoutError),
    retry_backoff=True,
    retry_backoff_max=600,
    max_retries=8,
    acks_late=True,
)
def send_email_task(self: object, kind: str, object_id: int) -> bool:
    return emails.send(kind, object_id)


@shared_task
def send_masterclass_reminders() -> int:
    """Run daily by Celery beat: remind the sign-ups of tomorrow's sessions."""
    claimed = services.reminders_due()
    for pk in claimed:
        send_email_task.delay("signup_reminder", pk)
    log.info("queued %d master-class reminders", len(claimed))
    return len(claimed)
