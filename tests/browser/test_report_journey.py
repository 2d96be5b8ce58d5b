"""Issue 24 in a browser, at 390 and 1280 px, in English and Russian: the report on a game's
page (a click on the value graph shows that ply), a player's training (a wrong answer comes
back in a day, kept in the browser) and the opening explorer. No CSP violation, nothing wider
than the screen."""

from __future__ import annotations

from typing import Any

import pytest

from championship.models import GameResult, Tournament
from games import services
from games.demo import create_running_swiss
from games.engine.exercise import Judgement
from games.models import Exercise, Game
from tests.browser.conftest import click_to, close, csp_violations, screenshot, watched_page
from tests.games.test_analysis_product import finished_record

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = ((390, 844), (1280, 900))


def world() -> dict[str, Any]:
    t = create_running_swiss(slug="rep", players=4, rounds=2, unfinished_last=True)
    open_result = (
        GameResult.objects.filter(board__round__tournament=t, board__round__number=2, result="")
        .select_related("board")
        .first()
    )
    assert open_result is not None
    game = Game.objects.get(board=open_result.board, number=1)
    services.sheet_replace(game=game, text=finished_record(5), user=None, overrule=True)
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.FINISHED)
    return {"t": t, "game": game, "board": open_result.board}


def fits(page: Any) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def set_language(page: Any, live_server: Any, lang: str) -> None:
    page.goto(f"{live_server.url}/lang/{lang}/?next=/")


def test_the_report_on_a_games_page(live_server: Any, browser: Any) -> None:
    w = world()
    game = w["game"]
    for lang in ("en", "ru"):
        for width, height in SIZES:
            ctx, page = watched_page(browser, viewport={"width": width, "height": height})
            set_language(page, live_server, lang)
            page.goto(f"{live_server.url}/games/{game.pk}/")
            report = page.locator("#report")
            assert report.is_visible()
            assert page.locator(".report-table tbody tr").count() >= 2
            explained = page.locator("#report a[href='/analysis/explained/']")
            assert explained.count() == 1
            # A click on the graph shows that ply above.
            page.locator(".analysis-graph a.graph-ply[data-ply='5']").last.click()
            page.wait_for_function("location.hash === '#ply-5'")
            where = page.inner_text("#replay-where")
            assert "5" in where
            assert fits(page), (lang, width)
            screenshot(report, f"/tmp/report-{lang}-{width}.png")
            points = page.locator(".turning-points li a")
            if points.count():
                click_to(page, ".turning-points li a >> nth=0")
                assert page.locator(".engine-line .line-words").is_visible()
                assert page.locator(".nardy-board").count() == 3
                screenshot(page, f"/tmp/turning-{lang}-{width}.png", full_page=True)
            page.goto(f"{live_server.url}/analysis/explained/")
            assert fits(page)
            screenshot(page, f"/tmp/explained-{lang}-{width}.png", full_page=True)
            assert csp_violations(page) == []
            assert page.console_errors == []
            close(ctx)


def test_training_from_a_players_mistakes(live_server: Any, browser: Any) -> None:
    w = world()
    ex = Exercise.objects.filter(game=w["game"]).order_by("ply").first()
    assert ex is not None
    entrant = ex.entrant_id
    base = f"{live_server.url}/t/rep/players/{entrant}/training/"
    judgement = Judgement.from_json(ex.judgement)
    wrong = next(p.play for p in judgement.plays if not p.right)
    right = judgement.answers[0]
    for lang, (width, height) in [(lang, size) for lang in ("en", "ru") for size in SIZES]:
        ctx, page = watched_page(browser, viewport={"width": width, "height": height})
        set_language(page, live_server, lang)
        page.goto(base)
        first_row = page.locator(f"tr[data-exercise='{ex.pk}']")
        assert first_row.get_attribute("data-state") == "new"
        assert fits(page), (lang, width)
        screenshot(page, f"/tmp/training-{lang}-{width}.png", full_page=True)
        page.goto(f"{base}{ex.pk}/")
        assert page.locator(".nardy-board").count() == 1
        screenshot(page, f"/tmp/exercise-{lang}-{width}.png", full_page=True)
        # A wrong answer: said so, with the engine's play and line; it comes back in a day.
        page.select_option("#exercise-play", wrong)
        click_to(page, ".exercise-form button[type=submit]")
        assert page.locator(".exercise-result.alert-danger").is_visible()
        assert page.locator(".line-words").is_visible()
        assert fits(page), (lang, width)
        screenshot(page, f"/tmp/exercise-wrong-{lang}-{width}.png", full_page=True)
        page.goto(base)
        assert first_row.get_attribute("data-state") == "later"
        # Said in words: "tomorrow", not "in 1 day(s)".
        assert first_row.locator("[data-when]").inner_text() == (
            "tomorrow" if lang == "en" else "завтра"
        )
        stored = page.evaluate("JSON.parse(localStorage.getItem('nardy-training'))")
        assert stored[str(ex.pk)]["box"] == 1
        due_in = stored[str(ex.pk)]["due"] - page.evaluate("Date.now()")
        assert 23 * 3600 * 1000 < due_in <= 24 * 3600 * 1000
        # Start leads to another exercise (a new one), not to the one just answered.
        start = page.get_attribute("[data-training-next]", "href")
        assert (
            not start.endswith(f"/{ex.pk}/")
            or Exercise.objects.filter(entrant_id=entrant).count() == 1
        )
        # A day later it is due again; answered right, it comes back in three days.
        page.evaluate(
            "k => { const d = JSON.parse(localStorage.getItem(k));"
            f" d['{ex.pk}'].due = Date.now() - 1000; localStorage.setItem(k, JSON.stringify(d)); }}",
            "nardy-training",
        )
        page.reload()
        assert first_row.get_attribute("data-state") == "due"
        assert page.get_attribute("[data-training-next]", "href").endswith(f"/{ex.pk}/")
        page.goto(f"{base}{ex.pk}/")
        page.fill("#exercise-typed", right)
        click_to(page, ".exercise-form button[type=submit]")
        assert page.locator(".exercise-result.alert-success").is_visible()
        stored = page.evaluate("JSON.parse(localStorage.getItem('nardy-training'))")
        assert stored[str(ex.pk)]["box"] == 2
        # Pressing Check twice, going back, reloading: nothing breaks.
        page.go_back()
        page.reload()
        assert csp_violations(page) == []
        close(ctx)


def test_the_opening_explorer(live_server: Any, browser: Any) -> None:
    w = world()
    finished = Game.objects.filter(opening_moves__ply=1).distinct().count()
    assert finished >= 3
    for lang in ("en", "ru"):
        for width, height in SIZES:
            ctx, page = watched_page(browser, viewport={"width": width, "height": height})
            set_language(page, live_server, lang)
            page.goto(f"{live_server.url}/openings/")
            counts = [int(x) for x in page.locator("[data-games]").all_inner_texts()]
            assert sum(counts) == finished
            first = page.locator(".explorer-table tbody tr a").first
            text = first.inner_text()
            click_to(page, ".explorer-table tbody tr a >> nth=0")
            assert text in page.inner_text(".explorer-line")
            assert page.locator(".nardy-board").count() == 1
            # How does this player open as White?
            name = str(w["board"].white)
            page.fill("#explorer-player", name)
            page.select_option("#explorer-colour", "white")
            click_to(page, ".explorer-filter button[type=submit]")
            assert page.input_value("#explorer-player") == name
            assert fits(page), (lang, width)
            screenshot(page, f"/tmp/explorer-{lang}-{width}.png", full_page=True)
            assert csp_violations(page) == []
            close(ctx)


def test_the_awards_page(live_server: Any, browser: Any) -> None:
    w = world()
    for lang in ("en", "ru"):
        for width, height in SIZES:
            ctx, page = watched_page(browser, viewport={"width": width, "height": height})
            set_language(page, live_server, lang)
            page.goto(f"{live_server.url}/t/rep/")
            click_to(page, ".tournament-nav a[href='/t/rep/awards/']")
            assert page.locator(".awards .card").count() == 4
            link = page.locator("#award-game a")
            assert link.get_attribute("href") == f"/games/{w['game'].pk}/"
            assert fits(page), (lang, width)
            screenshot(page, f"/tmp/awards-{lang}-{width}.png", full_page=True)
            assert csp_violations(page) == []
            close(ctx)
