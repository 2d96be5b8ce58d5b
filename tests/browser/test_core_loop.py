"""Issue 21 point 13: the organiser's core loop — pair a round, publish it, enter six
results — counted in clicks in a real browser, on a laptop and on a phone: at most 12 (it took
23 clicks and 6 keys: pairing left the organiser on the dashboard, a result took a list and a
key, its termination another list). Then the round page offers the next round, and after the
last round the finish; every tab of the organisers' row is on the screen."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.utils import timezone

from championship.apps import ORGANISERS_GROUP
from championship.models import Entrant, GameResult, Round, Tournament
from tests.browser.conftest import close, csp_violations, watched_page

pytestmark = pytest.mark.django_db(transaction=True)

MOST_CLICKS = 12


class Counted:
    """A page whose clicks and key presses are counted as a person would make them."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.clicks = 0
        self.keys = 0

    def click(self, selector: str, *, navigates: bool = False) -> None:
        self.clicks += 1
        if navigates:
            with self.page.expect_navigation():
                self.page.click(selector)
        else:
            self.page.click(selector)


def world(rounds: int = 3) -> Tournament:
    today = timezone.localdate()
    t = Tournament.objects.create(
        name="Loop Open",
        name_ru="Турнир петли",
        slug="loop",
        starts_on=today,
        ends_on=today,
        registration_open=False,
        rounds=rounds,
    )
    for i in range(12):
        Entrant.objects.create(
            tournament=t, name=f"Player {i + 1}", rating=2000 - i, checked_in=True
        )
    user = User.objects.create_user("org", password="pw-organiser-123")
    user.groups.add(Group.objects.get(name=ORGANISERS_GROUP))
    return t


def login(browser: Any, live_server: Any, width: int) -> tuple[Any, Any]:
    phone = width < 500
    context, page = watched_page(
        browser,
        viewport={"width": width, "height": 844 if phone else 900},
        is_mobile=phone,
        has_touch=phone,
    )
    page.goto(f"{live_server.url}/accounts/login/?next=/t/loop/manage/")
    page.fill("#id_username", "org")
    page.fill("#id_password", "pw-organiser-123")
    with page.expect_navigation():
        page.click("main button[type=submit]")
    return context, page


def core_loop(page: Counted, live_server: Any, number: int, pair: str) -> None:
    """Pair round ``number`` (with the button ``pair``), publish it, White wins every game."""
    page.click(pair, navigates=True)
    page.page.wait_for_url(f"{live_server.url}/t/loop/manage/round/{number}/")
    page.click("button[value=publish]", navigates=True)
    games = GameResult.objects.filter(
        board__round__tournament__slug="loop", board__round__number=number
    )
    assert games.count() == 6
    for game in games:
        page.click(f"label[for='result-{game.pk}-1']")  # 1-0: the usual termination proposed
        assert page.page.input_value(f"select[name=termination-{game.pk}]") == "home"
    page.click("main button[type=submit]:has-text('Save results')", navigates=True)


@pytest.mark.parametrize("width", [390, 1280])
def test_pair_publish_and_six_results_in_at_most_12_clicks(
    live_server: Any, browser: Any, width: int
) -> None:
    t = world(rounds=2)
    context, page = login(browser, live_server, width)
    try:
        counted = Counted(page)
        core_loop(counted, live_server, 1, "main button:has-text('Pair the next round')")
        assert (counted.clicks, counted.keys) == (9, 0), (counted.clicks, counted.keys)
        assert counted.clicks <= MOST_CLICKS
        results = GameResult.objects.filter(board__round__tournament=t, board__round__number=1)
        assert {(g.result, g.termination) for g in results} == {("1-0", "home")}
        assert "6 results saved" in page.inner_text("main")
        # The round page goes on to the next round: the same loop from here.
        counted = Counted(page)
        core_loop(counted, live_server, 2, "#next-step button:has-text('Pair round 2')")
        assert counted.clicks <= MOST_CLICKS
        # After the last round, every result in: the page says the tournament can be finished.
        assert page.is_visible("#next-step a[href='/t/loop/manage/finish/']")
        page.goto(f"{live_server.url}/t/loop/manage/")
        assert page.is_visible("#next-step a[href='/t/loop/manage/finish/']")
        assert page.locator("button:has-text('Pair the next round')").count() == 0
        assert Round.objects.filter(tournament=t).count() == 2
        assert csp_violations(page) == []
    finally:
        close(context)


ORGANISER_PAGES = [
    "/t/loop/manage/",
    "/t/loop/manage/round/1/",
    "/t/loop/round/1/hall/",
    "/t/loop/round/1/tablets/",
    "/t/loop/round/1/sheets/",
    "/t/loop/manage/entrants/",
    "/t/loop/manage/byes/",
    "/t/loop/manage/forbidden-pairs/",
    "/t/loop/manage/settings/",
    "/t/loop/manage/finish/",
]


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("width", [390, 1024, 1280])
def test_every_organiser_page_of_a_tournament_has_the_whole_tab_row(
    live_server: Any, browser: Any, width: int, language: str
) -> None:
    from championship.services import round_pair_next, round_publish

    t = world()
    round_publish(round=round_pair_next(tournament=t))
    context, page = login(browser, live_server, width)
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    try:
        for url in ORGANISER_PAGES:
            page.goto(live_server.url + url)
            tabs = page.eval_on_selector_all(
                ".manage-nav .nav-link",
                "els => els.map(e => { const r = e.getBoundingClientRect();"
                " return [e.getAttribute('href'), r.left, r.right, r.width]; })",
            )
            hrefs = [href for href, *_ in tabs]
            for wanted in (
                "/t/loop/manage/",
                "/t/loop/manage/round/1/",
                "/t/loop/round/1/hall/",
                "/t/loop/manage/entrants/",
                "/t/loop/manage/finish/",
            ):
                assert wanted in hrefs, (url, wanted, hrefs)
            clipped = [tab for tab in tabs if tab[1] < 0 or tab[2] > width or tab[3] == 0]
            assert not clipped, (url, clipped)  # Finish and every other tab in view
            assert page.evaluate("document.documentElement.scrollWidth") <= width, url
    finally:
        close(context)
