"""Parallel requests on the same sheet (PostgreSQL: real row locks, real commits)."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connections

from games import selectors, services
from games.demo import create_running_swiss
from games.models import Game, Turn
from tests.games.helpers import organiser_client


def _in_parallel(*calls):  # type: ignore[no-untyped-def]
    """Run the calls in threads that start together; return what each returned."""
    barrier = threading.Barrier(len(calls))
    out: list[object] = [None] * len(calls)

    def run(i: int) -> None:
        try:
            barrier.wait()
            out[i] = calls[i]()
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return out


def _slow_replay(monkeypatch):  # type: ignore[no-untyped-def]
    """Each request holds the game's lock a while, so the other one surely waits for it."""
    replay = selectors.replay

    def slow(*args, **kwargs):  # type: ignore[no-untyped-def]
        time.sleep(0.3)
        return replay(*args, **kwargs)

    monkeypatch.setattr(selectors, "replay", slow)


def test_the_same_turn_sent_twice_at_once_is_recorded_once(postgresql, monkeypatch):  # type: ignore[no-untyped-def]
    t = create_running_swiss(slug="par", players=4, rounds=1, unfinished_last=True)
    game = Game.objects.filter(board__round__tournament=t, turns__isnull=True).first()
    if game is None:  # every demo game has turns: start a fresh sheet
        game = Game.objects.filter(board__round__tournament=t).first()
        game.turns.all().delete()
        Game.objects.filter(pk=game.pk).update(termination="", termination_side="")
    _slow_replay(monkeypatch)
    first, _ = organiser_client("a")
    second, _ = organiser_client("b")
    url = f"/games/{game.pk}/sheet/"
    data = {"action": "turn", "text": "4:5 24/20 13/8", "ply": "0"}
    answers = _in_parallel(
        lambda: first.post(url, data, follow=True), lambda: second.post(url, data, follow=True)
    )
    # One is recorded; the other is told (the sheet page again, 400, with the text kept).
    assert sorted(a.status_code for a in answers) == [200, 400]
    told = next(a for a in answers if a.status_code == 400).content.decode()
    done = next(a for a in answers if a.status_code == 200).content.decode()
    assert "Ply 1: 4:5 24/20 13/8" in done
    assert "The sheet changed meanwhile" in told and "4:5 24/20 13/8" in told
    assert list(Turn.objects.filter(game=game).values_list("ply", "text")) == [
        (1, "4:5 24/20 13/8")
    ]


def test_clock_presses_at_once_record_one_turn(postgresql, monkeypatch):  # type: ignore[no-untyped-def]
    game = Game.objects.create(white_name="A", black_name="B")
    first, user = organiser_client("a")
    second, _ = organiser_client("b")
    services.clock_start(game=game, user=user)
    _slow_replay(monkeypatch)
    url = f"/games/{game.pk}/clock/action/"
    data = {"action": "turn", "text": "4:5 24/20 13/8", "ply": "0"}
    answers = _in_parallel(lambda: first.post(url, data), lambda: second.post(url, data))
    assert sorted(a.status_code for a in answers) == [200, 400]
    refused = next(a for a in answers if a.status_code == 400).json()
    assert "changed meanwhile" in refused["error"] and refused["ply"] == 1
    assert Turn.objects.filter(game=game).count() == 1


@pytest.mark.parametrize("action", ["undo", "terminate"])
def test_an_undo_or_termination_racing_a_turn_leaves_one_consistent_sheet(
    postgresql, monkeypatch, action
):  # type: ignore[no-untyped-def]
    game = Game.objects.create(white_name="A", black_name="B")
    client, user = organiser_client("a")
    other, _ = organiser_client("b")
    services.turn_add(game=game, text="4:5 24/20 13/8", user=user)
    _slow_replay(monkeypatch)
    url = f"/games/{game.pk}/sheet/"
    racing = {"action": "turn", "text": "2:6 13/11 13/7", "ply": "1"}
    if action == "undo":
        data = {"action": "undo", "ply": "1"}
    else:
        data = {
            "action": "terminate",
            "termination": "resign",
            "side": "black",
            "ply": "1",
            "confirm": "1",
        }
    _in_parallel(
        lambda: client.post(url, racing, follow=True), lambda: other.post(url, data, follow=True)
    )
    game.refresh_from_db()
    turns = list(Turn.objects.filter(game=game).order_by("ply").values_list("text", flat=True))
    replayed = selectors.replay(game)  # whatever won, the stored sheet replays
    assert replayed.ply == len(turns)
    assert turns in (["4:5 24/20 13/8"], ["4:5 24/20 13/8", "2:6 13/11 13/7"], [])


def test_a_take_back_racing_the_finish_never_changes_final_standings(postgresql, monkeypatch):  # type: ignore[no-untyped-def]
    """Issue 21: the finish locks the tournament's row while it checks that every game has a
    result; a sheet's write checks "finished" in the results' door with that row locked too, so
    it waits for the finish and is refused, instead of clearing a result after it."""
    from championship import services as championship
    from championship.models import GameResult, Tournament
    from championship.services import tournaments

    t = create_running_swiss(slug="race", players=4, rounds=1, unfinished_last=False)
    game = Game.objects.filter(board__round__tournament=t).order_by("board__number").first()
    _client, user = organiser_client("a")
    problems = tournaments.finish_problems

    def slow_problems(*args, **kwargs):  # type: ignore[no-untyped-def]
        found = problems(*args, **kwargs)
        time.sleep(0.5)  # the tournament's row stays locked meanwhile
        return found

    monkeypatch.setattr(tournaments, "finish_problems", slow_problems)

    def take_back() -> object:
        time.sleep(0.1)  # the finish has its lock by now
        try:
            return services.turn_undo(game=game, user=user)
        except services.GameError as exc:
            return exc

    finished, undone = _in_parallel(lambda: championship.tournament_finish(tournament=t), take_back)
    assert Tournament.objects.get(pk=t.pk).status == Tournament.Status.FINISHED
    assert not GameResult.objects.filter(board__round__tournament=t, result="").exists()
    assert finished is not None
    assert isinstance(undone, services.Frozen), undone
