"""Games in the browser: a turn entered by clicking a card and the checkers; the clock page
with a flag in each phase and a reload in the middle; stepping through a replay."""

from __future__ import annotations

import time
from typing import Any

import pytest

from games.engine.core import PHASE_PLIES
from games.models import Game, Turn
from tests.browser.conftest import click_to, close, csp_violations, organiser_page, wait_for
from tests.games.helpers import reach

pytestmark = pytest.mark.django_db(transaction=True)


def click_opening(page: Any) -> None:
    """White's first turn by clicks on the clock page: 4:5 24/20 13/8."""
    page.click(".card-btn[data-card='4:5']")
    for number in (24, 20, 13, 8):
        point(page, number).click()


def seconds_of(text: str) -> int:
    """``0:01:05`` → 65."""
    hours, minutes, seconds = (int(part) for part in text.strip().split(":"))
    return hours * 3600 + minutes * 60 + seconds


def point(page: Any, white_number: int) -> Any:
    return page.locator(f"#entry-board .pt[data-w='{white_number}'] .hit")


def test_click_a_turn_on_the_board_then_replay_it(live_server: Any, browser: Any) -> None:
    game = Game.objects.create(white_name="Анна", black_name="Boris")
    ctx, page = organiser_page(browser, live_server, f"/games/{game.pk}/sheet/")
    # White plays 4:5 by clicking: 13 → 8 (the 5), then 24 → 20 (the 4).
    page.click(".card-btn[data-card='4:5']")
    assert "src" in point(page, 13).locator("..").get_attribute("class")
    assert "src" not in (point(page, 19).locator("..").get_attribute("class") or "")
    point(page, 13).click()
    assert "dst" in point(page, 9).locator("..").get_attribute("class")
    assert "dst" in point(page, 8).locator("..").get_attribute("class")
    point(page, 8).click()
    point(page, 24).click()
    point(page, 19).click()  # held by Black: not offered, nothing happens
    assert page.input_value("#id_text") == ""
    point(page, 20).click()
    assert page.input_value("#id_text") == "4:5 24/20 13/8"
    click_to(page, "main button[type=submit]:has-text('Enter turn')")
    assert list(game.turns.values_list("text", flat=True)) == ["4:5 24/20 13/8"]
    # An illegal typed turn: the engine's message, the text kept.
    page.fill("#id_text", "4:5 24/20 13/9")
    click_to(page, "main button[type=submit]:has-text('Enter turn')")
    assert "Ply 2 (Black, 4:5)" in page.inner_text(".alert-danger")
    assert page.input_value("#id_text") == "4:5 24/20 13/9"
    assert csp_violations(page) == []

    # The public page steps through the game with buttons and arrow keys.
    Turn.objects.create(game=game, ply=2, text="4:5 24/20 13/8")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    assert "after ply 2 of 2" in page.inner_text("#replay-where")
    page.keyboard.press("ArrowLeft")
    assert "after ply 1 of 2" in page.inner_text("#replay-where")
    assert page.inner_text("[data-f='turn']").endswith("4:5 24/20 13/8")
    page.click("[data-step='first']")
    assert "after ply 0 of 2" in page.inner_text("#replay-where")
    assert page.locator("#replay-board .ck-w").count() == 15
    page.keyboard.press("End")
    assert "after ply 2 of 2" in page.inner_text("#replay-where")
    assert csp_violations(page) == []
    close(ctx)


def test_clock_page_flags_in_each_phase_and_survives_a_reload(
    live_server: Any, browser: Any
) -> None:
    # Phase 1: half a minute a side (White's clicks never race the flag, however busy the
    # machine). White starts, moves by clicks and presses the clock.
    game = Game.objects.create(
        white_name="Анна", black_name="Boris", phase1_seconds=30, phase2_seconds=3
    )
    ctx, page = organiser_page(browser, live_server, f"/games/{game.pk}/clock/")
    page.click("[data-clock-action='start']")
    page.wait_for_selector(".clock-btn.running[data-side='white']")
    click_opening(page)
    page.click(".clock-btn[data-side='white']")
    page.wait_for_selector(".clock-btn.running[data-side='black']")
    # The page shows the press at once and sends it; the server's thread stores it.
    wait_for(lambda: list(game.turns.values_list("text", flat=True)) == ["4:5 24/20 13/8"])
    # The server's clock says Black has 5 seconds left (the page still counts from 30): a
    # reload shows the server's time, not the page's nor a fresh clock.
    Game.objects.filter(pk=game.pk).update(clock_black_ms=5000)
    stored = Game.objects.get(pk=game.pk)
    assert stored.clock_running_since is not None
    since = stored.clock_running_since.timestamp()
    black = ".clock-btn[data-side='black'] [data-time]"
    before = time.time()
    page.reload()
    shown = seconds_of(page.inner_text(black))
    after = time.time()
    # Whatever the machine's speed, the time shown lies between Black's time left when the
    # reload began and when the page was read (a second either side for the rounding).
    most = 5 - (before - since)
    least = 5 - (after - since)
    assert max(0, least - 1) <= shown <= min(5, most + 1), (shown, least, most)
    # Black does not move: the flag falls, Black loses on time (phase 1).
    wait_for(lambda: Game.objects.get(pk=game.pk).termination == "time")
    page.wait_for_selector("[data-result]")
    assert page.inner_text("[data-result]") == "1-0"
    assert csp_violations(page) == []

    # Phase 2: a flag is a draw.
    texts = reach(lambda eg: eg.ply == PHASE_PLIES and eg.outcome is None, seed=11)
    game2 = Game.objects.create(white_name="C", black_name="D", phase1_seconds=60, phase2_seconds=2)
    Turn.objects.bulk_create(Turn(game=game2, ply=i, text=t) for i, t in enumerate(texts, 1))
    page.goto(f"{live_server.url}/games/{game2.pk}/clock/")
    page.click("[data-clock-action='start']")
    page.wait_for_selector(".clock-btn.running")
    wait_for(lambda: Game.objects.get(pk=game2.pk).termination == "time")
    page.wait_for_selector("[data-result]")
    assert page.inner_text("[data-result]") == "½-½"
    close(ctx)


def test_clock_page_keeps_a_turn_sent_while_the_connection_is_down(
    live_server: Any, browser: Any
) -> None:
    game = Game.objects.create(white_name="A", black_name="B", phase1_seconds=600)
    ctx, page = organiser_page(browser, live_server, f"/games/{game.pk}/clock/")
    page.click("[data-clock-action='start']")
    page.wait_for_selector(".clock-btn.running[data-side='white']")
    click_opening(page)
    ctx.set_offline(True)
    page.click(".clock-btn[data-side='white']")
    page.wait_for_selector("#clock-offline:not(.d-none)")
    assert game.turns.count() == 0
    ctx.set_offline(False)  # the page sends the turn again by itself
    page.wait_for_selector(".clock-btn.running[data-side='black']")
    assert list(game.turns.values_list("text", flat=True)) == ["4:5 24/20 13/8"]
    close(ctx)
