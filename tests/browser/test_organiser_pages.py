"""Issue 11 in a browser on a phone (390 px): an organiser creates a tournament, adds its
entrants (a duplicate name asks first), edits one, withdraws one after a confirmation,
requests a bye and a forbidden pair, pairs round 1 — through the organiser pages only, with
no control off-screen and no CSP violation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from championship.models import Entrant, ForbiddenPair, RequestedBye, Tournament
from tests.browser.conftest import click_to, close, csp_violations, screenshot, watched_page

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path("/tmp/organiser-shots")


def fits(page: Any) -> None:
    """Nothing wider than the phone: no control off-screen."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, (page.url, width)


def shot(page: Any, name: str) -> None:
    screenshot(page, str(SHOTS / f"{name}.png"), full_page=True)


def test_an_organiser_creates_a_tournament_and_its_entrants_on_a_phone(
    live_server: Any, browser: Any
) -> None:
    from django.contrib.auth.models import Group, User

    from championship.apps import ORGANISERS_GROUP

    user = User.objects.create_user("org", password="pw-organiser-123")
    user.groups.add(Group.objects.get(name=ORGANISERS_GROUP))
    ctx, page = watched_page(
        browser, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    base = live_server.url
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", "org")
    page.fill("#id_password", "pw-organiser-123")
    click_to(page, "main button[type=submit]")
    assert page.url == f"{base}/manage/"  # no tournament under way: the organisers' list
    click_to(page, "main >> text=New tournament")
    fits(page)
    page.fill("#id_name", "Phone Open")
    page.fill("#id_name_ru", "Открытый турнир")
    page.fill("#id_slug", "phone")
    page.fill("#id_starts_on", "2027-05-01")
    page.fill("#id_ends_on", "2027-05-02")
    page.fill("#id_rounds", "0")  # refused next to the field
    page.select_option("#id_tiebreak_1", "sb")
    page.select_option("#id_tiebreak_3", "bh")  # BH-C1, BH, SB by default: SB and BH swapped
    click_to(page, "text=Create the tournament")
    assert "greater than or equal to 1" in page.inner_text("main form")
    assert not Tournament.objects.exists()
    assert "Each tie-break can be chosen once" in page.inner_text("main form")
    page.fill("#id_rounds", "4")
    page.select_option("#id_tiebreak_3", "bh_c1")
    shot(page, "settings")
    click_to(page, "text=Create the tournament")
    assert page.url == f"{base}/t/phone/manage/", [
        e.inner_text() for e in page.query_selector_all(".invalid-feedback, .alert")
    ]
    assert "is created" in page.inner_text("main")
    t = Tournament.objects.get(slug="phone")
    assert (t.rounds, t.tiebreaks) == (4, "sb,bh,bh_c1,de,win,bwg,aro")
    fits(page)

    click_to(page, ".manage-nav >> text=Entrants")
    for name, rating in [
        ("Анна Иванова", "1900"),
        ("Boris", "1800"),
        ("Clara", "1700"),
        ("Dmitri", "1600"),
        ("Elena", "1500"),
    ]:
        page.fill("#id_add_name", name)
        page.fill("#id_add_rating", rating)
        click_to(page, "#add-entrant button[type=submit]")
        assert f"{name} added" in page.inner_text("main")
    page.fill("#id_add_name", "boris")
    click_to(page, "#add-entrant button[type=submit]")
    assert "already an entrant called Boris" in page.inner_text("main")
    click_to(page, "text=Yes, add a second entrant with this name")
    assert t.entrants.count() == 6
    shot(page, "entrants")
    fits(page)
    # The duplicate is deleted after a confirmation.
    twin = t.entrants.filter(name="boris").get()
    click_to(page, f"a[href='/t/phone/manage/entrants/{twin.pk}/delete/']")
    click_to(page, "main button.btn-danger")
    assert not Entrant.objects.filter(pk=twin.pk).exists()
    # Edited; withdrawn before round 1 after a confirmation.
    clara = t.entrants.get(name="Clara")
    click_to(page, f"a.fw-semibold[href='/t/phone/manage/entrants/{clara.pk}/']")
    page.fill("#id_club", "Toronto Nardy Club")
    click_to(page, "main >> text=Save")
    assert Entrant.objects.get(pk=clara.pk).club == "Toronto Nardy Club"
    elena = t.entrants.get(name="Elena")
    click_to(page, f"a[href='/t/phone/manage/entrants/{elena.pk}/withdraw/']")
    fits(page)
    click_to(page, "text=Yes, withdraw")
    assert Entrant.objects.get(pk=elena.pk).withdrawn_after == 0

    click_to(page, ".manage-nav >> text=Byes")
    page.select_option("#id_entrant", str(clara.pk))
    page.fill("#id_round", "9")
    click_to(page, "main form button[type=submit]")
    assert "no round 9" in page.inner_text("main")
    page.fill("#id_round", "3")
    click_to(page, "main form button[type=submit]")
    assert RequestedBye.objects.filter(entrant=clara, round_number=3, kind="H").exists()
    fits(page)

    page.goto(f"{base}/t/phone/manage/forbidden-pairs/")
    anna, dmitri = t.entrants.get(name="Анна Иванова"), t.entrants.get(name="Dmitri")
    page.select_option("#id_first", str(anna.pk))
    page.select_option("#id_second", str(dmitri.pk))
    page.select_option("#id_kind", "family")
    click_to(page, "main form button[type=submit]")
    assert ForbiddenPair.objects.filter(first=anna, second=dmitri, kind="family").exists()
    fits(page)

    click_to(page, ".manage-nav >> text=Dashboard")
    click_to(page, "text=Pair the next round")
    page.wait_for_function("!document.querySelector('[data-status-url]')")
    assert t.round_set.filter(number=1).exists()
    boards = t.round_set.get(number=1).boards.all()
    paired = {b.white_id for b in boards} | {b.black_id for b in boards}
    assert elena.pk not in paired
    assert {anna.pk, dmitri.pk} not in [{b.white_id, b.black_id} for b in boards]
    shot(page, "dashboard")
    assert not csp_violations(page)
    close(ctx)
