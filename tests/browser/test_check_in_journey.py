"""Issue 21, point 13, in a browser: 40 arrivals checked in on the entrants page. For each,
the organiser types letters of the name until one player is left and presses Enter (or taps
the button, on a phone): the row and the count change in place, the page never reloads nor
jumps. The keys and taps are counted (not timed). Without JavaScript the forms still work and
the page comes back at the player just checked in."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from championship.models import Entrant, Tournament
from games.demo import FIRST, LAST
from tests.browser.conftest import (
    click_to,
    close,
    csp_violations,
    organiser_page,
    screenshot,
    wait_for,
    watched_page,
)

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path("/tmp/check-in-shots")
VISIBLE = "#entrants li[data-entrant]:not([hidden])"


def field(n: int = 40) -> Tournament:
    t = Tournament.objects.create(
        name="Check-in Open", slug="checkin", starts_on="2027-03-14", ends_on="2027-03-14"
    )
    rng = random.Random(7)
    names: set[str] = set()
    while len(names) < n:
        names.add(f"{rng.choice(FIRST)} {rng.choice(LAST)}")
    Entrant.objects.bulk_create(
        Entrant(tournament=t, name=name, club=rng.choice(["Toronto", "Markham", ""]))
        for name in sorted(names)
    )
    return t


def shot(page: Any, name: str) -> None:
    screenshot(page, str(SHOTS / f"{name}.png"), full_page=False)


def left(page: Any) -> int:
    """Players shown and not yet checked in (those Enter chooses from)."""
    return int(page.locator(f"{VISIBLE}:not([data-checked-in])").count())


def check_in_by_typing(page: Any, name: str) -> int:
    """As an organiser types at the desk: up to three letters of the surname, then (still
    ambiguous) a space and the first name's letters, then more of the surname, until one
    player not yet checked in is left; then Enter. Returns the keys pressed."""
    first, last = name.split(" ", 1)
    plan = [last[:3], " " + first, last[3:]]
    query, keys = "", 0
    for part in plan:
        for ch in part:
            if part is plan[2]:  # more of the surname: it goes before the space
                query = query.replace(" ", ch + " ", 1) if " " in query else query + ch
                page.locator("[data-check-in-query]").fill(query)
            else:
                query += ch
                page.keyboard.type(ch)
            keys += 1
            if ch != " " and left(page) == 1:
                page.keyboard.press("Enter")
                return keys + 1
    raise AssertionError(f"{name}: never one left")


def test_forty_arrivals_are_checked_in_in_place(live_server: Any, browser: Any) -> None:
    t = field(40)
    url = f"/t/{t.slug}/manage/entrants/"
    ctx, page = organiser_page(browser, live_server, url, height=900)
    page.evaluate("window.__samePage = true")  # gone if the page reloads
    box = page.locator("[data-check-in-query]")
    box.click()
    clicks = 1
    keys = 0
    order = list(Entrant.objects.filter(tournament=t).values_list("pk", "name"))
    random.Random(3).shuffle(order)
    per_arrival = []
    for done, (pk, name) in enumerate(order, start=1):
        pressed = check_in_by_typing(page, name)
        keys += pressed
        per_arrival.append(pressed)
        page.wait_for_selector(f"#entrant-{pk}[data-checked-in]", state="attached")
        page.wait_for_function(
            "n => document.querySelector('[data-checked-count]').textContent === String(n)",
            arg=done,
        )
        if done == 20:
            shot(page, "checkin-1280-en-halfway")
    assert page.evaluate("window.__samePage") is True  # never reloaded
    assert page.locator("[data-checked-count]").text_content() == "40"
    assert page.locator("[data-expected-count]").text_content() == "40"
    assert Entrant.objects.filter(tournament=t, checked_in=True).count() == 40
    assert not csp_violations(page)
    print(
        f"\n40 arrivals: {keys} keys and {clicks} click in all, "
        f"{keys / 40:.1f} keys an arrival (at most {max(per_arrival)}, at least "
        f"{min(per_arrival)}, Enter included)"
    )
    assert keys / 40 <= 7  # a few letters and Enter, not a scroll through the list
    # Enter on a player checked in already changes nothing and says so.
    box.fill("")
    first_pk, first_name = order[0]
    box.type(first_name)
    page.keyboard.press("Enter")
    page.wait_for_function(
        "() => document.querySelector('[data-check-in-message]').textContent.includes('✓')"
    )
    assert page.locator("[data-checked-count]").text_content() == "40"
    close(ctx)


def test_on_a_phone_a_tap_checks_in_and_the_list_keeps_its_place(
    live_server: Any, browser: Any
) -> None:
    t = field(40)
    from django.contrib.auth.models import Group, User

    from championship.apps import ORGANISERS_GROUP

    user = User.objects.create_user("org", password="pw-organiser-123")
    user.groups.add(Group.objects.get(name=ORGANISERS_GROUP))
    ctx, page = watched_page(
        browser, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    page.goto(f"{live_server.url}/accounts/login/?next=/t/{t.slug}/manage/entrants/?lang=ru")
    page.fill("#id_username", "org")
    page.fill("#id_password", "pw-organiser-123")
    click_to(page, "main button[type=submit]")
    page.evaluate("window.__samePage = true")
    # Scroll to the 30th player and tap its button: the page stays where it is.
    target = Entrant.objects.filter(tournament=t).order_by("name")[29]
    row = page.locator(f"#entrant-{target.pk}")
    row.scroll_into_view_if_needed()
    top = f"document.getElementById('entrant-{target.pk}').getBoundingClientRect().top"
    before = page.evaluate(top)
    row.locator("[data-check-in-button]").tap()
    page.wait_for_selector(f"#entrant-{target.pk}[data-checked-in]", state="attached")
    assert abs(page.evaluate(top) - before) < 5  # the player stays where the finger was
    assert page.evaluate("window.__samePage") is True
    assert page.locator("[data-checked-count]").text_content() == "1"
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    # Typing then tapping: three letters and a tap for a name in Cyrillic.
    other = next(
        e
        for e in Entrant.objects.filter(tournament=t, checked_in=False).order_by("name")
        if not e.name.isascii()
    )
    page.locator("[data-check-in-query]").tap()
    typed = 0
    for ch in other.name.split(" ", 1)[1] + " " + other.name.split(" ")[0]:
        page.keyboard.type(ch)
        typed += 1
        if ch != " " and left(page) == 1:
            break
    shot(page, "checkin-390-ru-search")
    page.locator(f"#entrant-{other.pk} [data-check-in-button]").tap()
    page.wait_for_selector(f"#entrant-{other.pk}[data-checked-in]", state="attached")
    print(f"\nphone: {other.name!r} found with {typed} keys and checked in with 1 tap")
    shot(page, "checkin-390-ru-done")
    assert page.locator("[data-checked-count]").text_content() == "2"
    assert not csp_violations(page)
    close(ctx)


def test_without_javascript_a_check_in_comes_back_to_the_player(
    live_server: Any, browser: Any
) -> None:
    from django.contrib.auth.models import Group, User

    from championship.apps import ORGANISERS_GROUP

    t = field(40)
    user = User.objects.create_user("org", password="pw-organiser-123")
    user.groups.add(Group.objects.get(name=ORGANISERS_GROUP))
    ctx, page = watched_page(
        browser, viewport={"width": 1280, "height": 800}, java_script_enabled=False
    )
    page.goto(f"{live_server.url}/accounts/login/?next=/t/{t.slug}/manage/entrants/")
    page.fill("#id_username", "org")
    page.fill("#id_password", "pw-organiser-123")
    click_to(page, "main button[type=submit]")
    # The search is a plain GET form.
    page.fill("[data-check-in-query]", "a")
    click_to(page, "[data-check-in-search] button[type=submit]")
    assert "q=a" in page.url
    page.goto(f"{live_server.url}/t/{t.slug}/manage/entrants/")
    target = Entrant.objects.filter(tournament=t).order_by("name")[35]
    click_to(page, f"#entrant-{target.pk} [data-check-in-button]")
    assert page.url.endswith(f"#entrant-{target.pk}")
    assert page.locator(f"#entrant-{target.pk}").is_visible()
    # The browser scrolls to the anchor (smoothly: Bootstrap's scroll-behavior); the page
    # runs no script, so the test reads the position until it is there.
    in_view = (
        f"(() => {{ const r = document.getElementById('entrant-{target.pk}')"
        ".getBoundingClientRect(); return r.top >= 0 && r.bottom <= window.innerHeight; })()"
    )
    # (JavaScript is off in this page: the test reads the position until it is there.)
    wait_for(lambda: page.evaluate(in_view))
    assert Entrant.objects.get(pk=target.pk).checked_in
    shot(page, "checkin-1280-en-nojs")
    close(ctx)
