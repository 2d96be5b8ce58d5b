"""Starting ranks by the club's rating (docs/ratings.md): when the organiser asks, before
round 1, each entrant's rating in the tournament becomes their person's current club rating
(rounded; none for a person not on the list), and the starting numbers follow it, highest
first, then by name or by lot as the organiser chooses. The tournament's rating column then
feeds what it always fed: the pairing's order, ARO and the TRF export."""

from __future__ import annotations

import random

from django.db import transaction
from django.utils.translation import gettext as _

from ..models import Entrant, PersonRating, RatingRun, Tournament
from .changes import tournament_changed
from .errors import ChampionshipError

THEN_NAME = "name"
THEN_LOT = "lot"


def entrants_seed_by_rating(
    *, tournament: Tournament, then: str = THEN_NAME, rng: random.Random | None = None
) -> list[Entrant]:
    """Seed the field (entrants not withdrawn before round 1) by the current club rating,
    then ``then`` (``name`` or ``lot``). Returns the entrants in their new order."""
    if then not in (THEN_NAME, THEN_LOT):
        raise ChampionshipError(_("Choose how players without a difference in rating are ordered."))
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if t.status == Tournament.Status.FINISHED:
            raise ChampionshipError(
                _("The tournament is finished: reopen it first to change anything.")
            )
        if t.round_set.exists():
            raise ChampionshipError(_("Round 1 is paired already: the starting numbers are fixed."))
        field = list(t.entrants.exclude(withdrawn_after=0).order_by("pk"))
        run = RatingRun.objects.order_by("-computed_at", "-pk").first()
        current: dict[int, float] = {}
        if run is not None and run.last_month is not None:
            current = dict(
                PersonRating.objects.filter(
                    month=run.last_month, person_id__in=[e.person_id for e in field]
                ).values_list("person_id", "rating")
            )
        draw = rng or random.SystemRandom()
        lots = {e.pk: draw.random() for e in field}

        def order(e: Entrant) -> tuple[float, str | float, int]:
            tie: str | float = e.name.casefold() if then == THEN_NAME else lots[e.pk]
            return (-current.get(e.person_id, float("-inf")), tie, e.pk)

        field.sort(key=order)
        t.entrants.update(starting_number=None)
        for number, e in enumerate(field, start=1):
            e.starting_number = number
            rated = current.get(e.person_id)
            e.rating = round(rated) if rated is not None else None
        Entrant.objects.bulk_update(field, ["starting_number", "rating"])
        tournament_changed(t.pk)
    return field
