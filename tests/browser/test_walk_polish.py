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
