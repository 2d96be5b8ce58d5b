"""The hall in the browser: a tablet at a board from its QR sheet's link, with no account; the
arbiter's hall view following it; a spectator's game page following it; the clock and the hall
view without sideways scrolling at a phone's, a tablet's and a laptop's size."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from championship.models import Entrant, GameResult, Round, Tournament
from championship.services import round_pair_next
from games import services, tablet
from games.models import Game
from tests.browser.conftest import (
    click_to,
    close,
    csp_violations,
    mark_document,
    organiser_page,
    same_document,
    screenshot,
    settled,
    wait_for,
    watched_page,
)
from tests.games.hall_helpers import games_of, published_round

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = [(390, 844), (1024, 768), (1280, 800)]
OPENING = "4:5 24/20 13/8"


def point(page: Any, white_number: int) -> Any:
    return page.locator(f"#entry-board .pt[data-w='{white_number}'] .hit")


def click_opening(page: Any) -> None:
    page.click(".card-btn[data-card='4:5']")
    for number in (24, 20, 13, 8):
        point(page, number).click()


def overflow(page: Any) -> int:
    """How many pixels the page is wider than the screen (0: no sideways scrolling)."""
    return int(page.evaluate("document.documentElement.scrollWidth - window.innerWidth"))


def test_organiser_publishes_prints_the_qr_sheet_and_a_tablet_plays_to_the_confirmed_result(
    live_server: Any, browser: Any, settings: Any
) -> None:
    settings.SITE_URL = live_server.url  # the QR codes' links name the site (common.links)
    t = Tournament.objects.create(
        name="Hall Open",
        slug="hall-open",
        starts_on=timezone.localdate(),
        ends_on=timezone.localdate(),
        registration_open=False,
    )
    for i in range(4):
        Entrant.objects.create(
            tournament=t, name=f"Player {i + 1}", rating=1500 + i, checked_in=True
        )
    round_pair_next(tournament=t)
    ctx, page = organiser_page(browser, live_server, "/t/hall-open/manage/round/1/")
    click_to(page, "button[value=publish]")
    assert Round.objects.get(tournament=t, number=1).status == "published"
    click_to(page, 'a:has-text("Tablets\' links")')
    click_to(page, "button:has-text('Make the links')")
    assert page.locator("svg.qr").count() == 2
    links = page.locator("a.tablet-link")
    board1 = links.nth(0).get_attribute("href")
    assert board1 is not None and "/tablet/" in board1
    assert csp_violations(page) == []
    page.goto(f"{live_server.url}/t/hall-open/round/1/hall/")
    mark_document(page)
    first = Game.objects.get(board__round__tournament=t, board__number=1)
    second = Game.objects.get(board__round__tournament=t, board__number=2)

    # A tablet opens board 1's link in a fresh browser, with no account.
    tctx, tab = watched_page(browser, viewport={"width": 1024, "height": 768}, has_touch=True)
    tab.goto(board1)
    assert "Board 1" in tab.inner_text("main")
    tab.click("[data-clock-action='start']")
    tab.wait_for_selector(".clock-btn.running[data-side='white']")
    click_opening(tab)
    tab.click(".clock-btn[data-side='white']")
    tab.wait_for_selector(".clock-btn.running[data-side='black']")
    assert list(first.turns.values_list("text", "from_tablet")) == [(OPENING, True)]
    # The arbiter's hall view shows the turn without a reload (how soon: docs/performance.md).
    card = page.locator(f"[data-key='{first.board_id}-1']")
    wait_for(lambda: "ply 1" in card.inner_text())
    assert same_document(page)
    assert "Black to move" in card.inner_text()
    # The clock side card and the big button show the same time.
    big = tab.inner_text(".clock-btn[data-side='black'] [data-clock-of]")
    side = tab.inner_text(".side-card[data-side='black'] [data-clock-of]")
    assert big == side
    # Black resigns (asked first); both players confirm.
    tab.on("dialog", lambda dialog: dialog.accept())
    tab.click("summary")
    click_to(tab, "button[value=resign][data-ask*='Black']")
    assert GameResult.objects.get(board=first.board).result == "1-0"
    click_to(tab, "button[data-confirm-side='white']")
    assert tab.locator("[data-confirmed='white']").count() == 1
    click_to(tab, "button[data-confirm-side='black']")
    assert "The game is over" in tab.inner_text("main")  # finished and confirmed: the link stops
    assert Game.objects.get(pk=first.pk).black_confirmed == "1-0 resign"
    assert csp_violations(tab) == []
    # Board 1's link refuses now; its token does not open board 2 either.
    tab.goto(board1)
    assert "This game is finished" in tab.inner_text("main")
    token = tablet.token_for(first.pk)
    response = tab.goto(f"{live_server.url}/tablet/{second.pk}/{token}/")
    assert response is not None and response.status == 403
    assert "not for this game" in tab.inner_text("main")
    wait_for(lambda: "over" in card.inner_text())
    close(tctx)
    close(ctx)


def test_a_spectator_follows_a_game_with_the_clock_running(live_server: Any, browser: Any) -> None:
    rnd = published_round()
    game = games_of(rnd)[0]
    services.clock_start(game=game, user=None)
    services.turn_add(game=game, text=OPENING, user=None, from_clock=True)
    ctx, page = watched_page(browser, viewport={"width": 390, "height": 844}, is_mobile=True)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    clock = page.locator(".side-card[data-side='black'] [data-clock-of]")
    first = clock.inner_text()
    wait_for(lambda: clock.inner_text() != first)  # Black's clock runs on the page
    services.turn_add(game=game, text=OPENING, user=None, from_clock=True)
    # The page sees the new version and reloads itself (how soon: docs/performance.md).
    wait_for(lambda: settled(lambda: page.locator(".ply-link[data-ply='2']").count()) == 1)
    assert csp_violations(page) == []
    close(ctx)


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_clock_and_the_hall_fit_the_screen(
    live_server: Any, browser: Any, width: int, height: int, language: str
) -> None:
    rnd = published_round(players=8)
    games = games_of(rnd)
    game = games[0]
    Game.objects.filter(pk=game.pk).update(phase1_seconds=36000)  # ten hours: the widest time
    services.clock_start(game=Game.objects.get(pk=game.pk), user=None)
    services.game_terminate(game=games[1], termination="resign", side="white", user=None)
    services.game_dispute(game=games[1], side="black")
    ctx, page = watched_page(
        browser,
        viewport={"width": width, "height": height},
        locale="ru-RU" if language == "ru" else "en-CA",
    )
    page.goto(f"{live_server.url}/lang/{language}/?next=/")
    page.goto(f"{live_server.url}{tablet.path_for(game.pk)}")
    page.wait_for_load_state("networkidle")
    assert overflow(page) <= 0, f"the clock page scrolls sideways at {width} px"
    board = page.locator("#entry-board svg").bounding_box()
    assert board is not None and board["y"] + board["height"] <= height, "the board's bottom row"
    for button in page.locator(".clock-btn").all():
        box = button.bounding_box()
        assert box is not None and box["x"] + box["width"] <= width
        time_box = button.locator(".clock-time").evaluate("e => e.scrollWidth <= e.clientWidth")
        assert time_box, "the time fits its button"
    screenshot(page, f"/tmp/hall-clock-{width}-{language}.png")
    close(ctx)
    ctx, page = organiser_page(browser, live_server, "/t/hall-open/round/1/hall/")
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{live_server.url}/lang/{language}/?next=/t/hall-open/round/1/hall/")
    page.wait_for_load_state("networkidle")
    assert overflow(page) <= 0, f"the hall view scrolls sideways at {width} px"
    assert page.locator(".hall-card").first.get_attribute("data-key") == f"{games[1].board_id}-1"
    screenshot(page, f"/tmp/hall-hall-{width}-{language}.png", full_page=True)
    assert csp_violations(page) == []
    close(ctx)
