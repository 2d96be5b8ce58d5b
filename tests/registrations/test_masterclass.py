"""Master-class sign-up, waiting list, cancellation and reminders."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from registrations import tokens
from registrations.models import MasterClassSignup
from registrations.services import masterclass
from registrations.tasks import send_masterclass_reminders
from tests.conftest import make_session

pytestmark = pytest.mark.django_db


def signup(client, session, email, **extra):  # type: ignore[no-untyped-def]
    data = {
        "name": "Новичок",
        "email": email,
        "phone": "",
        "language": "en",
        "consent": "on",
        "experience": "newcomer",
        **extra,
    }
    return client.post(reverse("registrations:signup", args=[session.pk]), data)


def test_newcomer_signs_up_without_a_tournament_registration(client, mailoutbox):
    session = make_session(seats=2)
    assert signup(client, session, "a@example.org").status_code == 302
    s = MasterClassSignup.objects.get()
    assert s.status == "booked" and s.registration is None
    assert "booked" in mailoutbox[0].body


def test_full_session_waitlists_and_a_cancellation_promotes_the_first(client, mailoutbox):
    session = make_session(seats=1)
    signup(client, session, "a@example.org")
    signup(client, session, "b@example.org")
    signup(client, session, "c@example.org")
    assert list(MasterClassSignup.objects.values_list("status", flat=True)) == [
        "booked",
        "waitlisted",
        "waitlisted",
    ]
    first = MasterClassSignup.objects.get(email="a@example.org")
    url = reverse(
        "registrations:signup_cancel",
        args=[tokens.make_token(tokens.SIGNUP, first.pk, first.email)],
    )
    assert client.get(url).status_code == 200
    mailoutbox.clear()
    assert client.post(url).status_code == 302
    statuses = dict(MasterClassSignup.objects.values_list("email", "status"))
    assert statuses == {
        "a@example.org": "cancelled",
        "b@example.org": "booked",
        "c@example.org": "waitlisted",
    }
    # The cancellation is confirmed to its author; the freed seat is announced to the next.
    assert sorted((m.to[0], m.subject) for m in mailoutbox) == [
        ("a@example.org", f"Master class: {session.title}, cancelled"),
        ("b@example.org", f"Master class: a seat is free for you at {session.title}"),
    ]
    # Cancelling twice changes nothing.
    client.post(url)
    assert MasterClassSignup.objects.filter(status="booked").count() == 1


def test_duplicate_signup_creates_no_second_row(client, mailoutbox):
    session = make_session()
    signup(client, session, "a@example.org")
    signup(client, session, "A@EXAMPLE.ORG")
    assert MasterClassSignup.objects.count() == 1
    assert len(mailoutbox) == 2 and "already signed up" in mailoutbox[1].body


def test_signup_errors_keep_input(client):
    session = make_session()
    response = signup(client, session, "bad", name="Иван", consent="")
    assert response.status_code == 400
    assert 'value="Иван"' in response.content.decode()
    assert MasterClassSignup.objects.count() == 0


def test_reminders_go_out_the_day_before_once(mailoutbox):
    tomorrow = make_session(days=1)
    later = make_session(days=3)
    now = timezone.now()
    masterclass.signup_create(
        experience="newcomer",
        session=tomorrow,
        name="A",
        email="a@example.org",
        phone="",
        language="ru",
    )
    masterclass.signup_create(
        experience="newcomer",
        session=later,
        name="B",
        email="b@example.org",
        phone="",
        language="en",
    )
    cancelled, _ = masterclass.signup_create(
        experience="newcomer",
        session=tomorrow,
        name="C",
        email="c@example.org",
        phone="",
        language="en",
    )
    masterclass.signup_cancel(signup=cancelled)
    mailoutbox.clear()
    assert send_masterclass_reminders() == 1
    assert [m.to for m in mailoutbox] == [["a@example.org"]]
    assert "завтра" in mailoutbox[0].body  # in the sign-up's language
    assert send_masterclass_reminders() == 0  # never twice
    assert masterclass.signup_reminders_claim(now=now + timedelta(days=2)) == [
        MasterClassSignup.objects.get(email="b@example.org").pk
    ]


def test_beat_schedule_runs_the_reminders_daily(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["master-class-reminders"]
    assert entry["task"] == "registrations.tasks.send_masterclass_reminders"
