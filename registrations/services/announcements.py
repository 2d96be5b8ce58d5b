"""Messages from the organisers to everyone entered in a tournament or everyone waiting, and
the optional daily digest of new registrations to the organisers. Both go through the outbox."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from championship.models import Tournament
from common.types import Actor, user_or_none

from ..models import Announcement, DigestSubscription, MasterClassSignup, Registration
from ..selectors import registration_recipients
from .outbox import outbox_enqueue


def announcement_send(
    *,
    tournament: Tournament,
    audience: str,
    subject: str,
    body: str,
    subject_ru: str,
    body_ru: str,
    sent_by: Actor,
    now: datetime | None = None,
) -> Announcement:
    """Record the announcement and queue one e-mail per recipient, in their language."""
    with transaction.atomic():
        announcement = Announcement(
            tournament=tournament,
            audience=audience,
            subject=subject,
            body=body,
            subject_ru=subject_ru,
            body_ru=body_ru,
            created_by=user_or_none(sent_by),
            created_at=now or timezone.now(),
        )
        announcement.full_clean()
        announcement.save()
        recipients = list(
            registration_recipients(tournament=tournament, audience=audience).values_list(
                "pk", flat=True
            )
        )
        for pk in recipients:
            outbox_enqueue(
                kind="registration_announcement",
                object_id=pk,
                params={"announcement": announcement.pk},
            )
        announcement.recipients = len(recipients)
        announcement.save(update_fields=["recipients"])
    return announcement


def digest_subscribe(*, user: AbstractBaseUser, language: str, now: datetime | None = None) -> None:
    """The organiser gets the daily digest from now on (new registrations from now)."""
    now = now or timezone.now()
    subscription = DigestSubscription.objects.filter(user_id=user.pk).first() or (
        DigestSubscription(user_id=user.pk, created_at=now, covered_until=now)
    )
    subscription.language = language
    subscription.full_clean()
    subscription.save()


def digest_unsubscribe(*, user: AbstractBaseUser) -> None:
    DigestSubscription.objects.filter(user_id=user.pk).delete()


def digests_claim(*, now: datetime | None = None) -> list[int]:
    """Queue each subscribed organiser's digest of what is new since their last one (at most a
    day back; nothing new, no e-mail). Each period is claimed once by a conditional update,
    so a rerun of the beat task sends nothing twice."""
    now = now or timezone.now()
    queued = []
    for subscription in DigestSubscription.objects.select_related("user"):
        since = max(subscription.covered_until, now - timedelta(days=1))
        with transaction.atomic():
            claimed = DigestSubscription.objects.filter(
                pk=subscription.pk, covered_until=subscription.covered_until
            ).update(covered_until=now)
            if not claimed or not subscription.user.email or not subscription.user.is_active:
                continue
            new = (
                Registration.objects.filter(created_at__gte=since, created_at__lt=now).exists()
                or MasterClassSignup.objects.filter(
                    created_at__gte=since, created_at__lt=now
                ).exists()
            )
            if new:
                outbox_enqueue(
                    kind="organiser_digest",
                    object_id=subscription.pk,
                    params={"since": since.isoformat(), "until": now.isoformat()},
                )
                queued.append(subscription.pk)
    return queued
