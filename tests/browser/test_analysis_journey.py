"""The engine's analysis in the browser: an organiser analyses a finished friendly game and the
page shows the graph, the verdicts and a better play on the board; a spectator's page follows
the progress of an analysis by polling and shows it when done (no CSP violation)."""

from __future__ import annotations

from typing import Any

import pytest

from games import analysis, services
from games.models import Game, GameAnalysis
from tests.browser.conftest import (
    click_to,
    close,
    csp_violations,
    organiser_page,
    screenshot,
    wait_for,
)
from tests.games.test_analysis_product import finished_record

pytestmark = pytest.mark.django_db(transaction=True)


def friendly() -> Game:
    game = Game.objects.create(white_name="Анна", black_name="Boris")
    services.sheet_replace(game=game, text=finished_record(7), user=None)
    return game


def test_an_organiser_analyses_a_finished_game(live_server: Any, browser: Any) -> None:
    game = friendly()
    ctx, page = organiser_page(browser, live_server, f"/games/{game.pk}/")
    assert page.locator(".analysis-graph").count() == 0
    click_to(page, "#analysis button[type=submit]")
    screenshot(page, "/tmp/analysis-1280.png", full_page=True)
    graph = page.locator("#analysis svg.analysis-graph")
    assert graph.is_visible()
    assert page.locator("#analysis polyline").count() == 1
    rows = page.locator(".analysis-sheet tbody tr")
    assert rows.count() == game.turns.count()
    verdicts = set(page.locator(".analysis-sheet tbody .badge").all_inner_texts())
    assert verdicts <= {"best", "good", "inaccuracy", "mistake", "blunder"} and verdicts
    assert "Verdicts:" in page.inner_text(".analysis-legend")
    # A better play on the board, on request.
    click_to(page, ".analysis-sheet a:has-text('on the board')")
    assert page.locator(".nardy-board").count() == 3
    assert "The engine's play" in page.inner_text("main")
    page.set_viewport_size({"width": 390, "height": 844})
    screenshot(page, "/tmp/analysis-ply-390.png")
    click_to(page, "a:has-text('Back to the game')")
    box = page.locator("#analysis").bounding_box()
    screenshot(
        page,
        "/tmp/analysis-390.png",
        full_page=True,
        clip={"x": 0, "y": box["y"], "width": 390, "height": 900},
    )
    assert page.locator(".analysis-graph").is_visible()
    assert csp_violations(page) == []
    close(ctx)


def test_a_spectator_follows_the_progress_bar_until_done(
    live_server: Any, phone_page: Any, monkeypatch: Any
) -> None:
    from games import tasks

    held: list[tuple[int, str]] = []
    monkeypatch.setattr(tasks.analyse_game_task, "delay", lambda *a: held.append(a))
    game = friendly()
    analysis.request(game.pk)
    page = phone_page
    page.goto(f"{live_server.url}/games/{game.pk}/")
    bar = page.locator("#analysis progress")
    assert bar.is_visible()
    GameAnalysis.objects.update(status=GameAnalysis.Status.RUNNING, progress=45)
    wait_for(lambda: page.evaluate("document.querySelector('#analysis progress').value") == 45)
    screenshot(page, "/tmp/analysis-progress-390.png", full_page=True)
    GameAnalysis.objects.update(status=GameAnalysis.Status.QUEUED)
    assert analysis.run(*held[0]) == "done"  # the worker
    wait_for(lambda: page.locator(".analysis-graph").count() == 1)
    assert page.locator("#analysis progress").count() == 0
    assert csp_violations(page) == []
