"""E-mails of the registrations app, rendered when they are sent (``services.outbox``), each in
its recipient's language: what it is about (tournament or session, date, time, venue), the
person's status in words (entered, or the waiting-list position; a seat booked), the
organisers' contact (and Reply-To), links that open the site in that language, and an ``.ics``
file for a tournament entry or a master-class seat.

``send(kind, object_id, message_id, params)``: the kinds are the keys of :data:`SUBJECTS`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlencode

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import formats, timezone, translation
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext, gettext_lazy

from . import calendar, selectors, tokens
from .models import Announcement, DigestSubscription, MasterClassSignup, Registration


def absolute(path: str, language: str | None = None) -> str:
    """The link on the site; with ``language`` it opens in that language whatever the
    browser's (the page honours ``?lang=`` and remembers it in the language cookie)."""
    url = settings.SITE_URL + path
    return f"{url}?{urlencode({'lang': language})}" if language else url


def registration_links(registration: Registration) -> dict[str, str]:
    language = registration.language
    return {
        "confirm_url": absolute(
            reverse(
                "registrations:confirm",
                args=[tokens.make_token(tokens.CONFIRM, registration.pk, registration.email)],
            ),
            language,
        ),
        "manage_url": absolute(
            reverse(
                "registrations:manage",
                args=[tokens.make_token(tokens.MANAGE, registration.pk, registration.email)],
            ),
            language,
        ),
        "tournament_url": absolute(
            reverse("registrations:register", args=[registration.tournament.slug]), language
        ),
        "privacy_url": absolute(reverse("registrations:privacy"), language),
    }


def signup_links(signup: MasterClassSignup) -> dict[str, str]:
    return {
        "cancel_url": absolute(
            reverse(
                "registrations:signup_cancel",
                args=[tokens.make_token(tokens.SIGNUP, signup.pk, signup.email)],
            ),
            signup.language,
        ),
        "privacy_url": absolute(reverse("registrations:privacy"), signup.language),
        "masterclass_url": absolute(reverse("registrations:masterclass_list"), signup.language),
    }


@dataclass
class Draft:
    """One e-mail before sending."""

    to: str
    language: str
    template: str
    subject: Callable[[], str]
    context: dict[str, object]
    #: (file name, maker) of the calendar file to attach, if any.
    ics: tuple[str, Callable[[], bytes]] | None = None


def organiser_contact() -> dict[str, str]:
    return {"email": settings.ORGANISER_EMAIL, "phone": settings.ORGANISER_PHONE}


# --- What each kind says ----------------------------------------------------------------------
def _registration(kind: str, object_id: int, params: dict[str, object]) -> Draft | None:
    reg = Registration.objects.select_related("tournament").filter(pk=object_id).first()
    if reg is None or reg.anonymised_at is not None:
        return None
    tournament = reg.tournament
    context: dict[str, object] = {
        "registration": reg,
        "tournament": tournament,
        "position": selectors.registration_waiting_position(registration=reg),
        "organiser": organiser_contact(),
        "by_organiser": bool(params.get("by_organiser")),
        "had_place": bool(params.get("had_place")),
        "started": bool(params.get("started")),
        "asked": bool(params.get("asked")),
        **registration_links(reg),
    }
    subjects: dict[str, Callable[[], str]] = {
        "registration_confirm": lambda: gettext("%(name)s: please confirm your registration"),
        "registration_link": lambda: gettext("%(name)s: your registration link"),
        "registration_promoted": lambda: gettext("%(name)s: a place is free, you are entered"),
        "registration_withdrawn": lambda: gettext("%(name)s: your registration is withdrawn"),
    }
    draft = Draft(
        to=reg.email,
        language=reg.language,
        template=kind,
        subject=lambda: subjects[kind]() % {"name": tournament.localized_name},
        context=context,
    )
    entered = reg.status == Registration.Status.ENTERED
    if entered and kind in ("registration_confirm", "registration_link", "registration_promoted"):
        draft.ics = (
            "tournament.ics",
            lambda: calendar.tournament_ics(
                tournament=tournament,
                description=str(context["manage_url"]),
                url=str(context["tournament_url"]),
            ),
        )
    return draft


def _announcement(kind: str, object_id: int, params: dict[str, object]) -> Draft | None:
    reg = Registration.objects.select_related("tournament").filter(pk=object_id).first()
    announcement = Announcement.objects.filter(pk=params.get("announcement")).first()
    if reg is None or reg.anonymised_at is not None or announcement is None:
        return None
    subject, message = announcement.text_for(reg.language)
    return Draft(
        to=reg.email,
        language=reg.language,
        template=kind,
        subject=lambda: subject,
        context={
            "registration": reg,
            "tournament": reg.tournament,
            "message": message,
            "organiser": organiser_contact(),
            **registration_links(reg),
        },
    )


def _signup(kind: str, object_id: int, params: dict[str, object]) -> Draft | None:
    signup = MasterClassSignup.objects.select_related("session").filter(pk=object_id).first()
    if signup is None or signup.anonymised_at is not None:
        return None
    session = signup.session
    subjects: dict[str, Callable[[], str]] = {
        "signup_confirm": lambda: gettext("Master class: %(title)s"),
        "signup_link": lambda: gettext("Master class: your link to %(title)s"),
        "signup_promoted": lambda: gettext("Master class: a seat is free for you at %(title)s"),
        "signup_reminder": lambda: gettext("Master class tomorrow: %(title)s"),
        "signup_cancelled": lambda: gettext("Master class: %(title)s, cancelled"),
        "signup_changed": lambda: gettext("Master class: %(title)s, new time or place"),
        "signup_session_cancelled": lambda: gettext(
            "Master class: %(title)s is cancelled by the organisers"
        ),
    }
    draft = Draft(
        to=signup.email,
        language=signup.language,
        template=kind,
        subject=lambda: subjects[kind]() % {"title": session.localized_title},
        context={
            "signup": signup,
            "session": session,
            "position": selectors.signup_waiting_position(signup=signup),
            "organiser": organiser_contact(),
            "asked": bool(params.get("asked")),
            **signup_links(signup),
        },
    )
    booked = signup.status == MasterClassSignup.Status.BOOKED
    if booked and kind in ("signup_confirm", "signup_link", "signup_promoted", "signup_changed"):
        draft.ics = (
            "master-class.ics",
            lambda: calendar.signup_ics(
                signup=signup, description=str(draft.context["cancel_url"])
            ),
        )
    return draft


def _digest(kind: str, object_id: int, params: dict[str, object]) -> Draft | None:
    subscription = DigestSubscription.objects.select_related("user").filter(pk=object_id).first()
    since = parse_datetime(str(params.get("since", "")))
    until = parse_datetime(str(params.get("until", "")))
    if subscription is None or not subscription.user.email or since is None or until is None:
        return None
    return Draft(
        to=subscription.user.email,
        language=subscription.language,
        template=kind,
        subject=lambda: (
            gettext("New registrations: %(day)s")
            % {"day": formats.date_format(timezone.localtime(until), "DATE_FORMAT")}
        ),
        context={
            "since": since,
            "until": until,
            "tournaments": selectors.digest_registrations(since=since, until=until),
            "sessions": selectors.digest_signups(since=since, until=until),
            "site_url": settings.SITE_URL,
        },
    )


#: What each kind of e-mail is, for the organisers' pages.
KIND_LABELS = {
    "registration_confirm": gettext_lazy("Registration: please confirm"),
    "registration_link": gettext_lazy("Registration: the link again"),
    "registration_promoted": gettext_lazy("Registration: a place is free"),
    "registration_withdrawn": gettext_lazy("Registration: withdrawn"),
    "registration_announcement": gettext_lazy("Announcement"),
    "signup_confirm": gettext_lazy("Master class: sign-up"),
    "signup_link": gettext_lazy("Master class: the link again"),
    "signup_promoted": gettext_lazy("Master class: a seat is free"),
    "signup_reminder": gettext_lazy("Master class: reminder"),
    "signup_cancelled": gettext_lazy("Master class: cancelled"),
    "signup_changed": gettext_lazy("Master class: new time or place"),
    "signup_session_cancelled": gettext_lazy("Master class: session cancelled"),
    "organiser_digest": gettext_lazy("Daily digest"),
}


BUILDERS: dict[str, Callable[[str, int, dict[str, object]], Draft | None]] = {
    "registration_confirm": _registration,
    "registration_link": _registration,
    "registration_promoted": _registration,
    "registration_withdrawn": _registration,
    "registration_announcement": _announcement,
    "signup_confirm": _signup,
    "signup_link": _signup,
    "signup_promoted": _signup,
    "signup_reminder": _signup,
    "signup_cancelled": _signup,
    "signup_changed": _signup,
    "signup_session_cancelled": _signup,
    "organiser_digest": _digest,
}


def render(
    kind: str, object_id: int, params: dict[str, object] | None = None
) -> EmailMultiAlternatives | None:
    """The message of this kind about this object, or None if there is nothing to send (the
    object is gone or anonymised)."""
    draft = BUILDERS[kind](kind, object_id, params or {})
    if draft is None:
        return None
    with translation.override(draft.language):
        body = render_to_string(f"registrations/email/{draft.template}.txt", draft.context)
        message = EmailMultiAlternatives(
            subject=draft.subject(),
            body=body,
            from_email=settings.DEFAULT_FROM_EMAIL,
            to=[draft.to],
            reply_to=[settings.ORGANISER_EMAIL] if settings.ORGANISER_EMAIL else None,
            headers={"Content-Language": draft.language, "Auto-Submitted": "auto-generated"},
        )
        if draft.ics is not None:
            name, make = draft.ics
            message.attach(name, make(), calendar.CONTENT_TYPE)
    return message


def send(
    kind: str,
    object_id: int,
    message_id: str | None = None,
    params: dict[str, object] | None = None,
) -> bool:
    """Send one e-mail (with this Message-ID, if given); False if there is nothing to send."""
    message = render(kind, object_id, params)
    if message is None:
        return False
    if message_id:
        message.extra_headers["Message-ID"] = message_id
    message.send()
    return True
