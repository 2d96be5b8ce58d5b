"""Events played elsewhere (TRF import) count for the club's rating like our own: players are
the people of the same name, rounds dated by line 132; a round without a date is imported
unrated until an organiser dates it and counts it (the round's rating page)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.contrib.auth.models import Group, User
from django.core.management import call_command
from django.test import Client

from championship import services
from championship.apps import ORGANISERS_GROUP
from championship.models import Entrant, GameResult, PersonRating, RatedGame, Round
from people.models import Person

from .test_ratings_from_trf import dates_line, player

pytestmark = pytest.mark.django_db


def trf(path: Path, *lines: str) -> Path:
    path.write_text("\n".join(["012 Elsewhere", *lines, "XXR 2"]) + "\n", encoding="utf-8")
    return path


def test_imported_games_count_like_ours(tmp_path: Path) -> None:
    ivan = Person.objects.create(name="Ivan Petrov")
    Person.objects.create(name="Twin Name")
    Person.objects.create(name="twin  name")  # two people of that name: not guessed
    path = trf(
        tmp_path / "a.trf",
        dates_line("26/03/07"),
        player(1, "IVAN PETROV", [(2, "w", "1"), (3, "b", "=")], 1.5),
        player(2, "Twin Name", [(1, "b", "0"), (0, "-", "H")], 0.5),
        player(3, "Olga Kim", [(0, "-", "H"), (1, "w", "=")], 1.0),
    )
    err = io.StringIO()
    call_command("import_trf", str(path), "--slug", "elsewhere", stdout=io.StringIO(), stderr=err)
    assert Entrant.objects.get(name="IVAN PETROV").person == ivan
    assert Person.objects.filter(name="Twin Name").count() == 2  # a third, new one
    assert "round 2 has no date" in err.getvalue()
    assert Round.objects.get(number=1).date is not None and Round.objects.get(number=2).date is None
    services.ratings_recompute()
    assert RatedGame.objects.count() == 1  # round 1 only
    assert PersonRating.objects.get(person=ivan).games == 1

    organiser = User.objects.create_user("org")
    organiser.groups.add(Group.objects.get(name=ORGANISERS_GROUP))
    client = Client()
    client.force_login(organiser)
    url = "/t/elsewhere/manage/round/2/rated/"
    assert client.get(url).status_code == 200
    assert client.post(url, {"date": "not a date"}).status_code == 302
    assert Round.objects.get(number=2).date is None
    client.post(url, {"date": "2026-03-08"})
    client.post(url, {"game": "all", "rated": "yes"})
    assert GameResult.objects.filter(rated=False).count() == 0
    assert RatedGame.objects.count() == 2
    assert PersonRating.objects.get(person=ivan).games == 2
    assert client.post(url, {"game": "junk", "rated": "no"}).status_code == 302
    assert client.post("/t/elsewhere/manage/round/9/rated/", {}).status_code == 404
