"""The club's rating list and a person's page: public, read from the stored list (the pages
never compute a rating). Thin: ``person_selectors`` do the reading."""

from __future__ import annotations

from datetime import date

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from common.language import language_from_query
from people.models import Person

from . import person_selectors
from .rating import MAX_RD, PROVISIONAL_RD
from .services import ratings_status


def _month(year: str, month: str) -> date:
    if not 1 <= int(month) <= 12 or not 1900 <= int(year) <= 9999:
        raise Http404
    return date(int(year), int(month), 1)


def rating_list(
    request: HttpRequest, year: int | None = None, month: int | None = None
) -> HttpResponse:
    """The list now (``/ratings/``) or at the end of a month (``/ratings/2026-05/``; the
    month chooser's ``?month=2026-05`` leads there)."""
    chosen = request.GET.get("month", "")
    if year is None and chosen:
        y, _, m = chosen.partition("-")
        if (
            y.isascii()
            and y.isdigit()
            and len(y) == 4
            and m.isascii()
            and m.isdigit()
            and len(m) == 2
        ):
            return redirect("ratings_month", year=y, month=m)
    wanted = _month(year, month) if year is not None and month is not None else None
    found = person_selectors.rating_list(wanted)
    if wanted is not None and found.month not in found.months:
        raise Http404
    return render(
        request,
        "championship/ratings.html",
        {
            "list": found,
            "current": wanted is None or (found.months and found.month == found.months[0]),
            "status": ratings_status() if request.user.is_authenticated else None,
            "provisional_rd": int(PROVISIONAL_RD),
            "max_rd": int(MAX_RD),
        },
    )


@language_from_query
def person(request: HttpRequest, pk: int) -> HttpResponse:
    """A person's public page: every tournament and game, score and rating change. Names
    only; no e-mail or phone. A person merged into another leads to that one; a person who
    never played in a tournament has no public page."""
    found = get_object_or_404(Person, pk=pk)
    seen = {found.pk}
    while found.merged_into_id is not None:
        found = Person.objects.get(pk=found.merged_into_id)
        if found.pk in seen:  # never made by the services; a loop typed into the admin
            raise Http404
        seen.add(found.pk)
    if found.pk != pk:
        return redirect("person", pk=found.pk, permanent=False)
    page = person_selectors.person_page(found)
    if not page.events:
        raise Http404
    return render(
        request,
        "championship/person.html",
        {"page": page, "provisional_rd": int(PROVISIONAL_RD)},
    )
