"""E-mails of the registrations app, rendered when they are sent (``services.outbox``), each in
its recipient's language: what it is about (tournament or session, date, time, venue), the
person's status in words (entered, or the waiting-list position; a seat booked), the
organisers' contact (and Reply-To), links that open the site in that language, and an ``.ics``
file for a tournament entry or a master-class seat.

``send(kind, object_id, message_id, params)``: the kinds are the keys of :data:`SUBJECTS`."""

from __future__ import annotations

import functools
import io
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import formats, timezone, translation
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext, gettext_lazy

from championship import schedule
from championship.models import Tournament
from common.links import absolute_url

from . import calendar, selectors, tokens
from .models import Announcement, DigestSubscription, MasterClassSignup, Registration


def absolute(path: str, language: str | None = None) -> str:
    """The link on the site (``common.links.absolute_url``, from ``SITE_URL``); with
    ``language`` it opens in that language whatever the browser's."""
    return absolute_url(path, language)


def player_path(registration: Registration) -> str:
    """The path of the player's own page of the tournament day (a signed link, no account)."""
    token = tokens.make_token(tokens.PLAYER, registration.pk, registration.email)
    return reverse("registrations:my_day", args=[registration.tournament.slug, token])


def registration_links(registration: Registration) -> dict[str, str]:
    language = registration.language
    return {
        "player_url": absolute(player_path(registration), language),
        "schedule_url": absolute(
            reverse("championship:schedule_ics", args=[registration.tournament.slug])
        ),
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
    #: (file name, maker) of a PNG image to attach: the QR code of the player's page.
    qr: tuple[str, Callable[[], bytes]] | None = None
    #: The zone of the times the e-mail tells (a tournament's; else the site's).
    zone: str = settings.TIME_ZONE


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
    context.update(_schedule(tournament))
    draft = Draft(
        to=reg.email,
        language=reg.language,
        template=kind,
        subject=lambda: subjects[kind]() % {"name": tournament.localized_name},
        context=context,
        zone=tournament.time_zone,
    )
    entered = reg.status == Registration.Status.ENTERED
    if entered and kind in ("registration_confirm", "registration_link", "registration_promoted"):
        # A finished tournament has nothing to come: no calendar file to add.
        if not tournament.is_finished:
            draft.ics = (
                "tournament.ics",
                lambda: calendar.tournament_ics(
                    tournament=tournament,
                    description=str(context["player_url"]),
                    url=str(context["tournament_url"]),
                ),
            )
        draft.qr = ("your-page-qr.png", lambda: qr_png(str(context["player_url"])))
    return draft


@functools.lru_cache(maxsize=256)
def qr_png(url: str) -> bytes:
    """The QR code of ``url`` as a PNG image (pure Python: qrcode with pypng; 20 ms, so a
    worker keeps the last few hundred: a player's confirmation, link and promotion e-mails
    carry the same one)."""
    import qrcode
    import qrcode.image.pure

    image = qrcode.make(
        url,
        image_factory=qrcode.image.pure.PyPNGImage,
        box_size=8,
        border=3,
        error_correction=qrcode.constants.ERROR_CORRECT_M,
    )
    out = io.BytesIO()
    image.save(out)
    return out.getvalue()


def _schedule(tournament: Tournament) -> dict[str, object]:
    """Round 1's start and the check-in window, for the e-mails that tell when to come."""
    from championship import selectors as championship_selectors

    if tournament.is_finished:
        return {"round_one": None}  # nothing to come: the e-mail says it is finished
    first = championship_selectors.round_start(tournament, 1)
    if first is None:
        return {"round_one": None}
    return {
        "round_one": first,
        "check_in_opens": schedule.after(first, -tournament.check_in_opens_minutes),
        "check_in_closes": schedule.after(first, -tournament.check_in_closes_minutes),
        "self_check_in": tournament.self_check_in,
    }


def _pairing(kind: str, object_id: int, params: dict[str, object]) -> Draft | None:
    """Board, colour, opponent and start of a round (``pairing_published``), or what changed
    since the player was last told (``pairing_changed``), from the snapshots the outbox row
    keeps (``services.pairing_notices``)."""
    reg = Registration.objects.select_related("tournament").filter(pk=object_id).first()
    now = params.get("now")
    number = params.get("round")
    if reg is None or reg.anonymised_at is not None or not isinstance(now, dict):
        return None
    if not isinstance(number, int):
        return None
    was = params.get("was") if isinstance(params.get("was"), dict) else None
    tournament = reg.tournament

    def told(snapshot: dict[str, object] | None) -> dict[str, object] | None:
        if snapshot is None:
            return None
        starts = parse_datetime(str(snapshot.get("starts_at") or ""))
        return {**snapshot, "starts": starts}

    current = told(now)
    before = told(was)
    changes = []
    if before is not None and current is not None:
        changes = [
            key
            for key in ("board", "colour", "bye", "opponent_id", "starts_at")
            if before.get(key) != current.get(key)
        ]
    subjects: dict[str, Callable[[], str]] = {
        "pairing_published": lambda: gettext("%(name)s: your pairing in round %(n)d"),
        # The subject says what changed: only the start is not a new pairing.
        "pairing_changed": (
            (lambda: gettext("%(name)s: round %(n)d, new start time"))
            if changes == ["starts_at"]
            else (lambda: gettext("%(name)s: round %(n)d, your pairing has changed"))
        ),
    }
    return Draft(
        to=reg.email,
        language=reg.language,
        template=kind,
        subject=lambda: subjects[kind]() % {"name": tournament.localized_name, "n": number},
        context={
            "registration": reg,
            "tournament": tournament,
            "round": number,
            "now": current,
            "was": before,
            "changed": changes,
            "two_games": tournament.games_per_pairing == 2,
            "organiser": organiser_contact(),
            **registration_links(reg),
        },
        zone=tournament.time_zone,
    )


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
    "pairing_published": gettext_lazy("Pairing: a round is published"),
    "pairing_changed": gettext_lazy("Pairing: changed"),
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
    "pairing_published": _pairing,
    "pairing_changed": _pairing,
}


def render(
    kind: str, object_id: int, params: dict[str, object] | None = None
) -> EmailMultiAlternatives | None:
    """The message of this kind about this object, or None if there is nothing to send (the
    object is gone or anonymised)."""
    draft = BUILDERS[kind](kind, object_id, params or {})
    if draft is None:
        return None
    with translation.override(draft.language), timezone.override(draft.zone):
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
        if draft.qr is not None:
            name, make = draft.qr
            message.attach(name, make(), "image/png")
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
