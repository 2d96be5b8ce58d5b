"""The organisers' registrations and sign-ups exports (common.exports): opened with csv and
openpyxl as a spreadsheet would, with hostile names — formulas, Cyrillic, right-to-left text."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime

import pytest
from django.contrib.auth.models import Group, User
from django.urls import reverse
from openpyxl import load_workbook

from championship.apps import ORGANISERS_GROUP
from common.exports import FORMULA_TRIGGERS
from registrations.models import MasterClassSignup, Registration
from tests.conftest import make_session

pytestmark = pytest.mark.django_db

HOSTILE = [
    ('=HYPERLINK("http://x","y")', "@SUM(1+1)"),
    ("+1 cmd", "-2+3"),
    ("Анна Иванова", "Торонто"),
    ("\u202eevil", "محمد علي"),
]
REGISTERED = datetime(2026, 12, 23, 23, 30, 5, 123456, tzinfo=UTC)  # 18:30 in Toronto


@pytest.fixture
def organiser(client):  # type: ignore[no-untyped-def]
    user = User.objects.create_user("org", password="pw-organiser-123")
    user.groups.add(Group.objects.get(name=ORGANISERS_GROUP))
    client.force_login(user)
    return client


@pytest.fixture
def hostile(tournament):  # type: ignore[no-untyped-def]
    tournament.entry_cap = 3
    tournament.save()
    for i, (name, club) in enumerate(HOSTILE):
        Registration.objects.create(
            tournament=tournament,
            name=name,
            email=f"p{i}@example.org",
            phone="+14165550123",
            club=club,
            experience="club",
            language="ru",
            consent_at=REGISTERED,
            created_at=REGISTERED.replace(second=i),
            email_confirmed_at=REGISTERED if i % 2 else None,
            status="waitlisted" if i == 3 else "entered",
        )
    return tournament


def download(client, url: str, fmt: str, language: str = "en"):  # type: ignore[no-untyped-def]
    response = client.get(url, {"_export": fmt}, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response


def test_registrations_csv_is_safe_and_typed(organiser, hostile):  # type: ignore[no-untyped-def]
    url = reverse("registrations:list", args=[hostile.slug])
    response = download(organiser, url, "csv")
    assert response.content.startswith(b"\xef\xbb\xbf")  # Excel reads the Cyrillic right
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"), newline="")))
    header, body = rows[0], rows[1:]
    assert header[:3] == ["Full name", "E-mail", "Phone"]
    assert all(not cell.startswith(FORMULA_TRIGGERS) for row in rows for cell in row)
    column = {name: i for i, name in enumerate(header)}
    assert [r[column["Full name"]] for r in body] == [
        "'" + HOSTILE[0][0],
        "'" + HOSTILE[1][0],
        "Анна Иванова",
        "\u202eevil",
    ]
    assert [r[column["Club or city"]] for r in body][:2] == ["'@SUM(1+1)", "'-2+3"]
    assert body[0][column["Phone"]] == "'+14165550123"  # text, not the number 14165550123
    assert body[0][column["Registered at"]] == "2026-12-23 18:30"  # Toronto, no microseconds
    assert [r[column["E-mail confirmed"]] for r in body] == ["No", "Yes", "No", "Yes"]
    assert [r[column["Status"]] for r in body] == ["Entered"] * 3 + ["Waiting list"]
    assert [r[column["Waiting-list position"]] for r in body] == ["", "", "", "1"]


def test_registrations_xlsx_is_safe_and_typed_in_russian(organiser, hostile):  # type: ignore[no-untyped-def]
    url = reverse("registrations:list", args=[hostile.slug])
    response = download(organiser, url, "xlsx", language="ru")
    assert response["Content-Disposition"] == (
        f'attachment; filename="registrations-{hostile.slug}.xlsx"'
    )
    workbook = load_workbook(io.BytesIO(response.content))
    assert workbook.sheetnames == ["Регистрации"]
    sheet = workbook.active
    header = [c.value for c in sheet[1]]
    assert header[:4] == ["Имя и фамилия", "Электронная почта", "Телефон", "Клуб или город"]
    column = {name: i + 1 for i, name in enumerate(header)}
    for row, (name, club) in enumerate(HOSTILE, start=2):
        for value, field in ((name, "Имя и фамилия"), (club, "Клуб или город")):
            cell = sheet.cell(row=row, column=column[field])
            assert cell.data_type == "s" and cell.value == value
    phone = sheet.cell(row=2, column=column["Телефон"])
    assert phone.data_type == "s" and phone.value == "+14165550123"
    registered = sheet.cell(row=2, column=column["Дата регистрации"])
    assert registered.is_date and registered.value == datetime(2026, 12, 23, 18, 30, 0)
    confirmed = [sheet.cell(row=r, column=column["Почта подтверждена"]).value for r in (2, 3)]
    assert confirmed == ["Нет", "Да"]
    position = sheet.cell(row=5, column=column["Номер в листе ожидания"])
    assert position.value == 1 and position.data_type == "n"
    assert all(c.data_type != "f" for row in sheet.iter_rows() for c in row)


def test_signups_exports_are_safe_and_typed(organiser):  # type: ignore[no-untyped-def]
    session = make_session(seats=1)
    for i, (name, _club) in enumerate(HOSTILE):
        MasterClassSignup.objects.create(
            session=session,
            name=name,
            email=f"s{i}@example.org",
            phone="+14165550123" if i == 0 else "",
            language="en",
            consent_at=REGISTERED,
            created_at=REGISTERED.replace(second=i),
            status="booked" if i == 0 else "waitlisted",
        )
    url = reverse("registrations:signup_list", args=[session.pk])
    rows = list(
        csv.reader(
            io.StringIO(download(organiser, url, "csv").content.decode("utf-8-sig"), newline="")
        )
    )
    assert rows[1][0] == "'" + HOSTILE[0][0] and rows[1][2] == "'+14165550123"
    assert all(not cell.startswith(FORMULA_TRIGGERS) for row in rows for cell in row)
    assert [r[5] for r in rows[1:]] == ["", "1", "2", "3"]  # waiting-list positions
    workbook = load_workbook(io.BytesIO(download(organiser, url, "xlsx").content))
    assert workbook.sheetnames == ["Master-class sign-ups"]
    sheet = workbook.active
    assert sheet.cell(row=2, column=1).value == HOSTILE[0][0]
    assert sheet.cell(row=2, column=1).data_type == "s"
    assert sheet.cell(row=2, column=7).value == datetime(2026, 12, 23, 18, 30, 0)
