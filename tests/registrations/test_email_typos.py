"""A typo in an e-mail's domain ("elena@gmial.com", accepted silently in the walk): the forms
ask once whether the common domain was meant, and keep what was typed if sent again."""

from __future__ import annotations

import pytest
from django.urls import reverse

from registrations.email_typos import distance, suggestion
from registrations.models import Registration
from tests.conftest import registration_form


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("elena@gmial.com", "elena@gmail.com"),
        ("elena@gmai.com", "elena@gmail.com"),
        ("elena@gamil.com", "elena@gmail.com"),
        ("elena@gmail.con", "elena@gmail.com"),
        ("Elena.S@GMIAL.COM", "Elena.S@gmail.com"),
        ("tom@hotmial.com", "tom@hotmail.com"),
        ("tom@yaho.com", "tom@yahoo.com"),
        ("tom@outlok.com", "tom@outlook.com"),
        ("pavel@yandex.ry", "pavel@yandex.ru"),
        ("pavel@yadex.ru", "pavel@yandex.ru"),
        ("pavel@yandx.ru", "pavel@yandex.ru"),
        ("pavel@mial.ru", "pavel@mail.ru"),
        ("pavel@mail.ry", "pavel@mail.ru"),
    ],
)
def test_a_common_domain_s_typo_suggests_it(typed: str, meant: str) -> None:
    assert suggestion(typed) == meant


@pytest.mark.parametrize(
    "typed",
    [
        "elena@gmail.com",
        "pavel@yandex.ru",
        "pavel@ya.ru",  # Yandex's own short domain
        "pavel@bk.ru",
        "olga@mail.com",
        "anna@example.org",
        "anna@nardy.club",
        "anna@abc.ru",
        "anna@utoronto.ca",
        "no-domain",
        "anna@",
    ],
)
def test_a_known_or_an_unknown_domain_is_left_alone(typed: str) -> None:
    assert suggestion(typed) is None


def test_the_distance_counts_a_swap_as_one_edit() -> None:
    assert distance("gmail.com", "gmail.com") == 0
    assert distance("gamil.com", "gmail.com") == 1  # two neighbours swapped
    assert distance("gmai.com", "gmail.com") == 1
    assert distance("yandx.ru", "yandex.ru") == 1
    assert distance("", "abc") == 3


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_form_asks_once_and_keeps_what_was_typed(client, tournament, language) -> None:  # type: ignore[no-untyped-def]
    client.cookies["django_language"] = language
    url = reverse("registrations:register", args=[tournament.slug])
    first = client.post(url, registration_form(email="elena@gmial.com"))
    html = first.content.decode()
    assert first.status_code == 400 and not Registration.objects.exists()
    assert "elena@gmail.com" in html and 'value="elena@gmial.com"' in html
    assert ("Did you mean" if language == "en" else "вы имели в виду") in html
    assert 'name="email_as_typed" value="elena@gmial.com"' in html
    # Sent again as it is: taken as typed.
    again = client.post(
        url, registration_form(email="elena@gmial.com", email_as_typed="elena@gmial.com")
    )
    assert again.status_code == 302
    assert Registration.objects.get().email == "elena@gmial.com"


@pytest.mark.django_db
def test_a_corrected_address_or_another_typo_is_asked_about_afresh(client, tournament) -> None:  # type: ignore[no-untyped-def]
    url = reverse("registrations:register", args=[tournament.slug])
    other = client.post(
        url, registration_form(email="elena@gamil.com", email_as_typed="elena@gmial.com")
    )
    assert other.status_code == 400 and "elena@gmail.com" in other.content.decode()
    fixed = client.post(
        url, registration_form(email="elena@gmail.com", email_as_typed="elena@gmial.com")
    )
    assert fixed.status_code == 302
    assert Registration.objects.get().email == "elena@gmail.com"


def test_the_master_class_sign_up_asks_too() -> None:
    from registrations.forms import SignupForm

    form = SignupForm(data={"name": "Elena", "email": "elena@gmial.com", "consent": "on"})
    assert not form.is_valid()
    assert "elena@gmail.com" in form.errors["email"][0]
    assert form.data["email_as_typed"] == "elena@gmial.com"
