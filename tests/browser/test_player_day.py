"""A tournament day from a player's phone: the player opens their own page from the link of
their e-mail, checks themselves in while the window is open, and — without touching the
phone — sees their board, colour and opponent appear when the round is published, then the
result (the page updates in place: no reload). The page, the public schedule and the
organisers' schedule page fit a phone (390 px), a tablet (1024 px) and a laptop (1280 px) in
English and Russian. Screenshots under /tmp/day-screens/ for a person to look at."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from championship import services
from championship.models import Board, Entrant, Tournament
from tests.browser.conftest import close, csp_violations, organiser_page, screenshot, watched_page
from tests.championship.day import field, page_url, register
from tests.championship.results import enter

pytestmark = pytest.mark.django_db(transaction=True)

SCREENS = Path("/tmp/day-screens")
SIZES = [(390, 844), (1024, 768), (1280, 800)]


def overflow(page: Any) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth - window.innerWidth"))


def today_tournament(slug: str = "today") -> Tournament:
    """Round 1 in 40 minutes: the players' check-in (an hour before, until 15 minutes before)
    is open now, on the real clocks of the server and the browser."""
    now = timezone.now()
    t = Tournament.objects.create(
        name="Toronto Spring Open",
        name_ru="Весенний турнир Торонто",
        slug=slug,
        venue="North York Civic Centre",
        starts_on=timezone.localdate(),
        ends_on=timezone.localdate() + timedelta(days=1),
        rounds=4,
    )
    start = (now + timedelta(minutes=40)).replace(second=0, microsecond=0)
    services.round_starts_set(
        tournament=t, starts={n: start + timedelta(minutes=150 * (n - 1)) for n in range(1, 5)}
    )
    return t


def test_a_player_checks_in_from_the_phone_and_the_board_appears_without_a_reload(
    live_server: Any, browser: Any, settings: Any
) -> None:
    settings.LIVE_POLL_SECONDS = 1
    t = today_tournament()
    field(t, 3)  # three players the organisers checked in at the desk
    olga = register(t, "Olga Smirnova", language="en")
    ctx, phone = watched_page(
        browser, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    phone.goto(f"{live_server.url}{page_url(olga)}?lang=en")
    assert "Olga Smirnova" in phone.inner_text("#my-status")
    phone.wait_for_selector("#schedule [data-countdown]:not([hidden])")
    assert "Round 1 starts in" in phone.inner_text("#schedule [data-countdown]")
    with phone.expect_navigation():
        phone.click("button[value=check_in]")
    assert "You are checked in. See you at the board!" in phone.inner_text("main")
    assert "You checked in at" in phone.inner_text("#my-check-in")
    entrant = Entrant.objects.get(registration=olga)
    assert entrant.checked_in_by == "player"
    screenshot(phone, str(SCREENS / "player-checked-in-390-en.png"), full_page=True)

    # The phone lies on the table; the organisers pair and publish round 1.
    phone.evaluate("window.__still_the_same_page = true")
    rnd = services.round_pair_next(tournament=t)
    services.round_publish(round=rnd)
    phone.wait_for_selector("#my-board .board-number")
    assert phone.evaluate("window.__still_the_same_page === true")  # swapped in place
    board = Board.objects.filter(round=rnd).filter(white=entrant).first() or Board.objects.get(
        round=rnd, black=entrant
    )
    text = phone.inner_text("#my-board")
    assert f"Board {board.number}" in text
    opponent = board.black if board.white_id == entrant.pk else board.white
    assert opponent is not None and opponent.name in text
    assert ("White" if board.white_id == entrant.pk else "Black") in text
    screenshot(phone, str(SCREENS / "player-board-390-en.png"), full_page=True)

    # The result goes in: the page shows it, still without a reload.
    enter(board, "1-0", "resign")
    expect(phone.locator("#my-board")).to_contain_text("Result:")
    assert phone.evaluate("window.__still_the_same_page === true")
    assert "Rank " in phone.inner_text("#my-results")
    assert overflow(phone) == 0
    assert csp_violations(phone) == []
    close(ctx)


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_day_s_pages_fit_every_screen_in_both_languages(
    live_server: Any, browser: Any, language: str
) -> None:
    t = today_tournament()
    regs = field(t, 5, walk_ins=1)
    waiting = register(t, "Александра Константиновна Преображенская-Рождественская")
    services.round_publish(round=services.round_pair_next(tournament=t))
    rnd = t.round_set.get(number=1)
    for b in rnd.boards.exclude(black=None)[:1]:
        enter(b, "1-0", "home")
    pages = {
        "player": page_url(regs[0]),
        "player-late": page_url(waiting),
        "overview": f"/t/{t.slug}/",
        "tournament": f"/tournaments/{t.slug}/",
    }
    for width, height in SIZES:
        ctx, page = watched_page(browser, viewport={"width": width, "height": height})
        for name, path in pages.items():
            page.goto(f"{live_server.url}{path}?lang={language}")
            page.wait_for_selector("#schedule")
            assert overflow(page) == 0, (name, width, language)
            screenshot(page, str(SCREENS / f"{name}-{width}-{language}.png"), full_page=True)
        body = page.inner_text("main")
        assert ("Schedule" if language == "en" else "Расписание") in body
        assert csp_violations(page) == []
        close(ctx)
    # A player who came after the cut-off is told why on the phone.
    ctx, page = watched_page(browser, viewport={"width": 390, "height": 844}, is_mobile=True)
    page.goto(f"{live_server.url}{page_url(waiting)}?lang={language}")
    refusal = page.inner_text("#check-in-refusal")
    assert ("arbiter" in refusal) if language == "en" else ("судье" in refusal)
    close(ctx)
    # The organisers' schedule page, too.
    ctx, org = organiser_page(browser, live_server, f"/t/{t.slug}/manage/schedule/")
    org.goto(f"{live_server.url}/lang/{language}/?next=/t/{t.slug}/manage/schedule/")
    for width, height in SIZES:
        org.set_viewport_size({"width": width, "height": height})
        org.goto(f"{live_server.url}/t/{t.slug}/manage/schedule/")
        heading = org.inner_text("h1")
        assert ("schedule" if language == "en" else "расписание") in heading
        assert overflow(org) == 0, ("schedule", width, language)
        screenshot(org, str(SCREENS / f"organiser-schedule-{width}-{language}.png"), full_page=True)
    close(ctx)
