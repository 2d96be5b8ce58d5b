"""Issue 11, point 8 (finding your way): home → tournament page → its public pages and, for
organisers, its dashboard; the organisers' menu; the landing page after login."""

from __future__ import annotations

import pytest
from django.test import Client

from championship.models import Tournament
from tests.championship.organiser import make, play
from tests.games.helpers import organiser_client

pytestmark = pytest.mark.django_db


def test_the_tournament_page_links_to_its_public_pages_and_for_organisers_its_dashboard() -> None:
    t = make(n=4, rounds=3)
    play(t)
    html = Client().get(f"/tournaments/{t.slug}/").content.decode()
    for link in (f"/t/{t.slug}/", f"/t/{t.slug}/standings/", f"/t/{t.slug}/pairings/1/"):
        assert f'href="{link}"' in html, link
    assert "4 players in the tournament" in html
    assert "/manage/" not in html
    org, _user = organiser_client()
    assert f'href="/t/{t.slug}/manage/"' in org.get(f"/tournaments/{t.slug}/").content.decode()


def test_the_organisers_menu_reaches_every_organiser_page() -> None:
    t = make(n=2)
    org, _user = organiser_client()
    html = org.get(f"/t/{t.slug}/manage/").content.decode()
    for page in ("manage/settings/", "manage/entrants/", "manage/byes/", "manage/forbidden-pairs/"):
        assert f'href="/t/{t.slug}/{page}"' in html, page
    assert f'href="/tournaments/{t.slug}/registrations/"' in html
    assert 'href="/organiser/registrations/"' in html  # registrations, sign-ups and rosters
    assert 'href="/manage/new/"' in html
    assert "/admin/championship/tournament" not in html  # never the admin


def test_after_login_an_organiser_lands_on_the_dashboard() -> None:
    t = make(n=4)
    play(t)
    org, user = organiser_client()
    user.set_password("pw-organiser-123")
    user.save()
    client = Client()
    response = client.post("/accounts/login/", {"username": "org", "password": "pw-organiser-123"})
    assert response.status_code == 302 and response["Location"] == "/manage/"
    assert client.get("/manage/")["Location"] == f"/t/{t.slug}/manage/"
    # Two tournaments under way: the list.
    other = make(slug="other", n=4)
    play(other)
    html = client.get("/manage/").content.decode()
    assert f'href="/t/{t.slug}/manage/"' in html and 'href="/t/other/manage/"' in html
    assert Tournament.objects.count() == 2


def test_a_plain_user_is_sent_home_after_login() -> None:
    from django.contrib.auth.models import User

    User.objects.create_user("plain", password="pw-plain-12345")
    client = Client()
    client.post("/accounts/login/", {"username": "plain", "password": "pw-plain-12345"})
    assert client.get("/manage/")["Location"] == "/"
