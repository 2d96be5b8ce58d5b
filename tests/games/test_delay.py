"""Spectators see a tournament's games some minutes late; the tablets and the arbiters never
(issue 22, point 6; games.delay)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

from championship.models import Tournament
from games import delay, services
from games.models import Game, GameSnapshot

from .hall_helpers import games_of, published_round, tablet_url
from .helpers import organiser_client

pytestmark = pytest.mark.django_db

FIRST, SECOND = "4:5 24/20 13/8", "3:6 24/18 13/10"
MINUTE_MS = 60_000


def _played(minutes_delay: int) -> Game:
    """A game whose clock started 10 minutes ago, White's turn after one minute, Black's two
    minutes ago (8 minutes in)."""
    rnd = published_round()
    Tournament.objects.filter(pk=rnd.tournament_id).update(spectator_delay_minutes=minutes_delay)
    game = games_of(rnd)[0]
    t0 = timezone.now() - timedelta(minutes=10)
    services.clock_start(game=game, user=None, now=t0)
    services.turn_add(
        game=game, text=FIRST, user=None, from_clock=True, now=t0 + timedelta(minutes=1)
    )
    services.turn_add(
        game=game, text=SECOND, user=None, from_clock=True, now=t0 + timedelta(minutes=8)
    )
    return Game.objects.get(pk=game.pk)


def test_every_change_of_a_game_leaves_a_snapshot_of_its_state_then() -> None:
    game = _played(0)
    snaps = list(GameSnapshot.objects.filter(game=game).order_by("at"))
    assert [(s.version, s.ply) for s in snaps] == [(1, 0), (2, 1), (3, 2)]
    assert snaps[0].clock_white_ms == 30 * MINUTE_MS and snaps[0].clock_running_since
    assert snaps[1].clock_white_ms == 29 * MINUTE_MS  # White's minute spent
    assert snaps[2].clock_black_ms == 23 * MINUTE_MS  # Black's seven minutes


def test_a_spectator_sees_the_game_as_it_was_the_delay_ago() -> None:
    game = _played(5)
    data = Client().get(f"/games/{game.pk}/live.json").json()
    assert data["ply"] == 1 and data["to_move"] == "black" and data["running"] == "black"
    # At now - 5 min, Black has been thinking 4 minutes since White's turn.
    assert data["white_ms"] == 29 * MINUTE_MS
    assert abs(data["black_ms"] - 26 * MINUTE_MS) < 5_000
    assert data["version"] == 2
    page = Client().get(f"/games/{game.pk}/").content.decode()
    assert "24/20" in page and "24/18" not in page
    record = Client().get(f"/games/{game.pk}/record.nrd").content.decode()
    assert "24/20" in record and "24/18" not in record
    assert Client().get(f"/games/{game.pk}/version.json").json() == {"version": 2}
    rnd = game.board.round
    records = Client().get(f"/t/{rnd.tournament.slug}/games/{rnd.number}.nrd").content.decode()
    assert "24/20" in records and "24/18" not in records


def test_the_arbiters_and_the_tablets_are_never_delayed() -> None:
    game = _played(5)
    client, _user = organiser_client()
    data = client.get(f"/games/{game.pk}/live.json").json()
    assert data["ply"] == 2 and data["version"] == game.version
    assert "24/18" in client.get(f"/games/{game.pk}/").content.decode()
    tablet = Client().get(tablet_url(game) + "state.json").json()
    assert tablet["ply"] == 2 and tablet["running"] == "white"
    assert "24/18" in Client().get(tablet_url(game)).content.decode()
    rnd = game.board.round
    hall = client.get(f"/t/{rnd.tournament.slug}/round/{rnd.number}/hall.json").json()
    assert hall["games"][0]["ply"] == 2


def test_without_a_delay_spectators_see_the_game_live() -> None:
    game = _played(0)
    data = Client().get(f"/games/{game.pk}/live.json").json()
    assert data["ply"] == 2 and data["running"] == "white"
    assert "24/18" in Client().get(f"/games/{game.pk}/").content.decode()


def test_a_game_before_its_first_snapshot_was_as_created_and_one_without_any_is_as_it_is() -> None:
    game = _played(30)  # 30 minutes ago the clock had not started
    seen = delay.moment(game.pk, delay.cutoff(30))
    assert seen == delay.CREATED
    data = Client().get(f"/games/{game.pk}/live.json").json()
    assert data["ply"] == 0 and data["white_ms"] is None and data["running"] is None
    GameSnapshot.objects.filter(game=game).delete()  # a game from before the snapshots
    cache.clear()  # (what a spectator sees is kept a second)
    assert delay.moment(game.pk, delay.cutoff(30)) is None
    assert Client().get(f"/games/{game.pk}/live.json").json()["ply"] == 2


def test_a_game_finished_within_the_delay_is_not_over_for_spectators_yet() -> None:
    game = _played(5)
    services.game_terminate(game=game, termination="resign", side="black", user=None)
    data = Client().get(f"/games/{game.pk}/live.json").json()
    assert data["over"] is False and data["ply"] == 1
    assert Client().get(f"/games/{game.pk}/analysis.json").status_code == 404
    client, _user = organiser_client()
    assert client.get(f"/games/{game.pk}/live.json").json()["over"] is True
