"""The main journeys of a player on a phone, in a real browser."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from championship.models import Tournament
from registrations import tokens
from registrations.models import MasterClassSignup, Registration
from tests.browser.conftest import click_to, csp_violations, open_menu, wait_for
from tests.conftest import make_session

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def open_tournament() -> Tournament:
    return Tournament.objects.create(
        name="Toronto Open",
        slug="toronto-open",
        starts_on="2027-03-14",
        ends_on="2027-03-14",
        entry_cap=1,
    )


def fill(page: Any, **values: str) -> None:
    page.fill("#id_name", values.get("name", "Анна Иванова"))
    page.fill("#id_email", values.get("email", "anna@example.org"))
    page.fill("#id_phone", values.get("phone", "416 555 0123"))
    page.fill("#id_club", values.get("club", "Toronto"))
    page.check(f"input[name=experience][value={values.get('experience', 'club')}]")
    page.select_option("#id_language", values.get("language", "ru"))


def test_player_registers_from_a_phone(
    live_server: Any, phone_page: Any, open_tournament: Tournament
) -> None:
    page = phone_page
    page.goto(f"{live_server.url}/tournaments/{open_tournament.slug}/register/")
    # Without consent the browser itself refuses to send the form.
    fill(page, phone="12")
    page.click("input[type=submit]")
    assert page.evaluate("document.querySelector('#id_consent').validity.valueMissing")
    # A wrong phone is caught by the server; what was typed stays.
    page.check("#id_consent")
    click_to(page, "input[type=submit]")
    assert page.locator("#id_phone.is-invalid").count() == 1
    assert page.locator(".invalid-feedback").count() >= 1
    assert page.input_value("#id_name") == "Анна Иванова"
    assert page.input_value("#id_club") == "Toronto"
    assert Registration.objects.count() == 0
    # Fix and send (the consent box is unticked again by the server? it is kept too).
    page.fill("#id_phone", "416 555 0123")
    if not page.is_checked("#id_consent"):
        page.check("#id_consent")
    page.click("input[type=submit]")
    page.wait_for_url("**/register/done/")
    assert "You are entered in the tournament." in page.content()
    reg = Registration.objects.get()
    assert (reg.name, str(reg.phone), reg.status) == ("Анна Иванова", "+14165550123", "entered")
    # The honeypot is invisible to a person.
    page.goto(f"{live_server.url}/tournaments/{open_tournament.slug}/register/")
    assert not page.is_visible("#id_website")
    assert csp_violations(page) == []


def test_second_player_is_waitlisted_and_sees_it(
    live_server: Any, phone_page: Any, open_tournament: Tournament
) -> None:
    page = phone_page
    for email in ("a@example.org", "b@example.org"):
        page.goto(f"{live_server.url}/tournaments/{open_tournament.slug}/register/")
        fill(page, email=email)
        page.check("#id_consent")
        page.click("input[type=submit]")
        page.wait_for_url("**/register/done/")
    assert "waiting list" in page.content()
    assert Registration.objects.get(email="b@example.org").status == "waitlisted"
    # The first player withdraws through the link in their e-mail; the second is promoted.
    first = Registration.objects.get(email="a@example.org")
    page.goto(
        live_server.url
        + reverse(
            "registrations:manage", args=[tokens.make_token(tokens.MANAGE, first.pk, first.email)]
        )
    )
    page.click("#withdraw")  # asks first, and says the place goes to the waiting list
    page.wait_for_url("**/withdraw/")
    assert "first person on the waiting list" in page.inner_text("#withdraw-consequences")
    assert Registration.objects.get(email="a@example.org").status == "entered"
    click_to(page, "#confirm-withdraw")
    assert page.get_attribute("#status", "data-status") == "withdrawn"
    second = Registration.objects.get(email="b@example.org")
    assert second.status == "entered"
    page.goto(
        live_server.url
        + reverse(
            "registrations:manage", args=[tokens.make_token(tokens.MANAGE, second.pk, second.email)]
        )
    )
    assert page.get_attribute("#status", "data-status") == "entered"
    assert csp_violations(page) == []


def test_signing_up_for_a_full_master_class(live_server: Any, phone_page: Any) -> None:
    session = make_session(seats=1)
    MasterClassSignup.objects.create(
        session=session, name="X", email="x@example.org", language="en", consent_at=timezone.now()
    )
    page = phone_page
    page.goto(f"{live_server.url}/master-class/")
    assert "Full" in page.inner_text("main")
    page.click("text=Join the waiting list")
    assert "This session is full" in page.inner_text("main")
    page.fill("#id_name", "Lee Chen")
    page.fill("#id_email", "lee@example.org")
    page.check("input[name=experience][value=newcomer]")
    page.check("#id_consent")
    page.click("input[type=submit]")
    page.wait_for_url("**/master-class/done/")
    assert "waiting list" in page.inner_text("main")
    assert MasterClassSignup.objects.get(email="lee@example.org").status == "waitlisted"


def test_language_switcher_and_master_class_sign_up(live_server: Any, phone_page: Any) -> None:
    session = make_session(seats=5)
    page = phone_page
    page.goto(f"{live_server.url}/master-class/")
    open_menu(page)
    click_to(page, ".lang-switch a[lang=ru]")
    assert "Мастер-класс для новичков" in page.content()
    page.click(f"a[href='/master-class/{session.pk}/signup/']")
    page.fill("#id_name", "Sam Patel")
    page.fill("#id_email", "sam@example.org")
    page.check("input[name=experience][value=newcomer]")
    page.check("#id_consent")
    page.click("input[type=submit]")
    page.wait_for_url("**/master-class/done/")
    assert "Ваше место забронировано" in page.content()
    assert MasterClassSignup.objects.get().status == "booked"
    assert csp_violations(page) == []


def test_the_csp_check_sees_a_violation(live_server: Any, phone_page: Any) -> None:
    """Control for the checks above: an inline script is blocked and reported."""
    phone_page.goto(f"{live_server.url}/")
    phone_page.evaluate(
        "const s = document.createElement('script'); s.textContent = 'window.x = 1';"
        "document.body.appendChild(s)"
    )
    wait_for(lambda: any("script-src" in v for v in csp_violations(phone_page)))
    assert phone_page.evaluate("window.x") is None
