"""Login throttling (common/login.py): failed logins per (account, address) and per address
lock that address's login for a while, on the site and in the admin; another address is not
affected."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django_ratelimit import core as ratelimit_core

pytestmark = pytest.mark.django_db

ATTACKER = "203.0.113.5"
ORGANISER_AT_HOME = "198.51.100.7"
PASSWORD = "right-password-2027"
SITE = "/accounts/login/"
ADMIN = "/admin/login/"


@pytest.fixture
def organiser(settings) -> User:  # type: ignore[no-untyped-def]
    settings.RATELIMIT_ENABLE = True  # the suite runs without it (tests/conftest.py)
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast
    return User.objects.create_user("organiser", password=PASSWORD, is_staff=True)


def attempt(client: Client, url: str, username: str, password: str, **extra: str):  # type: ignore[no-untyped-def]
    return client.post(url, {"username": username, "password": password}, **extra)


def logged_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


@pytest.mark.parametrize("url, wrong", [(SITE, 30), (ADMIN, 15)])
def test_wrong_passwords_in_a_row_are_stopped_and_another_address_still_gets_in(
    organiser, url, wrong
):
    attacker = Client(REMOTE_ADDR=ATTACKER)
    codes = [attempt(attacker, url, "organiser", f"guess-{i}").status_code for i in range(wrong)]
    assert codes[:5] == [200] * 5  # "wrong password", the form again
    assert codes[5:] == [429] * (wrong - 5)  # locked: the password is not even checked
    # The right password from the locked address does not get in either...
    response = attempt(attacker, url, "organiser", PASSWORD)
    assert response.status_code == 429 and not logged_in(attacker)
    # ...but the organiser at another address does.
    organiser_client = Client(REMOTE_ADDR=ORGANISER_AT_HOME)
    response = attempt(organiser_client, url, "organiser", PASSWORD)
    assert response.status_code == 302 and logged_in(organiser_client)


def test_a_few_mistakes_then_the_right_password_gets_in(organiser):
    client = Client(REMOTE_ADDR=ORGANISER_AT_HOME)
    for i in range(4):
        assert attempt(client, SITE, "organiser", f"typo-{i}").status_code == 200
    assert attempt(client, SITE, "organiser", PASSWORD).status_code == 302
    assert logged_in(client)


def test_spraying_many_accounts_locks_the_address(organiser):
    attacker = Client(REMOTE_ADDR=ATTACKER)
    codes = [attempt(attacker, SITE, f"user{i}", "password").status_code for i in range(25)]
    assert codes[:20] == [200] * 20 and codes[20:] == [429] * 5
    assert attempt(attacker, SITE, "organiser", PASSWORD).status_code == 429
    elsewhere = Client(REMOTE_ADDR=ORGANISER_AT_HOME)
    assert attempt(elsewhere, SITE, "organiser", PASSWORD).status_code == 302


def test_the_account_lock_is_per_address_and_account(organiser):
    """Five failures for one account lock that account at that address only."""
    attacker = Client(REMOTE_ADDR=ATTACKER)
    for i in range(5):
        attempt(attacker, SITE, "organiser", f"guess-{i}")
    assert attempt(attacker, SITE, "organiser", "guess").status_code == 429
    assert attempt(attacker, SITE, "someone-else", "guess").status_code == 200  # not locked


@pytest.mark.parametrize(
    "language, message",
    [
        ("en", "Too many failed login attempts. Please wait 15 minutes and try again."),
        ("ru", "Слишком много неудачных попыток входа. Подождите 15 минут и попробуйте снова."),
    ],
)
@pytest.mark.parametrize("url", [SITE, ADMIN])
def test_the_lock_message_is_translated(organiser, monkeypatch, url, language, message):
    # Just after the start of a counting window, so that (almost) 15 minutes are left.
    window_start = 1_800_000_000 - 1_800_000_000 % 900
    clock = SimpleNamespace(time=lambda: window_start + 1)
    monkeypatch.setattr(ratelimit_core, "time", clock)
    monkeypatch.setattr(ratelimit_core.zlib, "crc32", lambda value: 0)  # no jitter of the window
    attacker = Client(REMOTE_ADDR=ATTACKER, HTTP_ACCEPT_LANGUAGE=language)
    for i in range(5):
        attempt(attacker, url, "organiser", f"guess-{i}")
    response = attempt(attacker, url, "organiser", "guess")
    assert response.status_code == 429
    assert message in response.content.decode()


def test_the_lock_ends_with_its_window(organiser, monkeypatch):
    now = [1_800_000_000.0]
    monkeypatch.setattr(ratelimit_core, "time", SimpleNamespace(time=lambda: now[0]))
    client = Client(REMOTE_ADDR=ATTACKER)
    for i in range(5):
        attempt(client, SITE, "organiser", f"guess-{i}")
    assert attempt(client, SITE, "organiser", PASSWORD).status_code == 429
    now[0] += 15 * 60
    assert attempt(client, SITE, "organiser", PASSWORD).status_code == 302


def test_a_new_forwarded_for_per_request_does_not_reset_the_count(organiser):
    attacker = Client(REMOTE_ADDR=ATTACKER)
    codes = [
        attempt(
            attacker, SITE, "organiser", f"guess-{i}", HTTP_X_FORWARDED_FOR=f"10.0.0.{i}"
        ).status_code
        for i in range(8)
    ]
    assert codes == [200] * 5 + [429] * 3


def test_without_rate_limiting_nothing_is_throttled(organiser, settings):
    settings.RATELIMIT_ENABLE = False
    client = Client(REMOTE_ADDR=ATTACKER)
    codes = {attempt(client, SITE, "organiser", f"guess-{i}").status_code for i in range(8)}
    assert codes == {200}
    assert attempt(client, SITE, "organiser", PASSWORD).status_code == 302


@pytest.mark.parametrize("url", [SITE, ADMIN])
@pytest.mark.parametrize(
    "data",
    [
        {"username": "organiser\x00", "password": "x"},
        {"username": "organiser", "password": "x\x00"},
        {"username": "o" * 10_000, "password": "x"},
        {"username": "", "password": ""},
        {"password": "x"},
        {"username": ["a", "b"], "password": ["x", "y"]},
        {"username": "организатор\u2028", "password": "x"},
    ],
)
def test_hostile_login_posts_are_answered_without_a_server_error(organiser, url, data):
    client = Client(REMOTE_ADDR=ATTACKER)
    for _ in range(7):  # also past the limits
        assert client.post(url, data).status_code in (200, 400, 429)  # 400: a NUL byte
    assert not logged_in(client)
