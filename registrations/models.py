"""Player registrations and master-class sign-ups."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.db.models import Count, Q
from django.db.models.functions import Lower
from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _
from phonenumber_field.modelfields import PhoneNumberField

from championship.models import Tournament
from common.i18n import localized
from common.text import SingleLineCharField
from people.models import PersonRow

LANGUAGE_CHOICES = settings.LANGUAGES


class Experience(models.TextChoices):
    NEWCOMER = "newcomer", _("Newcomer: I have never played Modern Nardy")
    BEGINNER = "beginner", _("Beginner: I have played a few games")
    CLUB = "club", _("Club player: I play regularly")
    EXPERIENCED = "experienced", _("Experienced: I have played in tournaments")


class Registration(PersonRow):
    """A player's registration for a tournament; its person (``people``) is who they are
    across tournaments (matched by a confirmed e-mail address)."""

    class Status(models.TextChoices):
        ENTERED = "entered", _("entered")
        WAITLISTED = "waitlisted", _("on the waiting list")
        WITHDRAWN = "withdrawn", _("withdrawn")

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.PROTECT,
        related_name="registrations",
        verbose_name=_("tournament"),
    )
    name = SingleLineCharField(_("full name"), max_length=150)
    email = models.EmailField(_("e-mail"))
    phone = PhoneNumberField(_("phone"), blank=True)
    club = SingleLineCharField(_("club or city"), max_length=150, blank=True)
    experience = models.CharField(_("experience"), max_length=20, choices=Experience.choices)
    language = models.CharField(_("preferred language"), max_length=8, choices=LANGUAGE_CHOICES)
    consent_at = models.DateTimeField(_("privacy consent given at"))
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.ENTERED
    )
    email_confirmed_at = models.DateTimeField(_("e-mail confirmed at"), null=True, blank=True)
    created_at = models.DateTimeField(_("registered at"), default=timezone.now)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    withdrawn_at = models.DateTimeField(_("withdrawn at"), null=True, blank=True)
    checked_in_at = models.DateTimeField(_("checked in at"), null=True, blank=True)
    anonymised_at = models.DateTimeField(_("anonymised at"), null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        constraints = [
            models.UniqueConstraint(
                "tournament", Lower("email"), name="registration_unique_email_per_tournament"
            )
        ]
        indexes = [models.Index(fields=["tournament", "status", "created_at"])]

    def __str__(self) -> str:
        return f"{self.name} ({self.tournament})"

    @property
    def is_confirmed(self) -> bool:
        return self.email_confirmed_at is not None


class MasterClassQuerySet(models.QuerySet["MasterClassSession"]):
    def upcoming(self, now: datetime | None = None) -> MasterClassQuerySet:
        """Sessions still to come that take sign-ups (a cancelled one is left out)."""
        return self.filter(starts_at__gte=now or timezone.now(), cancelled_at=None).order_by(
            "starts_at"
        )

    def with_counts(self) -> MasterClassQuerySet:
        return self.annotate(
            booked_count=Count(
                "signups", filter=Q(signups__status=MasterClassSignup.Status.BOOKED)
            ),
            waitlisted_count=Count(
                "signups", filter=Q(signups__status=MasterClassSignup.Status.WAITLISTED)
            ),
        )


class MasterClassSession(models.Model):
    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.PROTECT,
        related_name="masterclass_sessions",
        null=True,
        blank=True,
        verbose_name=_("tournament"),
    )
    title = SingleLineCharField(_("title"), max_length=200)
    title_ru = SingleLineCharField(
        _("title in Russian"),
        max_length=200,
        blank=True,
        help_text=_("Shown on Russian pages and in Russian e-mails; empty: the title above."),
    )
    starts_at = models.DateTimeField(_("starts at"))
    duration_minutes = models.PositiveIntegerField(_("duration (minutes)"), default=90)
    place = SingleLineCharField(_("place"), max_length=300)
    language = models.CharField(_("language"), max_length=8, choices=LANGUAGE_CHOICES)
    seats = models.PositiveIntegerField(_("seats"))
    #: Cancelled by the organisers (its sign-ups cancelled and e-mailed); kept for the record.
    cancelled_at = models.DateTimeField(_("cancelled at"), null=True, blank=True, editable=False)

    objects = MasterClassQuerySet.as_manager()

    class Meta:
        ordering = ["starts_at"]
        verbose_name = _("master-class session")
        verbose_name_plural = _("master-class sessions")

    def __str__(self) -> str:
        when = formats.date_format(timezone.localtime(self.starts_at), "DATETIME_FORMAT")
        return f"{self.localized_title}, {when}"

    @property
    def localized_title(self) -> str:
        """The title in the active language (Russian when given)."""
        return localized(self, "title")

    @property
    def ends_at(self) -> datetime:
        return self.starts_at + timedelta(minutes=self.duration_minutes)

    @property
    def seats_left(self) -> int:
        booked = getattr(self, "booked_count", None)
        if booked is None:
            booked = self.signups.filter(status=MasterClassSignup.Status.BOOKED).count()
        return max(0, self.seats - booked)

    @property
    def is_full(self) -> bool:
        return self.seats_left == 0


class MasterClassSignup(models.Model):
    class Status(models.TextChoices):
        BOOKED = "booked", _("booked")
        WAITLISTED = "waitlisted", _("on the waiting list")
        CANCELLED = "cancelled", _("cancelled")

    session = models.ForeignKey(
        MasterClassSession,
        on_delete=models.PROTECT,
        related_name="signups",
        verbose_name=_("session"),
    )
    registration = models.ForeignKey(
        Registration,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="masterclass_signups",
        verbose_name=_("tournament registration"),
    )
    name = SingleLineCharField(_("full name"), max_length=150)
    email = models.EmailField(_("e-mail"))
    phone = PhoneNumberField(_("phone"), blank=True)
    language = models.CharField(_("preferred language"), max_length=8, choices=LANGUAGE_CHOICES)
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.BOOKED
    )
    consent_at = models.DateTimeField(_("privacy consent given at"))
    created_at = models.DateTimeField(_("signed up at"), default=timezone.now)
    reminder_sent_at = models.DateTimeField(_("reminder sent at"), null=True, blank=True)
    anonymised_at = models.DateTimeField(_("anonymised at"), null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        verbose_name = _("master-class sign-up")
        verbose_name_plural = _("master-class sign-ups")
        constraints = [
            models.UniqueConstraint(
                "session", Lower("email"), name="signup_unique_email_per_session"
            )
        ]

    def __str__(self) -> str:
        return f"{self.name} – {self.session}"


class OutboundEmail(models.Model):
    """An e-mail to send, written in the same transaction as what it is about, so it is never
    lost: a task sends it after the commit, and a periodic task sends whatever is still pending
    (for example because the broker was down).

    pending → sending (committed before the mail server is contacted, with the Message-ID the
    message will carry) → sent. A row left ``sending`` by a worker that died is sent again
    with the same Message-ID once it is older than ``OUTBOX_SENDING_TIMEOUT``
    (``registrations.services.outbox.outbox_send``)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        SENDING = "sending", _("sending")
        SENT = "sent", _("sent")
        FAILED = "failed", _("failed")

    kind = models.CharField(_("kind"), max_length=40)
    object_id = models.PositiveBigIntegerField(_("object id"))
    #: What else the e-mail of this kind needs (an announcement's id, a digest's period).
    params = models.JSONField(_("parameters"), default=dict, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    attempts = models.PositiveIntegerField(_("attempts"), default=0)
    last_error = models.TextField(_("last error"), blank=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    #: Set when a worker starts sending; kept for every later attempt, so that copies sent
    #: again after a crash are recognisable as the same message.
    message_id = models.CharField(_("Message-ID"), max_length=255, blank=True)
    sending_since = models.DateTimeField(_("sending since"), null=True, blank=True)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        verbose_name = _("outbound e-mail")
        verbose_name_plural = _("outbound e-mails")
        indexes = [models.Index(fields=["status", "created_at"])]

    def __str__(self) -> str:
        return f"{self.kind} #{self.object_id} ({self.status})"


class Announcement(models.Model):
    """A message from the organisers to everyone entered in a tournament, or everyone waiting,
    or both; each person gets it in their language (the other one when only one is written)
    through the outbox."""

    class Audience(models.TextChoices):
        ENTERED = "entered", _("Everyone entered")
        WAITLISTED = "waitlisted", _("Everyone on the waiting list")
        BOTH = "both", _("Everyone entered or waiting")

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="announcements",
        verbose_name=_("tournament"),
    )
    audience = models.CharField(_("to"), max_length=12, choices=Audience.choices)
    subject = SingleLineCharField(_("subject in English"), max_length=200, blank=True)
    body = models.TextField(_("message in English"), max_length=10000, blank=True)
    subject_ru = SingleLineCharField(_("subject in Russian"), max_length=200, blank=True)
    body_ru = models.TextField(_("message in Russian"), max_length=10000, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("sent by"),
    )
    created_at = models.DateTimeField(_("sent at"), default=timezone.now)
    recipients = models.PositiveIntegerField(_("recipients"), default=0)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("announcement")
        verbose_name_plural = _("announcements")

    def __str__(self) -> str:
        return f"{self.tournament}: {self.subject or self.subject_ru}"

    def text_for(self, language: str) -> tuple[str, str]:
        """(subject, message) in ``language``, or in the other one if not written in it."""
        english = (self.subject, self.body)
        russian = (self.subject_ru, self.body_ru)
        preferred, other = (russian, english) if language == "ru" else (english, russian)
        return preferred if preferred[1].strip() else other


class DigestSubscription(models.Model):
    """An organiser who asked for the daily e-mail of new registrations and sign-ups (none is
    sent to anyone who did not)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="registration_digest",
        verbose_name=_("organiser"),
    )
    language = models.CharField(_("language"), max_length=8, choices=LANGUAGE_CHOICES)
    created_at = models.DateTimeField(_("subscribed at"), default=timezone.now)
    #: The end of the period the last digest covered; the next one starts there.
    covered_until = models.DateTimeField(_("covered until"), default=timezone.now)

    class Meta:
        verbose_name = _("daily digest subscription")
        verbose_name_plural = _("daily digest subscriptions")

    def __str__(self) -> str:
        return str(self.user)
