"""The public pages of a tournament and the game viewer in a real browser (issue 14): at a
phone's size (390×844), a small laptop's (1024×768) and a laptop's (1280×800), in English and
Russian, no page is wider than the screen; on a phone the tab bar wraps, the current tab is
marked, and the standings' and crosstable's rank, name and points stay in view while the other
columns scroll. The viewer's panels follow the ply, ``#ply-N`` moves it, and the board flips to
Black's view. Finished standings print on one A4 page per 40 players. Screenshots are saved
under /tmp/public-screens/ for a person to look at."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from championship import services
from championship.models import Entrant, GameResult, Tournament
from games.demo import create_running_swiss
from games.models import Game
from tests.browser.conftest import (
    close,
    csp_violations,
    keep,
    next_frame,
    screenshot,
    watched_page,
)

pytestmark = pytest.mark.django_db(transaction=True)

SCREENS = Path("/tmp/public-screens")
SIZES = [(390, 844), (1024, 768), (1280, 800)]


def populate() -> dict[str, str]:
    t = create_running_swiss(slug="wide", players=15, rounds=3, unfinished_last=True)
    first, second = t.entrants.order_by("starting_number")[:2]
    Entrant.objects.filter(pk=first.pk).update(
        name="Александра Константиновна Преображенская-Рождественская"
    )
    Entrant.objects.filter(pk=second.pk).update(withdrawn_after=2)
    Tournament.objects.filter(pk=t.pk).update(two_person_confirmation=True)
    played = GameResult.objects.filter(board__round__tournament=t, board__round__number=3)
    GameResult.objects.filter(pk=played.exclude(result="").first().pk).update(confirmed=False)
    services.tournament_changed(t.pk)
    game = Game.objects.filter(board__round__tournament=t).exclude(turns=None).first()
    base = "/t/wide/"
    return {
        "overview": base,
        "players": base + "players/",
        "player": base + f"players/{first.pk}/",
        "pairings": base + "pairings/3/",
        "standings": base + "standings/",
        "crosstable": base + "crosstable/",
        "game": f"/games/{game.pk}/",
    }


def page_for(browser: Any, live_server: Any, width: int, height: int, language: str) -> Any:
    phone = width < 500
    context, page = watched_page(
        browser, viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone
    )
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    return context, page


def overflow(page: Any) -> dict[str, int]:
    return page.evaluate(
        "({scroll: document.documentElement.scrollWidth, inner: window.innerWidth})"
    )


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize(("width", "height"), SIZES)
def test_public_pages_fit_the_screen(
    live_server: Any, browser: Any, width: int, height: int, language: str
) -> None:
    urls = populate()
    context, page = page_for(browser, live_server, width, height, language)
    try:
        for name, url in urls.items():
            page.goto(live_server.url + url)
            screenshot(page, str(SCREENS / f"{name}-{language}-{width}.png"), full_page=True)
            size = overflow(page)
            assert size["scroll"] <= size["inner"], (name, size)
            if name == "game":
                continue
            # Every tab is on the screen (the bar wraps), the current one marked.
            rights = page.eval_on_selector_all(
                ".tournament-nav .nav-link", "els => els.map(e => e.getBoundingClientRect().right)"
            )
            assert rights and max(rights) <= width, (name, rights)
            tab = {"player": "players"}.get(name, name)
            current = page.eval_on_selector_all(
                ".tournament-nav [aria-current=page]", "els => els.map(e => e.href)"
            )
            assert len(current) == 1, (name, current)
            if tab != "overview":
                assert f"/{tab}/" in current[0], (name, current)
        assert csp_violations(page) == []
    finally:
        close(context)


@pytest.mark.parametrize("name", ["standings", "crosstable"])
def test_on_a_phone_name_and_points_stay_while_the_columns_scroll(
    live_server: Any, browser: Any, name: str
) -> None:
    urls = populate()
    context, page = page_for(browser, live_server, 390, 844, "ru")
    try:
        page.goto(live_server.url + urls[name])
        box = page.locator(".table-scroll").first
        scrollable = box.evaluate("e => e.scrollWidth - e.clientWidth")
        assert scrollable > 0  # more columns than the phone shows
        before = page.eval_on_selector("tbody tr td.c-pts", "e => e.getBoundingClientRect().left")
        box.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
        next_frame(page)
        screenshot(page, str(SCREENS / f"{name}-scrolled-ru-390.png"))
        for cell in ("td.c-rank", "td.c-name", "td.c-pts"):
            rect = page.eval_on_selector(
                f"tbody tr {cell}",
                "e => { const r = e.getBoundingClientRect(); return [r.left, r.right]; }",
            )
            assert rect[0] >= 0 and rect[1] <= 390, (cell, rect)
        after = page.eval_on_selector("tbody tr td.c-pts", "e => e.getBoundingClientRect().left")
        assert abs(after - before) <= 1, (before, after)
        # The name on top of the scrolled columns is the one clicked (it links to the player).
        page.click("tbody tr td.c-name a")
        page.wait_for_url(re.compile(r".*/players/\d+/$"))
    finally:
        close(context)


def test_the_viewer_follows_the_ply_the_address_and_flips(live_server: Any, browser: Any) -> None:
    urls = populate()
    context, page = page_for(browser, live_server, 390, 844, "en")
    try:
        page.goto(live_server.url + urls["game"])
        white = page.locator(".replay-sides [data-side=white]")
        at_end = white.inner_text()
        where = page.inner_text("#replay-where")
        total = int(re.search(r"of (\d+)", where).group(1))
        page.click("[data-step=first]")
        at_start = white.inner_text()
        assert at_start != at_end
        # At the start every card is in hand (two of each) and 5 checkers home (the rules).
        assert "home 5/15" in at_start and at_start.count("×2") == 9
        page.click("[data-step=next]")
        assert page.url.endswith("#ply-1")
        assert white.inner_text() != at_start  # White played a card
        # A new #ply-N on the open page moves the viewer.
        page.evaluate(f"location.hash = '#ply-{total - 1}'")
        page.wait_for_function(
            f"document.getElementById('replay-where').textContent.includes('{total - 1} of')"
        )
        page.evaluate("location.hash = '#ply-0'")
        page.wait_for_function(
            "document.getElementById('replay-where').textContent.includes('0 of')"
        )
        assert white.inner_text() == at_start
        # Icons are drawn, not glyphs of a font.
        assert page.locator("[data-step] svg.icon").count() == 4
        # Black's view: the board mirrored, the point numbers upright; remembered.
        labels = page.locator("#replay-board text.lbl")
        top_before = labels.first.bounding_box()["y"]
        page.click("#replay-flip")
        assert page.get_attribute("#replay-flip", "aria-pressed") == "true"
        assert page.get_attribute("#replay-board .board-body", "transform")
        assert abs(labels.first.bounding_box()["y"] - top_before) > 100
        screenshot(page, str(SCREENS / "game-flipped-en-390.png"), full_page=True)
        page.reload()
        assert page.get_attribute("#replay-flip", "aria-pressed") == "true"
        page.click("#replay-flip")
        assert page.get_attribute("#replay-board .board-body", "transform") is None
        # The point numbers are inside the drawing (not clipped) and dark on the page.
        view = page.eval_on_selector("#replay-board svg", "e => e.getBoundingClientRect()")
        for box in (labels.first.bounding_box(), labels.last.bounding_box()):
            assert view["y"] <= box["y"] and box["y"] + box["height"] <= view["y"] + view["height"]
        colour = page.eval_on_selector("#replay-board text.lbl", "e => getComputedStyle(e).fill")
        assert colour in ("rgb(33, 37, 41)",), colour
        assert csp_violations(page) == []
    finally:
        close(context)


def test_final_standings_print_on_one_a4_page_per_40_players(
    live_server: Any, browser: Any
) -> None:
    t = create_running_swiss(slug="final", players=40, rounds=2, unfinished_last=False)
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.FINISHED)
    services.tournament_changed(t.pk)
    context, page = page_for(browser, live_server, 1280, 800, "ru")
    try:
        page.goto(live_server.url + "/t/final/standings/")
        assert "Итоговая таблица" in page.inner_text("main")
        pdf = page.pdf(format="A4", print_background=False)
        keep(str(SCREENS / "final-standings.pdf"), pdf)
        pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
        assert pages == 1, pages
    finally:
        close(context)
    t = create_running_swiss(slug="final80", players=80, rounds=2, unfinished_last=False)
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.FINISHED)
    services.tournament_changed(t.pk)
    context, page = page_for(browser, live_server, 1280, 800, "en")
    try:
        page.goto(live_server.url + "/t/final80/standings/")
        pdf = page.pdf(format="A4", print_background=False)
        keep(str(SCREENS / "final-standings-80.pdf"), pdf)
        assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 2
    finally:
        close(context)
