"""Issue 22 in the browser: the venue screen on a TV (1920x1080, and 1280 and 1024 wide) with
no scrollbars in Russian, English and both; the live multiboard at a phone's and a laptop's
size following a tablet's turn; the hall's no-shows tapped (twice); the absent player's
question on a phone."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from championship.models import RESULTS, Absence, Entrant, GameResult, NoShow, Round, RoundStart
from championship.services import ResultEntry, game_result_set
from games import services
from games.demo import create_running_swiss
from registrations import tokens
from registrations.models import Registration
from tests.browser.conftest import (
    close,
    csp_violations,
    mark_document,
    organiser_page,
    same_document,
    screenshot,
    wait_for,
    watched_page,
)
from tests.games.hall_helpers import games_of, published_round

pytestmark = pytest.mark.django_db(transaction=True)

OPENING = "4:5 24/20 13/8"


def scrolls(page: Any) -> tuple[int, int]:
    """How far the page is wider and taller than the window (0, 0: no scrollbars)."""
    return page.evaluate(
        "[document.documentElement.scrollWidth - window.innerWidth,"
        " document.documentElement.scrollHeight - window.innerHeight]"
    )


@pytest.mark.parametrize("language", ["en", "ru", "both"])
@pytest.mark.parametrize(("width", "height"), [(1920, 1080), (1280, 720), (1024, 768)])
def test_the_venue_screen_never_scrolls(
    live_server: Any, browser: Any, width: int, height: int, language: str
) -> None:
    t = create_running_swiss(slug="scr", players=61, rounds=2)  # 30 boards and a bye
    open_board = (
        Round.objects.get(tournament=t, number=2)
        .boards.exclude(black=None)
        .exclude(results__result__in=[value for value, _text in RESULTS])
        .order_by("number")
        .last()
    )
    assert open_board is not None
    game_result_set(  # a forfeit: its word under the result, never cut by the narrow column
        entries=[ResultEntry(board=open_board, number=1, result="1-0", termination="forfeit")],
        user=None,
    )
    for n in range(1, 8):  # rounds 5-7 a day later
        later = timedelta(hours=2 * n - 4, days=1 if n >= 5 else 0)
        RoundStart.objects.create(tournament=t, number=n, starts_at=timezone.now() + later)
    ctx, page = watched_page(browser, viewport={"width": width, "height": height})
    page.goto(f"{live_server.url}/t/scr/screen/?lang={language}")
    slides = page.locator(".slide")
    assert slides.count() == 5  # three of pairings, two of standings
    for i in range(slides.count()):
        page.evaluate(
            "i => document.querySelectorAll('.slide').forEach((s, j) =>"
            " s.classList.toggle('active', i === j))",
            i,
        )
        assert scrolls(page) == [0, 0], f"slide {i + 1} scrolls at {width}x{height}"
        table = page.locator(".slide.active table").bounding_box()
        foot = page.locator(".screen-foot").bounding_box()
        assert table is not None and foot is not None
        assert table["y"] + table["height"] <= foot["y"] + 1, "the table runs under the schedule"
        cut_cells = page.evaluate(
            "Array.from(document.querySelectorAll('.slide.active td.res, .slide.active td.bye"
            " .line, .slide.active td.res .note')).filter(e => e.scrollWidth > e.clientWidth + 1)"
            ".map(e => e.textContent)"
        )
        assert cut_cells == [], f"slide {i + 1} at {width}x{height}"
        if width == 1920 and i in (0, 3):
            screenshot(page, f"/tmp/screen-{language}-{width}-{i}.png")
    assert page.locator("td.bye").count() == 1 and page.locator("td.res .note").count() == 1
    clock = page.locator("#screen-clock").inner_text()
    assert ":" in clock and clock != "--:--"
    # The schedule from the round under way (round 2: its results half in) on, as many rounds
    # as fit: at least three, none cut by the edge; no heading cut or wrapped mid-way.
    sched = page.locator(".sched:not([hidden])")
    assert sched.count() >= 3
    assert "Round 2" in sched.first.inner_text() or "Тур 2" in sched.first.inner_text()
    assert "playing" in (sched.first.get_attribute("class") or "")
    # Each day's date once: a round on the day of the one before it shows its time alone.
    shown = page.evaluate(
        "Array.from(document.querySelectorAll('.sched:not([hidden])')).map(e =>"
        " [e.dataset.date, !!e.querySelector('.sched-day:not([hidden])'), e.innerText])"
    )
    for (before, _day, _text), (date, dated, text) in zip(shown, shown[1:], strict=False):
        assert dated == (date != before), text
        assert re.search(r"\d\d:\d\d", text), text
    if width >= 1280:  # the next day's first round fits there: its day is shown
        assert any(dated for _date, dated, _text in shown[1:])
    cut = page.evaluate(
        "Array.from(document.querySelectorAll('.screen-name .line, th .line, .sched:not([hidden])'))"
        ".filter(e => e.getBoundingClientRect().width > 0 && (e.scrollWidth > e.clientWidth + 1"
        " || e.getBoundingClientRect().right > window.innerWidth)).map(e => e.textContent)"
    )
    assert cut == []
    wrapped = page.evaluate(
        "Array.from(document.querySelectorAll('.slide.active th .line, .screen-name .line'))"
        ".filter(e => e.getBoundingClientRect().height > 1.5 * parseFloat("
        "getComputedStyle(e).lineHeight)).map(e => e.textContent)"
    )
    assert wrapped == []  # a line each: "Доска" above "Board", never "Доска ·" then "Board"
    font = page.evaluate(
        "parseFloat(getComputedStyle(document.querySelector('.screen-table td')).fontSize)"
    )
    assert font >= height * 0.035  # large type: at 1080 px about 39 px
    assert csp_violations(page) == []
    close(ctx)


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 800)])
def test_the_multiboard_follows_a_tablets_turn(
    live_server: Any, browser: Any, width: int, height: int, language: str
) -> None:
    rnd = published_round(players=12)
    games = games_of(rnd)
    for game in games[:4]:
        services.clock_start(game=game, user=None)
    services.turn_add(game=games[0], text=OPENING, user=None, from_clock=True, tablet=True)
    ctx, page = watched_page(
        browser,
        viewport={"width": width, "height": height},
        locale="ru-RU" if language == "ru" else "en-CA",
    )
    page.goto(f"{live_server.url}/lang/{language}/?next=/t/hall-open/round/1/live/")
    cards = page.locator(".mb-card")
    assert cards.count() == 6
    assert scrolls(page)[0] <= 0, f"the multiboard scrolls sideways at {width} px"
    first = page.locator(".mb-card[data-key='1-1']") if games[0].board.number == 1 else None
    card = page.locator(f".mb-card[data-key='{games[0].board.number}-1']")
    clock = card.locator("[data-clock='black']")
    before = clock.inner_text()
    wait_for(lambda: clock.inner_text() != before)  # Black's clock runs on the page
    assert "running" in (clock.get_attribute("class") or "")
    mark_document(page)
    services.turn_add(game=games[0], text=OPENING, user=None, from_clock=True, tablet=True)
    # The page's own poll brings the turn, without a reload (how soon: docs/performance.md,
    # the hall's load test; a time here would measure the machine, not the page).
    wait_for(lambda: card.get_attribute("data-ply") == "2")
    assert same_document(page)
    assert card.locator("g.layer").get_attribute("data-ply") == "2"
    screenshot(page, f"/tmp/multiboard-{width}-{language}.png", full_page=True)
    with page.expect_navigation():
        card.locator("a.stretched-link").click()
    assert f"/games/{games[0].pk}/" in page.url
    assert csp_violations(page) == []
    del first
    close(ctx)


@pytest.mark.parametrize("width", [390, 1280])
def test_the_arbiter_taps_a_no_show_once_and_twice(
    live_server: Any, browser: Any, width: int
) -> None:
    rnd = published_round(players=6)
    games = games_of(rnd)
    services.clock_start(game=games[0], user=None)
    Round.objects.filter(pk=rnd.pk).update(published_at=timezone.now() - timedelta(minutes=20))
    ctx, page = organiser_page(browser, live_server, "/t/hall-open/round/1/hall/")
    page.set_viewport_size({"width": width, "height": 900})
    page.reload()
    proposals = page.locator("#hall-no-shows .no-show")
    assert proposals.count() == 2  # board 1 has started
    board = games[1].board
    row = page.locator(f"#hall-no-shows .no-show[data-board='{board.number}']")
    button = row.locator("button[value='black']")
    with page.expect_navigation():
        button.dblclick()  # a double tap
    wait_for(lambda: NoShow.objects.filter(board=board).exists())
    assert NoShow.objects.count() == 1
    assert GameResult.objects.get(board=board).result == "1-0"
    assert Absence.objects.get().entrant_id == board.black_id
    screenshot(page, f"/tmp/hall-no-shows-{width}.png", full_page=True)
    assert page.locator("#hall-no-shows .no-show").count() == 1
    assert "forfeit is recorded" in page.content()
    assert page.locator("[data-round-progress] [data-p='finished']").inner_text() == "1"
    assert scrolls(page)[0] <= 0
    assert csp_violations(page) == []
    close(ctx)


def test_the_halls_progress_says_the_round_is_over_when_its_last_game_ends(
    live_server: Any, browser: Any
) -> None:
    """The time the round has run stops counting, without a reload, once every game is over."""
    from championship.services import board_no_show_forfeit

    rnd = published_round(players=4)
    # Begun 5 minutes ago: before the no-shows' grace time, so no proposal (whose change
    # reloads the page) comes or goes.
    Round.objects.filter(pk=rnd.pk).update(published_at=timezone.now() - timedelta(minutes=5))
    ctx, page = organiser_page(browser, live_server, f"/t/hall-open/round/{rnd.number}/hall/")
    progress = page.locator("[data-round-progress]")
    assert progress.locator("[data-p='running']").count() == 1
    mark_document(page)
    for board in rnd.boards.exclude(black=None):
        board_no_show_forfeit(board=board, absent="black", user=None)
    wait_for(lambda: progress.locator("[data-p='over']").count() == 1)
    assert same_document(page)
    assert progress.locator("[data-p='running']").count() == 0
    assert progress.locator("[data-p='over']").inner_text() == "round over"
    close(ctx)


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_absent_player_answers_on_a_phone(
    live_server: Any, browser: Any, language: str
) -> None:
    rnd = published_round(players=4)
    board = rnd.boards.exclude(black=None).order_by("number").first()
    reg = Registration.objects.create(
        tournament=rnd.tournament,
        name="Player 1",
        email="p1@example.org",
        phone="+14165550123",
        experience="club",
        language=language,
        consent_at=timezone.now(),
    )
    Entrant.objects.filter(pk=board.white_id).update(registration=reg)
    from championship.services import board_no_show_forfeit

    board_no_show_forfeit(board=board, absent="white", user=None)
    token = tokens.make_token(tokens.MANAGE, reg.pk, reg.email)
    ctx, page = watched_page(browser, viewport={"width": 390, "height": 844}, is_mobile=True)
    page.goto(f"{live_server.url}/player/{token}/absence/?lang={language}")
    assert scrolls(page)[0] <= 0
    screenshot(page, f"/tmp/absence-{language}.png", full_page=True)
    with page.expect_navigation():
        page.click("button[value='continue']")
    wait_for(lambda: Absence.objects.get().status == "continues")
    assert page.locator("button[value='continue']").count() == 0
    # Back on the player's own page, with the answer said to them.
    assert f"/t/{rnd.tournament.slug}/my/" in page.url
    assert page.locator(".site-messages .alert-success").is_visible()
    assert page.evaluate("window.scrollY") == 0  # the message on top, in view
    assert page.locator("#absences [data-absence]").inner_text() == (
        "Тур 1: неявка · вы продолжаете турнир"
        if language == "ru"
        else "Round 1: absent · you continue"
    )
    assert scrolls(page)[0] <= 0
    screenshot(page, f"/tmp/absence-answered-{language}.png", full_page=True)
    page.go_back()
    page.reload()
    assert page.locator("button[value='continue']").count() == 0
    assert csp_violations(page) == []
    close(ctx)
