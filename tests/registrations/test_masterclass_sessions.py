"""Issue 21, point 12: organisers create, change and cancel master-class sessions on their
own pages (not the admin), and remove the demo data; and one rule of who may book the master
class (newcomers: README, the pages' title, the registration form), enforced by the service
both doors call — the registration form and the sign-up page."""

from __future__ import annotations

from datetime import datetime, time, timedelta
from io import StringIO

import pytest
from django.core import mail
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from championship.models import Tournament
from games.management.commands.seed_demo import Command as SeedDemo
from registrations.models import MasterClassSession, MasterClassSignup, Registration
from registrations.services import masterclass
from tests.conftest import make_registrations, make_session, registration_form
from tests.games.helpers import organiser_client

pytestmark = pytest.mark.django_db


def when(days: int, hour: int = 18) -> str:
    day = timezone.localdate() + timedelta(days=days)
    return f"{day.isoformat()}T{hour:02d}:30"


def session_form(**changes: object) -> dict[str, object]:
    return {
        "title": "Rules in an evening",
        "title_ru": "Правила за вечер",
        "starts_at": when(10),
        "duration_minutes": "90",
        "place": "North York Central Library",
        "language": "ru",
        "seats": "2",
        "tournament": "",
        **changes,
    }


def sign_up(session: MasterClassSession, name: str, experience: str = "newcomer") -> None:
    masterclass.signup_create(
        session=session,
        name=name,
        email=f"{name.lower()}@example.org",
        phone="",
        language="en",
        experience=experience,
    )


def test_an_organiser_creates_a_session_on_the_organisers_pages(tournament: Tournament) -> None:
    org, _user = organiser_client()
    overview = org.get(reverse("registrations:overview")).content.decode()
    assert reverse("registrations:session_create") in overview
    response = org.post(
        reverse("registrations:session_create"),
        session_form(tournament=str(tournament.pk)),
        follow=True,
    )
    assert "The session Rules in an evening is created." in response.content.decode()
    session = MasterClassSession.objects.get()
    assert session.tournament == tournament and session.seats == 2
    assert timezone.localtime(session.starts_at).time() == time(18, 30)  # Toronto time
    # Offered publicly and on the tournament's registration form.
    assert "Rules in an evening" in Client().get("/master-class/").content.decode()
    form = Client().get(reverse("registrations:register", args=[tournament.slug]))
    assert "Rules in an evening" in form.content.decode()


@pytest.mark.parametrize(
    ("changes", "error"),
    [
        ({"starts_at": when(-1)}, "must start in the future"),
        ({"seats": "0"}, "at least one seat"),
        ({"seats": "many"}, "Enter a whole number"),
        ({"title": ""}, "This field is required"),
        ({"starts_at": "tomorrow"}, "Enter a valid date/time"),
    ],
)
def test_a_bad_session_is_refused_next_to_the_form_and_what_was_typed_is_kept(
    changes: dict[str, str], error: str
) -> None:
    org, _user = organiser_client()
    response = org.post(reverse("registrations:session_create"), session_form(**changes))
    html = response.content.decode()
    assert response.status_code == 400 and error in html
    assert 'value="North York Central Library"' in html
    assert not MasterClassSession.objects.exists()


def test_seats_never_go_below_those_booked_and_seats_added_go_to_the_waiting_list() -> None:
    session = make_session(seats=2)
    for name in ("Anna", "Boris", "Chen", "Dana"):
        sign_up(session, name)
    org, _user = organiser_client()
    url = reverse("registrations:session_edit", args=[session.pk])
    page = org.get(url).content.decode()
    assert "2 of 2 seats booked" in page
    data = session_form(
        title=session.title,
        starts_at=timezone.localtime(session.starts_at).strftime("%Y-%m-%dT%H:%M"),
        place=session.place,
        language=session.language,
        seats="1",
    )
    refused = org.post(url, data)
    assert refused.status_code == 400
    assert "2 seats are booked: the session cannot have fewer seats" in refused.content.decode()
    assert MasterClassSession.objects.get(pk=session.pk).seats == 2
    mail.outbox.clear()
    saved = org.post(url, {**data, "seats": "3"}, follow=True).content.decode()
    assert "Seats added go to Chen from the waiting list" in saved
    assert MasterClassSignup.objects.get(name="Chen").status == "booked"
    assert MasterClassSignup.objects.get(name="Dana").status == "waitlisted"
    assert [m.to for m in mail.outbox] == [["chen@example.org"]]


def test_a_new_time_is_e_mailed_to_everyone_signed_up() -> None:
    session = make_session(seats=1)
    sign_up(session, "Anna")
    sign_up(session, "Boris")  # waiting
    mail.outbox.clear()
    org, _user = organiser_client()
    url = reverse("registrations:session_edit", args=[session.pk])
    data = session_form(title=session.title, starts_at=when(8, 19), seats="1")
    response = org.post(url, data, follow=True)
    assert "2 people signed up are e-mailed the new time and place." in response.content.decode()
    assert sorted(m.to[0] for m in mail.outbox) == ["anna@example.org", "boris@example.org"]
    anna = next(m for m in mail.outbox if m.to == ["anna@example.org"])
    assert "new time or place" in anna.subject and anna.attachments  # the calendar file


def test_cancelling_a_session_tells_everyone_and_closes_its_sign_ups() -> None:
    session = make_session(seats=1)
    sign_up(session, "Anna")
    sign_up(session, "Boris")
    mail.outbox.clear()
    org, _user = organiser_client()
    url = reverse("registrations:session_cancel", args=[session.pk])
    ask = org.get(url).content.decode()
    assert "1 booked and 1 waiting" in ask
    org.post(url, {})  # not confirmed: nothing happens
    assert MasterClassSession.objects.get(pk=session.pk).cancelled_at is None
    done = org.post(url, {"confirm": "yes"}, follow=True).content.decode()
    assert "is cancelled; 2 people signed up are e-mailed" in done
    assert set(MasterClassSignup.objects.values_list("status", flat=True)) == {"cancelled"}
    assert all("cancelled by the organisers" in m.subject for m in mail.outbox)
    assert len(mail.outbox) == 2
    assert session.title not in Client().get("/master-class/").content.decode()
    page = Client().get(reverse("registrations:signup", args=[session.pk])).content.decode()
    assert 'id="signup-closed"' in page and 'name="email"' not in page
    with pytest.raises(masterclass.MasterClassError, match="cancelled"):
        sign_up(MasterClassSession.objects.get(pk=session.pk), "Chen")


def test_a_session_nobody_signed_up_for_is_deleted() -> None:
    session = make_session()
    org, _user = organiser_client()
    url = reverse("registrations:session_cancel", args=[session.pk])
    assert "Nobody has signed up: the session is deleted." in org.get(url).content.decode()
    org.post(url, {"confirm": "yes"})
    assert not MasterClassSession.objects.exists()


def test_a_session_that_has_begun_takes_no_sign_up() -> None:
    session = make_session()
    MasterClassSession.objects.filter(pk=session.pk).update(
        starts_at=timezone.now() - timedelta(minutes=5)
    )
    with pytest.raises(masterclass.MasterClassError, match="begun"):
        sign_up(MasterClassSession.objects.get(pk=session.pk), "Late")


# The beginner rule ------------------------------------------------------------------------


def test_a_beginner_is_refused_by_both_doors_and_by_the_service(tournament: Tournament) -> None:
    """The issue: the registration form refused a beginner the master class, the sign-up
    page accepted one. The master class is for newcomers (README, the page's title, the
    registration form); the rule is one function, ``signup_refusal``."""
    session = make_session(tournament=tournament)
    client = Client()
    form = client.post(
        reverse("registrations:register", args=[tournament.slug]),
        registration_form(experience="beginner", masterclass=str(session.pk)),
    )
    assert form.status_code == 400 and "The master class is for newcomers" in form.content.decode()
    page = client.post(
        reverse("registrations:signup", args=[session.pk]),
        {
            "name": "Olga",
            "email": "olga@example.org",
            "language": "en",
            "experience": "beginner",
            "consent": "on",
        },
    )
    assert page.status_code == 400 and "The master class is for newcomers" in page.content.decode()
    assert not MasterClassSignup.objects.exists()
    with pytest.raises(masterclass.MasterClassError, match="for newcomers"):
        sign_up(session, "Olga", experience="beginner")
    # A newcomer is welcome at both doors.
    ok = client.post(
        reverse("registrations:signup", args=[session.pk]),
        {
            "name": "Sam",
            "email": "sam@example.org",
            "language": "en",
            "experience": "newcomer",
            "consent": "on",
        },
    )
    assert ok.status_code == 302 and MasterClassSignup.objects.filter(name="Sam").exists()


def test_the_offered_sign_up_brings_the_registrations_experience(tournament: Tournament) -> None:
    session = make_session(tournament=tournament)
    client = Client()
    client.post(
        reverse("registrations:register", args=[tournament.slug]),
        registration_form(experience="newcomer"),
    )
    offer = reverse("registrations:signup", args=[session.pk]) + "?from=registration"
    html = client.get(offer).content.decode()
    assert 'value="newcomer"' in html and "checked" in html.split('value="newcomer"')[1][:40]


# Demo data --------------------------------------------------------------------------------


@pytest.fixture
def seed_small_demo(settings):  # type: ignore[no-untyped-def]
    """What seed_demo makes, with a small running Swiss (development: DEBUG on)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.DEBUG = True

    def seed() -> None:
        SeedDemo(stdout=StringIO()).seed_base()
        call_command(
            "seed_demo", "--players", "4", "--rounds", "1", "--slug", "demo-x", stdout=StringIO()
        )

    return seed


def real_data() -> tuple[Tournament, MasterClassSession]:
    day = timezone.localdate() + timedelta(days=40)
    mine = Tournament.objects.create(
        name="Real Open", slug="real", starts_on=day, ends_on=day, entry_cap=10
    )
    make_registrations(mine, 3)
    session = make_session(tournament=mine)
    sign_up(session, "Real")
    general = MasterClassSession.objects.create(
        title="General",
        starts_at=timezone.make_aware(datetime.combine(day, time(18))),
        place="Library",
        language="en",
        seats=5,
    )
    return mine, general


def test_remove_demo_removes_what_seed_demo_made_and_nothing_else(seed_small_demo) -> None:  # type: ignore[no-untyped-def]
    mine, general = real_data()
    seed_small_demo()
    assert set(Tournament.objects.filter(demo=True).values_list("slug", flat=True)) == {
        "toronto-2027",
        "demo-x",
    }
    out = StringIO()
    call_command("remove_demo", "--dry-run", stdout=out)
    assert "Would remove: 2 tournament(s)" in out.getvalue()
    assert Tournament.objects.filter(demo=True).count() == 2
    call_command("remove_demo", stdout=out)
    assert list(Tournament.objects.values_list("slug", flat=True)) == ["real"]
    assert Registration.objects.filter(tournament=mine).count() == 3
    assert set(MasterClassSession.objects.values_list("title", flat=True)) == {
        "Master class en",
        "General",
    }
    assert MasterClassSignup.objects.get().name == "Real"
    assert not Registration.objects.exclude(tournament=mine).exists()


def test_an_organiser_removes_the_demo_data_after_a_confirmation(seed_small_demo) -> None:  # type: ignore[no-untyped-def]
    real_data()
    seed_small_demo()
    org, _user = organiser_client()
    home = org.get("/manage/?all=1").content.decode()
    assert 'id="remove-demo"' in home
    dashboard = org.get("/t/demo-x/manage/").content.decode()
    assert 'id="demo-note"' in dashboard
    ask = org.get(reverse("demo_remove")).content.decode()
    assert "Toronto Modern Nardy Championship" in ask and "Real Open" not in ask
    org.post(reverse("demo_remove"), {})  # not confirmed
    assert Tournament.objects.filter(demo=True).count() == 2
    done = org.post(reverse("demo_remove"), {"confirm": "yes"}, follow=True).content.decode()
    assert "The demo data is removed" in done
    assert not Tournament.objects.filter(demo=True).exists()
    assert Tournament.objects.filter(slug="real").exists()
    assert 'id="remove-demo"' not in org.get("/manage/?all=1").content.decode()
    # Not for everyone: a user without the organisers' permission is refused.
    from django.contrib.auth.models import User

    stranger = Client()
    stranger.force_login(User.objects.create_user("stranger"))
    assert stranger.post(reverse("demo_remove"), {"confirm": "yes"}).status_code == 403
