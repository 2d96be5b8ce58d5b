"""A running Swiss with realistic results, for demo data and benchmarks."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

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
    # Every game has its whole sheet, played by the rules engine; the result follows from it.
    forced = ["home", "blocked", "time", "cards", "resign", "agreement", "forfeit"]
    for number in range(1, rounds + 1):
        rnd = services.round_pair_next(tournament=t)
        services.round_publish(round=rnd)
        boards = list(rnd.boards.select_related("white", "black").exclude(black=None))
        last = number == rounds and unfinished_last and rounds > 1
        played = []
        for i, b in enumerate(boards):
            if last and i % 2:
                played.append((b, _game(b, rng, None, stop_at=rng.randint(4, 50))))
                continue
            played.append((b, _game(b, rng, forced.pop(0) if forced else None)))
        _store(t, played)
        t.refresh_from_db()
    return t


def _game(b: Board, rng: random.Random, termination: str | None, stop_at: int | None = None) -> Any:
    from games.demo import play_game

    if termination is None and stop_at is None:
        roll = rng.random()
        termination = (
            "forfeit"
            if roll < 0.02
            else "resign"
            if roll < 0.1
            else "time"
            if roll < 0.14
            else "agreement"
            if roll < 0.17
            else None
        )
    stronger = b.white if (b.white.rating or 0) >= (b.black.rating or 0) else b.black
    strong = None if rng.random() < 0.15 else ("white" if stronger == b.white else "black")
    return play_game(rng, strong=strong, termination=termination, stop_at=stop_at)


def _store(t: Tournament, played: list[tuple[Board, Any]]) -> None:
    """Games, turns and the boards' results in a few queries."""
    from games.demo import game_rows
    from games.models import Game, Turn

    games = Game.objects.bulk_create(
        Game(board=b, number=1, event=t.name, **game_rows(eg)) for b, eg in played
    )
    Turn.objects.bulk_create(
        Turn(game=g, ply=turn.ply, text=turn.text, clock=turn.clock or "")
        for g, (_b, eg) in zip(games, played, strict=True)
        for turn in eg.turns
    )
    for b, eg in played:
        if eg.outcome is not None:
            b.result, b.termination, b.version = eg.outcome.result, eg.outcome.termination, 1
    Board.objects.bulk_update([b for b, _eg in played], ["result", "termination", "version"])
    services.bump_versions(t, played[0][0].round_id if played else None)
