"""E-mails of the registrations app, each rendered in the recipient's preferred language."""

from __future__ import annotations

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext_lazy

from . import tokens
from .models import MasterClassSignup, Registration


def absolute(path: str) -> str:
    return settings.SITE_URL + path


def registration_links(registration: Registration) -> dict[str, str]:
    return {
        "confirm_url": absolute(
            reverse(
                "registrations:confirm",
                args=[tokens.make_token(tokens.CONFIRM, registration.pk, registration.email)],
            )
        ),
        "manage_url": absolute(
            reverse(
                "registrations:manage",
                args=[tokens.make_token(tokens.MANAGE, registration.pk, registration.email)],
            )
        ),
    }


def signup_links(signup: MasterClassSignup) -> dict[str, str]:
    return {
        "cancel_url": absolute(
            reverse(
                "registrations:signup_cancel",
                args=[tokens.make_token(tokens.SIGNUP, signup.pk, signup.email)],
            )
        )
    }


def _send(
    to: str,
    language: str,
    template: str,
    context: dict[str, object],
    subject: object,
    message_id: str | None,
) -> None:
    with translation.override(language):
        body = render_to_string(f"registrations/email/{template}.txt", context)
        message = EmailMultiAlternatives(
            subject=str(subject),
            body=body,
            from_email=settings.DEFAULT_FROM_EMAIL,
            to=[to],
            headers={"Message-ID": message_id} if message_id else None,
        )
        message.send()


SUBJECTS = {
    "registration_confirm": gettext_lazy("Confirm your registration"),
    "registration_link": gettext_lazy("Your registration: link to view or change it"),
    "registration_promoted": gettext_lazy("A place is free: you are in the tournament"),
    "signup_confirm": gettext_lazy("Your master-class sign-up"),
    "signup_link": gettext_lazy("Your master-class sign-up: link to cancel it"),
    "signup_promoted": gettext_lazy("A seat is free: you are in the master class"),
    "signup_reminder": gettext_lazy("Reminder: the master class is tomorrow"),
}


def send(kind: str, object_id: int, message_id: str | None = None) -> bool:
    """Send one e-mail (with this Message-ID, if given); False if the object no longer exists
    (nothing to do)."""
    if kind.startswith("registration_"):
        reg = Registration.objects.select_related("tournament").filter(pk=object_id).first()
        if reg is None:
            return False
        context = {"registration": reg, "tournament": reg.tournament, **registration_links(reg)}
        _send(reg.email, reg.language, kind, context, SUBJECTS[kind], message_id)
        return True
    signup = MasterClassSignup.objects.select_related("session").filter(pk=object_id).first()
    if signup is None:
        return False
    context = {"signup": signup, "session": signup.session, **signup_links(signup)}
    _send(signup.email, signup.language, kind, context, SUBJECTS[kind], message_id)
    return True
