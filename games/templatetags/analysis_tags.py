"""Includable parts of a player's page (issue 24): the engine's report on their games and the
way into training. ``{% load analysis_tags %}{% player_analysis entrant %}`` renders both (three
queries whatever the number of games); a page that knows a person across events passes the
entrant whose events it shows (``reports.player_entrants`` gives the entrants read)."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse

from championship.models import Entrant

from .. import reports

register = template.Library()


def player_context(entrant: Entrant) -> dict[str, Any]:
    ids = reports.player_entrants(entrant)
    return {
        "tournament": entrant.tournament,
        "games": reports.reports_for(ids),
        "exercise_count": reports.exercises_for(entrants=ids).count(),
        "training_url": reverse(
            "games:training", kwargs={"slug": entrant.tournament.slug, "pk": entrant.pk}
        ),
    }


@register.inclusion_tag("games/_player_analysis.html")
def player_analysis(entrant: Entrant) -> dict[str, Any]:
    return player_context(entrant)
