"""Faults the walk-through of issue 12 found, seen in the browser at 390 px and 1280 px in
English and Russian: a newcomer registers and takes the offered master class (the sign-up is
part of the registration for the rate limit), the Russian dates read as Russian writes them,
confirming the address of a waiting registration shows the position (no "see you there"), and
a post refused by a limit says which limit and how long to wait. Screenshots go to
/tmp/registration-screens/."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from championship.models import Tournament
from registrations import tokens
from registrations.models import MasterClassSignup, Registration
from tests.browser.conftest import close, csp_violations, screenshot, watched_page
from tests.conftest import make_session

pytestmark = pytest.mark.django_db(transaction=True)

SCREENS = Path("/tmp/registration-screens")
WIDTHS = [390, 1280]


def _tournament() -> Tournament:
    start = timezone.localdate() + timedelta(days=40)
    start += timedelta(days=(2 - start.weekday()) % 7)  # a Wednesday, and its Thursday
    tournament = Tournament.objects.create(
        name="Toronto Modern Nardy Championship",
        name_ru="Чемпионат Торонто по современным нардам",
        slug="walk",
        venue="North York Civic Centre",
        starts_on=start,
        ends_on=start + timedelta(days=1),
        entry_cap=1,
    )
    session = make_session(tournament=tournament, days=(start - timezone.localdate()).days - 7)
    session.title_ru = "Мастер-класс для новичков"
    session.save()
    return tournament


def _no_sideways_scroll(page: Any) -> None:
    assert page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_waiting_newcomer_takes_the_offer_and_confirms(
    live_server: Any, browser: Any, settings: Any, width: int, language: str
) -> None:
    settings.RATELIMIT_ENABLE = True
    settings.REGISTRATIONS_PER_ADDRESS = "2/10m"  # the group's budget, small: 2 people
    tournament = _tournament()
    Registration.objects.create(
        tournament=tournament, name="First", email="first@example.org", phone="+14165550100",
        experience="club", language="en", status=Registration.Status.ENTERED,
        consent_at=timezone.now(),
    )  # fmt: skip
    context, page = watched_page(
        browser, viewport={"width": width, "height": 844 if width < 500 else 800},
        locale="ru-RU" if language == "ru" else "en-CA",
    )  # fmt: skip
    ru = language == "ru"
    for i in range(2):  # two newcomers on the venue's Wi-Fi, each taking the offer
        page.goto(f"{live_server.url}/tournaments/walk/register/?lang={language}")
        label = page.locator("#div_id_masterclass label").nth(1).inner_text()
        assert (" — среда, " if ru else " — Wednesday, ") in label
        facts = page.locator("main p.text-muted").first.inner_text()
        assert (" – четверг, " if ru else " – Thursday, ") in facts
        assert facts.startswith("Среда, " if ru else "Wednesday, ")
        page.fill("#id_name", f"Новичок {i}")
        page.fill("#id_email", f"newcomer{i}@example.org")
        page.fill("#id_phone", "416 555 0123")
        page.check("input[name=experience][value=newcomer]")
        page.check("#id_consent")
        page.click("form [type=submit]")
        page.wait_for_url("**/register/done/")
        page.click("main a[href*='from=registration']")
        page.wait_for_url("**/signup/**")
        assert page.input_value("#id_email") == f"newcomer{i}@example.org"
        page.check("#id_consent")
        page.click("main form [type=submit]")
        page.wait_for_url("**/master-class/done/")
    assert MasterClassSignup.objects.count() == 2  # the offers did not use the budget up
    screenshot(page, str(SCREENS / f"walk-signup-done-{language}-{width}.png"), full_page=True)
    # The group's budget is now used up: the next post is refused, saying why and how long.
    page.goto(f"{live_server.url}/tournaments/walk/register/?lang={language}")
    page.fill("#id_name", "Третий")
    page.fill("#id_email", "third@example.org")
    page.fill("#id_phone", "416 555 0123")
    page.check("input[name=experience][value=club]")
    page.check("#id_consent")
    page.click("form [type=submit]")
    page.wait_for_selector("#too-many")
    text = page.inner_text("#too-many")
    assert ("10 минут" if ru else "10 minutes") in text
    _no_sideways_scroll(page)
    screenshot(page, str(SCREENS / f"walk-too-many-{language}-{width}.png"), full_page=True)
    assert not Registration.objects.filter(email="third@example.org").exists()
    # Confirming the address of a waiting registration: the position, no "see you there".
    waiting = Registration.objects.get(email="newcomer1@example.org")
    assert waiting.status == Registration.Status.WAITLISTED
    token = tokens.make_token(tokens.CONFIRM, waiting.pk, waiting.email)
    page.goto(f"{live_server.url}/registration/confirm/{token}/?lang={language}")
    status = page.locator("#status")
    assert status.get_attribute("data-status") == "waitlisted"
    assert ("номер в очереди — 2" if ru else "in position 2") in status.inner_text()
    assert ("До встречи" if ru else "See you") not in page.inner_text("main")
    _no_sideways_scroll(page)
    screenshot(page, str(SCREENS / f"walk-confirmed-{language}-{width}.png"), full_page=True)
    assert not csp_violations(page)
    close(context)
