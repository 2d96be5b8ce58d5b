"""Faults found by trying the platform as people do on a tournament day (issue 21's walk at
390, 1024 and 1280 px in both languages), each kept from coming back."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import close, organiser_page

pytestmark = pytest.mark.django_db(transaction=True)


def page_width(page: Any) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth"))


def test_an_organisers_menu_bar_fits_every_width_in_both_languages(
    live_server: Any, browser: Any
) -> None:
    """The organiser's menu (their menu, the administration, log out) is longer than a
    visitor's: in Russian it ran 16 px off a 1024 px screen (log out out of reach, the page
    scrolling sideways). Every width from a tablet to a laptop keeps it on the screen."""
    ctx, page = organiser_page(browser, live_server, "/manage/")
    for language in ("ru", "en"):
        page.goto(f"{live_server.url}/lang/{language}/?next=/manage/")
        for width in (768, 900, 1024, 1100, 1199, 1280):
            page.set_viewport_size({"width": width, "height": 800})
            assert page_width(page) <= width, (language, width, page_width(page))
            logout = page.locator(".site-nav form[action$='/logout/'] button")
            if logout.is_visible():
                box = logout.bounding_box()
                assert box is not None and box["x"] + box["width"] <= width, (language, width)
    close(ctx)


def test_the_tablets_clock_sends_one_turn_however_often_it_is_pressed(
    live_server: Any, browser: Any
) -> None:
    """A player pressing the clock twice (a double tap, an impatient second press) sent the
    turn twice: the second answered "the sheet changed" at best, and on SQLite "database is
    locked" as a 503. One press is on its way at a time. And the message "choose a card and
    move first", shown when the clock was pressed too early, goes once the move is made."""
    from games import services, tablet
    from tests.browser.conftest import watched_page
    from tests.games.hall_helpers import games_of, published_round

    game = games_of(published_round())[0]
    services.clock_start(game=game, user=None)
    ctx, page = watched_page(browser, viewport={"width": 1024, "height": 768}, has_touch=True)
    posts: list[str] = []
    page.on(
        "request",
        lambda r: r.method == "POST" and r.url.endswith("/action/") and posts.append(r.url),
    )
    page.goto(live_server.url + tablet.path_for(game.pk))
    page.click(".clock-btn[data-side='white']")
    error = page.locator("#clock-error")
    assert "move first" in error.inner_text() and error.is_visible()
    page.click(".card-btn[data-card='4:5']")
    for number in (24, 20, 13, 8):
        page.click(f"#entry-board .pt[data-w='{number}'] .hit")
    assert not error.is_visible()  # the move is made: the old message has gone
    # Two presses in the same instant, before any answer can come back.
    with page.expect_navigation():
        page.evaluate(
            "() => { const b = document.querySelector(\".clock-btn[data-side='white']\");"
            " b.click(); b.click(); }"
        )
    page.wait_for_selector(".clock-btn.running[data-side='black']")
    assert len(posts) == 1
    assert list(game.turns.values_list("text", flat=True)) == ["4:5 24/20 13/8"]
    close(ctx)


def test_the_report_on_a_players_games_fits_their_own_page(live_server: Any, browser: Any) -> None:
    """The player's own page is one narrow column on every screen: the engine's report on
    their games, an eight-column table, ran out of that column (at 390 px the accuracy, the
    mistakes and the turning points scrolled out of sight under a header three lines tall). It
    is one card per game there, each value with its label; a table where it has room."""
    from championship.models import Entrant
    from tests.browser.conftest import watched_page
    from tests.browser.test_report_journey import world
    from tests.championship.day import page_url, register

    w = world()
    entrant = Entrant.objects.get(pk=w["board"].black_id)
    entrant.registration = register(w["t"], "Report Reader", language="ru")
    entrant.save()
    for width, height in ((390, 844), (1024, 768), (1280, 900)):
        ctx, page = watched_page(browser, viewport={"width": width, "height": height})
        page.goto(f"{live_server.url}/lang/ru/?next=/")
        page.goto(live_server.url + page_url(entrant.registration))
        report = page.locator(".player-report")
        assert report.locator("tbody tr").count() >= 1
        box = report.bounding_box()
        assert box is not None
        # Every value of the report is inside the report's box, nothing to scroll to.
        cells = page.eval_on_selector_all(
            ".player-report-table tbody td",
            "els => els.map(e => { const b = e.getBoundingClientRect();"
            " return [e.dataset.label, b.left, b.right, e.innerText.trim()]; })",
        )
        assert len(cells) >= 8
        for label, left, right, value in cells:
            assert label and value, cells
            assert left >= box["x"] - 1 and right <= box["x"] + box["width"] + 1, (width, label)
        assert page.evaluate(
            "[...document.querySelectorAll('.player-report .table-responsive')]"
            ".every(e => e.scrollWidth <= e.clientWidth)"
        ), width
        close(ctx)
    # On the training page at a laptop's width it has room: a table with its header.
    ctx, page = watched_page(browser, viewport={"width": 1280, "height": 900})
    page.goto(f"{live_server.url}/t/{w['t'].slug}/players/{entrant.pk}/training/")
    assert page.locator(".player-report-table thead").is_visible()
    close(ctx)


def test_a_result_tapped_for_a_sheet_under_way_proposes_what_can_stand(
    live_server: Any, browser: Any
) -> None:
    """A tap on 0-1 proposed "home" for a game whose sheet has turns but no result yet; the
    save was then refused ("the sheet (1 turns) does not allow 0-1 (home)"): only the moves
    bring a game home. There it proposes a resignation (an agreement for a draw), which
    stands; an empty sheet keeps the usual proposal."""
    from championship.models import GameResult
    from games import services
    from tests.browser.conftest import click_to
    from tests.games.hall_helpers import games_of, published_round

    rnd = published_round()
    under_way, empty = games_of(rnd)
    services.turn_add(game=under_way, text="4:5 24/20 13/8", user=None)
    ctx, page = organiser_page(browser, live_server, f"/t/hall-open/manage/round/{rnd.number}/")
    first = page.locator(f"tr[data-board='{under_way.board.number}']")
    second = page.locator(f"tr[data-board='{empty.board.number}']")
    first.locator("label:has-text('0-1')").click()
    assert first.locator("select[data-termination]").input_value() == "resign"
    first.locator("label:has-text('½-½')").click()
    assert first.locator("select[data-termination]").input_value() == "agreement"
    first.locator("label:has-text('0-1')").click()
    second.locator("label:has-text('1-0')").click()
    assert second.locator("select[data-termination]").input_value() == "home"
    click_to(page, "text=Save results")
    assert "result" in page.inner_text(".site-messages") and "does not allow" not in (
        page.inner_text(".site-messages")
    )
    rows = GameResult.objects.filter(board__round=rnd).order_by("board__number")
    assert [(r.result, r.termination) for r in rows] == [("0-1", "resign"), ("1-0", "home")]
    close(ctx)


def test_the_round_page_prints_its_results(live_server: Any, browser: Any) -> None:
    """Printed, the organisers' round page had an empty Result column: a result is a row of
    buttons and the print style hides buttons. The result chosen prints as text, the search
    box does not print."""
    import io
    import re

    from pypdf import PdfReader

    from championship.models import GameResult
    from games.demo import create_running_swiss

    t = create_running_swiss(slug="prr", players=8, rounds=1, unfinished_last=False)
    shown = {"1-0": "1-0", "0-1": "0-1", "1/2-1/2": "½-½"}
    results = list(
        GameResult.objects.filter(board__round__tournament=t).values_list("result", flat=True)
    )
    ctx, page = organiser_page(browser, live_server, f"/t/{t.slug}/manage/round/1/")
    text = " ".join(
        p.extract_text() or "" for p in PdfReader(io.BytesIO(page.pdf(format="A4"))).pages
    )
    text = re.sub(r"\s+", " ", text)
    # What each board's result cell shows on paper is its result.
    page.emulate_media(media="print")
    printed = page.eval_on_selector_all(
        "tr[data-board] .result-choice", "els => els.map(e => e.innerText.trim())"
    )
    by_board = dict(
        GameResult.objects.filter(board__round__tournament=t)
        .exclude(board__black=None)
        .order_by("board__number")
        .values_list("board__number", "result")
    )
    assert printed == [shown.get(r, "–") for r in by_board.values()], (printed, by_board)
    assert sum(results.count(k) for k in shown) >= 3  # the round has results to print
    assert "Board number or player" not in text
    close(ctx)


def test_a_games_result_badge_is_legible_on_paper(live_server: Any, browser: Any) -> None:
    """Paper has no backgrounds: the result of a game (a dark badge with white text) printed
    white on white, "0-1" all but invisible. Badges print as dark text."""
    from games.models import Game
    from tests.browser.conftest import watched_page
    from tests.browser.test_report_journey import world

    game: Game = world()["game"]
    ctx, page = watched_page(browser, viewport={"width": 1280, "height": 900})
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.emulate_media(media="print")
    colour = page.eval_on_selector("[data-result]", "e => getComputedStyle(e).color")
    assert colour == "rgb(0, 0, 0)", colour
    close(ctx)
