"""Organisers' pages of people: likely duplicates and a search (``/organiser/players/``), and
one person (``/organiser/players/<id>/``) with their tournaments and registrations, merging
another person into them, splitting rows off into a new person, and undoing any merge or
split (logged: who, when). Thin: ``people.services`` does the writes."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from common.converters import posted_id
from common.permissions import organiser_required
from people.models import Person, PersonChange
from people.services import PeopleError, person_change_undo, person_merge, person_split

from . import people_selectors

PERM = "people.change_person"


@organiser_required(PERM)
def people(request: HttpRequest) -> HttpResponse:
    query = request.GET.get("q", "")[:100]
    return render(
        request,
        "registrations/people.html",
        {
            "duplicates": people_selectors.people_duplicates(),
            "query": query,
            "found": people_selectors.people_search(query=query),
        },
    )


@organiser_required(PERM)
def person(request: HttpRequest, pk: int) -> HttpResponse:
    found = get_object_or_404(Person, pk=pk)
    if found.merged_into_id is not None:
        messages.info(
            request,
            _("%(name)s was merged into this person.") % {"name": found.name},
        )
        return redirect("registrations:people_person", pk=found.merged_into_id)
    return render(
        request,
        "registrations/people_person.html",
        {"detail": people_selectors.person_detail(found)},
    )


@require_POST
@organiser_required(PERM)
def merge(request: HttpRequest, pk: int) -> HttpResponse:
    kept = get_object_or_404(Person, pk=pk, merged_into__isnull=True)
    other_id = posted_id(request.POST.get("other"))
    other = Person.objects.filter(pk=other_id).first() if other_id is not None else None
    if other is None:
        messages.error(request, _("Choose the person to merge into this one (their number)."))
        return redirect("registrations:people_person", pk=kept.pk)
    name = other.name if request.POST.get("name") == "other" else None
    try:
        person_merge(kept=kept, merged=other, user=request.user, name=name)
    except PeopleError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(
            request,
            _("%(other)s is merged into %(kept)s: one person now. The rating is recomputed.")
            % {"other": other.name, "kept": kept.name},
        )
    return redirect("registrations:people_person", pk=kept.pk)


@require_POST
@organiser_required(PERM)
def split(request: HttpRequest, pk: int) -> HttpResponse:
    found = get_object_or_404(Person, pk=pk, merged_into__isnull=True)
    rows: dict[str, list[int]] = {}
    for value in request.POST.getlist("row"):
        label, _sep, raw = value.partition(":")
        row_id = posted_id(raw)
        if label in ("championship.entrant", "registrations.registration") and row_id is not None:
            rows.setdefault(label, []).append(row_id)
    try:
        change = person_split(
            person=found, rows=rows, name=request.POST.get("name", "")[:150], user=request.user
        )
    except PeopleError as exc:
        messages.error(request, str(exc))
        return redirect("registrations:people_person", pk=found.pk)
    messages.success(
        request,
        _("A new person, %(name)s, now has the rows chosen. The rating is recomputed.")
        % {"name": change.other.name},
    )
    return redirect("registrations:people_person", pk=change.other_id)


@require_POST
@organiser_required(PERM)
def undo(request: HttpRequest, pk: int) -> HttpResponse:
    change = get_object_or_404(PersonChange, pk=pk)
    try:
        person_change_undo(change=change, user=request.user)
    except PeopleError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Undone: the rows are back where they were."))
    target = change.other_id if change.kind != PersonChange.Kind.SPLIT else change.person_id
    back = posted_id(request.POST.get("back"))
    if back is not None and Person.objects.filter(pk=back, merged_into__isnull=True).exists():
        target = back
    if not Person.objects.filter(pk=target).exists():
        raise Http404
    return redirect("registrations:people_person", pk=target)
