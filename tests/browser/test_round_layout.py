"""Issue 11 point 10: the round page (its results table and its draft) and the dashboard's
pairing controls at a phone's width (390 px) and a laptop's (1280 px), in English and Russian:
nothing scrolls sideways, every control is on the screen and no select cuts its choices short.
Screenshots are saved under /tmp/round-screens/ for a person to look at."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import Group, User

from championship import services
from championship.apps import ORGANISERS_GROUP
from championship.models import GameResult, Round
from games.demo import create_running_swiss
from tests.browser.conftest import close, csp_violations, screenshot, watched_page

pytestmark = pytest.mark.django_db(transaction=True)

SCREENS = Path("/tmp/round-screens")
LONG_NAMES = [
    "Александра Константиновна Преображенская-Рождественская",
    "Maximilian Alexander Montgomery-Worthington III",
]


def populate() -> dict[str, str]:
    t = create_running_swiss(slug="sw", players=12, rounds=2, unfinished_last=False)
    for entrant, name in zip(t.entrants.order_by("starting_number"), LONG_NAMES, strict=False):
        entrant.name = name
        entrant.save(update_fields=["name"])
    t.two_person_confirmation = True
    t.save(update_fields=["two_person_confirmation"])
    GameResult.objects.filter(board__round__number=2, board__number__in=[1, 3]).update(
        confirmed=False
    )
    services.round_pair_next(tournament=t, unconfirmed_ok=True)  # round 3, a draft
    assert Round.objects.get(tournament=t, number=3).status == "draft"
    user = User.objects.create_user("org", password="pw-organiser-123")
    user.groups.add(Group.objects.get(name=ORGANISERS_GROUP))
    return {
        "results": "/t/sw/manage/round/2/",
        "draft": "/t/sw/manage/round/3/",
        "dashboard": "/t/sw/manage/",
    }


#: For every visible control (``selector``) of the page: is it inside the screen, and is a
#: select wide enough for its longest choice (measured in the select's own font)?
CONTROLS = """(selector) => {
  const canvas = document.createElement('canvas').getContext('2d');
  const out = [];
  for (const el of document.querySelectorAll(selector)) {
    const box = el.getBoundingClientRect();
    if (!box.width || !box.height) continue;  // hidden (filtered rows, collapsed parts)
    let short = 0;
    if (el.tagName === 'SELECT') {
      const style = getComputedStyle(el);
      canvas.font = style.font;
      const widest = Math.max(...Array.from(el.options).map(o => canvas.measureText(o.text).width));
      const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      short = Math.max(0, Math.ceil(widest - room));
    }
    out.push({name: el.name || el.textContent.trim().slice(0, 30), left: box.left, right: box.right, short});
  }
  return out;
}"""


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize("width", [390, 1280])
def test_round_page_and_pairing_controls_fit_the_screen(
    live_server: Any, browser: Any, width: int, language: str
) -> None:
    urls = populate()
    phone = width < 500
    context, page = watched_page(
        browser,
        viewport={"width": width, "height": 844 if phone else 900},
        is_mobile=phone,
        has_touch=phone,
    )
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    try:
        page.goto(f"{live_server.url}/accounts/login/?next={urls['dashboard']}")
        page.fill("#id_username", "org")
        page.fill("#id_password", "pw-organiser-123")
        page.click("main button[type=submit]")
        page.wait_for_url(f"{live_server.url}{urls['dashboard']}")
        for name, url in urls.items():
            page.goto(live_server.url + url)
            screenshot(page, str(SCREENS / f"{name}-{language}-{width}.png"), full_page=True)
            size = page.evaluate(
                "({scroll: document.documentElement.scrollWidth, inner: window.innerWidth})"
            )
            assert size["scroll"] <= size["inner"], (name, size)
            # The round page whole; of the dashboard, its pairing controls (the rounds and
            # "Pair the next round").
            selector = (
                "main form[action$='/manage/pair/'] button, main a[href*='/manage/round/']"
                if name == "dashboard"
                else "main select, main button, main input:not([type=hidden]), main a.btn"
            )
            controls = page.evaluate(CONTROLS, selector)
            assert controls, name
            off = [c for c in controls if c["left"] < 0 or c["right"] > width + 0.5]
            assert not off, (name, off[:5])
            cut = [c for c in controls if c["short"] > 0]
            assert not cut, (name, cut[:5])
            if name == "results":
                assert page.locator("[data-provisional]").count() == 2
                assert page.locator("[data-result]").count() == 6
        # The delete question of the draft fits too.
        page.goto(live_server.url + urls["draft"])
        with page.expect_navigation():
            page.click("button[value=delete]")
        assert page.is_visible("#confirm-delete")
        screenshot(page, str(SCREENS / f"delete-{language}-{width}.png"), full_page=True)
        size = page.evaluate(
            "({scroll: document.documentElement.scrollWidth, inner: window.innerWidth})"
        )
        assert size["scroll"] <= size["inner"]
        assert csp_violations(page) == []
    finally:
        close(context)
