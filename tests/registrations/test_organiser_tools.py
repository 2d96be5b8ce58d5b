"""The organisers' tools: counts and waiting-list positions on the list, the daily digest
(optional, off by default), announcements in each person's language through the outbox, and
the sign-up lists and rosters linked from the master-class page and the organisers' menu."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import Group, User
from django.urls import reverse
from django.utils import timezone

from championship.apps import ORGANISERS_GROUP
from registrations.models import Announcement, DigestSubscription, OutboundEmail, Registration
from registrations.services import announcements
from registrations.tasks import send_registration_digests
from tests.conftest import make_registrations, make_session

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser_user():  # type: ignore[no-untyped-def]
    user = User.objects.create_user("org", "org@nardy.example", "pw-organiser-123")
    user.groups.add(Group.objects.get(name=ORGANISERS_GROUP))
    return user


@pytest.fixture
def organiser(client, organiser_user):  # type: ignore[no-untyped-def]
    client.force_login(organiser_user)
    return client


@pytest.fixture
def field(tournament):  # type: ignore[no-untyped-def]
    tournament.entry_cap = 3
    tournament.save()
    now = timezone.now()
    entered = make_registrations(tournament, 3, language="ru")
    Registration.objects.filter(pk=entered[0].pk).update(checked_in_at=now)
    Registration.objects.filter(pk=entered[1].pk).update(email_confirmed_at=None)
    waiting = make_registrations(tournament, 2, prefix="w", status="waitlisted", language="en")
    make_registrations(tournament, 1, prefix="x", status="withdrawn")
    return {"entered": entered, "waiting": waiting}


def test_the_list_shows_counts_and_waiting_list_positions(organiser, tournament, field):  # type: ignore[no-untyped-def]
    page = organiser.get(
        reverse("registrations:list", args=[tournament.slug]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    counts = re.search(r'<ul class="list-inline registration-counts.*?</ul>', page, re.S)
    assert counts
    words = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", counts.group(0)))
    for shown in ("Entered: 3 of 3", "Waiting: 2", "E-mail confirmed: 4", "Checked in: 1"):
        assert shown in words, words
    assert "Waiting list · 1" in page and "Waiting list · 2" in page
    # Positions stay true whatever the list is filtered by.
    second = organiser.get(
        reverse("registrations:list", args=[tournament.slug]), {"q": "w1@"}
    ).content.decode()
    assert "Waiting list · 2" in second and "Waiting list · 1" not in second


def test_the_digest_is_off_by_default_and_sent_once_to_those_who_ask(
    organiser, organiser_user, tournament, mailoutbox
):  # type: ignore[no-untyped-def]
    make_registrations(tournament, 2)
    assert send_registration_digests() == 0 and not mailoutbox  # nobody asked
    organiser.post(reverse("registrations:digest"), {"digest": "on"}, HTTP_ACCEPT_LANGUAGE="ru")
    subscription = DigestSubscription.objects.get(user=organiser_user)
    assert subscription.language == "ru"
    assert send_registration_digests() == 0  # nothing new since asking
    later = timezone.now() + timedelta(minutes=1)
    Registration.objects.update(created_at=later)
    make_session()
    assert announcements.digests_claim(now=later + timedelta(hours=1)) == [subscription.pk]
    assert announcements.digests_claim(now=later + timedelta(hours=1)) == []  # claimed once
    (message,) = mailoutbox
    assert message.to == ["org@nardy.example"]
    assert message.subject.startswith("Новые регистрации: ")
    assert "Toronto Open (2 новые регистрации)" in message.body
    assert (
        "Игрок 0" in message.body
        and f"/tournaments/{tournament.slug}/registrations/" in message.body
    )
    organiser.post(reverse("registrations:digest"), {"digest": "off"})
    assert not DigestSubscription.objects.exists()


def test_an_announcement_reaches_each_person_in_their_language(
    organiser, tournament, field, mailoutbox
):  # type: ignore[no-untyped-def]
    url = reverse("registrations:announce", args=[tournament.slug])
    message = {
        "audience": "both",
        "subject": "Start moved to 10:00",
        "body": "The first round starts at 10:00.",
        "subject_ru": "Начало в 10:00",
        "body_ru": "Первый тур начинается в 10:00.",
    }
    preview = organiser.post(url, {**message, "preview": "1"}, HTTP_ACCEPT_LANGUAGE="en")
    page = preview.content.decode()
    assert "This goes to 5 people:" in page and "3 in Russian" in page and "2 in English" in page
    assert not OutboundEmail.objects.filter(kind="registration_announcement").exists()
    mailoutbox.clear()
    sent = organiser.post(url, {**message, "send": "1"})
    assert sent.status_code == 302
    announcement = Announcement.objects.get()
    assert announcement.recipients == 5
    rows = OutboundEmail.objects.filter(kind="registration_announcement")
    assert {r.params["announcement"] for r in rows} == {announcement.pk}
    by_address = {m.to[0]: m for m in mailoutbox}
    assert set(by_address) == {f"p{i}@example.org" for i in range(3)} | {
        "w0@example.org",
        "w1@example.org",
    }
    assert by_address["p0@example.org"].subject == "Начало в 10:00"
    assert "Первый тур начинается в 10:00." in by_address["p0@example.org"].body
    assert by_address["w0@example.org"].subject == "Start moved to 10:00"
    assert by_address["w0@example.org"].body.startswith("Hello Игрок 0,\n\nThe first round")


def test_an_announcement_in_one_language_goes_to_everyone_in_it(
    organiser, tournament, field, mailoutbox
):  # type: ignore[no-untyped-def]
    url = reverse("registrations:announce", args=[tournament.slug])
    half = organiser.post(url, {"audience": "waitlisted", "subject": "S", "preview": "1"})
    assert half.status_code == 400  # a subject without a message
    mailoutbox.clear()
    organiser.post(
        url, {"audience": "entered", "subject": "Bring a pen", "body": "Thanks.", "send": "1"}
    )
    assert sorted(m.to[0] for m in mailoutbox) == [f"p{i}@example.org" for i in range(3)]
    assert all(m.subject == "Bring a pen" for m in mailoutbox)  # Russian speakers too


def test_sign_up_lists_and_rosters_are_linked_for_organisers(organiser, client):  # type: ignore[no-untyped-def]
    session = make_session()
    signups = reverse("registrations:signup_list", args=[session.pk])
    roster = reverse("registrations:roster", args=[session.pk])
    masterclass_page = organiser.get("/master-class/").content.decode()
    assert signups in masterclass_page and roster in masterclass_page
    overview = reverse("registrations:overview")
    home = organiser.get("/").content.decode()
    assert f'href="{overview}"' in home  # the organisers' menu, on every page
    overview_page = organiser.get(overview).content.decode()
    assert signups in overview_page and roster in overview_page
    client.logout()
    anonymous = client.get("/master-class/").content.decode()
    assert signups not in anonymous and overview not in client.get("/").content.decode()


def test_an_organiser_withdraws_a_player_from_the_registration_page(
    organiser, tournament, field, mailoutbox
):  # type: ignore[no-untyped-def]
    player = field["entered"][2]
    url = reverse("registrations:registration_detail", args=[player.pk])
    page = organiser.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert player.email in page and "Entered" in page
    organiser.post(url, {"action": "withdraw"})  # not confirmed: nothing happens
    assert Registration.objects.get(pk=player.pk).status == "entered"
    mailoutbox.clear()
    organiser.post(url, {"action": "withdraw", "confirm": "yes"})
    assert Registration.objects.get(pk=player.pk).status == "withdrawn"
    assert Registration.objects.get(pk=field["waiting"][0].pk).status == "entered"
    withdrawn = [m for m in mailoutbox if m.to == [player.email]]
    assert len(withdrawn) == 1 and "Организаторы отменили" in withdrawn[0].body
    history = organiser.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Registration: withdrawn" in history  # the e-mails sent, in words
