"""A published round whose games are being played: the hall, the tablets and paper sheets."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from championship.models import Board, Entrant, Round, Tournament
from championship.services import round_pair_next, round_publish
from games import services, tablet
from games.models import Game


def published_round(*, players: int = 4, games_per_pairing: int = 1) -> Round:
    today = timezone.localdate()
    with transaction.atomic():  # one transaction: the pages renewed once, not per entrant
        t = Tournament.objects.create(
            name="Hall Open",
            slug="hall-open",
            starts_on=today,
            ends_on=today,
            registration_open=False,
            games_per_pairing=games_per_pairing,
            phase1_minutes=30,
            phase2_minutes=15,
        )
        for i in range(players):
            Entrant.objects.create(
                tournament=t, name=f"Player {i + 1}", rating=1500 + i, checked_in=True
            )
    rnd = round_pair_next(tournament=t)
    round_publish(round=rnd)
    rnd.refresh_from_db()
    return rnd


def games_of(rnd: Round) -> list[Game]:
    """Every game of the round's pairings (made as the tablets' sheet makes them)."""
    out = []
    for board in Board.objects.filter(round=rnd).exclude(black=None).order_by("number"):
        for number in range(1, rnd.tournament.games_per_pairing + 1):
            out.append(services.game_for(board, number))
    return out


def tablet_url(game: Game) -> str:
    return tablet.path_for(game.pk)
