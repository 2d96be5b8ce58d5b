"""Organisers' pages: lists, search, filter, check-in, exports, roster, privacy tools."""

from __future__ import annotations

import io
import json

import pytest
from django.contrib.auth.models import Group, User
from django.urls import reverse
from django.utils import timezone

from championship.apps import ORGANISERS_GROUP
from registrations.models import MasterClassSignup, Registration
from registrations.services import masterclass
from tests.conftest import make_session

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser(client):  # type: ignore[no-untyped-def]
    user = User.objects.create_user("org", password="pw-organiser-123")
    user.groups.add(Group.objects.get(name=ORGANISERS_GROUP))
    client.force_login(user)
    return user


def add(tournament, name, email, status="entered"):  # type: ignore[no-untyped-def]
    return Registration.objects.create(
        tournament=tournament,
        name=name,
        email=email,
        phone="+14165550123",
        club="Toronto Club",
        experience="club",
        language="ru",
        consent_at=timezone.now(),
        status=status,
    )


def test_organisers_group_is_created_by_migrate():
    perms = set(
        Group.objects.get(name=ORGANISERS_GROUP).permissions.values_list("codename", flat=True)
    )
    assert {"view_registration", "change_registration", "view_masterclasssignup"} <= perms
    assert "delete_registration" not in perms


def test_search_filter_and_sort(client, tournament, organiser):
    add(tournament, "Анна Иванова", "anna@example.org")
    add(tournament, "Boris", "boris@example.org", status="waitlisted")
    url = reverse("registrations:list", args=[tournament.slug])
    assert b"boris@example.org" in client.get(url).content
    only_anna = client.get(url, {"q": "анна"}).content.decode()
    assert "anna@example.org" in only_anna and "boris@example.org" not in only_anna
    waiting = client.get(url, {"status": "waitlisted"}).content.decode()
    assert "boris@example.org" in waiting and "anna@example.org" not in waiting
    by_name = client.get(url, {"sort": "-name"}).content.decode()
    assert by_name.index("Анна") < by_name.index("Boris")  # Cyrillic sorts after Latin


def test_check_in_toggle(client, tournament, organiser):
    reg = add(tournament, "Анна", "anna@example.org")
    url = reverse("registrations:check_in", args=[reg.pk])
    list_url = reverse("registrations:list", args=[tournament.slug])
    assert client.get(url).status_code == 405  # POST only
    response = client.post(url, {"next": list_url + "?q=x"})
    assert response.status_code == 302 and response["Location"] == list_url + "?q=x"
    reg.refresh_from_db()
    assert reg.checked_in_at is not None
    client.post(url, {"next": "https://evil.example/"})
    reg.refresh_from_db()
    assert reg.checked_in_at is None
    # Back to the page without the lang= it was opened with (it would undo a language switch).
    response = client.post(url, {"next": list_url + "?q=x&lang=ru"})
    assert response["Location"] == list_url + "?q=x"


def test_csv_and_xlsx_exports(client, tournament, organiser):
    add(tournament, "Анна Иванова", "anna@example.org")
    url = reverse("registrations:list", args=[tournament.slug])
    csv = client.get(url, {"_export": "csv"})
    assert csv["Content-Type"].startswith("text/csv")
    text = csv.content.decode("utf-8")
    assert "Анна Иванова" in text and "anna@example.org" in text and "+14165550123" in text
    xlsx = client.get(url, {"_export": "xlsx"})
    assert xlsx.content[:2] == b"PK"  # a zip container
    from openpyxl import load_workbook

    sheet = load_workbook(io.BytesIO(xlsx.content)).active
    values = [c.value for row in sheet.iter_rows() for c in row]
    assert "Анна Иванова" in values


def test_signup_list_and_printable_roster(client, organiser):
    session = make_session(seats=1)
    masterclass.signup_create(
        experience="newcomer",
        session=session,
        name="Первый",
        email="a@example.org",
        phone="+14165550123",
        language="ru",
    )
    masterclass.signup_create(
        experience="newcomer",
        session=session,
        name="Second",
        email="b@example.org",
        phone="",
        language="en",
    )
    page = client.get(reverse("registrations:signup_list", args=[session.pk])).content.decode()
    assert "a@example.org" in page and "b@example.org" in page
    roster = client.get(reverse("registrations:roster", args=[session.pk])).content.decode()
    assert "Первый" in roster and "+14165550123" in roster
    assert roster.index("Первый") < roster.index("Second")  # booked first, then the waiting list
    csv = client.get(reverse("registrations:signup_list", args=[session.pk]), {"_export": "csv"})
    assert "Первый" in csv.content.decode()


def test_person_export_and_anonymise(client, tournament, organiser):
    reg = add(tournament, "Анна Иванова", "Anna@Example.org")
    session = make_session()
    masterclass.signup_create(
        experience="newcomer",
        session=session,
        name="Анна Иванова",
        email="anna@example.org",
        phone="",
        language="ru",
    )
    url = reverse("registrations:person")
    page = client.get(url, {"email": "anna@example.org"}).content.decode()
    assert "Анна Иванова" in page
    exported = client.post(url, {"email": "anna@example.org", "action": "export"})
    assert exported["Content-Disposition"].startswith("attachment")
    data = json.loads(exported.content)
    assert data["registrations"][0]["phone"] == "+14165550123"
    assert len(data["masterclass_signups"]) == 1 and data["emails"]

    not_confirmed = client.post(url, {"email": "anna@example.org", "action": "anonymise"})
    assert not_confirmed.status_code == 200
    assert Registration.objects.get(pk=reg.pk).anonymised_at is None

    client.post(url, {"email": "anna@example.org", "action": "anonymise", "confirm": "yes"})
    reg.refresh_from_db()
    # The row is kept (counts stay true); its place in a tournament still to come is given up.
    assert reg.anonymised_at is not None and reg.status == "withdrawn"
    assert reg.name == "А. И." and "Anna" not in reg.email and not reg.phone and not reg.club
    signup = MasterClassSignup.objects.get()
    assert signup.name == "А. И." and "anna" not in signup.email
    assert (
        json.loads(client.post(url, {"email": "anna@example.org", "action": "export"}).content)[
            "registrations"
        ]
        == []
    )


def test_only_entered_players_show_a_check_in_button(client, tournament, organiser):
    add(tournament, "Анна", "anna@example.org")
    waiting = add(tournament, "Boris", "boris@example.org", status="waitlisted")
    list_url = reverse("registrations:list", args=[tournament.slug])
    page = client.get(list_url).content.decode()
    assert page.count(">Check in</button>") == 1
    assert reverse("registrations:check_in", args=[waiting.pk]) not in page
