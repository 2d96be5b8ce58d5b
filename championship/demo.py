"""A running Swiss with realistic results, for demo data and benchmarks."""

from __future__ import annotations

import random
from datetime import timedelta

from django.utils import timezone

from . import services
from .models import Board, Entrant, Tournament

FIRST = [
    "Анна",
    "Павел",
    "Olga",
    "Dmitri",
    "Мария",
    "Sam",
    "Игорь",
    "Lena",
    "Алексей",
    "Chris",
    "Наталья",
    "Victor",
    "Юлия",
    "Marco",
    "Сергей",
    "Priya",
    "Татьяна",
    "Omar",
    "Ирина",
    "Kevin",
]
LAST = [
    "Иванов",
    "Petrov",
    "Смирнов",
    "Kuznetsov",
    "Волков",
    "Patel",
    "Соколов",
    "Chen",
    "Морозов",
    "Novak",
    "Лебедев",
    "Singh",
    "Козлов",
    "Rossi",
    "Попов",
    "Kim",
    "Федоров",
    "Haddad",
]
CLUBS = [
    "Toronto",
    "Mississauga",
    "North York",
    "Richmond Hill",
    "Markham",
    "Scarborough",
    "Etobicoke",
]

WIN_ENDS = ["home", "home", "home", "blocked", "blocked", "time", "resign"]
DRAW_ENDS = ["cards", "cards", "agreement"]


def create_running_swiss(
    *,
    slug: str,
    players: int,
    rounds: int,
    seed: int = 1,
    name: str | None = None,
    unfinished_last: bool = True,
    total_rounds: int | None = None,
) -> Tournament:
    """(Re)create a Swiss with ``players`` entrants and ``rounds`` rounds paired by the engine and
    published, with results in which every termination appears; with ``unfinished_last`` the
    last round is still being played (half its results in)."""
    rng = random.Random(seed)
    Tournament.objects.filter(slug=slug).delete()
    today = timezone.localdate()
    t = Tournament.objects.create(
        name=name or f"Demo Swiss ({players} players)",
        slug=slug,
        venue="Toronto",
        starts_on=today - timedelta(days=1),
        ends_on=today + timedelta(days=1),
        registration_open=False,
        system=Tournament.System.SWISS,
        rounds=total_rounds or max(rounds + 2, 7),
        status=Tournament.Status.RUNNING,
    )
    Entrant.objects.bulk_create(
        Entrant(
            tournament=t,
            name=f"{rng.choice(FIRST)} {rng.choice(LAST)} {i + 1}",
            club=rng.choice(CLUBS),
            rating=max(800, int(rng.gauss(1600, 250))),
            checked_in=True,
        )
        for i in range(players)
    )
    # Every termination appears (the first results take one each), then a realistic mix.
    forced = ["home", "blocked", "time", "cards", "resign", "agreement", "forfeit"]
    for number in range(1, rounds + 1):
        rnd = services.round_pair_next(tournament=t)
        services.round_publish(round=rnd)
        boards = list(rnd.boards.select_related("white", "black").exclude(black=None))
        last = number == rounds and unfinished_last and rounds > 1
        for i, b in enumerate(boards):
            if last and i % 2:
                continue
            _result(b, rng, forced.pop(0) if forced else None)
        t.refresh_from_db()
    return t


def _result(b: Board, rng: random.Random, termination: str | None) -> None:
    if termination is None:
        termination = rng.choice(
            WIN_ENDS + DRAW_ENDS + ["forfeit"] * (1 if rng.random() < 0.05 else 0)
        )
    if termination in DRAW_ENDS:
        result = "1/2-1/2"
    else:
        stronger_white = (b.white.rating or 0) >= (b.black.rating or 0)
        p_white = 0.65 if stronger_white else 0.35
        result = "1-0" if rng.random() < p_white else "0-1"
    Board.objects.filter(pk=b.pk).update(result=result, termination=termination, version=1)
    Tournament.objects.filter(pk=b.round.tournament_id).update(
        version=b.round.tournament.version + 1
    )
