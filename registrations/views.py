"""Views of the registrations app: thin — read the form, call a service, render."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django_ratelimit.decorators import ratelimit

from championship.models import Tournament

from . import services, tokens
from .forms import RegistrationEditForm, RegistrationForm, SignupForm
from .models import Experience, MasterClassSession, MasterClassSignup, Registration


def public_form_rate(group: str, request: HttpRequest) -> str:
    return settings.PUBLIC_FORM_RATE


def _sessions_for(tournament: Tournament) -> Any:
    return (
        MasterClassSession.objects.upcoming()
        .filter(Q(tournament=tournament) | Q(tournament__isnull=True))
        .with_counts()
    )


@ratelimit(key="ip", rate=public_form_rate, method="POST", block=True)
@require_http_methods(["GET", "POST"])
def register(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    sessions = _sessions_for(tournament)
    if not tournament.registration_open:
        return render(request, "registrations/closed.html", {"tournament": tournament})
    form = RegistrationForm(request.POST or None, sessions=sessions)
    if request.method == "POST" and form.is_valid():
        if form.is_spam:
            # Look like success to the bot; store nothing.
            request.session["registration_done"] = {"spam": True}
            return redirect("registrations:done", slug=slug)
        data = form.cleaned_data
        try:
            outcome = services.registration_create(
                tournament=tournament,
                name=data["name"],
                email=data["email"],
                phone=data["phone"],
                club=data["club"],
                experience=data["experience"],
                language=data["language"],
            )
        except services.RegistrationClosed:
            return render(request, "registrations/closed.html", {"tournament": tournament})
        signup_status = None
        if outcome.created and data.get("masterclass"):
            signup, _created = services.signup_create(
                session=data["masterclass"],
                name=data["name"],
                email=data["email"],
                phone=data["phone"],
                language=data["language"],
                registration=outcome.registration,
            )
            signup_status = signup.status
        request.session["registration_done"] = {
            "id": outcome.registration.pk,
            "created": outcome.created,
            "signup_status": signup_status,
        }
        return redirect("registrations:done", slug=slug)
    return render(
        request,
        "registrations/register.html",
        {"tournament": tournament, "form": form},
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
        offer = _sessions_for(tournament)[:4]
    return render(
        request,
        "registrations/done.html",
        {
            "tournament": tournament,
            "registration": registration,
            "created": info.get("created", True),
            "signup_status": info.get("signup_status"),
            "sessions": offer,
        },
    )


def _link_error(request: HttpRequest, error: tokens.LinkError) -> HttpResponse:
    return render(
        request,
        "registrations/link_error.html",
        {"expired": error.expired},
        status=410 if error.expired else 400,
    )


def _registration_from(request: HttpRequest, purpose: str, token: str) -> Registration:
    pk, email = tokens.read_token(purpose, token)
    registration = Registration.objects.select_related("tournament").filter(pk=pk).first()
    if registration is None or registration.email.lower() != email:
        raise tokens.LinkError(expired=False)
    return registration


def confirm(request: HttpRequest, token: str) -> HttpResponse:
    try:
        registration = _registration_from(request, tokens.CONFIRM, token)
    except tokens.LinkError as error:
        return _link_error(request, error)
    newly = services.registration_confirm_email(registration=registration)
    manage_token = tokens.make_token(tokens.MANAGE, registration.pk, registration.email)
    return render(
        request,
        "registrations/confirmed.html",
        {"registration": registration, "newly": newly, "manage_token": manage_token},
    )


@ratelimit(key="ip", rate=public_form_rate, method="POST", block=True)
@require_http_methods(["GET", "POST"])
def manage(request: HttpRequest, token: str) -> HttpResponse:
    try:
        registration = _registration_from(request, tokens.MANAGE, token)
    except tokens.LinkError as error:
        return _link_error(request, error)
    initial = {
        "name": registration.name,
        "phone": registration.phone,
        "club": registration.club,
        "experience": registration.experience,
        "language": registration.language,
    }
    form = RegistrationEditForm(request.POST or None, initial=initial)
    editable = registration.status != Registration.Status.WITHDRAWN
    if request.method == "POST" and editable and form.is_valid():
        services.registration_update(registration=registration, **form.cleaned_data)
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
            "form": form,
            "token": token,
            "editable": editable,
            "signup_links": signup_links,
        },
        status=400 if form.is_bound else 200,
    )


@require_POST
def withdraw(request: HttpRequest, token: str) -> HttpResponse:
    try:
        registration = _registration_from(request, tokens.MANAGE, token)
    except tokens.LinkError as error:
        return _link_error(request, error)
    services.registration_withdraw(registration=registration)
    messages.success(request, _("Your registration is withdrawn. You can enter again below."))
    return redirect("registrations:manage", token=token)


@require_POST
def reenter(request: HttpRequest, token: str) -> HttpResponse:
    try:
        registration = _registration_from(request, tokens.MANAGE, token)
    except tokens.LinkError as error:
        return _link_error(request, error)
    try:
        reg = services.registration_reenter(registration=registration)
    except services.RegistrationClosed:
        messages.error(request, _("Registration for this tournament is closed."))
    else:
        if reg.status == Registration.Status.WAITLISTED:
            messages.warning(request, _("The field is full: you are on the waiting list."))
        else:
            messages.success(request, _("You are entered again."))
    return redirect("registrations:manage", token=token)


# --- Master class ----------------------------------------------------------------------------
def masterclass_list(request: HttpRequest) -> HttpResponse:
    sessions = MasterClassSession.objects.upcoming().with_counts().select_related("tournament")
    return render(request, "registrations/masterclass_list.html", {"sessions": sessions})


@ratelimit(key="ip", rate=public_form_rate, method="POST", block=True)
@require_http_methods(["GET", "POST"])
def masterclass_signup(request: HttpRequest, pk: int) -> HttpResponse:
    session = get_object_or_404(MasterClassSession.objects.with_counts(), pk=pk)
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        if form.is_spam:
            request.session["signup_done"] = {"spam": True}
            return redirect("registrations:signup_done")
        data = form.cleaned_data
        signup, created = services.signup_create(
            session=session,
            name=data["name"],
            email=data["email"],
            phone=data["phone"] or "",
            language=data["language"],
        )
        request.session["signup_done"] = {"id": signup.pk, "created": created}
        return redirect("registrations:signup_done")
    return render(
        request,
        "registrations/signup.html",
        {"session": session, "form": form},
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
        {"signup": signup, "created": info.get("created", True)},
    )


@require_http_methods(["GET", "POST"])
def signup_cancel(request: HttpRequest, token: str) -> HttpResponse:
    try:
        pk, email = tokens.read_token(tokens.SIGNUP, token)
        signup = MasterClassSignup.objects.select_related("session").filter(pk=pk).first()
        if signup is None or signup.email.lower() != email:
            raise tokens.LinkError(expired=False)
    except tokens.LinkError as error:
        return _link_error(request, error)
    if request.method == "POST":
        signup = services.signup_cancel(signup=signup)
        messages.success(request, _("Your sign-up is cancelled."))
        return redirect(reverse("registrations:signup_cancel", args=[token]))
    return render(request, "registrations/signup_cancel.html", {"signup": signup})
