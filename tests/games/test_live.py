"""A game in progress for spectators: the polled live state is cheap (one query, no replay per
request, 304 while nothing changed) and the time control reads as people say it."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.test import Client
from django.utils import translation

from championship.models import Round
from games import services
from games.models import Game
from games.templatetags.games_tags import time_control

from .hall_helpers import games_of, published_round

OPENING = "4:5 24/20 13/8"


@pytest.mark.django_db
def test_live_state_reads_no_database_while_kept_and_304_while_nothing_changes(
    django_assert_num_queries,  # type: ignore[no-untyped-def]
) -> None:
    game = games_of(published_round())[0]
    services.clock_start(game=game, user=None)
    client = Client()
    first = client.get(f"/games/{game.pk}/live.json")
    data = first.json()
    assert data["ply"] == 0 and data["running"] == "white" and not data["over"]
    # What the spectator sees of the game is kept a second (forgotten at the game's commit),
    # the replay comes from the cache: no query.
    with django_assert_num_queries(0):
        again = client.get(f"/games/{game.pk}/live.json").json()
    assert again["white_ms"] <= data["white_ms"]
    with django_assert_num_queries(0):
        assert (
            client.get(
                f"/games/{game.pk}/live.json", headers={"If-None-Match": first["ETag"]}
            ).status_code
            == 304
        )
    services.turn_add(game=game, text=OPENING, user=None, from_clock=True)
    changed = client.get(f"/games/{game.pk}/live.json", headers={"If-None-Match": first["ETag"]})
    assert changed.status_code == 200
    assert changed.json()["ply"] == 1 and changed.json()["running"] == "black"


@pytest.mark.django_db
def test_live_state_of_an_unpublished_or_missing_game_is_404() -> None:
    rnd = published_round()
    game, other = games_of(rnd)
    Round.objects.filter(pk=rnd.pk).update(status=Round.Status.DRAFT)
    assert Client().get(f"/games/{other.pk}/live.json").status_code == 404
    Game.objects.filter(pk=game.pk).update(board=None)  # a friendly game: public
    assert Client().get(f"/games/{game.pk}/live.json").status_code == 200
    assert Client().get("/games/999999/live.json").status_code == 404


def test_time_control_as_people_say_it() -> None:
    game = SimpleNamespace(phase1_seconds=1800, phase2_seconds=1800)
    assert time_control(game) == "30 min + 30 min"
    assert time_control(SimpleNamespace(phase1_seconds=5400, phase2_seconds=45)) == (
        "1 h 30 min + 45 s"
    )
    assert time_control(SimpleNamespace(phase1_minutes=60, phase2_minutes=15)) == "1 h + 15 min"
    with translation.override("ru"):
        assert time_control(game) == "30 мин + 30 мин"
