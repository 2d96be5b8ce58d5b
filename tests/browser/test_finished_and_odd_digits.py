"""Issue 21 in a browser, at a phone's width (390 px) and a laptop's (1280 px), in English and
Russian: a finished tournament's move sheet, clock and round page offer no control that would
fail and say why (with the way to reopen); reopened, the sheet takes turns again. On a game
being played, a turn or a clock typed with other digits (``²``) is refused with a message,
what was typed stays, and nothing is saved. Screenshots go to /tmp/doors-screens/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import Group, User

from championship import services as championship
from championship.apps import ORGANISERS_GROUP
from championship.models import Tournament
from games import services
from games.demo import create_running_swiss
from games.models import Game
from games.selectors import replay
from tests.browser.conftest import close, csp_violations, screenshot, watched_page

pytestmark = pytest.mark.django_db(transaction=True)

SCREENS = Path("/tmp/doors-screens")
SIZES = [(390, 844), (1280, 900)]
NOTICE = {
    "en": "The tournament is finished",
    "ru": "Турнир завершён",
}


def login(browser: Any, live_server: Any, width: int, height: int, lang: str) -> tuple[Any, Any]:
    ctx, page = watched_page(
        browser, viewport={"width": width, "height": height}, is_mobile=width < 500
    )
    page.goto(f"{live_server.url}/accounts/login/?next=/games/")
    page.fill("#id_username", "org")
    page.fill("#id_password", "pw-organiser-123")
    page.click("main button[type=submit]")
    page.wait_for_url(f"{live_server.url}/games/")
    page.goto(f"{live_server.url}/lang/{lang}/?next=/games/")  # the language switch
    return ctx, page


def overflow(page: Any) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth - window.innerWidth"))


@pytest.fixture
def world() -> dict[str, Any]:
    t = create_running_swiss(slug="fin", players=6, rounds=1, unfinished_last=False)
    game = Game.objects.filter(board__round__tournament=t).order_by("board__number").first()
    assert game is not None
    playing = create_running_swiss(slug="live", players=4, rounds=2, unfinished_last=True)
    open_game = next(
        g
        for g in Game.objects.filter(board__round__tournament=playing).order_by("pk")
        if replay(g).outcome is None
    )
    championship.tournament_finish(tournament=t)
    user = User.objects.create_user("org", password="pw-organiser-123")
    user.groups.add(Group.objects.get(name=ORGANISERS_GROUP))
    return {"t": t, "game": game, "open": open_game}


def test_a_finished_tournaments_pages_offer_nothing_that_fails(
    live_server: Any, browser: Any, world: dict[str, Any]
) -> None:
    game = world["game"]
    for lang in ("en", "ru"):
        for width, height in SIZES:
            ctx, page = login(browser, live_server, width, height, lang)
            for name, url in (
                ("sheet", f"/games/{game.pk}/sheet/"),
                ("clock", f"/games/{game.pk}/clock/"),
                ("round", "/t/fin/manage/round/1/"),
            ):
                page.goto(f"{live_server.url}{url}")
                notice = page.locator("#frozen")
                assert notice.is_visible(), (name, lang, width)
                assert NOTICE[lang] in notice.inner_text()
                assert overflow(page) <= 0, (name, lang, width)
                screenshot(page, str(SCREENS / f"finished-{name}-{lang}-{width}.png"))
                if name == "sheet":
                    for control in ("#turn-form", "button[value=undo]", "#end-form", "#id_record"):
                        assert page.locator(control).count() == 0, control
                elif name == "clock":
                    assert page.locator(".clock-btn:enabled").count() == 0
                    assert page.locator("[data-clock-action]").count() == 0
                else:
                    assert page.locator("fieldset[disabled]").count() == 1
                    assert page.locator("select:enabled").count() == 0
                    assert page.locator("button:has-text('Save results'):enabled").count() == 0
                    # The filter still works on a finished round.
                    assert page.locator("[data-filter-text]").is_enabled()
            assert page.console_errors == [] and csp_violations(page) == []
            close(ctx)
    # Reopened: the sheet offers its controls again.
    championship.tournament_reopen(tournament=Tournament.objects.get(slug="fin"))
    ctx, page = login(browser, live_server, 1280, 900, "en")
    page.goto(f"{live_server.url}/games/{game.pk}/sheet/")
    assert page.locator("#frozen").count() == 0
    assert page.locator("button[value=undo]").count() == 1
    close(ctx)


def test_other_digits_typed_on_the_sheet_are_refused_and_kept(
    live_server: Any, browser: Any, world: dict[str, Any]
) -> None:
    game = world["open"]
    turns = game.turns.count()
    for lang in ("en", "ru"):
        for width, height in SIZES:
            ctx, page = login(browser, live_server, width, height, lang)
            page.goto(f"{live_server.url}/games/{game.pk}/sheet/")
            page.fill("#id_text", "²:5 24/20 13/8")
            page.click("#turn-form button[type=submit]")
            page.wait_for_selector(".alert-danger, .alert-error, [role=alert]")
            assert page.input_value("#id_text") == "²:5 24/20 13/8"  # what was typed stays
            screenshot(page, str(SCREENS / f"odd-card-{lang}-{width}.png"))
            # A clock of other digits: refused, kept.
            state = replay(game).state
            from games.engine import legal_plays, playable_cards

            legal = legal_plays(state, playable_cards(state)[0])[0].text
            page.fill("#id_text", legal)
            page.fill("#id_clock", "0:²²:00")
            page.click("#turn-form button[type=submit]")
            page.wait_for_selector("[role=alert]")
            assert "h:mm:ss" in page.inner_text("main") or "ч:мм:сс" in page.inner_text("main")
            assert page.input_value("#id_clock") == "0:²²:00"
            assert overflow(page) <= 0
            screenshot(page, str(SCREENS / f"odd-clock-{lang}-{width}.png"))
            assert Game.objects.get(pk=game.pk).turns.count() == turns  # nothing saved
            close(ctx)
    assert services.frozen(game) is False
