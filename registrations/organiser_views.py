"""Organisers' pages: an overview, registration and sign-up lists with counts and exports,
one registration (withdraw, enter again), check-in, announcements, the daily digest, the
roster, and the personal-data tools."""

from __future__ import annotations

import json

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_tables2 import RequestConfig

from championship.forms import ConfirmForm
from championship.models import Tournament
from championship.services import (
    ChampionshipError,
    WithdrawnBy,
    late_entry_from,
)
from common.exports import EXPORT_FORMATS, export_response
from common.language import without_language
from common.permissions import organiser_required

from . import selectors
from .emails import KIND_LABELS
from .forms import AnnouncementForm, SessionForm
from .models import DigestSubscription, MasterClassSession, MasterClassSignup, Registration
from .services import announcements, demo, entries, field, masterclass
from .services.participation import participant_reinstate, participant_withdraw
from .services.privacy import person_anonymise
from .tables import (
    REGISTRATION_STATUS,
    RegistrationTable,
    SignupTable,
    registrations_sheet,
    signups_sheet,
    status_words,
)


def _back(request: HttpRequest) -> HttpResponseRedirect | None:
    """Back to the page the form was on (``next``: a path on this site, without the ``lang=``
    it was opened with, ``common.language.without_language``), if given."""
    nxt = request.POST.get("next", "")
    if nxt.startswith("/") and url_has_allowed_host_and_scheme(
        nxt, allowed_hosts={request.get_host()}
    ):
        return HttpResponseRedirect(without_language(nxt))
    return None


@organiser_required("registrations.view_registration")
def overview(request: HttpRequest) -> HttpResponse:
    """Where the organisers' menu leads: every tournament to come with its registrations, every
    master-class session with its sign-ups and roster."""
    return render(
        request,
        "registrations/overview.html",
        {
            "tournaments": selectors.organiser_tournaments(),
            "sessions": selectors.organiser_sessions(),
        },
    )


@organiser_required("registrations.view_registration")
def registration_list(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    status = request.GET.get("status", "")
    query = request.GET.get("q", "").strip()
    registrations = selectors.registration_search(tournament=tournament, status=status, query=query)
    positions = selectors.registration_waiting_positions(tournament=tournament)
    fmt = request.GET.get("_export", "")
    if fmt in EXPORT_FORMATS:
        return export_response(
            registrations_sheet(registrations.order_by("created_at", "pk"), positions=positions),
            fmt=fmt,
            filename=f"registrations-{tournament.slug}",
        )
    table = RegistrationTable(registrations, positions=positions)
    RequestConfig(request, paginate={"per_page": 100}).configure(table)
    return render(
        request,
        "registrations/registration_list.html",
        {
            "tournament": tournament,
            "table": table,
            "status": status,
            "query": query,
            "statuses": Registration.Status.choices,
            "counts": selectors.registration_counts(tournament=tournament),
            # Checking in now makes a late entry from this round (None: not late).
            "late_from": late_entry_from(tournament),
            "digest": DigestSubscription.objects.filter(user_id=request.user.pk).exists(),
        },
    )


@organiser_required("registrations.view_registration")
def registration_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """One registration; an organiser with the right may withdraw it (its place goes to the
    waiting list, the player is e-mailed) or enter it again."""
    registration = get_object_or_404(Registration.objects.select_related("tournament"), pk=pk)
    if request.method == "POST":
        if not request.user.has_perm("registrations.change_registration"):
            raise PermissionDenied
        action = request.POST.get("action")
        try:
            if action == "withdraw" and request.POST.get("confirm") == "yes":
                done = participant_withdraw(registration=registration, by=WithdrawnBy.ORGANISER)
                messages.success(request, done.message())
                return redirect("registrations:registration_detail", pk=pk)
            if action == "reenter":
                back = participant_reinstate(registration=registration, by=WithdrawnBy.ORGANISER)
                messages.success(request, back.message())
                return redirect("registrations:registration_detail", pk=pk)
        except ChampionshipError as exc:
            messages.error(request, str(exc))
            return redirect("registrations:registration_detail", pk=pk)
        messages.error(request, _("Tick the box to confirm the withdrawal."))
    position = selectors.registration_waiting_position(registration=registration)
    return render(
        request,
        "registrations/registration_detail.html",
        {
            "registration": registration,
            "tournament": registration.tournament,
            "status": status_words(REGISTRATION_STATUS, registration.status, position),
            "emails": [
                (e, KIND_LABELS.get(e.kind, e.kind))
                for e in selectors.registration_emails(registration=registration)
            ],
            "waiting": selectors.tournament_waiting_count(tournament=registration.tournament),
        },
    )


@require_POST
@organiser_required("registrations.change_registration")
def check_in(request: HttpRequest, pk: int) -> HttpResponse:
    registration = get_object_or_404(Registration.objects.select_related("tournament"), pk=pk)
    try:
        done = entries.registration_check_in_toggle(
            registration=registration, missed_rounds=request.POST.get("missed_rounds") or "Z"
        )
    except ChampionshipError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, done.message())
    return _back(request) or redirect("registrations:list", slug=registration.tournament.slug)


@organiser_required("registrations.change_registration")
def announce(request: HttpRequest, slug: str) -> HttpResponse:
    """Write (POST ``preview``), check who gets it in which language, send (POST ``send``)."""
    tournament = get_object_or_404(Tournament, slug=slug)
    form = AnnouncementForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        if "send" in request.POST:
            announcement = announcements.announcement_send(
                tournament=tournament,
                audience=data["audience"],
                subject=data["subject"],
                body=data["body"],
                subject_ru=data["subject_ru"],
                body_ru=data["body_ru"],
                sent_by=request.user,  # type: ignore[arg-type]
            )
            messages.success(
                request,
                ngettext(
                    "The announcement is on its way to %(n)d person.",
                    "The announcement is on its way to %(n)d people.",
                    announcement.recipients,
                )
                % {"n": announcement.recipients},
            )
            return redirect("registrations:list", slug=slug)
        recipients = selectors.registration_recipients(
            tournament=tournament, audience=data["audience"]
        )
        preview = form.save(commit=False)
        by_language = [
            (code, name, recipients.filter(language=code).count(), preview.text_for(code))
            for code, name in Registration._meta.get_field("language").choices or []
        ]
        return render(
            request,
            "registrations/announce.html",
            {
                "tournament": tournament,
                "form": form,
                "preview": preview,
                "by_language": by_language,
                "total": recipients.count(),
            },
        )
    return render(
        request,
        "registrations/announce.html",
        {
            "tournament": tournament,
            "form": form,
            "sent": tournament.announcements.all()[:10],
        },
        status=400 if form.is_bound else 200,
    )


@require_POST
@organiser_required("registrations.view_registration")
def digest(request: HttpRequest) -> HttpResponse:
    """Turn the daily digest of new registrations on or off for this organiser."""
    if request.POST.get("digest") == "on":
        announcements.digest_subscribe(user=request.user, language=get_language() or "en")  # type: ignore[arg-type]
        if request.user.email:
            messages.success(request, _("You will get a daily digest of new registrations."))
        else:
            messages.warning(
                request,
                _("Your account has no e-mail address: ask an administrator to add one."),
            )
    else:
        announcements.digest_unsubscribe(user=request.user)  # type: ignore[arg-type]
        messages.success(request, _("The daily digest is off."))
    return _back(request) or redirect("registrations:overview")


@organiser_required("registrations.view_masterclasssignup")
def signup_list(request: HttpRequest, pk: int) -> HttpResponse:
    session = get_object_or_404(MasterClassSession.objects.with_counts(), pk=pk)
    signups = MasterClassSignup.objects.filter(session=session)
    positions = selectors.signup_waiting_positions(session=session)
    fmt = request.GET.get("_export", "")
    if fmt in EXPORT_FORMATS:
        return export_response(
            signups_sheet(signups.order_by("created_at", "pk"), positions=positions),
            fmt=fmt,
            filename=f"masterclass-{session.pk}",
        )
    table = SignupTable(signups, positions=positions)
    RequestConfig(request, paginate={"per_page": 100}).configure(table)
    return render(
        request,
        "registrations/signup_list.html",
        {"session": session, "table": table, "waiting": len(positions)},
    )


@organiser_required("registrations.view_masterclasssignup")
def roster(request: HttpRequest, pk: int) -> HttpResponse:
    session = get_object_or_404(MasterClassSession, pk=pk)
    booked = MasterClassSignup.objects.filter(
        session=session, status=MasterClassSignup.Status.BOOKED
    )
    waiting = MasterClassSignup.objects.filter(
        session=session, status=MasterClassSignup.Status.WAITLISTED
    )
    return render(
        request,
        "registrations/roster.html",
        {"session": session, "booked": booked, "waiting": waiting},
    )


@organiser_required("registrations.change_registration")
def person(request: HttpRequest) -> HttpResponse:
    """Find a person by e-mail; export everything stored about them, or anonymise them."""
    email = (request.POST.get("email") or request.GET.get("email") or "").strip()
    if request.method == "POST" and email:
        action = request.POST.get("action")
        if action == "export":
            data = selectors.person_data(email=email)
            response = HttpResponse(
                json.dumps(data, ensure_ascii=False, indent=2), content_type="application/json"
            )
            response["Content-Disposition"] = 'attachment; filename="personal-data.json"'
            return response
        if action == "anonymise" and request.POST.get("confirm") == "yes":
            count = person_anonymise(email=email)
            messages.success(
                request,
                ngettext("Anonymised %(count)d record.", "Anonymised %(count)d records.", count)
                % {"count": count},
            )
            return redirect("registrations:person")
        messages.error(request, _("Tick the box to confirm the anonymisation."))
    found = None
    if email:
        found = {
            "registrations": selectors.person_registrations(email=email),
            "signups": selectors.person_signups(email=email),
        }
    return render(
        request,
        "registrations/person.html",
        {
            "email": email,
            "found": found,
            "retention_days": settings.PERSONAL_DATA_RETENTION_DAYS,
        },
    )


@require_POST
@organiser_required("championship.change_tournament")
def entrants_import(request: HttpRequest, slug: str) -> HttpResponse:
    """The entrants page's "Add confirmed registrations": entered registrations
    with a confirmed e-mail become entrants (the registrations app feeds the championship's
    field; the championship knows nothing of registrations)."""
    t = get_object_or_404(Tournament, slug=slug)
    try:
        report = field.entrants_import_registrations(tournament=t)
    except ChampionshipError as exc:
        messages.error(request, str(exc))
        return redirect("championship:entrants", slug=slug)
    messages.success(
        request,
        ngettext(
            "%(n)d confirmed registration added as an entrant.",
            "%(n)d confirmed registrations added as entrants.",
            len(report.added),
        )
        % {"n": len(report.added)},
    )
    if report.left_out:
        messages.warning(
            request,
            _("Not added: %(people)s.")
            % {"people": "; ".join(f"{name} ({why})" for name, why in report.left_out)},
        )
    return redirect("championship:entrants", slug=slug)


# --- Master-class sessions ---------------------------------------------------------------------
def _session_page(
    request: HttpRequest, form: SessionForm, session: MasterClassSession | None, status: int = 200
) -> HttpResponse:
    booked = (
        MasterClassSignup.objects.filter(
            session=session, status=MasterClassSignup.Status.BOOKED
        ).count()
        if session is not None
        else 0
    )
    return render(
        request,
        "registrations/session_form.html",
        {"form": form, "session": session, "booked": booked},
        status=status,
    )


def _session_saved(
    request: HttpRequest, form: SessionForm, session: MasterClassSession | None
) -> HttpResponse:
    """Save a posted session form through the service: its refusal next to the form (what
    was typed is kept), else the overview with what happened."""
    if not form.is_valid():
        messages.error(request, _("The session was not saved: see the fields marked."))
        return _session_page(request, form, session, status=400)
    try:
        done = masterclass.session_save(session=form.save(commit=False))
    except masterclass.MasterClassError as exc:
        form.add_error(None, str(exc))
        return _session_page(request, form, session, status=400)
    messages.success(request, done.message())
    return redirect("registrations:overview")


@organiser_required("registrations.add_masterclasssession")
def session_create(request: HttpRequest) -> HttpResponse:
    """A new master-class session (organisers, not the admin)."""
    form = SessionForm(request.POST or None, initial={"language": get_language() or "en"})
    if request.method == "POST":
        return _session_saved(request, form, None)
    return _session_page(request, form, None)


@organiser_required("registrations.change_masterclasssession")
def session_edit(request: HttpRequest, pk: int) -> HttpResponse:
    session = get_object_or_404(MasterClassSession, pk=pk)
    form = SessionForm(request.POST or None, instance=session)
    if request.method == "POST":
        return _session_saved(request, form, MasterClassSession.objects.get(pk=pk))
    return _session_page(request, form, session)


@organiser_required("registrations.change_masterclasssession")
def session_cancel(request: HttpRequest, pk: int) -> HttpResponse:
    """Cancel a session (asks first, saying who is e-mailed; deleted when nobody signed up)."""
    session = get_object_or_404(MasterClassSession.objects.with_counts(), pk=pk)
    if request.method == "POST" and request.POST.get("confirm") == "yes":
        try:
            done = masterclass.session_cancel(session=session)
        except masterclass.MasterClassError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, done.message())
        return redirect("registrations:overview")
    return render(
        request,
        "registrations/session_cancel.html",
        {
            "session": session,
            "any_signup": MasterClassSignup.objects.filter(session=session).exists(),
        },
    )


# --- The demo data ----------------------------------------------------------------------------
@organiser_required("championship.change_tournament")
def demo_remove(request: HttpRequest) -> HttpResponse:
    """Remove the demo data ``seed_demo`` made, after saying what it is (asks first)."""
    if request.method == "POST" and ConfirmForm(request.POST).is_valid():
        found = demo.demo_remove()
        if found:
            messages.success(
                request,
                _(
                    "The demo data is removed: %(tournaments)s, %(registrations)d "
                    "registration(s), %(sessions)d master-class session(s), %(signups)d "
                    "sign-up(s)."
                )
                % {
                    "tournaments": ", ".join(found.tournaments),
                    "registrations": found.registrations,
                    "sessions": found.sessions,
                    "signups": found.signups,
                },
            )
        else:
            messages.info(request, _("There is no demo data."))
        return redirect(f"{reverse('organiser_home')}?all=1")
    return render(request, "championship/manage_demo_remove.html", {"found": demo.demo_data()})
