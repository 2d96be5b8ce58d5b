"""Public views of the registrations app: thin — read the form, call a service, render.

Views reached from the links in e-mails honour ``?lang=`` (``common.language``), so they open
in the person's language whatever the browser's."""

from __future__ import annotations

import functools
from collections.abc import Callable

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django_ratelimit.decorators import ratelimit

from championship.models import Entrant, Tournament
from championship.services import (
    ChampionshipError,
    RegistrationClosed,
    WithdrawnBy,
)
from common.language import language_from_query

from . import selectors, throttle, tokens
from .forms import LostLinkForm, RegistrationEditForm, RegistrationForm, SignupForm
from .models import Experience, MasterClassSession, MasterClassSignup, Registration
from .services import entries, masterclass
from .services.participation import participant_reinstate, participant_withdraw


def public_form_rate(group: str, request: HttpRequest) -> str:
    return settings.PUBLIC_FORM_RATE


def _throttled(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A post refused by a limit of ``throttle`` answers a page that says which limit and how
    long to wait (nothing was saved), instead of the site's generic "wait a minute"."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except throttle.Throttled as refused:
            return render(
                request,
                "registrations/too_many.html",
                {
                    "per_email": refused.per_email,
                    "minutes": refused.minutes,
                    "organiser_email": settings.ORGANISER_EMAIL,
                },
                status=429,
            )

    return wrapper


@require_http_methods(["GET", "POST"])
@language_from_query
@_throttled
def register(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    if not tournament.registration_is_open:
        return render(request, "registrations/closed.html", {"tournament": tournament})
    if request.method == "POST":
        throttle.check_address(request)
    sessions = selectors.sessions_for_tournament(tournament=tournament)
    full = selectors.tournament_is_full(tournament=tournament)
    form = RegistrationForm(request.POST or None, sessions=sessions, waiting_list=full)
    if request.method == "POST" and form.is_valid() and not form.is_spam:
        data = form.cleaned_data
        throttle.check_email(request, data["email"])
        try:
            outcome = entries.registration_create(
                tournament=tournament,
                name=data["name"],
                email=data["email"],
                phone=data["phone"],
                club=data["club"],
                experience=data["experience"],
                language=data["language"],
            )
        except RegistrationClosed:
            return render(request, "registrations/closed.html", {"tournament": tournament})
        throttle.count_done(request, data["email"])
        signup_status = None
        if outcome.created and data.get("masterclass"):
            try:
                signup, _created = masterclass.signup_create(
                    session=data["masterclass"],
                    name=data["name"],
                    email=data["email"],
                    phone=data["phone"],
                    language=data["language"],
                    experience=data["experience"],
                    registration=outcome.registration,
                )
            except masterclass.MasterClassError as exc:  # e.g. the session began meanwhile
                messages.warning(request, str(exc))
            else:
                signup_status = signup.status
        request.session["registration_done"] = {
            "id": outcome.registration.pk,
            "created": outcome.created,
            "signup_status": signup_status,
        }
        return redirect("registrations:done", slug=slug)
    if request.method == "POST":
        throttle.count_refused(request)
        if form.is_valid():  # the honeypot: look like success to the bot, store nothing
            request.session["registration_done"] = {"spam": True}
            return redirect("registrations:done", slug=slug)
    return render(
        request,
        "registrations/register.html",
        {
            "tournament": tournament,
            "form": form,
            "full": full,
            "position": selectors.tournament_waiting_count(tournament=tournament) + 1,
        },
        status=400 if form.is_bound else 200,
    )


def register_done(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    info = request.session.get("registration_done")
    if not info:
        return redirect("registrations:register", slug=slug)
    registration = None
    if info.get("id"):
        registration = Registration.objects.filter(pk=info["id"], tournament=tournament).first()
    offer = None
    if (
        registration is not None
        and info.get("created")
        and registration.experience == Experience.NEWCOMER
        and not info.get("signup_status")
    ):
        offer = selectors.sessions_for_tournament(tournament=tournament)[:4]
    return render(
        request,
        "registrations/done.html",
        {
            "tournament": tournament,
            "registration": registration,
            "position": registration
            and selectors.registration_waiting_position(registration=registration),
            "created": info.get("created", True),
            "signup_status": info.get("signup_status"),
            "sessions": offer,
            "lost_link_form": LostLinkForm(initial={"email": registration and registration.email}),
        },
    )


@require_http_methods(["GET", "POST"])
@_throttled
def lost_link(request: HttpRequest) -> HttpResponse:
    """ "I lost my link": fresh links by e-mail for whatever this address has registered. The
    answer is the same whether the address is known or not."""
    form = LostLinkForm(request.POST or None)
    if request.method == "POST":
        throttle.check_address(request)
        if form.is_valid() and not form.is_spam:
            email = form.cleaned_data["email"]
            throttle.check_email(request, email)
            entries.person_links_send(email=email)
            throttle.count_done(request, email)
            return render(request, "registrations/lost_link.html", {"sent_to": email})
        throttle.count_refused(request)
        if form.is_valid():
            return render(request, "registrations/lost_link.html", {"sent_to": form.data["email"]})
    return render(
        request,
        "registrations/lost_link.html",
        {"form": form},
        status=400 if form.is_bound else 200,
    )


@language_from_query
def privacy(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "registrations/privacy.html",
        {
            "retention_days": settings.PERSONAL_DATA_RETENTION_DAYS,
            "organiser_email": settings.ORGANISER_EMAIL,
            "organiser_phone": settings.ORGANISER_PHONE,
        },
    )


def _link_error(request: HttpRequest, error: tokens.LinkError) -> HttpResponse:
    return render(
        request,
        "registrations/link_error.html",
        {"expired": error.expired, "lost_link_form": LostLinkForm()},
        status=410 if error.expired else 400,
    )


@language_from_query
def confirm(request: HttpRequest, token: str) -> HttpResponse:
    try:
        registration = entries.registration_by_link(tokens.CONFIRM, token)
    except tokens.LinkError as error:
        return _link_error(request, error)
    newly = entries.registration_confirm_email(registration=registration)
    manage_token = tokens.make_token(tokens.MANAGE, registration.pk, registration.email)
    return render(
        request,
        "registrations/confirmed.html",
        {
            "registration": registration,
            "newly": newly,
            "manage_token": manage_token,
            "position": selectors.registration_waiting_position(registration=registration),
        },
    )


@ratelimit(key="ip", rate=public_form_rate, method="POST", block=True)
@require_http_methods(["GET", "POST"])
@language_from_query
def manage(request: HttpRequest, token: str) -> HttpResponse:
    try:
        registration = entries.registration_by_link(tokens.MANAGE, token)
    except tokens.LinkError as error:
        return _link_error(request, error)
    initial = {
        "name": registration.name,
        "phone": registration.phone,
        "club": registration.club,
        "experience": registration.experience,
        "language": registration.language,
    }
    entered = Entrant.objects.filter(registration=registration).exists()
    form = RegistrationEditForm(request.POST or None, initial=initial, entered=entered)
    editable = registration.status != Registration.Status.WITHDRAWN
    if request.method == "POST" and editable and form.is_valid():
        entries.registration_update(registration=registration, **form.cleaned_data)
        messages.success(request, _("Your changes are saved."))
        return redirect("registrations:manage", token=token)
    signups = registration.masterclass_signups.select_related("session").exclude(
        status=MasterClassSignup.Status.CANCELLED
    )
    signup_links = [(s, tokens.make_token(tokens.SIGNUP, s.pk, s.email)) for s in signups]
    return render(
        request,
        "registrations/manage.html",
        {
            "registration": registration,
            "tournament": registration.tournament,
            "position": selectors.registration_waiting_position(registration=registration),
            "full": selectors.tournament_is_full(tournament=registration.tournament),
            "form": form,
            "token": token,
            "editable": editable,
            "signup_links": signup_links,
        },
        status=400 if form.is_bound else 200,
    )


@require_http_methods(["GET", "POST"])
@language_from_query
def withdraw(request: HttpRequest, token: str) -> HttpResponse:
    """GET asks first and says what happens to the place; POST withdraws."""
    try:
        registration = entries.registration_by_link(tokens.MANAGE, token)
    except tokens.LinkError as error:
        return _link_error(request, error)
    if registration.status == Registration.Status.WITHDRAWN:
        return redirect("registrations:manage", token=token)
    if request.method == "POST":
        try:
            participant_withdraw(registration=registration, by=WithdrawnBy.PLAYER)
        except ChampionshipError as exc:
            finished = registration.tournament.is_finished
            messages.error(
                request,
                _("The tournament is finished: your registration stays as it was.")
                if finished
                else str(exc),
            )
        else:
            messages.success(
                request,
                _("Your registration is withdrawn and we have e-mailed you a confirmation."),
            )
        return redirect("registrations:manage", token=token)
    return render(
        request,
        "registrations/withdraw.html",
        {
            "registration": registration,
            "tournament": registration.tournament,
            "token": token,
            "waiting": selectors.tournament_waiting_count(tournament=registration.tournament),
        },
    )


@require_POST
def reenter(request: HttpRequest, token: str) -> HttpResponse:
    try:
        registration = entries.registration_by_link(tokens.MANAGE, token)
    except tokens.LinkError as error:
        return _link_error(request, error)
    try:
        participant_reinstate(registration=registration, by=WithdrawnBy.PLAYER)
        reg = registration
    except RegistrationClosed:
        messages.error(request, _("Registration for this tournament is closed."))
    except ChampionshipError as exc:
        messages.error(request, str(exc))
    else:
        if reg.status == Registration.Status.WAITLISTED:
            messages.warning(
                request,
                _("The field is full: you are on the waiting list, in position %(n)d.")
                % {"n": selectors.registration_waiting_position(registration=reg)},
            )
        else:
            messages.success(request, _("You are entered again."))
    return redirect("registrations:manage", token=token)


# --- Master class ----------------------------------------------------------------------------
@language_from_query
def masterclass_list(request: HttpRequest) -> HttpResponse:
    sessions = MasterClassSession.objects.upcoming().with_counts().select_related("tournament")
    return render(request, "registrations/masterclass_list.html", {"sessions": sessions})


def _offered_to(request: HttpRequest) -> Registration | None:
    """The registration just made in this browser, whose master-class offer was followed."""
    info = request.session.get("registration_done") or {}
    if not info.get("id") or not info.get("created"):
        return None
    return Registration.objects.filter(pk=info["id"]).first()


@require_http_methods(["GET", "POST"])
@language_from_query
@_throttled
def masterclass_signup(request: HttpRequest, pk: int) -> HttpResponse:
    session = get_object_or_404(MasterClassSession.objects.with_counts(), pk=pk)
    registration = _offered_to(request) if request.GET.get("from") == "registration" else None
    initial = {}
    if registration is not None:
        initial = {
            "name": registration.name,
            "email": registration.email,
            "phone": registration.phone,
            "language": registration.language,
            "experience": registration.experience,
        }
    closed = masterclass.session_refusal(session=session)
    if closed is not None:  # cancelled, or begun: no form to fill in
        return render(request, "registrations/signup.html", {"session": session, "closed": closed})
    # The first sign-up of the registration just made in this browser, for its address: part
    # of that registration, already counted by the rate limit.
    offered = _offered_to(request) if request.method == "POST" else None
    if (
        offered is not None
        and offered.email.lower() != request.POST.get("email", "").strip().lower()
    ):
        offered = None
    first_offer = offered is not None and not offered.masterclass_signups.exists()
    if request.method == "POST":
        throttle.check_address(request, same_registration=first_offer)
    waiting = selectors.signup_waiting_positions(session=session)
    full = session.is_full or bool(waiting)
    form = SignupForm(request.POST or None, initial=initial, waiting_list=full)
    if request.method == "POST" and form.is_valid() and not form.is_spam:
        data = form.cleaned_data
        throttle.check_email(request, data["email"])
        try:
            signup, created = masterclass.signup_create(
                session=session,
                name=data["name"],
                email=data["email"],
                phone=data["phone"] or "",
                language=data["language"],
                experience=data["experience"],
                registration=offered,
            )
        except masterclass.MasterClassError as exc:
            form.add_error(None, str(exc))
        else:
            # The offer of the registration just made is part of it: one count for the address.
            throttle.count_done(request, data["email"], same_registration=first_offer)
            request.session["signup_done"] = {"id": signup.pk, "created": created}
            return redirect("registrations:signup_done")
    if request.method == "POST" and not form.non_field_errors():
        throttle.count_refused(request)
        if form.is_valid():  # the honeypot
            request.session["signup_done"] = {"spam": True}
            return redirect("registrations:signup_done")
    return render(
        request,
        "registrations/signup.html",
        {"session": session, "form": form, "full": full, "position": len(waiting) + 1},
        status=400 if form.is_bound else 200,
    )


def signup_done(request: HttpRequest) -> HttpResponse:
    info = request.session.get("signup_done")
    if not info:
        return redirect("registrations:masterclass_list")
    signup = None
    if info.get("id"):
        signup = MasterClassSignup.objects.select_related("session").filter(pk=info["id"]).first()
    return render(
        request,
        "registrations/signup_done.html",
        {
            "signup": signup,
            "position": signup and selectors.signup_waiting_position(signup=signup),
            "created": info.get("created", True),
            "lost_link_form": LostLinkForm(initial={"email": signup and signup.email}),
        },
    )


@require_http_methods(["GET", "POST"])
@language_from_query
def signup_cancel(request: HttpRequest, token: str) -> HttpResponse:
    """GET shows the sign-up and asks; POST cancels."""
    try:
        pk, email = tokens.read_token(tokens.SIGNUP, token)
        signup = MasterClassSignup.objects.select_related("session").filter(pk=pk).first()
        if signup is None or signup.email.lower() != email:
            raise tokens.LinkError(expired=False)
    except tokens.LinkError as error:
        return _link_error(request, error)
    if request.method == "POST":
        signup = masterclass.signup_cancel(signup=signup)
        messages.success(
            request, _("Your sign-up is cancelled and we have e-mailed you a confirmation.")
        )
        return redirect(reverse("registrations:signup_cancel", args=[token]))
    return render(
        request,
        "registrations/signup_cancel.html",
        {"signup": signup, "position": selectors.signup_waiting_position(signup=signup)},
    )
