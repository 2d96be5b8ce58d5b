"""The absent player's question (issue 22, point 4): do they continue? Opened from the signed
link of their registration (``registrations.tokens.MANAGE``, the link of their registration's
page), no account. The question itself is the fragment ``championship/player/_absence.html``,
which the player's own page includes (``absence_context``). In the registrations app: a page
of a registration (the championship below knows nothing of registrations).

An answer recorded goes back to the player's own page with a message (post/redirect/get, as
their check-in does), not to a page of its own: the question is a moment of their day, and
their page is where they go on from."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from championship import services
from championship.models import Absence
from common.converters import posted_id
from common.language import language_from_query

from . import selectors, tokens
from .emails import player_path
from .forms import LostLinkForm
from .models import Registration
from .services import entries

#: What the form may answer.
ANSWERS = {"continue": True, "withdraw": False}


def absence_context(registration: Registration, token: str) -> dict[str, Any]:
    """What ``championship/player/_absence.html`` needs: the player's absences (the open
    question first), where the form posts and the player's own page (to go back to)."""
    return {
        "absences": selectors.registration_absences(registration),
        "absence_url": reverse("player_absence", args=[token]),
        "player_url": player_path(registration),
        "absence_rule": registration.tournament.absences_to_withdraw,
    }


@require_http_methods(["GET", "POST"])
@language_from_query
def absence(request: HttpRequest, token: str) -> HttpResponse:
    """GET: the question (and the answers given); POST: the player's answer."""
    try:
        registration = entries.registration_by_link(tokens.MANAGE, token)
    except tokens.LinkError as error:
        return render(
            request,
            "registrations/link_error.html",
            {"expired": error.expired, "lost_link_form": LostLinkForm()},
            status=410 if error.expired else 400,
        )
    status = 200
    if request.method == "POST":
        answer = ANSWERS.get(request.POST.get("answer", ""))
        found = (
            Absence.objects.filter(
                pk=posted_id(request.POST.get("absence")), entrant__registration=registration
            ).first()
            if answer is not None
            else None
        )
        if found is None:
            messages.error(request, _("Choose whether you continue in the tournament."))
            status = 400
        elif not answer and request.POST.get("confirm") != "1":
            # Withdrawing asks first, saying what it means; nothing is recorded yet.
            context = absence_context(registration, token)
            return render(
                request,
                "championship/player/absence.html",
                {
                    "registration": registration,
                    "tournament": registration.tournament,
                    **context,
                    "confirming": found,
                },
            )
        else:
            try:
                services.absence_answer(absence=found, continues=bool(answer))
            except services.ChampionshipError as exc:
                messages.error(request, str(exc))
                status = 400
            else:
                messages.success(
                    request,
                    _("Thank you: you continue in the tournament.")
                    if answer
                    else _("You are withdrawn from the tournament's next rounds."),
                )
                return redirect(player_path(registration))  # the message on top, where it is seen
    return render(
        request,
        "championship/player/absence.html",
        {
            "registration": registration,
            "tournament": registration.tournament,
            **absence_context(registration, token),
        },
        status=status,
    )
