"""Issue 21, fault 1: a finished tournament's results change through no door but a reopen.

The rule lives in the doors every writer passes: ``games.services._lock`` (turns, sheets,
terminations, adjournment, the clock, the players' word at the tablet, the arbiter settling a
disagreement) and the championship's result door (``_check_open``: organisers' entries, move
sheets, confirmations). Each refusal is a translated message (409), never a 500, and nothing
is half-saved; a reopen makes everything writable again; the pages offer no control that
would fail."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from championship import services as championship
from championship.models import Board, GameResult, ResultChange, Tournament
from games import services
from games.demo import create_running_swiss
from games.models import Game, Turn
from tests.championship.results import enter as result_enter
from tests.games.helpers import organiser_client, played, reach, record

pytestmark = pytest.mark.django_db

FINISHED = "The tournament is finished: reopen it first to change anything."


def state(t: Tournament) -> Any:
    """Everything a write to the tournament's games could change."""
    t.refresh_from_db()
    return (
        t.version,
        list(GameResult.objects.filter(board__round__tournament=t).order_by("pk").values_list()),
        list(ResultChange.objects.order_by("pk").values_list("pk", flat=True)),
        list(Game.objects.order_by("pk").values_list()),
        list(Turn.objects.order_by("pk").values_list("pk", "ply", "text")),
    )


def finished_record(texts: list[str]) -> str:
    return record(texts, played(texts).result, "home")


@pytest.fixture
def world() -> dict[str, Any]:
    """A finished Swiss; board 1's game has an undecided sheet and a result entered by hand
    (the sheet one turn short of bringing White home), board 2 has no game yet."""
    t = create_running_swiss(slug="fin", players=6, rounds=1, unfinished_last=False)
    first, second = list(Board.objects.filter(round__tournament=t).exclude(black=None)[:2])
    Game.objects.filter(board__in=[first, second]).delete()
    GameResult.objects.filter(board__in=[first, second]).update(
        result="", termination="", source="", has_sheet=False, sheet_plies=0
    )
    client, user = organiser_client()
    game = services.game_for(first, 1)
    texts = reach(lambda eg: eg.outcome is not None and eg.termination == "home", seed=2)
    services.sheet_replace(game=game, text=record(texts[:-1]), user=user)
    game.refresh_from_db()
    result_enter(first, "1-0", "resign")
    result_enter(second, "0-1", "forfeit")
    championship.tournament_finish(tournament=t)
    return {"t": t, "game": game, "texts": texts, "client": client, "user": user, "empty": second}


def test_the_move_sheet_refuses_every_change_with_a_message_and_saves_nothing(world):
    t, game, texts, client = world["t"], world["game"], world["texts"], world["client"]
    standings = Client().get("/t/fin/standings/").content
    before = state(t)
    url = f"/games/{game.pk}/sheet/"
    ply = str(len(texts) - 1)
    posts = [
        {"action": "turn", "text": texts[-1], "ply": ply},
        {"action": "turn", "text": texts[-1], "ply": ply, "overrule": "sheet"},
        {"action": "undo", "ply": ply},
        {"action": "upload", "record": finished_record(texts), "overrule": "sheet"},
        {"action": "terminate", "termination": "forfeit", "side": "both", "confirm": "1"},
        {"action": "terminate", "termination": "adjudication", "side": "", "confirm": "1"},
        {"action": "adjourn"},
        {"action": "resume"},
    ]
    for data in posts:
        response = client.post(url, data)
        assert response.status_code == 409, data
        assert FINISHED in response.content.decode(), data
        assert state(t) == before, data
    clock = f"/games/{game.pk}/clock/action/"
    for data in ({"action": "start"}, {"action": "pause"}, {"action": "turn", "text": texts[-1]}):
        response = client.post(clock, {**data, "ply": ply})
        assert response.status_code == 409, data
        assert response.json()["error"] == FINISHED
        assert state(t) == before, data
    assert Client().get("/t/fin/standings/").content == standings


def test_every_writer_of_a_game_or_a_result_refuses(world):
    t, game, user = world["t"], world["game"], world["user"]
    board = Board.objects.select_related("round__tournament").get(pk=game.board_id)
    before = state(t)
    game_writes = [
        lambda: services.turn_add(game=game, text=world["texts"][-1], user=user, overrule=True),
        lambda: services.turn_undo(game=game, user=user),
        lambda: services.sheet_replace(game=game, text=record([]), user=user, overrule=True),
        lambda: services.game_terminate(
            game=game, termination="forfeit", side="both", user=user, overrule=True
        ),
        lambda: services.game_adjourn(game=game, user=user),
        lambda: services.game_resume(game=game, user=user),
        lambda: services.clock_start(game=game, user=user),
        lambda: services.clock_pause(game=game, user=user),
        lambda: services.game_confirm(game=game, side="white"),
        lambda: services.game_dispute(game=game, side="black"),
        lambda: services.game_dispute_settle(game=game, user=user),
        lambda: services.game_for(world["empty"], 1),  # a new sheet
    ]
    for write in game_writes:
        with pytest.raises(services.Frozen, match="finished"):
            write()
        assert state(t) == before
    result_writes = [
        lambda: championship.game_result_set(
            entries=[championship.ResultEntry(board, 1, "1/2-1/2", "adjudication")], user=user
        ),
        lambda: championship.game_result_sheet_set(
            board=board, number=1, plies=3, outcome=None, user=user, overrule=True
        ),
        lambda: championship.game_results_confirm(board=board, user=None),
        lambda: championship.game_result_players_confirm(
            board=board, number=1, result="1-0", termination="resign"
        ),
    ]
    GameResult.objects.filter(board=board).update(confirmed=False)  # something to confirm
    before = state(t)
    for write in result_writes:
        with pytest.raises(championship.ChampionshipError, match="finished"):
            write()
        assert state(t) == before
    # Looking at the clock settles nothing in a finished tournament, and fails nowhere.
    Game.objects.filter(pk=game.pk).update(
        clock_white_ms=1, clock_black_ms=1, clock_running_since=timezone.now()
    )
    game.refresh_from_db()
    assert services.clock_settle(game=game, user=None) is False
    assert world["client"].get(f"/games/{game.pk}/clock/state.json").status_code == 200
    assert world["client"].get(f"/games/{game.pk}/clock/").status_code == 200


def test_the_pages_offer_no_control_that_would_fail(world):
    game, client = world["game"], world["client"]
    sheet = client.get(f"/games/{game.pk}/sheet/").content.decode()
    assert 'id="frozen"' in sheet and "/manage/finish/" in sheet
    for control in ('id="turn-form"', 'value="undo"', 'value="upload"', 'id="end-form"'):
        assert control not in sheet, control
    clock = client.get(f"/games/{game.pk}/clock/").content.decode()
    assert 'id="frozen"' in clock and 'data-over="1"' in clock
    assert 'data-clock-action="start"' not in clock and "legal-plays" not in clock
    round_page = client.get("/t/fin/manage/round/1/").content.decode()
    assert 'id="frozen"' in round_page and "<fieldset disabled>" in round_page
    # No sheet link for a game without a sheet (it could not be made); the game with one is
    # linked. Following a stale link says why, on the round page.
    empty = world["empty"]
    assert f"/games/board/{empty.pk}/1/" not in round_page
    assert f"/games/board/{game.board_id}/1/" in round_page
    response = client.get(f"/games/board/{empty.pk}/1/", follow=True)
    assert response.redirect_chain[-1][0] == "/t/fin/manage/round/1/"
    assert FINISHED in response.content.decode()
    assert not Game.objects.filter(board=empty).exists()
    # The tablets' sheet makes no links any more, and a forged post is told why.
    tablets = client.get("/t/fin/round/1/tablets/").content.decode()
    assert 'value="make"' not in tablets
    response = client.post("/t/fin/round/1/tablets/", {"action": "make"}, follow=True)
    assert response.status_code == 200 and FINISHED in response.content.decode()
    assert not Game.objects.filter(board=empty).exists()


def test_a_reopen_makes_the_games_writable_again(world):
    t, game, texts, client = world["t"], world["game"], world["texts"], world["client"]
    championship.tournament_reopen(tournament=t)
    sheet = client.get(f"/games/{game.pk}/sheet/").content.decode()
    assert 'id="frozen"' not in sheet and 'value="undo"' in sheet
    response = client.post(
        f"/games/{game.pk}/sheet/",
        {"action": "upload", "record": finished_record(texts), "overrule": "sheet"},
    )
    assert response.status_code == 302
    row = GameResult.objects.get(board_id=game.board_id, number=1)
    assert (row.result, row.termination, row.source) == (played(texts).result, "home", "sheet")
    assert services.game_for(world["empty"], 1).board_id == world["empty"].pk


def test_an_empty_sheet_offers_no_card_to_play_once_finished() -> None:
    """A game made for the tablets whose result was entered on the round page (a win at home,
    which the sheet cannot record): once the tournament is finished its sheet and clock
    still offered the mover's cards as buttons to choose a move with, on a page saying
    nothing can change. They are shown, not offered."""
    t = create_running_swiss(slug="fin2", players=4, rounds=1, unfinished_last=False)
    board = Board.objects.filter(round__tournament=t).exclude(black=None).first()
    assert board is not None
    Game.objects.filter(board=board).delete()
    GameResult.objects.filter(board=board).update(
        result="", termination="", source="", has_sheet=False, sheet_plies=0
    )
    client, _user = organiser_client()
    game = services.game_for(board, 1)
    result_enter(board, "1-0", "home")
    before = client.get(f"/games/{game.pk}/sheet/").content.decode()
    assert "card-btn" in before  # open: the cards are the way to enter a move
    championship.tournament_finish(tournament=t)
    sheet = client.get(f"/games/{game.pk}/sheet/").content.decode()
    clock = client.get(f"/games/{game.pk}/clock/").content.decode()
    for page in (sheet, clock):
        assert 'id="frozen"' in page
        assert "card-btn" not in page and "card-chip" in page
