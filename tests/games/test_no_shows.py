"""No-shows in the hall (issue 22, point 4): the boards not started at the round's start plus
the grace time are proposed; the arbiter confirms the forfeit in one tap (through the results
door, logged) or dismisses it (logged); once a board. And the round's progress (point 7)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from championship.models import (
    Absence,
    Board,
    GameResult,
    NoShow,
    ResultChange,
    Round,
    RoundStart,
    Tournament,
)
from championship.services import ResultEntry, game_result_set
from games import noshow, services

from .hall_helpers import published_round
from .helpers import organiser_client

pytestmark = pytest.mark.django_db

OPENING = "4:5 24/20 13/8"


def _started_ago(rnd: Round, minutes: int) -> None:
    Round.objects.filter(pk=rnd.pk).update(published_at=timezone.now() - timedelta(minutes=minutes))


def _boards(rnd: Round) -> list[Board]:
    return list(rnd.boards.exclude(black=None).order_by("number"))


def _hall_json(client: Client, rnd: Round) -> dict:  # type: ignore[type-arg]
    return client.get(f"/t/{rnd.tournament.slug}/round/{rnd.number}/hall.json").json()


def _a_round_of_five_kinds_of_board() -> tuple[Round, list[Board]]:
    """Board 1 at a tablet, its clock started; 2 on a sheet with a turn but no clock; 3 at a
    tablet not started; 4 on paper, nothing yet; 5 on paper with its result."""
    rnd = published_round(players=10)
    boards = _boards(rnd)
    for board in boards[:3]:
        services.game_for(board)
    one, two, three = (b.games.get() for b in boards[:3])
    services.clock_start(game=one, user=None)
    services.turn_add(game=two, text=OPENING, user=None)
    game_result_set(
        entries=[ResultEntry(board=boards[4], number=1, result="1-0", termination="resign")],
        user=None,
    )
    return rnd, boards


def test_only_boards_not_started_are_proposed_once_the_grace_time_is_over() -> None:
    rnd, boards = _a_round_of_five_kinds_of_board()
    client, _user = organiser_client()
    _started_ago(rnd, 14)  # grace time 15 minutes (the default)
    assert _hall_json(client, rnd)["no_shows"] == []
    _started_ago(rnd, 16)
    proposed = [p["board"] for p in _hall_json(client, rnd)["no_shows"]]
    assert proposed == [boards[2].number, boards[3].number]
    page = client.get(f"/t/hall-open/round/{rnd.number}/hall/").content.decode()
    assert page.count('name="action" value="no_show"') == 2
    assert "Not started 15 minutes after the round's start" in page


def test_the_scheduled_start_counts_rather_than_the_publication() -> None:
    rnd = published_round()
    client, _user = organiser_client()
    _started_ago(rnd, 60)
    assert len(_hall_json(client, rnd)["no_shows"]) == 2
    RoundStart.objects.create(
        tournament=rnd.tournament, number=1, starts_at=timezone.now() - timedelta(minutes=5)
    )
    assert _hall_json(client, rnd)["no_shows"] == []
    Tournament.objects.filter(pk=rnd.tournament_id).update(no_show_minutes=3)
    assert len(_hall_json(client, rnd)["no_shows"]) == 2


def test_a_confirmed_forfeit_goes_through_the_results_door_once_however_often_tapped() -> None:
    rnd = published_round()
    _started_ago(rnd, 20)
    board = _boards(rnd)[0]
    client, user = organiser_client()
    url = f"/t/hall-open/round/{rnd.number}/hall/"
    for _ in range(2):  # a double tap
        response = client.post(url, {"action": "no_show", "board": board.pk, "absent": "white"})
        assert response.status_code == 302
    result = GameResult.objects.get(board=board)
    assert (result.result, result.termination, result.source) == ("0-1", "forfeit", "organiser")
    change = ResultChange.objects.get(game_result=result)
    assert change.user == user and change.new == "0-1 forfeit"
    decision = NoShow.objects.get(board=board)
    assert decision.decision == "forfeit" and decision.absent == "white"
    assert decision.user == user and decision.at is not None
    assert list(Absence.objects.values_list("entrant", "round", "status")) == [
        (board.white_id, rnd.pk, "asked")
    ]
    messages = [str(m) for m in client.get(url).context["messages"]]
    assert any("was decided already" in m for m in messages)
    assert [p["board"] for p in _hall_json(client, rnd)["no_shows"]] == [_boards(rnd)[1].number]


def test_a_dismissal_is_logged_and_the_board_is_not_proposed_again() -> None:
    rnd = published_round()
    _started_ago(rnd, 20)
    board = _boards(rnd)[0]
    client, user = organiser_client()
    url = f"/t/hall-open/round/{rnd.number}/hall/"
    client.post(url, {"action": "dismiss", "board": board.pk})
    client.post(url, {"action": "no_show", "board": board.pk, "absent": "black"})
    decision = NoShow.objects.get(board=board)
    assert (decision.decision, decision.user) == ("dismissed", user)
    assert GameResult.objects.get(board=board).result == ""
    assert not Absence.objects.exists()
    assert board.pk not in [p["id"] for p in _hall_json(client, rnd)["no_shows"]]


def test_a_board_that_started_meanwhile_is_not_forfeited() -> None:
    rnd = published_round()
    board = _boards(rnd)[0]
    game = services.game_for(board)
    services.clock_start(game=game, user=None)  # after the proposal was shown
    with pytest.raises(services.GameError, match="started meanwhile"):
        noshow.board_no_show_confirm(board=board, absent="white", user=None)
    assert not NoShow.objects.exists() and GameResult.objects.get(board=board).result == ""


def test_both_games_of_a_pairing_are_forfeited_with_the_colours_reversed() -> None:
    rnd = published_round(games_per_pairing=2)
    board = _boards(rnd)[0]
    noshow.board_no_show_confirm(board=board, absent="white", user=None)
    results = dict(GameResult.objects.filter(board=board).values_list("number", "result"))
    assert results == {1: "0-1", 2: "1-0"}  # the absent player is White of game 1, Black of 2
    other = _boards(rnd)[1]
    noshow.board_no_show_confirm(board=other, absent="both", user=None)
    assert set(GameResult.objects.filter(board=other).values_list("result", flat=True)) == {"0-0"}
    assert Absence.objects.filter(round=rnd).count() == 3


def test_hostile_posts_to_the_hall_change_nothing() -> None:
    rnd = published_round()
    board = _boards(rnd)[0]
    client, _user = organiser_client()
    url = f"/t/hall-open/round/{rnd.number}/hall/"
    for data in (
        {"action": "no_show", "board": board.pk, "absent": "nobody"},
        {"action": "no_show", "board": "abc", "absent": "white"},
        {"action": "no_show", "board": "99999999999999999999", "absent": "white"},
        {"action": "dismiss", "board": "\x00"},
    ):
        assert client.post(url, data).status_code in (302, 400)  # a NUL: refused at the door
    assert not NoShow.objects.exists() and not ResultChange.objects.exists()


def test_the_rounds_progress_counts_its_games_and_its_time() -> None:
    rnd, boards = _a_round_of_five_kinds_of_board()
    _started_ago(rnd, 75)
    client, _user = organiser_client()
    progress = _hall_json(client, rnd)["progress"]
    assert progress | {"began": None} == {
        "total": 5,
        "finished": 1,
        "confirmed": 1,
        "playing": 2,
        "waiting": 2,
        "began": None,
        "over": False,
    }
    fragment = client.get(f"/t/hall-open/round/{rnd.number}/progress/").content.decode()
    assert 'data-p="running" class="font-monospace">1:15<' in fragment
    dashboard = client.get("/t/hall-open/manage/").content.decode()
    assert f'data-progress-url="/t/hall-open/round/{rnd.number}/progress/"' in dashboard
    assert Client().get(f"/t/hall-open/round/{rnd.number}/progress/").status_code == 302


def test_the_hall_with_its_no_shows_and_progress_keeps_its_queries_bounded(
    django_assert_max_num_queries,  # type: ignore[no-untyped-def]
) -> None:
    rnd = published_round(players=80)
    _started_ago(rnd, 30)
    client, _user = organiser_client()
    for _ in range(2):
        with django_assert_max_num_queries(12):  # as many as the hall without them
            assert len(_hall_json(client, rnd)["no_shows"]) == 40
        with django_assert_max_num_queries(12):
            assert client.get(f"/t/hall-open/round/{rnd.number}/hall/").status_code == 200
