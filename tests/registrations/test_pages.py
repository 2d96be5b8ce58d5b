"""Public pages, privacy, organiser pages, i18n."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission, User
from django.core.management import call_command
from django.urls import reverse

from registrations.models import MasterClassSession, Registration
from tests.conftest import make_registrations

pytestmark = pytest.mark.django_db


def add_players(tournament, n, prefix="p", **fields):  # type: ignore[no-untyped-def]
    return make_registrations(tournament, n, prefix=prefix, **fields)


def test_public_pages_never_show_email_or_phone(client, tournament):
    add_players(tournament, 5)
    for url in ("/", tournament.get_absolute_url(), reverse("registrations:masterclass_list")):
        html = client.get(url).content.decode()
        assert "@example.org" not in html
        assert "+1416555" not in html and "(416) 555" not in html
    html = client.get(tournament.get_absolute_url()).content.decode()
    assert "Игрок 3" in html


def test_public_tournament_page_query_count_does_not_grow(
    client, tournament, django_assert_max_num_queries
):
    add_players(tournament, 3)
    # 7: the registrations not entered, and the entrants their second registrations are of
    # (registrations.selectors.EntrantsAlready), whatever the field's size.
    with django_assert_max_num_queries(7):
        client.get(tournament.get_absolute_url())
    add_players(tournament, 60, prefix="x")
    with django_assert_max_num_queries(7):
        client.get(tournament.get_absolute_url())


def test_organiser_list_needs_permission_and_shows_contacts(
    client, tournament, django_assert_max_num_queries
):
    add_players(tournament, 5)
    url = reverse("registrations:list", args=[tournament.slug])
    assert client.get(url).status_code == 302  # anonymous: to the login page
    user = User.objects.create_user("helper", password="pw-helper-123")
    client.force_login(user)
    assert client.get(url).status_code == 403
    user.user_permissions.add(Permission.objects.get(codename="view_registration"))
    client.force_login(User.objects.get(pk=user.pk))
    with django_assert_max_num_queries(11) as small:
        response = client.get(url)
    assert response.status_code == 200 and b"p3@example.org" in response.content
    add_players(tournament, 40, prefix="y", email_confirmed_at=None)
    with django_assert_max_num_queries(len(small.captured_queries)):
        client.get(url)


def test_language_from_accept_language_and_switcher(client, tournament):
    ru = client.get("/", HTTP_ACCEPT_LANGUAGE="ru")
    assert "Турниры по Современным нардам" in ru.content.decode()
    en = client.get("/", HTTP_ACCEPT_LANGUAGE="en")
    assert "Modern Nardy tournaments" in en.content.decode()
    response = client.get(reverse("switch_language", args=["ru"]), {"next": "/"})
    assert response.status_code == 302 and response["Location"] == "/"
    assert (
        client.get(reverse("switch_language", args=["ru"]), {"next": "https://evil.example/"})[
            "Location"
        ]
        == "/"
    )
    assert "Турниры" in client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()


def test_security_headers(client):
    response = client.get("/")
    assert "default-src 'self'" in response["Content-Security-Policy"]
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"


def test_seed_demo_is_idempotent_and_has_a_full_session(settings):
    settings.DEBUG = True  # development (pytest-django runs with DEBUG off, as in production)
    call_command("seed_demo")
    call_command("seed_demo")
    sessions = list(MasterClassSession.objects.with_counts())
    assert len(sessions) == 2
    assert sum(s.is_full for s in sessions) == 1
    assert User.objects.get(username="organiser").check_password("nardy-organiser-2027")
    # Six for the championship open for registration, two demo-swiss players with their own page.
    assert Registration.objects.count() == 8
