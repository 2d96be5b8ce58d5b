"""An organiser pairs round 1, enters results, publishes round 2; a spectator sees the
standings change without reloading."""

from __future__ import annotations

from typing import Any

import pytest

from championship.models import Board, Entrant, GameResult, Round, Tournament
from tests.browser.conftest import (
    click_to,
    close,
    csp_violations,
    organiser_page,
    settled,
    wait_for,
    watched_page,
)

pytestmark = pytest.mark.django_db(transaction=True)


def test_organiser_runs_rounds_and_spectator_sees_standings_change(
    live_server: Any, browser: Any, settings: Any
) -> None:
    settings.LIVE_POLL_SECONDS = 1
    t = Tournament.objects.create(
        name="Hall Open",
        slug="hall",
        starts_on="2027-03-14",
        ends_on="2027-03-14",
        rounds=3,
        registration_open=False,
    )
    for i, name in enumerate(["Анна", "Boris", "Clara", "Dmitri"]):
        Entrant.objects.create(tournament=t, name=name, rating=1800 - i * 50, checked_in=True)

    spectator_ctx, spectator = watched_page(browser, viewport={"width": 390, "height": 844})
    org_ctx, org = organiser_page(browser, live_server, "/t/hall/manage/", height=900)
    click_to(org, "text=Pair the next round")
    org.click("a:has-text('Round 1')")
    org.wait_for_url("**/manage/round/1/")
    assert "both 0 points" in org.inner_text("main")
    click_to(org, "text=Publish the round")

    spectator.goto(f"{live_server.url}/t/hall/standings/")
    before = spectator.inner_text("table")
    assert "Анна" in before

    # On a big round the organiser finds a board by a player's name or its number.
    org.fill("[data-filter-text]", "анна")
    assert org.locator("tr[data-board]:visible").count() == 1
    assert "Анна" in org.locator("tr[data-board]:visible").inner_text()
    org.fill("[data-filter-text]", "2")
    assert org.locator("tr[data-board]:visible").get_attribute("data-board") == "2"
    org.fill("[data-filter-text]", "")
    assert org.locator("tr[data-board]:visible").count() == 2
    boards = list(Board.objects.filter(round__tournament=t, round__number=1).order_by("number"))
    for g in GameResult.objects.filter(board__in=boards):
        org.click(f"[data-result] input[name=result-{g.pk}][value='1-0'] + label")
        org.select_option(f"select[name=termination-{g.pk}]", "home")
    click_to(org, "text=Save results")
    assert "2 results saved" in org.inner_text("main")
    org.check("[data-filter-open]")  # every board has its result now
    assert org.locator("tr[data-board]:visible").count() == 0
    assert org.inner_text("[data-filter-count]") == "0 / 2"

    # The spectator's page reloads by itself and shows the winners with a point.
    points = spectator.locator("tbody tr").first.locator("td").nth(2)
    # (It polls every second, LIVE_POLL_SECONDS, and reloads when the version changes.)
    wait_for(lambda: settled(lambda: points.inner_text().strip()) == "1")
    after = settled(lambda: spectator.inner_text("table"))
    assert after != before
    winners = [b.white.name for b in boards]
    first_rows = settled(lambda: spectator.locator("tbody tr").all_inner_texts())[:2]
    assert all(any(w in row for row in first_rows) for w in winners)

    org.goto(f"{live_server.url}/t/hall/manage/")
    click_to(org, "text=Pair the next round")
    org.click("a:has-text('Round 2')")
    org.wait_for_url("**/manage/round/2/")
    click_to(org, "text=Publish the round")
    assert Round.objects.get(tournament=t, number=2).status == "published"
    assert csp_violations(spectator) == []
    # A new tab (the standings tab keeps reloading itself as results come in).
    tab = spectator_ctx.new_page()
    tab.goto(f"{live_server.url}/t/hall/pairings/2/")
    assert "Round 2" in tab.inner_text("main")
    assert csp_violations(tab) == [] and csp_violations(org) == []
    close(spectator_ctx)
    close(org_ctx)
