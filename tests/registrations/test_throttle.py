"""Rate limits that stop bots, not groups (registrations/throttle.py), with the default rates:
thirty real registrations from one address in ten minutes pass; a script posting a hundred a
minute is stopped; typos do not use up a group's registrations; the limits are per address and
per e-mail address."""

from __future__ import annotations

import django_ratelimit.core
import pytest
from django.urls import reverse

from registrations.models import MasterClassSignup, Registration
from tests.conftest import make_session, registration_form

pytestmark = pytest.mark.django_db

VENUE_WIFI = "203.0.113.5"


class Clock:
    """The rate limiter's clock, pinned: a count never resets in the middle of a test
    because a window happened to end."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def time(self) -> float:
        return self.now


@pytest.fixture(autouse=True)
def clock(settings, monkeypatch):  # type: ignore[no-untyped-def]
    settings.RATELIMIT_ENABLE = True  # with the default rates of settings.py
    pinned = Clock()
    monkeypatch.setattr(django_ratelimit.core, "time", pinned)
    return pinned


def post(client, tournament, i: int, address: str = VENUE_WIFI, **changes: str):  # type: ignore[no-untyped-def]
    data = {**registration_form(email=f"player{i}@example.org", name=f"Игрок {i}"), **changes}
    return client.post(
        reverse("registrations:register", args=[tournament.slug]), data, REMOTE_ADDR=address
    )


def test_the_defaults_are_what_the_group_and_the_bot_need(settings):  # type: ignore[no-untyped-def]
    assert settings.REGISTRATIONS_PER_ADDRESS == "40/10m"
    assert settings.REFUSED_POSTS_PER_ADDRESS == "50/10m"
    assert settings.POSTS_PER_EMAIL == "5/h"


@pytest.mark.parametrize("seconds_apart", [0, 20])
def test_thirty_real_registrations_from_one_address_pass(client, tournament, clock, seconds_apart):  # type: ignore[no-untyped-def]
    # Within ten minutes, or all at once; each person makes a typo first.
    for i in range(30):
        assert post(client, tournament, i, phone="12").status_code == 400
        assert post(client, tournament, i).status_code == 302, i
        clock.now += seconds_apart
    assert Registration.objects.count() == 30


def test_a_script_posting_a_hundred_a_minute_is_stopped(client, tournament, clock):  # type: ignore[no-untyped-def]
    codes = []
    for i in range(100):  # a hundred in a minute
        codes.append(post(client, tournament, i).status_code)
        clock.now += 0.6
    assert codes[:40] == [302] * 40
    assert set(codes[40:]) == {429}  # stopped, and stays stopped
    assert Registration.objects.count() == 40
    # Another address (the next table at the venue) is not affected.
    assert post(client, tournament, 1000, address="198.51.100.7").status_code == 302


def test_a_script_posting_garbage_is_stopped_too(client, tournament):  # type: ignore[no-untyped-def]
    codes = [post(client, tournament, i, email="not-an-address").status_code for i in range(70)]
    assert codes[:50] == [400] * 50 and set(codes[50:]) == {429}
    # A bot filling the honeypot counts as refused, though it is shown a success.
    other = "198.51.100.9"
    bot = [post(client, tournament, i, address=other, website="x").status_code for i in range(55)]
    assert bot[:50] == [302] * 50 and set(bot[50:]) == {429}
    assert Registration.objects.count() == 0


def test_the_limit_per_e_mail_address_holds_across_addresses(client, tournament, mailoutbox):  # type: ignore[no-untyped-def]
    url = reverse("registrations:register", args=[tournament.slug])
    codes = [
        client.post(
            url, registration_form(email="victim@example.org"), REMOTE_ADDR=f"198.51.100.{i}"
        ).status_code
        for i in range(1, 9)
    ]
    assert codes == [302] * 5 + [429] * 3
    assert len(mailoutbox) == 5  # the confirmation, then four fresh links: no more
    lost = client.post(
        reverse("registrations:lost_link"), {"email": "VICTIM@example.org"}, REMOTE_ADDR="192.0.2.1"
    )
    assert lost.status_code == 429 and len(mailoutbox) == 5
    assert post(client, tournament, 1, address="192.0.2.1").status_code == 302  # others fine


def test_master_class_sign_ups_count_as_registrations(client):  # type: ignore[no-untyped-def]
    session = make_session(seats=100)
    url = reverse("registrations:signup", args=[session.pk])
    codes = [
        client.post(
            url,
            {
                "name": f"Гость {i}",
                "email": f"g{i}@example.org",
                "language": "ru",
                "consent": "on",
                "experience": "newcomer",
            },
            REMOTE_ADDR=VENUE_WIFI,
        ).status_code
        for i in range(45)
    ]
    assert codes[:40] == [302] * 40 and set(codes[40:]) == {429}
    assert MasterClassSignup.objects.count() == 40


def test_thirty_newcomers_taking_the_offered_master_class_pass(client, tournament):  # type: ignore[no-untyped-def]
    # The walk-through's group: each newcomer registers, then follows the master-class offer
    # on the thank-you page. The sign-up is part of the registration, not a second one.
    session = make_session(seats=100, tournament=tournament)
    signup_url = reverse("registrations:signup", args=[session.pk]) + "?from=registration"
    for i in range(30):
        client.cookies.clear()  # each person on their own phone
        email = f"newcomer{i}@example.org"
        assert post(client, tournament, i, email=email, experience="newcomer").status_code == 302
        done = client.get(reverse("registrations:done", args=[tournament.slug]))
        assert signup_url in done.content.decode()
        answer = client.post(
            signup_url,
            {
                "name": f"Игрок {i}",
                "email": email,
                "language": "ru",
                "consent": "on",
                "experience": "newcomer",
            },
            REMOTE_ADDR=VENUE_WIFI,
        )
        assert answer.status_code == 302, i
    assert Registration.objects.count() == 30
    assert MasterClassSignup.objects.filter(registration__isnull=False).count() == 30
    # The address still has its other ten registrations.
    assert post(client, tournament, 100).status_code == 302


def test_the_offer_does_not_open_a_door_for_a_script(client, tournament, mailoutbox):  # type: ignore[no-untyped-def]
    # Posting the offered sign-up again and again (or for other addresses) counts as usual.
    session = make_session(seats=100, tournament=tournament)
    signup_url = reverse("registrations:signup", args=[session.pk]) + "?from=registration"
    assert post(client, tournament, 0, email="me@example.org").status_code == 302
    codes = [
        client.post(
            signup_url,
            {
                "name": "Bot",
                "email": f"other{i}@example.org",
                "language": "en",
                "consent": "on",
                "experience": "newcomer",
            },
            REMOTE_ADDR=VENUE_WIFI,
        ).status_code
        for i in range(45)
    ]
    assert codes[:39] == [302] * 39 and set(codes[39:]) == {429}
    again = [
        client.post(
            signup_url,
            {
                "name": "Me",
                "email": "me@example.org",
                "language": "en",
                "consent": "on",
                "experience": "newcomer",
            },
            REMOTE_ADDR="198.51.100.20",
        ).status_code
        for _ in range(6)
    ]
    assert again[:4] == [302] * 4 and set(again[4:]) == {429}  # five e-mails to me@, no more


def test_the_refusal_says_which_limit_and_how_long(client, tournament, settings):  # type: ignore[no-untyped-def]
    settings.ORGANISER_EMAIL = "help@nardy.example"
    for i in range(40):
        post(client, tournament, i)
    refused = post(client, tournament, 41)
    assert refused.status_code == 429
    text = refused.content.decode()
    assert "10 minutes" in text and "from your network" in text and "help@nardy.example" in text
    assert Registration.objects.count() == 40
    url = reverse("registrations:lost_link")
    for _ in range(5):
        client.post(url, {"email": "x@example.org"}, REMOTE_ADDR="198.51.100.30")
    by_email = client.post(
        url, {"email": "X@example.org"}, REMOTE_ADDR="198.51.100.31", HTTP_ACCEPT_LANGUAGE="ru"
    )
    assert by_email.status_code == 429
    assert "60 минут" in by_email.content.decode()  # the e-mail's window, in Russian
