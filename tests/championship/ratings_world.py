"""Tournaments of rated games for the rating tests, made directly (one round a day given)."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from django.db import transaction
from django.utils import timezone

from championship.models import Board, Entrant, GameResult, Round, Tournament
from people.models import Person


def person(name: str) -> Person:
    return Person.objects.create(name=name)


@transaction.atomic  # one transaction: the pages and the rating renewed once, not per row
def event(slug: str, day: date, people: list[Person]) -> Tournament:
    t = Tournament.objects.create(
        name=slug, slug=slug, starts_on=day, ends_on=day + timedelta(days=3), status="running"
    )
    for i, p in enumerate(people, start=1):
        Entrant.objects.create(tournament=t, name=p.name, person=p, starting_number=i)
    return t


def entrant(t: Tournament, p: Person) -> Entrant:
    return Entrant.objects.get(tournament=t, person=p)


def game(
    t: Tournament,
    number: int,
    white: Person,
    black: Person | None,
    result: str = "",
    termination: str = "home",
    *,
    day: date | None = None,
    published: datetime | None = None,
    status: str = "published",
    confirmed: bool = True,
    rated: bool = True,
    bye: str = "",
    game_number: int = 1,
) -> GameResult | Board:
    """Game ``game_number`` of a board of round ``number`` (made when missing)."""
    rnd, _ = Round.objects.get_or_create(
        tournament=t,
        number=number,
        defaults={
            "status": status,
            "date": day,
            "published_at": published or timezone.now(),
        },
    )
    board = Board.objects.filter(round=rnd, white__person=white).first()
    if board is None:
        board = Board.objects.create(
            round=rnd,
            number=rnd.boards.count() + 1,
            white=entrant(t, white),
            black=entrant(t, black) if black is not None else None,
            bye=bye,
        )
    if black is None:
        return board
    return GameResult.objects.create(
        board=board,
        number=game_number,
        result=result,
        termination=termination if result else "",
        source="organiser" if result else "",
        confirmed=confirmed,
        rated=rated,
    )
