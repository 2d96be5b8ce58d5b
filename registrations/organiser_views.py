"""Organisers' pages: registration and sign-up lists, check-in, exports, roster, privacy."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.db.models import Q
from django.db.models.functions import Upper
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_tables2 import RequestConfig
from django_tables2.export import TableExport

from championship.models import Tournament
from common.permissions import organiser_required

from . import services
from .models import MasterClassSession, MasterClassSignup, Registration
from .tables import RegistrationTable, SignupTable


def _export(request: HttpRequest, table: Any, name: str) -> HttpResponse | None:
    fmt = request.GET.get("_export")
    if fmt and TableExport.is_valid_format(fmt) and fmt in ("csv", "xlsx"):
        return TableExport(fmt, table).response(f"{name}.{fmt}")
    return None


@organiser_required("registrations.view_registration")
def registration_list(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    qs = Registration.objects.filter(tournament=tournament)
    status = request.GET.get("status", "")
    if status in Registration.Status.values:
        qs = qs.filter(status=status)
    query = request.GET.get("q", "").strip()
    if query:
        needle = query.upper()
        qs = qs.annotate(name_u=Upper("name"), email_u=Upper("email"), club_u=Upper("club")).filter(
            Q(name_u__contains=needle) | Q(email_u__contains=needle) | Q(club_u__contains=needle)
        )
    table = RegistrationTable(qs)
    RequestConfig(request, paginate={"per_page": 100}).configure(table)
    exported = _export(request, RegistrationTable(qs), f"registrations-{tournament.slug}")
    if exported is not None:
        return exported
    return render(
        request,
        "registrations/registration_list.html",
        {
            "tournament": tournament,
            "table": table,
            "status": status,
            "query": query,
            "statuses": Registration.Status.choices,
        },
    )


@require_POST
@organiser_required("registrations.change_registration")
def check_in(request: HttpRequest, pk: int) -> HttpResponse:
    registration = get_object_or_404(Registration.objects.select_related("tournament"), pk=pk)
    services.registration_toggle_check_in(registration=registration)
    nxt = request.POST.get("next", "")
    if nxt and url_has_allowed_host_and_scheme(nxt, allowed_hosts={request.get_host()}):
        return redirect(nxt)
    return redirect("registrations:list", slug=registration.tournament.slug)


@organiser_required("registrations.view_masterclasssignup")
def signup_list(request: HttpRequest, pk: int) -> HttpResponse:
    session = get_object_or_404(MasterClassSession.objects.with_counts(), pk=pk)
    qs = MasterClassSignup.objects.filter(session=session)
    table = SignupTable(qs)
    RequestConfig(request, paginate={"per_page": 100}).configure(table)
    exported = _export(request, SignupTable(qs), f"masterclass-{session.pk}")
    if exported is not None:
        return exported
    return render(request, "registrations/signup_list.html", {"session": session, "table": table})


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
            data = services.person_export(email=email)
            response = HttpResponse(
                json.dumps(data, ensure_ascii=False, indent=2), content_type="application/json"
            )
            response["Content-Disposition"] = 'attachment; filename="personal-data.json"'
            return response
        if action == "anonymise" and request.POST.get("confirm") == "yes":
            count = services.person_anonymise(email=email)
            messages.success(request, _("Anonymised %(count)d record(s).") % {"count": count})
            return redirect("registrations:person")
        messages.error(request, _("Tick the box to confirm the anonymisation."))
    found = None
    if email:
        found = {
            "registrations": Registration.objects.filter(email__iexact=email).select_related(
                "tournament"
            ),
            "signups": MasterClassSignup.objects.filter(email__iexact=email).select_related(
                "session"
            ),
        }
    return render(request, "registrations/person.html", {"email": email, "found": found})
