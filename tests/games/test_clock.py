"""The application as the clock: the server's time decides, flags give the §6 outcome."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.test import Client
from django.utils import timezone

from games.engine import legal_plays
from games.engine.core import PHASE_PLIES
from games.models import Game, Turn
from tests.games.helpers import organiser_client, played, reach

pytestmark = pytest.mark.django_db


class Now:
    """The time the server sees, moved by hand (time-machine: no module is patched)."""

    def __init__(self, traveller) -> None:  # type: ignore[no-untyped-def]
        self.traveller = traveller

    def advance(self, seconds: float) -> None:
        self.traveller.shift(timedelta(seconds=seconds))


@pytest.fixture
def now():  # type: ignore[no-untyped-def]
    with time_machine.travel(timezone.now(), tick=False) as traveller:
        yield Now(traveller)


def game_with(texts: list[str], minutes: int = 30) -> Game:
    game = Game.objects.create(
        white_name="W", black_name="B", phase1_seconds=minutes * 60, phase2_seconds=minutes * 60
    )
    Turn.objects.bulk_create(Turn(game=game, ply=i, text=t) for i, t in enumerate(texts, 1))
    return game


def post(client: Client, game: Game, **data: str):  # type: ignore[no-untyped-def]
    data.setdefault("ply", str(game.turns.count()))
    return client.post(f"/games/{game.pk}/clock/action/", data)


def test_turns_take_the_time_from_the_server_and_switch_the_clock(now):
    client, _user = organiser_client()
    game = game_with([])
    assert post(client, game, action="turn", text="4:5 24/20 13/8").status_code == 400  # stopped
    assert post(client, game, action="start").status_code == 200
    now.advance(42.4)
    r = post(client, game, action="turn", text="4:5 24/20 13/8", clock="0:29:59")
    state = r.json()
    assert r.status_code == 200 and state["running"] == "black"
    assert state["white_ms"] == 1_800_000 - 42_400
    turn = game.turns.get()
    assert turn.clock == "0:29:17"  # the server's time, not what the browser claimed
    now.advance(10)
    state = client.get(f"/games/{game.pk}/clock/state.json").json()
    assert state["black_ms"] == 1_790_000 and state["white_ms"] == 1_757_600
    # An illegal turn keeps the clock running and says why.
    r = post(client, game, action="turn", text="4:5 24/20 13/9")
    assert r.status_code == 400 and "13/9" in r.json()["error"]
    assert r.json()["running"] == "black"


def test_a_turn_is_answered_from_the_replay_made_under_the_lock(now, monkeypatch):
    """The organiser's clock answers a turn with the clock a fresh look gives, read from the
    replay the service made under the game's lock: one replay of the sheet, not a second for
    the answer (the tablet's door is the same press: tests/games/test_tablet.py)."""
    from games import selectors

    client, _user = organiser_client()
    game = game_with(["4:5 24/20 13/8"])
    assert post(client, game, action="start").status_code == 200
    now.advance(7)
    real = selectors.replay
    calls: list[int] = []

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(selectors, "replay", counted)
    eg = played(["4:5 24/20 13/8"])
    move = legal_plays(eg.state, eg.playable_cards()[0])[0]
    r = post(client, game, action="turn", text=move.text)
    assert r.status_code == 200, r.json()
    assert len(calls) == 1
    monkeypatch.setattr(selectors, "replay", real)
    answered = r.json()
    fresh = client.get(f"/games/{game.pk}/clock/state.json").json()
    for key in ("version", "ply", "to_move", "running", "white_ms", "black_ms", "result"):
        assert answered[key] == fresh[key], key
    assert answered["ply"] == 2 and answered["black_ms"] == 1_800_000 - 7_000


def test_flag_in_phase_one_loses_on_time(now):
    client, _user = organiser_client()
    game = game_with(["4:5 24/20 13/8"], minutes=1)
    post(client, game, action="start")
    now.advance(61)
    state = client.get(f"/games/{game.pk}/clock/state.json").json()
    assert state["result"] == "1-0" and state["black_ms"] == 0
    game.refresh_from_db()
    assert (game.termination, game.termination_side) == ("time", "black")
    # A turn sent after the flag fell is refused: the flag stands.
    r = post(client, game, action="turn", text="4:5 24/20 13/8", ply="1")
    assert r.status_code == 400 and game.turns.count() == 1


def test_flag_in_phase_two_is_a_draw_and_phase_two_clocks_are_fresh(now):
    client, _user = organiser_client()
    texts = reach(lambda eg: eg.ply == PHASE_PLIES - 1 and eg.outcome is None, seed=5)
    game = game_with(texts, minutes=2)
    Game.objects.filter(pk=game.pk).update(phase2_seconds=60)
    post(client, game, action="start")
    game.refresh_from_db()
    eg = played(texts)
    move = legal_plays(eg.state, eg.playable_cards()[0])[0]
    now.advance(5)
    r = post(client, game, action="turn", text=move.text)
    state = r.json()
    assert r.status_code == 200 and state["ply"] == PHASE_PLIES
    assert state["white_ms"] == state["black_ms"] == 60_000  # fresh phase-2 clocks for both
    now.advance(60.5)
    state = client.get(f"/games/{game.pk}/clock/state.json").json()
    assert state["result"] == "1/2-1/2"
    game.refresh_from_db()
    assert game.termination == "time"


def test_clock_page_survives_a_reload(now):
    client, _user = organiser_client()
    game = game_with([])
    post(client, game, action="start")
    now.advance(75)
    html = client.get(f"/games/{game.pk}/clock/").content.decode()
    assert 'data-ms="1725000"' in html and "0:28:45" in html  # as the server has it
    # Pause keeps the time spent; starting again goes on from there.
    post(client, game, action="pause")
    now.advance(300)
    html = client.get(f"/games/{game.pk}/clock/").content.decode()
    assert 'data-ms="1725000"' in html


def test_a_termination_keeps_the_time_spent_on_the_running_clock(now):
    client, _user = organiser_client()
    game = game_with([])
    post(client, game, action="start")
    now.advance(12)
    r = client.post(
        f"/games/{game.pk}/sheet/",
        {"action": "terminate", "termination": "agreement", "side": "", "confirm": "1"},
    )
    assert r.status_code == 302
    game.refresh_from_db()
    assert game.clock_running_since is None and game.clock_white_ms == 1_788_000


def test_a_look_long_before_a_flag_takes_no_lock_and_one_at_it_settles(
    now, django_assert_num_queries
):  # type: ignore[no-untyped-def]
    """clock_settle runs at every look at a running clock (the tablet's page and its state
    every few seconds): far from any flag it needs no query, no lock and no replay; once a
    side's time could be out it replays and the flag falls."""
    from games import services

    client, _user = organiser_client()
    game = game_with(["4:5 24/20 13/8"], minutes=1)
    post(client, game, action="start")
    game.refresh_from_db()
    now.advance(59.9)
    with django_assert_num_queries(0):
        assert services.clock_settle(game=game) is False
    now.advance(0.1)
    assert services.clock_settle(game=game) is True
    game.refresh_from_db()
    assert (game.termination, game.termination_side) == ("time", "black")
