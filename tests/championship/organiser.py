"""Helpers of the organiser-page tests: a tournament with a field, rounds played to the end."""

from __future__ import annotations

from django.db import transaction
from django.forms import CheckboxInput

from championship import services
from championship.forms import TournamentForm
from championship.models import Entrant, Round, Tournament
from tests.championship.results import enter


@transaction.atomic  # one transaction: the pages renewed once, not after every entrant
def make(slug: str = "o", n: int = 6, rounds: int = 5, **extra: object) -> Tournament:
    t = Tournament.objects.create(
        name="Open", slug=slug, starts_on="2027-03-14", ends_on="2027-03-15", rounds=rounds, **extra
    )
    for i in range(n):
        Entrant.objects.create(
            tournament=t, name=f"P{i + 1}", rating=2000 - 10 * i, checked_in=True
        )
    return t


def play(t: Tournament) -> Round:
    """Pair the next round, publish it and give every game a result."""
    rnd = services.round_pair_next(tournament=t)
    services.round_publish(round=rnd)
    for b in rnd.boards.exclude(black=None):
        enter(b, "1-0", "home")
    return rnd


def settings_data(t: Tournament, **changes: object) -> dict[str, object]:
    """What the settings page posts back unchanged (with ``changes``)."""
    form = TournamentForm(instance=Tournament.objects.get(pk=t.pk))
    data: dict[str, object] = {}
    for name, f in form.fields.items():
        value = form[name].value()
        if isinstance(f.widget, CheckboxInput):
            if value:
                data[name] = "on"
            continue
        data[name] = "" if value is None else value
    data.update(changes)
    return data
