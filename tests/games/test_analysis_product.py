"""The engine's analysis in the product (issue 15 point 5): stored per sheet of moves, run by a
Celery task with progress, started when a tournament game's sheet finishes it and on demand
by an organiser; never reachable during play; shown on the game's page and counted on the
player's page (through the championship's write door, so the cached pages are new)."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from championship.models import GameResult, Tournament
from games import analysis, services, tasks
from games.demo import create_running_swiss, play_game
from games.engine import WHITE, legal_plays, playable_cards
from games.engine.game import Game as EngineGame
from games.models import Game, GameAnalysis
from games.selectors import replay
from tests.games.helpers import organiser_client, record

pytestmark = pytest.mark.django_db

SLUG = "an"
Status = GameAnalysis.Status


# --- Helpers ------------------------------------------------------------------------------
def finished_game(seed: int = 5) -> EngineGame:
    """A game the moves ended (home, blocked or the cards), played by the engine."""
    for attempt in range(20):
        eg = play_game(random.Random(seed * 100 + attempt), strong=WHITE)
        if eg.outcome is not None and not eg.terminated and len(eg.turns) >= 12:
            return eg
    raise AssertionError("no finished game")


def finished_record(seed: int = 5) -> str:
    eg = finished_game(seed)
    return record([t.text for t in eg.turns], eg.result, eg.termination)


@pytest.fixture
def world() -> dict[str, Any]:
    t = create_running_swiss(slug=SLUG, players=4, rounds=2, unfinished_last=True)
    org, user = organiser_client()
    open_result = (
        GameResult.objects.filter(board__round__tournament=t, board__round__number=2, result="")
        .select_related("board__white", "board__black")
        .first()
    )
    assert open_result is not None
    game = Game.objects.get(board=open_result.board, number=1)
    return {"t": t, "org": org, "user": user, "game": game, "board": open_result.board}


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, str]]:
    """The tasks sent (they still run inline, as without a worker)."""
    calls: list[tuple[int, str]] = []
    delay = tasks.analyse_game_task.delay

    def counting(analysis_id: int, token: str) -> Any:
        calls.append((analysis_id, token))
        return delay(analysis_id, token)

    monkeypatch.setattr(tasks.analyse_game_task, "delay", counting)
    return calls


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, str]]:
    """Tasks sent but not run (a worker that has not taken them yet)."""
    calls: list[tuple[int, str]] = []
    monkeypatch.setattr(
        tasks.analyse_game_task,
        "delay",
        lambda analysis_id, token: calls.append((analysis_id, token)),
    )
    return calls


def finish(w: dict[str, Any], seed: int = 5) -> Game:
    services.sheet_replace(
        game=w["game"], text=finished_record(seed), user=w["user"], overrule=True
    )
    w["game"].refresh_from_db()
    return w["game"]


def player_url(w: dict[str, Any]) -> str:
    return f"/t/{SLUG}/players/{w['board'].white_id}/"


def next_turn(game: Game) -> str:
    state = replay(game).state
    return legal_plays(state, playable_cards(state)[0])[0].text


# --- Started when a tournament game finishes, once per sheet of moves ---------------------
def test_a_finished_tournament_game_is_analysed_once_per_sheet_of_moves(world, sent):
    game = finish(world)
    row = GameAnalysis.objects.get(game=game)
    assert row.status == Status.DONE and row.progress == 100
    assert row.moves == analysis.moves_key(replay(game))
    assert row.ms_per_ply == 1  # the tests' setting (ANALYSIS_MS_PER_PLY)
    plies = analysis.plies_of(row)
    assert [p.ply for p in plies] == list(range(1, game.turns.count() + 1))
    assert [p.played for p in plies] == list(
        game.turns.order_by("ply").values_list("text", flat=True)
    )
    found = analysis.counts(plies)
    assert (row.mistakes_white, row.blunders_white) == found["white"]
    assert (row.mistakes_black, row.blunders_black) == found["black"]
    result = GameResult.objects.get(board=world["board"], number=1)
    assert result.analysis_counts("white") == found["white"]
    assert result.analysis_counts("black") == found["black"]
    assert len(sent) == 1
    # Asked again (an organiser's button, a second request): the same analysis, no new task.
    assert analysis.request(game.pk) == row
    assert len(sent) == 1
    # A corrected sheet (other moves) that still ends the game: analysed again.
    finish(world, seed=6)
    assert len(sent) == 2
    again = GameAnalysis.objects.get(game=game)
    assert again.moves == analysis.moves_key(replay(game)) and again.status == Status.DONE


def test_the_progress_is_reported_after_every_ply(world, monkeypatch):
    seen: list[tuple[str, int]] = []
    real = analysis.analyse_game

    def watching(source: Any, **kwargs: Any) -> Any:
        progress = kwargs.pop("progress")

        def report(done: int, total: int, ply: Any) -> None:
            progress(done, total, ply)
            row = GameAnalysis.objects.get()
            seen.append((row.status, row.progress))

        return real(source, progress=report, **kwargs)

    monkeypatch.setattr(analysis, "analyse_game", watching)
    game = finish(world)
    n = game.turns.count()
    assert len(seen) == n
    assert all(status == Status.RUNNING for status, _ in seen)
    percents = [p for _, p in seen]
    assert percents == sorted(percents) and percents[-1] == 99 and percents[0] == 100 // n


# --- Never during play --------------------------------------------------------------------
def test_nothing_is_analysed_while_the_game_goes_on(world, sent):
    game = world["game"]
    org = world["org"]
    for _ in range(3):
        services.turn_add(game=game, text=next_turn(game), user=world["user"])
    assert not GameAnalysis.objects.exists() and sent == []
    assert analysis.request(game.pk) is None  # nor on request
    response = org.post(f"/games/{game.pk}/analysis/start/")
    assert response.status_code == 302
    assert not GameAnalysis.objects.exists() and sent == []
    for client in (Client(), org):  # nobody, organisers included, sees anything of it
        html = client.get(f"/games/{game.pk}/").content.decode()
        assert 'id="analysis"' not in html and "analysis.js" not in html
        assert client.get(f"/games/{game.pk}/analysis.json").status_code == 404
        assert client.get(f"/games/{game.pk}/analysis/1/").status_code == 404


def test_a_game_reopened_after_its_end_loses_its_analysis(world):
    game = finish(world)
    org = world["org"]
    spectator = Client()
    url = f"/games/{game.pk}/"
    assert "analysis-graph" in spectator.get(url).content.decode()  # cached now
    assert 'data-game="1"' in spectator.get(player_url(world)).content.decode()
    assert spectator.get(f"/games/{game.pk}/analysis/2/").status_code == 200
    r = org.post(f"/games/{game.pk}/sheet/", {"action": "undo", "ply": str(game.turns.count())})
    assert r.status_code == 302
    assert not GameAnalysis.objects.filter(game=game).exists()
    result = GameResult.objects.get(board=world["board"], number=1)
    assert result.analysis_counts("white") is None and result.analysis_counts("black") is None
    for client in (spectator, org):
        html = client.get(url).content.decode()
        assert 'id="analysis"' not in html and "analysis-graph" not in html
        assert client.get(f"/games/{game.pk}/analysis.json").status_code == 404
        assert client.get(f"/games/{game.pk}/analysis/2/").status_code == 404
    assert 'data-game="1"' not in spectator.get(player_url(world)).content.decode()


def test_a_task_for_a_game_changed_meanwhile_does_nothing(world, held):
    game = finish(world)  # queued, not run
    assert len(held) == 1
    row = GameAnalysis.objects.get(game=game)
    assert row.status == Status.QUEUED
    services.turn_undo(game=game, user=world["user"])  # reopened before the worker took it
    assert analysis.run(*held[0]) == "stale"
    assert not GameAnalysis.objects.exists()
    assert GameResult.objects.get(board=world["board"], number=1).analysis_counts("white") is None


def test_a_game_reopened_during_the_analysis_drops_its_work(world, held, monkeypatch):
    game = finish(world)
    real = analysis.analyse_game

    def reopening(source: Any, **kwargs: Any) -> Any:
        progress = kwargs.pop("progress")
        calls = {"n": 0}

        def report(done: int, total: int, ply: Any) -> None:
            calls["n"] += 1
            if calls["n"] == 3:  # the organiser takes a turn back while the engine works
                services.turn_undo(game=Game.objects.get(pk=game.pk), user=world["user"])
            progress(done, total, ply)

        return real(source, progress=report, **kwargs)

    monkeypatch.setattr(analysis, "analyse_game", reopening)
    assert analysis.run(*held[0]) == "stale"
    assert not GameAnalysis.objects.exists()
    assert GameResult.objects.get(board=world["board"], number=1).analysis_counts("black") is None


def test_a_result_entered_by_hand_then_cleared_hides_the_analysis(world, sent):
    """A result entered by hand ends an undecided sheet without changing its moves:
    the analysis an organiser asked for is shown only while the result stands."""
    game = world["game"]
    result = GameResult.objects.get(board=world["board"], number=1)
    org = world["org"]

    def enter(value: str, termination: str) -> None:
        current = GameResult.objects.get(pk=result.pk)
        r = org.post(
            f"/t/{SLUG}/manage/round/2/",
            {
                "action": "results",
                f"result-{result.pk}": value,
                f"termination-{result.pk}": termination,
                f"version-{result.pk}": current.version,
            },
        )
        assert r.status_code in (200, 302)

    enter("1-0", "resign")
    assert sent == []  # only a sheet that ends the game starts it by itself
    assert org.post(f"/games/{game.pk}/analysis/start/").status_code == 302
    assert GameAnalysis.objects.get(game=game).status == Status.DONE
    assert GameResult.objects.get(pk=result.pk).analysis_counts("white") is not None
    assert "analysis-graph" in Client().get(f"/games/{game.pk}/").content.decode()
    enter("", "")
    assert GameResult.objects.get(pk=result.pk).analysis_counts("white") is None
    for client in (Client(), org):
        assert "analysis-graph" not in client.get(f"/games/{game.pk}/").content.decode()
        assert client.get(f"/games/{game.pk}/analysis.json").status_code == 404
        assert client.get(f"/games/{game.pk}/analysis/1/").status_code == 404


# --- Friendly games on demand -------------------------------------------------------------
def friendly_finished() -> Game:
    game = Game.objects.create(white_name="Ann", black_name="Boris")
    services.sheet_replace(game=game, text=finished_record(7), user=None)
    game.refresh_from_db()
    return game


def test_a_friendly_game_is_analysed_when_an_organiser_asks(sent):
    game = friendly_finished()
    assert not GameAnalysis.objects.exists() and sent == []
    url = f"/games/{game.pk}/analysis/start/"
    assert Client().post(url).status_code == 302 and sent == []  # to the login page
    User.objects.create_user("visitor", password="pw-visitor-123")
    visitor = Client()
    visitor.login(username="visitor", password="pw-visitor-123")
    assert visitor.post(url).status_code == 403
    org, user = organiser_client()
    assert org.get(url).status_code == 405
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(user)
    assert strict.post(url).status_code == 403  # no CSRF token
    assert sent == [] and not GameAnalysis.objects.exists()
    page = org.get(f"/games/{game.pk}/").content.decode()
    assert f'action="{url}"' in page and "csrfmiddlewaretoken" in page
    r = org.post(url)
    assert r.status_code == 302 and r["Location"] == f"/games/{game.pk}/#analysis"
    assert GameAnalysis.objects.get(game=game).status == Status.DONE
    assert org.post(url).status_code == 302
    assert len(sent) == 1  # once per sheet of moves
    assert f'action="{url}"' not in org.get(f"/games/{game.pk}/").content.decode()


# --- Progress, failures and lost workers ---------------------------------------------------
def test_progress_bar_and_its_json_while_queued_and_running(held):
    game = friendly_finished()
    analysis.request(game.pk)
    spectator = Client()
    url = f"/games/{game.pk}/"
    html = spectator.get(url).content.decode()
    assert "<progress" in html and "js/analysis.js" in html
    assert 'data-analysis-state="queued"' in html and "analysis-graph" not in html
    status = f"/games/{game.pk}/analysis.json"
    response = spectator.get(status)
    assert response.json() == {"state": "queued", "percent": 0}
    assert "no-cache" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]
    GameAnalysis.objects.update(status=Status.RUNNING, progress=40, beat_at=timezone.now())
    assert spectator.get(status).json() == {"state": "running", "percent": 40}
    assert 'data-analysis-state="running"' in spectator.get(url).content.decode()
    # The worker finishes: the page (kept per analysis state) shows the analysis.
    assert analysis.run(*held[0]) == "stale"  # a running analysis with a fresh heartbeat
    GameAnalysis.objects.update(status=Status.QUEUED)
    assert analysis.run(*held[0]) == "done"
    assert spectator.get(status).json() == {"state": "done", "percent": 100}
    html = spectator.get(url).content.decode()
    assert "analysis-graph" in html and "<progress" not in html


def test_a_lost_worker_shows_as_failed_and_is_taken_over(held, settings):
    game = friendly_finished()
    row = analysis.request(game.pk)
    assert row is not None
    old = timezone.now() - timedelta(seconds=settings.ANALYSIS_HEARTBEAT_STALE + 5)
    GameAnalysis.objects.update(status=Status.RUNNING, beat_at=old, progress=30)
    assert Client().get(f"/games/{game.pk}/analysis.json").json()["state"] == "failed"
    org, _user = organiser_client()
    html = org.get(f"/games/{game.pk}/").content.decode()
    assert "Analyse again" in html
    # The broker delivers the task again (acks late): it takes over the stale analysis.
    assert analysis.run(*held[0]) == "done"
    # A queue that never started it: failed after the queue timeout, and asked again.
    GameAnalysis.objects.update(
        status=Status.QUEUED,
        requested_at=timezone.now() - timedelta(seconds=settings.ANALYSIS_QUEUE_TIMEOUT + 5),
    )
    assert analysis.state(GameAnalysis.objects.get()) == Status.FAILED
    org.post(f"/games/{game.pk}/analysis/start/")
    assert len(held) == 2 and held[1][1] != held[0][1]
    assert analysis.run(*held[0]) == "stale"  # the old request's task does nothing
    assert analysis.run(*held[1]) == "done"


def test_a_crash_marks_the_analysis_failed_without_breaking_the_finishing_request(
    world, monkeypatch
):
    def crash(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("engine crashed")

    monkeypatch.setattr(analysis, "analyse_game", crash)
    game = world["game"]
    r = world["org"].post(
        f"/games/{game.pk}/sheet/", {"action": "upload", "record": finished_record()}
    )
    assert r.status_code == 302
    assert Game.objects.get(pk=game.pk).turns.count() > 0
    row = GameAnalysis.objects.get(game=game)
    assert row.status == Status.FAILED and row.error
    assert GameResult.objects.get(board=world["board"], number=1).result  # the result stands


# --- The game's page ----------------------------------------------------------------------
def test_the_finished_game_page_shows_the_graph_verdicts_and_better_plays(world):
    game = finish(world)
    row = GameAnalysis.objects.get(game=game)
    plies = analysis.plies_of(row)
    html = Client().get(f"/games/{game.pk}/").content.decode()
    assert html.count('class="graph-mark"') == sum(
        p.verdict in ("inaccuracy", "mistake", "blunder") for p in plies
    )
    assert (
        "<polyline" in html
        and "style=" not in html.split('id="analysis"')[1].split("</section>")[0]
    )
    for p in plies:
        assert f'id="analysis-ply-{p.ply}" data-verdict="{p.verdict}"' in html
    for verdict in ("best", "good", "inaccuracy", "mistake", "blunder"):  # the legend
        assert f">{verdict}</span>" in html
    better = [p for p in plies if p.best != p.played]
    assert better, "a game between engines at 1 ms has some plays to improve"
    for p in better:
        assert f'href="/games/{game.pk}/analysis/{p.ply}/"' in html
    p = better[0]
    page = Client().get(f"/games/{game.pk}/analysis/{p.ply}/")
    assert page.status_code == 200
    text = page.content.decode()
    assert text.count("<svg") == 3 and p.best in text and p.played in text
    assert Client().get(f"/games/{game.pk}/analysis/{len(plies) + 1}/").status_code == 404
    assert Client().get(f"/games/{game.pk}/analysis/0/").status_code == 404


def test_the_analysis_is_in_russian():
    game = friendly_finished()
    analysis.request(game.pk)
    client = Client(headers={"accept-language": "ru"})
    client.cookies["django_language"] = "ru"
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert "Анализ" in html
    for word in ("лучший", "хороший", "неточность", "ошибка", "грубая ошибка"):
        assert word in html, word


# --- The player's page --------------------------------------------------------------------
def test_the_player_page_counts_mistakes_and_blunders_and_is_made_new(world, held):
    spectator = Client()
    url = player_url(world)
    game = finish(world)  # the sheet's transaction; the worker comes after
    assert 'data-game="1"' not in spectator.get(url).content.decode()  # kept in the cache
    version = Tournament.objects.get(pk=world["t"].pk).version
    assert analysis.run(*held[0]) == "done"
    assert Tournament.objects.get(pk=world["t"].pk).version == version + 1
    result = GameResult.objects.get(board=world["board"], number=1)
    white_counts = result.analysis_counts("white")
    assert white_counts is not None
    html = spectator.get(url).content.decode()
    m, b = white_counts
    assert f"{m} mistake" in html and f"{b} blunder" in html
    # The opponent's page shows Black's counts.
    black_html = spectator.get(f"/t/{SLUG}/players/{world['board'].black_id}/").content.decode()
    bm, bb = result.analysis_counts("black")  # type: ignore[misc]
    assert f"{bm} mistake" in black_html and f"{bb} blunder" in black_html
    assert game.pk


def test_the_player_page_queries_do_not_grow_with_the_analysed_games():
    from django.core.cache import cache

    t = create_running_swiss(slug="many", players=6, rounds=4, unfinished_last=False)
    entrant = t.entrants.order_by("starting_number").first()
    url = f"/t/many/players/{entrant.pk}/"

    def queries() -> int:
        cache.clear()
        with CaptureQueriesContext(connection) as ctx:
            assert Client().get(url).status_code == 200
        return len(ctx.captured_queries)

    before = queries()
    for game in Game.objects.filter(board__round__tournament=t):
        analysis.request(game.pk)
    assert GameAnalysis.objects.filter(status=Status.DONE).count() >= 4
    html = Client().get(url).content.decode()
    assert 'data-game="1"' in html
    assert queries() == before


def test_a_deleted_sheet_takes_its_analysis_and_counts_with_it(world):
    game = finish(world)
    result = GameResult.objects.get(board=world["board"], number=1)
    assert result.analysis_counts("white") is not None
    spectator = Client()
    assert 'data-game="1"' in spectator.get(player_url(world)).content.decode()
    game.delete()  # the admin deletes the sheet: the result stays, the analysis goes
    result.refresh_from_db()
    assert result.result and result.analysis_counts("white") is None
    assert not GameAnalysis.objects.exists()
    assert 'data-game="1"' not in spectator.get(player_url(world)).content.decode()
