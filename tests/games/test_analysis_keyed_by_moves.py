"""Issue 21, fault 2: an analysis belongs to the sheet's moves, not to every change of the
game's row. The players' confirmations at the tablet, a disagreement and its settling keep
the analysis queued or done at the game's end; a real change of the moves drops it and
queues the new moves' analysis; the pages never show counts ("0 mistakes") of an analysis
that is missing, stale or failed."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from championship.models import GameResult
from games import analysis, services, tablet, tasks
from games.models import Game, GameAnalysis, Turn
from tests.games.hall_helpers import games_of, published_round
from tests.games.helpers import organiser_client, record
from tests.games.test_analysis_product import finished_game

pytestmark = pytest.mark.django_db

Status = GameAnalysis.Status


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, str]]:
    """Tasks sent but not run yet (a worker that has not taken them)."""
    calls: list[tuple[int, str]] = []
    monkeypatch.setattr(
        tasks.analyse_game_task,
        "delay",
        lambda analysis_id, token: calls.append((analysis_id, token)),
    )
    return calls


@pytest.fixture
def at_the_board() -> dict[str, Any]:
    """A tablet game one turn from its end (the moves end it: home, blocked or the cards)."""
    rnd = published_round()
    game = games_of(rnd)[0]
    eg = finished_game(5)
    texts = [t.text for t in eg.turns]
    Turn.objects.bulk_create(Turn(game=game, ply=i, text=t) for i, t in enumerate(texts[:-1], 1))
    client = Client()
    url = tablet.path_for(game.pk)
    assert client.post(f"{url}action/", {"action": "start"}).status_code == 200
    return {"game": game, "texts": texts, "client": client, "url": url, "result": eg.result}


def end_at_the_tablet(w: dict[str, Any]) -> Game:
    response = w["client"].post(
        f"{w['url']}action/",
        {"action": "turn", "text": w["texts"][-1], "ply": str(len(w["texts"]) - 1)},
    )
    assert response.status_code == 200, response.content
    game: Game = Game.objects.get(pk=w["game"].pk)
    return game


def confirm(w: dict[str, Any], side: str) -> None:
    assert w["client"].post(w["url"], {"action": "confirm", "side": side}).status_code == 302


def counts_on_player_page(game: Game, side: str = "white") -> str:
    entrant = game.board.white_id if side == "white" else game.board.black_id
    slug = game.board.round.tournament.slug
    html = Client().get(f"/t/{slug}/players/{entrant}/").content.decode()
    cell = re.search(r'<td class="analysis-counts"[^>]*>(.*?)</td>', html, re.S)
    assert cell is not None
    return cell.group(1)


def test_the_players_confirmations_keep_the_analysis_queued_at_the_end(at_the_board, held):
    game = end_at_the_tablet(at_the_board)
    assert len(held) == 1  # queued as the game ended
    row = GameAnalysis.objects.get(game=game)
    assert row.status == Status.QUEUED and row.moves == analysis.moves_key(
        analysis.selectors.replay(game)
    )
    confirm(at_the_board, "white")
    confirm(at_the_board, "black")
    assert GameResult.objects.get(board=game.board, number=1).confirmed
    # The worker takes the task after the confirmations: the moves are the same, so it runs.
    assert analysis.run(*held[0]) == "done"
    row.refresh_from_db()
    assert row.status == Status.DONE
    html = Client().get(f"/games/{game.pk}/").content.decode()
    assert "analysis-graph" in html
    result = GameResult.objects.get(board=game.board, number=1)
    found = analysis.done_counts(row)
    assert found is not None
    assert result.analysis_counts("white") == found["white"]
    assert f"{found['white'][0]} mistake" in counts_on_player_page(game)
    assert len(held) == 1  # nothing asked twice


def test_an_analysis_done_inline_stays_shown_after_the_confirmations(at_the_board):
    game = end_at_the_tablet(at_the_board)  # without a worker: analysed in the request
    row = GameAnalysis.objects.get(game=game)
    assert row.status == Status.DONE
    version = game.version
    confirm(at_the_board, "white")
    confirm(at_the_board, "black")
    game.refresh_from_db()
    assert game.version == version + 2  # the row changed, the moves did not
    spectator = Client()
    assert "analysis-graph" in spectator.get(f"/games/{game.pk}/").content.decode()
    assert spectator.get(f"/games/{game.pk}/analysis.json").json()["state"] == "done"
    assert GameAnalysis.objects.get(game=game).pk == row.pk


def test_a_dispute_and_its_settling_keep_the_analysis(at_the_board, held):
    game = end_at_the_tablet(at_the_board)
    confirm(at_the_board, "white")
    at_the_board["client"].post(at_the_board["url"], {"action": "dispute", "side": "black"})
    org, user = organiser_client()
    rnd = game.board.round
    response = org.post(
        f"/t/{rnd.tournament.slug}/round/{rnd.number}/hall/", {"game": str(game.pk)}
    )
    assert response.status_code == 302
    assert Game.objects.get(pk=game.pk).disputed == ""
    assert analysis.run(*held[0]) == "done"
    assert "analysis-graph" in Client().get(f"/games/{game.pk}/").content.decode()


def test_a_real_change_of_the_moves_drops_the_analysis_and_queues_the_new_one(at_the_board):
    game = end_at_the_tablet(at_the_board)
    confirm(at_the_board, "white")
    first = GameAnalysis.objects.get(game=game)
    assert first.status == Status.DONE
    org, user = organiser_client()
    texts = at_the_board["texts"]
    # The same record pasted again: the same moves, the same analysis (not run again).
    services.sheet_replace(
        game=game, text=record(texts, at_the_board["result"]), user=user, overrule=True
    )
    assert GameAnalysis.objects.get(game=game).pk == first.pk
    assert GameResult.objects.get(board=game.board, number=1).analysis_counts("white") is not None
    # A turn taken back: other moves, the game goes on; nothing of the analysis is left.
    services.turn_undo(game=game, user=user)
    assert not GameAnalysis.objects.filter(game=game).exists()
    assert GameResult.objects.get(board=game.board, number=1).analysis_counts("white") is None
    assert counts_on_player_page(game).strip().endswith("–</span>")
    # The last turn again: finished again, analysed again (a new request).
    services.turn_add(game=game, text=texts[-1], user=user)
    again = GameAnalysis.objects.get(game=game)
    assert again.status == Status.DONE and again.token != first.token
    assert again.moves == first.moves


@pytest.mark.parametrize("outcome", ["queued", "failed"])
def test_counts_are_shown_only_for_a_done_analysis_of_these_moves(
    at_the_board, monkeypatch, outcome
):
    if outcome == "queued":
        monkeypatch.setattr(tasks.analyse_game_task, "delay", lambda *args: None)
    else:

        def crash(*args: Any, **kwargs: Any) -> Any:
            raise RuntimeError("engine crashed")

        monkeypatch.setattr(analysis, "analyse_game", crash)
    game = end_at_the_tablet(at_the_board)
    confirm(at_the_board, "white")
    confirm(at_the_board, "black")
    assert GameAnalysis.objects.get(game=game).status == outcome
    assert GameResult.objects.get(board=game.board, number=1).analysis_counts("white") is None
    cell = counts_on_player_page(game)
    assert "mistake" not in cell and "–" in cell
    html = Client().get(f"/games/{game.pk}/").content.decode()
    assert "analysis-summary" not in html
    assert f'data-analysis-state="{outcome}"' in html


def test_the_command_queues_the_finished_games_left_without_an_analysis(at_the_board, held):
    import io

    from django.core.management import call_command

    game = end_at_the_tablet(at_the_board)
    GameAnalysis.objects.all().delete()  # dropped as stale before this fix
    html = Client().get(f"/games/{game.pk}/").content.decode()
    assert "not been analysed yet" in html and "analysis-summary" not in html
    out = io.StringIO()
    call_command("analyse_games", stdout=out)
    assert "1 finished game(s) queued" in out.getvalue()
    assert GameAnalysis.objects.get(game=game).status == Status.QUEUED
    assert len(held) == 2  # the game's end, and the command
    call_command("analyse_games", "--slug", game.board.round.tournament.slug, stdout=out)
    assert len(held) == 2  # a queued analysis is not asked again
    assert analysis.run(*held[0]) == "stale" and analysis.run(*held[1]) == "done"


def test_a_turn_after_a_termination_taken_back_drops_the_analysis_of_the_shorter_game(
    at_the_board, held
):
    """The turn reads with its game's lock whether the game has an analysis (one round trip
    fewer, ``selectors.turn_reads``): an undecided game can have one — a resignation recorded,
    then the same moves pasted without it — and the next turn, other moves, drops it."""
    client, url, texts = at_the_board["client"], at_the_board["url"], at_the_board["texts"]
    org, user = organiser_client()
    game = at_the_board["game"]
    services.turn_undo(game=game, user=user)  # two turns from the end
    assert client.post(url, {"action": "resign", "side": "black"}).status_code == 302
    assert GameAnalysis.objects.filter(game=game).exists()  # queued at the resignation
    services.sheet_replace(game=game, text=record(texts[:-2]), user=user, overrule=True)
    assert GameAnalysis.objects.filter(game=game).exists()  # the same moves: it stays
    services.clock_start(game=game, user=user)
    turn = services.turn_add(game=game, text=texts[-2], user=user)
    assert turn.replay_after.outcome is None  # the game goes on
    assert not GameAnalysis.objects.filter(game=game).exists()
