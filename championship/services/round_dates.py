"""The day a round is played (``Round.date``, TRF line 132): the month its games count in for
the club's rating (docs/ratings.md). Empty: the day it was published."""

from __future__ import annotations

from datetime import date

from django.db import transaction
from django.utils.translation import gettext as _

from ..models import Round, Tournament
from .changes import tournament_changed
from .errors import ChampionshipError


def round_date_set(*, round: Round, day: date | None) -> Round:
    with transaction.atomic():
        rnd = Round.objects.select_for_update().select_related("tournament").get(pk=round.pk)
        if rnd.tournament.status == Tournament.Status.FINISHED:
            raise ChampionshipError(
                _("The tournament is finished: reopen it first to change anything.")
            )
        if rnd.date != day:
            rnd.date = day
            rnd.save(update_fields=["date"])
            tournament_changed(rnd.tournament_id)
    return rnd
