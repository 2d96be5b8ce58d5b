"""Small faults of the tournament day's walk on phones (the walker's shots 21, 48, 62a…),
each kept from coming back: the organiser's schedule headings, the tablet without the site's
menu, the game page's hint and buttons on a phone."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import close, organiser_page
from tests.championship.day import timetable, weekend

pytestmark = pytest.mark.django_db(transaction=True)

#: The headings and the first row of the schedule's times: where each column starts, and
#: where the text of the first heading ends.
COLUMNS = """() => {
  const heads = document.querySelector('.schedule-rows > div').children;
  const row = document.querySelector('.schedule-row').children;
  const text = document.createRange();
  text.selectNodeContents(heads[0]);
  const left = e => Math.round(e.getBoundingClientRect().left);
  return {
    roundEnds: text.getBoundingClientRect().right,
    heads: [...heads].map(left),
    row: [...row].map(left),
    width: document.documentElement.scrollWidth,
  };
}"""


def test_the_schedule_s_headings_stand_over_their_columns(live_server: Any, browser: Any) -> None:
    """The headings read "RoundDay" on a laptop: "Round" wider than its column. Each heading
    stands over its column, at a phone's width and a laptop's, in both languages."""
    t = weekend()
    timetable(t)
    path = f"/t/{t.slug}/manage/schedule/"
    ctx, page = organiser_page(browser, live_server, path)
    for width in (390, 1280):
        page.set_viewport_size({"width": width, "height": 900})
        for language in ("en", "ru"):
            page.goto(f"{live_server.url}/lang/{language}/?next={path}")
            found = page.evaluate(COLUMNS)
            assert found["roundEnds"] <= found["heads"][1] - 4, (width, language, found)
            assert found["heads"] == found["row"], (width, language, found)
            assert found["width"] <= width, (width, language, found)
    close(ctx)


def test_the_game_page_hints_at_keys_only_where_there_is_a_keyboard(
    live_server: Any, browser: Any
) -> None:
    """A phone read "Arrow keys ← → step through the turns": the hint shows where a keyboard
    is likely (a fine pointer that hovers), and a phone steps through the game with the
    page's buttons, large enough for a finger."""
    from games.models import Game, Turn
    from tests.browser.conftest import watched_page

    game = Game.objects.create(white_name="Анна", black_name="Boris")
    Turn.objects.create(game=game, ply=1, text="4:5 24/20 13/8")
    Turn.objects.create(game=game, ply=2, text="4:5 24/20 13/8")
    url = f"{live_server.url}/games/{game.pk}/"
    hint = ".keyboard-hint"
    ctx, phone = watched_page(
        browser, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    for language in ("en", "ru"):
        phone.goto(f"{live_server.url}/lang/{language}/?next=/games/{game.pk}/")
        assert phone.locator(hint).count() == 1 and not phone.locator(hint).is_visible()
        for step in ("first", "prev", "next", "last"):
            box = phone.locator(f"[data-step='{step}']").bounding_box()
            assert box is not None and box["height"] >= 44 and box["width"] >= 44, step
            assert box["x"] + box["width"] <= 390, step
    phone.goto(f"{live_server.url}/lang/en/?next=/games/{game.pk}/")
    assert "after ply 2 of 2" in phone.inner_text("#replay-where")
    phone.tap("[data-step='prev']")
    assert "after ply 1 of 2" in phone.inner_text("#replay-where")
    phone.tap("[data-step='first']")
    assert "after ply 0 of 2" in phone.inner_text("#replay-where")
    phone.tap("[data-step='next']")
    assert "after ply 1 of 2" in phone.inner_text("#replay-where")
    close(ctx)
    ctx, desk = watched_page(browser, viewport={"width": 1280, "height": 800})
    desk.goto(url)
    assert desk.locator(hint).is_visible()
    assert "Arrow keys" in desk.inner_text(hint)
    desk.keyboard.press("Home")
    assert "after ply 0 of 2" in desk.inner_text("#replay-where")
    close(ctx)
