"""Issue 21 points 7 and 8: the tablet at a board. Its controls (the clocks, start, undo,
clear and the mover's cards) fit a phone held upright (390×844) and a landscape tablet, in
both languages; a play shows on the board step by step as it is tapped, before the clock is
pressed, a step can be undone, and the position shown is the one the server records."""

from __future__ import annotations

from typing import Any

import pytest

from games import tablet
from tests.browser.conftest import close, csp_violations, screenshot, watched_page
from tests.games.hall_helpers import games_of, published_round

pytestmark = pytest.mark.django_db(transaction=True)

CONTROLS = ".clock-btn, .card-btn, [data-clock-action], #click-undo, #click-clear"


def checkers_on(page: Any, white_point: int, colour: str = "w") -> int:
    """How many checkers of ``colour`` the board shows on White's point ``white_point``."""
    return int(
        page.evaluate(
            """([p, colour]) => {
              const hit = document.querySelector(`#entry-board .pt[data-w='${p}'] .hit`);
              const x = Number(hit.getAttribute('x')), w = Number(hit.getAttribute('width'));
              return Array.from(document.querySelectorAll(`#entry-board .layer .ck-${colour}`))
                .filter(c => Number(c.getAttribute('cx')) > x
                          && Number(c.getAttribute('cx')) < x + w).length;
            }""",
            [white_point, colour],
        )
    )


def board_checkers(page: Any) -> list[tuple[str, str, str]]:
    return sorted(
        page.eval_on_selector_all(
            "#entry-board .layer .ck",
            "els => els.map(e => [e.getAttribute('class'), e.getAttribute('cx'),"
            " e.getAttribute('cy')])",
        )
    )


def tap(page: Any, white_point: int) -> None:
    page.tap(f"#entry-board .pt[data-w='{white_point}'] .hit")


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize(("width", "height"), [(390, 844), (1024, 768), (1180, 820)])
def test_the_tablets_controls_fit_the_screen(
    live_server: Any, browser: Any, width: int, height: int, language: str
) -> None:
    from championship.models import Entrant
    from games import services

    rnd = published_round()
    Entrant.objects.filter(tournament=rnd.tournament).update(
        name="Александра Константиновна Преображенская-Рождественская"
    )
    game = games_of(rnd)[0]
    # Black to move, the clock running: Black's nine kinds of card in hand.
    services.clock_start(game=game, user=None)
    services.turn_add(game=game, text="4:5 24/20 13/8", user=None, from_clock=True)
    context, page = watched_page(
        browser,
        viewport={"width": width, "height": height},
        is_mobile=width < 500,
        has_touch=True,
    )
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    try:
        page.goto(live_server.url + tablet.path_for(game.pk))
        boxes = page.eval_on_selector_all(
            CONTROLS,
            "els => els.map(e => { const b = e.getBoundingClientRect();"
            " return [e.id || e.dataset.card || e.className, b.right, b.bottom]; })",
        )
        assert len(boxes) >= 9 + 2 + 3  # nine cards, two clocks, start, undo, clear
        off = [b for b in boxes if b[1] > width or b[2] > height]
        assert not off, off
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        screenshot(page, f"/tmp/tablet-{width}x{height}-{language}.png")
    finally:
        close(context)


def test_a_play_shows_on_the_board_as_it_is_tapped_before_the_clock(
    live_server: Any, browser: Any
) -> None:
    game = games_of(published_round())[0]
    context, page = watched_page(
        browser, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    try:
        page.goto(live_server.url + tablet.path_for(game.pk))
        page.tap("[data-clock-action='start']")
        page.wait_for_selector(".clock-btn.running[data-side='white']")
        before = board_checkers(page)
        assert (checkers_on(page, 24), checkers_on(page, 20)) == (2, 0)
        assert page.is_disabled("#click-undo")
        page.tap(".card-btn[data-card='4:5']")
        tap(page, 24)
        tap(page, 20)
        # The checker stands on 20 now, the clock not pressed, nothing sent.
        assert (checkers_on(page, 24), checkers_on(page, 20)) == (1, 1)
        assert game.turns.count() == 0
        # Undone: back on 24; tapped again, then the second step.
        page.tap("#click-undo")
        assert (checkers_on(page, 24), checkers_on(page, 20)) == (2, 0)
        tap(page, 24)
        tap(page, 20)
        tap(page, 13)
        assert checkers_on(page, 13) == 5  # chosen, not moved yet
        tap(page, 8)
        assert (checkers_on(page, 13), checkers_on(page, 8)) == (4, 4)
        assert "4:5 24/20 13/8" in page.inner_text("#click-status")
        shown = board_checkers(page)
        assert shown != before
        # Another card puts every checker back.
        page.tap(".card-btn[data-card='1:2']")
        assert board_checkers(page) == before
        page.tap(".card-btn[data-card='4:5']")
        for point in (24, 20, 13, 8):
            tap(page, point)
        assert board_checkers(page) == shown
        with page.expect_navigation():
            page.tap(".clock-btn[data-side='white']")
        page.wait_for_selector(".clock-btn.running[data-side='black']")
        assert list(game.turns.values_list("text", flat=True)) == ["4:5 24/20 13/8"]
        # The position the server draws after the turn is the one the page showed.
        assert board_checkers(page) == shown
        assert csp_violations(page) == []
    finally:
        close(context)


def test_a_hit_shows_the_blot_on_the_bar(live_server: Any, browser: Any) -> None:
    """Black hits White's blot: the hit checker is drawn on the bar before the clock."""
    from games import board_svg, services

    game = games_of(published_round())[0]
    services.clock_start(game=game, user=None)
    services.turn_add(game=game, text="4:5 24/20 13/8", user=None, from_clock=True)
    context, page = watched_page(browser, viewport={"width": 1024, "height": 768}, has_touch=True)
    try:
        page.goto(live_server.url + tablet.path_for(game.pk))
        # White's blot on White's 20 is Black's 5: one checker 13/7/5 with the 2:6 hits it.
        assert checkers_on(page, 20) == 1
        page.tap(".card-btn[data-card='2:6']")
        page.tap("#entry-board .pt[data-b='13'] .hit")
        page.tap("#entry-board .pt[data-b='7'] .hit")
        page.tap("#entry-board .pt[data-b='7'] .hit")
        page.tap("#entry-board .pt[data-b='5'] .hit")
        assert checkers_on(page, 20) == 0 and checkers_on(page, 20, "b") == 1
        bar_white = page.eval_on_selector_all(
            "#entry-board .layer .ck-w",
            "(els, x) => els.filter(e => Number(e.getAttribute('cx')) === x).length",
            board_svg.BAR_X + board_svg.BARW // 2,
        )
        assert bar_white == 1
    finally:
        close(context)
