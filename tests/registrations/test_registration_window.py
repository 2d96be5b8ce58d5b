"""Issue 21, point 5: registration closes. One rule (``Tournament.registration_state``) says
whether registration is open, and every door reads it: the pages (home, tournament, form,
the player's own page), the service behind the form (a stale form sent after the close is
refused), and the e-mails. With no close date it is open until the first day — in the
tournament's time zone — and never once round 1 is paired or the tournament is finished."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core import mail
from django.test import Client
from hypothesis import given, settings
from hypothesis import strategies as st

from championship import services
from championship.models import RegistrationState, Tournament
from registrations import tokens
from registrations.models import Registration
from registrations.services import entries
from tests.championship.organiser import make, play
from tests.conftest import make_registrations, registration_form
from tests.hypothesis_profiles import examples

pytestmark = pytest.mark.django_db

TORONTO = ZoneInfo("America/Toronto")


def fresh(t: Tournament) -> Tournament:
    t.refresh_from_db()  # dates as dates
    return t


def at(day: str, hour: int, zone: ZoneInfo = TORONTO) -> datetime:
    return datetime.fromisoformat(f"{day}T{hour:02d}:00:00").replace(tzinfo=zone)


def test_without_a_close_date_registration_is_open_until_the_first_day_in_toronto() -> None:
    t = fresh(make(n=0))  # first day 2027-03-14, no close date
    assert t.registration_closes_on is None
    assert t.registration_state(at("2027-03-13", 12)) == RegistrationState.OPEN
    assert t.registration_state(at("2027-03-14", 23)) == RegistrationState.OPEN
    # 03:00 UTC on the 15th is still the 14th in Toronto: open; on the 15th there, closed.
    assert t.registration_state(at("2027-03-15", 3, ZoneInfo("UTC"))) == RegistrationState.OPEN
    assert t.registration_state(at("2027-03-15", 0)) == RegistrationState.CLOSED
    # A venue in another zone reads its own calendar day.
    t.time_zone = "Asia/Tokyo"  # 2027-03-15 in Tokyo while it is the 14th in Toronto
    assert t.registration_state(at("2027-03-14", 12)) == RegistrationState.CLOSED


def test_registration_closes_when_round_one_is_paired_and_stays_closed_after_finish() -> None:
    t = fresh(make(n=4, rounds=1))
    with time_machine.travel(at("2027-03-01", 12), tick=False):
        assert t.registration_is_open
        play(t)
        t.refresh_from_db()
        assert t.registration_state() == RegistrationState.STARTED
        services.tournament_finish(tournament=t)
        t.refresh_from_db()
        assert t.registration_state() == RegistrationState.FINISHED
        assert not t.registration_is_open


@settings(max_examples=examples(60))
@given(
    offset=st.integers(min_value=-40, max_value=40),
    opens=st.one_of(st.none(), st.integers(min_value=-30, max_value=0)),
    closes=st.one_of(st.none(), st.integers(min_value=-30, max_value=0)),
    switch=st.booleans(),
    status=st.sampled_from(list(Tournament.Status.values)),
)
def test_open_exactly_when_every_condition_holds(
    offset: int, opens: int | None, closes: int | None, switch: bool, status: str
) -> None:
    """The rule as a property (no database): open ⇔ switch on, not started, not finished,
    and today within [opening day, close date or first day]."""
    first = date(2027, 3, 14)
    t = Tournament(
        name="T",
        slug="t",
        starts_on=first,
        ends_on=first,
        registration_open=switch,
        registration_opens_on=first + timedelta(days=opens) if opens is not None else None,
        registration_closes_on=first + timedelta(days=closes) if closes is not None else None,
        status=status,
    )
    today = first + timedelta(days=offset)
    now = datetime(today.year, today.month, today.day, 12, tzinfo=TORONTO)
    expected = (
        switch
        and status == Tournament.Status.REGISTRATION
        and (t.registration_opens_on is None or today >= t.registration_opens_on)
        and today <= (t.registration_closes_on or first)
    )
    assert (t.registration_state(now) == RegistrationState.OPEN) is expected


def test_a_stale_form_sent_after_finish_registers_nobody() -> None:
    """The issue: after *Finish* a registration landed on the finished tournament's waiting
    list. The form was loaded while open; it is sent after the tournament finished."""
    t = fresh(make(n=4, rounds=1, entry_cap=4))
    client = Client()
    with time_machine.travel(at("2027-03-01", 12), tick=False):
        assert 'name="email"' in client.get(f"/tournaments/{t.slug}/register/").content.decode()
        play(t)
        services.tournament_finish(tournament=t)
        response = client.post(f"/tournaments/{t.slug}/register/", registration_form())
        assert "Registration for this tournament is closed" in response.content.decode()
        assert "The tournament is finished." in response.content.decode()
        assert not Registration.objects.exists()
        # The service itself refuses, whatever page calls it.
        with pytest.raises(entries.RegistrationClosed):
            entries.registration_create(
                tournament=t,
                name="Late Comer",
                email="late@example.org",
                phone="+14165550123",
                club="",
                experience="club",
                language="en",
            )


def test_home_and_tournament_page_say_the_same_state() -> None:
    """The issue: the home page showed "Final" beside "Join the waiting list"."""
    start = date.today() + timedelta(days=2)
    t = make(n=4, rounds=1, entry_cap=2)
    Tournament.objects.filter(pk=t.pk).update(starts_on=start, ends_on=start)
    t.refresh_from_db()
    make_registrations(t, 2)
    client = Client()
    home = client.get("/").content.decode()
    page = client.get(f"/tournaments/{t.slug}/").content.decode()
    for html in (home, page):
        assert 'data-state="open"' in html and "Join the waiting list" in html  # 2 of 2
    play(t)
    services.tournament_finish(tournament=t)
    home = client.get("/").content.decode()
    page = client.get(f"/tournaments/{t.slug}/").content.decode()
    for html in (home, page):
        assert "Join the waiting list" not in html and ">Register<" not in html
        assert "Final" in html
    assert 'data-state="finished"' in home


def test_the_players_own_page_offers_entering_again_only_while_open() -> None:
    t = fresh(make(n=0))
    with time_machine.travel(at("2027-03-01", 12), tick=False):
        reg = entries.registration_create(
            tournament=t,
            name="Anna",
            email="anna@example.org",
            phone="+14165550123",
            club="",
            experience="club",
            language="en",
        ).registration
        entries.registration_withdraw(registration=reg)
        token = tokens.make_token(tokens.MANAGE, reg.pk, reg.email)
        page = Client().get(f"/registration/manage/{token}/").content.decode()
        assert "Enter the tournament again" in page
        withdrawn = mail.outbox[-1].body
        assert "You can enter again" in withdrawn
    with time_machine.travel(at("2027-03-15", 12), tick=False):
        client = Client()
        page = client.get(f"/registration/manage/{token}/").content.decode()
        assert "Enter the tournament again" not in page and 'id="reenter-closed"' in page
        response = client.post(f"/registration/manage/{token}/reenter/", follow=True)
        assert "closed" in response.content.decode()
        reg.refresh_from_db()
        assert reg.status == Registration.Status.WITHDRAWN


def test_the_close_date_cannot_be_after_the_last_day() -> None:
    from django.core.exceptions import ValidationError

    t = fresh(make(n=0))
    t.registration_closes_on = date(2027, 3, 20)
    with pytest.raises(ValidationError, match="after the last day"):
        t.full_clean()
