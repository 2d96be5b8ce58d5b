"""One service fills free places (registrations.services.waiting_list), and every path that
frees or adds a place reaches it: a player's or an organiser's withdrawal, the admin (status,
deletion, a higher cap, more seats), any other save, anonymisation. Each path is taken the way
a person takes it (the page, the admin form), and afterwards the first person waiting is
entered and e-mailed, the second still waits, and no free place is left while someone waits."""

from __future__ import annotations

from collections.abc import Callable
from html.parser import HTMLParser
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from championship.apps import ORGANISERS_GROUP
from championship.models import Tournament
from registrations import tokens
from registrations.models import MasterClassSession, MasterClassSignup, Registration
from registrations.services import entries, masterclass
from registrations.services.waiting_list import tournament_places_fill
from tests.conftest import make_session, registration_form

pytestmark = pytest.mark.django_db


class _AdminForm(HTMLParser):
    """The fields of the admin's change form as the browser would send them."""

    def __init__(self) -> None:
        super().__init__()
        self.data: dict[str, str] = {}
        self._select: str | None = None
        self._textarea: str | None = None
        self._in_form = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form" and a.get("id", "").endswith("_form"):
            self._in_form = True
        if not self._in_form or "name" not in a:
            if tag == "option" and self._select and "selected" in a:
                self.data[self._select] = a.get("value", "")
            return
        if tag == "input":
            kind = a.get("type", "text")
            if kind in ("checkbox", "radio"):
                if "checked" in a:
                    self.data[a["name"]] = a.get("value", "on")
            elif kind not in ("submit", "button", "file"):
                self.data[a["name"]] = a.get("value", "")
        elif tag == "select":
            self._select = a["name"]
            self.data.setdefault(a["name"], "")
        elif tag == "textarea":
            self._textarea = a["name"]
            self.data[a["name"]] = ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None
        elif tag == "form":
            self._in_form = False

    def handle_data(self, data: str) -> None:
        if self._textarea:
            self.data[self._textarea] += data


def admin_save(admin: Client, obj: Any, **changes: str) -> None:
    """Open the object's admin page, change fields, press Save."""
    url = reverse(f"admin:{obj._meta.app_label}_{obj._meta.model_name}_change", args=[obj.pk])
    parser = _AdminForm()
    parser.feed(admin.get(url).content.decode())
    response = admin.post(url, {**parser.data, **changes, "_save": "Save"})
    assert response.status_code == 302, response.content.decode()[:3000]


def admin_delete(admin: Client, obj: Any) -> None:
    url = reverse(f"admin:{obj._meta.app_label}_{obj._meta.model_name}_delete", args=[obj.pk])
    assert admin.post(url, {"post": "yes"}).status_code == 302


def admin_delete_selected(admin: Client, obj: Any) -> None:
    url = reverse(f"admin:{obj._meta.app_label}_{obj._meta.model_name}_changelist")
    data = {"action": "delete_selected", "_selected_action": [obj.pk], "post": "yes"}
    assert admin.post(url, data).status_code == 302


@pytest.fixture
def admin() -> Client:
    client = Client()
    client.force_login(User.objects.create_superuser("root", "root@example.org", "pw-root-123"))
    return client


@pytest.fixture
def organiser() -> Client:
    user = User.objects.create_user("org", password="pw-organiser-123")
    user.groups.add(Group.objects.get(name=ORGANISERS_GROUP))
    client = Client()
    client.force_login(user)
    return client


def register(tournament: Tournament, name: str) -> Registration:
    return entries.registration_create(
        tournament=tournament,
        name=name,
        email=f"{name.lower()}@example.org",
        phone="+14165550123",
        club="",
        experience="club",
        language="en",
    ).registration


@pytest.fixture
def field(tournament: Tournament) -> dict[str, Registration]:
    """A full field of two (Anna, Boris) and two waiting (Chen, then Dana)."""
    tournament.entry_cap = 2
    tournament.save()
    people = {name: register(tournament, name) for name in ("Anna", "Boris", "Chen", "Dana")}
    assert [p.status for p in people.values()] == ["entered", "entered"] + ["waitlisted"] * 2
    return people


def status(registration: Registration) -> str:
    return Registration.objects.get(pk=registration.pk).status


def no_free_place_while_someone_waits() -> None:
    for t in Tournament.objects.all():
        entered = t.registrations.filter(status="entered").count()
        waiting = t.registrations.filter(status="waitlisted").count()
        assert not (waiting and (t.entry_cap is None or entered < t.entry_cap)), t
    for s in MasterClassSession.objects.all():
        booked = s.signups.filter(status="booked").count()
        waiting = s.signups.filter(status="waitlisted").count()
        assert not (waiting and booked < s.seats), s


# --- The tournament's paths -------------------------------------------------------------------
def player_withdraws_by_link(client: Client, organiser: Client, admin: Client, people) -> None:  # type: ignore[no-untyped-def]
    anna = people["Anna"]
    token = tokens.make_token(tokens.MANAGE, anna.pk, anna.email)
    page = client.get(reverse("registrations:withdraw", args=[token]))
    assert status(anna) == "entered" and b"waiting list" in page.content  # asked first
    client.post(reverse("registrations:withdraw", args=[token]))


def organiser_withdraws_on_the_organisers_page(client, organiser, admin, people) -> None:  # type: ignore[no-untyped-def]
    url = reverse("registrations:registration_detail", args=[people["Anna"].pk])
    organiser.post(url, {"action": "withdraw", "confirm": "yes"})


def admin_sets_withdrawn(client, organiser, admin, people) -> None:  # type: ignore[no-untyped-def]
    admin_save(admin, people["Anna"], status="withdrawn")


def admin_moves_to_another_tournament(client, organiser, admin, people) -> None:  # type: ignore[no-untyped-def]
    other = Tournament.objects.create(
        name="Other", slug="other", starts_on="2027-05-01", ends_on="2027-05-01"
    )
    admin_save(admin, people["Anna"], tournament=str(other.pk))


def admin_deletes_the_registration(client, organiser, admin, people) -> None:  # type: ignore[no-untyped-def]
    admin_delete(admin, people["Anna"])


def admin_deletes_it_from_the_list(client, organiser, admin, people) -> None:  # type: ignore[no-untyped-def]
    admin_delete_selected(admin, people["Anna"])


def admin_raises_the_cap(client, organiser, admin, people) -> None:  # type: ignore[no-untyped-def]
    admin_save(admin, people["Anna"].tournament, entry_cap="3")


def a_settings_form_raises_the_cap(client, organiser, admin, people) -> None:  # type: ignore[no-untyped-def]
    tournament = Tournament.objects.get(pk=people["Anna"].tournament_id)
    tournament.entry_cap = 3
    tournament.full_clean()
    tournament.save()


def organiser_anonymises_the_player(client, organiser, admin, people) -> None:  # type: ignore[no-untyped-def]
    url = reverse("registrations:person")
    organiser.post(url, {"email": "anna@example.org", "action": "anonymise", "confirm": "yes"})


TOURNAMENT_PATHS: list[Callable[..., None]] = [
    player_withdraws_by_link,
    organiser_withdraws_on_the_organisers_page,
    admin_sets_withdrawn,
    admin_moves_to_another_tournament,
    admin_deletes_the_registration,
    admin_deletes_it_from_the_list,
    admin_raises_the_cap,
    a_settings_form_raises_the_cap,
    organiser_anonymises_the_player,
]


@pytest.mark.parametrize("path", TOURNAMENT_PATHS, ids=lambda p: p.__name__)
def test_every_path_that_frees_or_adds_a_place_enters_the_first_waiting(
    path, field, client, organiser, admin, mailoutbox
):  # type: ignore[no-untyped-def]
    mailoutbox.clear()
    path(client, organiser, admin, field)
    assert status(field["Chen"]) == "entered"
    assert status(field["Dana"]) == "waitlisted"
    promoted = [m for m in mailoutbox if m.to == ["chen@example.org"]]
    assert len(promoted) == 1 and "you are entered" in promoted[0].subject
    assert not [m for m in mailoutbox if m.to == ["dana@example.org"]]
    no_free_place_while_someone_waits()


def test_removing_the_cap_enters_everyone_waiting(field, admin, mailoutbox):  # type: ignore[no-untyped-def]
    mailoutbox.clear()
    admin_save(admin, field["Anna"].tournament, entry_cap="")
    assert status(field["Chen"]) == status(field["Dana"]) == "entered"
    assert sorted(m.to[0] for m in mailoutbox) == ["chen@example.org", "dana@example.org"]


def test_changes_that_free_no_place_enter_nobody(field, admin, mailoutbox):  # type: ignore[no-untyped-def]
    mailoutbox.clear()
    admin_save(admin, field["Anna"], name="Anna Ivanova")  # a name corrected
    admin_save(admin, field["Anna"].tournament, entry_cap="2", venue="Library")  # same cap
    entries.registration_check_in_toggle(registration=field["Boris"])
    assert status(field["Chen"]) == "waitlisted" and not mailoutbox
    # A lower cap takes nobody's place away; the next place goes to the waiting list first.
    admin_save(admin, field["Anna"].tournament, entry_cap="1")
    assert status(field["Anna"]) == status(field["Boris"]) == "entered"


def test_a_new_registrant_is_never_entered_ahead_of_those_waiting(field, tournament):  # type: ignore[no-untyped-def]
    # A place freed behind the services' back (a bulk update sends no signal).
    Registration.objects.filter(pk=field["Anna"].pk).update(status="withdrawn")
    newcomer = register(tournament, "Emil")
    assert status(field["Chen"]) == "entered"  # filled first
    assert newcomer.status == "waitlisted" and status(field["Dana"]) == "waitlisted"
    no_free_place_while_someone_waits()


def test_the_public_form_shows_no_free_place_while_someone_waits(client, field, tournament):  # type: ignore[no-untyped-def]
    Registration.objects.filter(pk=field["Anna"].pk).update(status="withdrawn")
    page = client.get(reverse("registrations:register", args=[tournament.slug]))
    assert b'id="full-notice"' in page.content  # still full: Chen is first in line
    response = client.post(
        reverse("registrations:register", args=[tournament.slug]),
        registration_form(email="emil@example.org"),
    )
    assert response.status_code == 302
    assert status(field["Chen"]) == "entered"
    assert Registration.objects.get(email="emil@example.org").status == "waitlisted"


def test_no_one_is_entered_once_the_tournament_has_started(field, admin, mailoutbox):  # type: ignore[no-untyped-def]
    Tournament.objects.filter(pk=field["Anna"].tournament_id).update(status="running")
    mailoutbox.clear()
    entries.registration_withdraw(registration=field["Anna"])
    assert status(field["Chen"]) == "waitlisted"
    assert [m.to for m in mailoutbox] == [["anna@example.org"]]  # the withdrawal's confirmation


def test_filling_twice_enters_nobody_twice(field, mailoutbox):  # type: ignore[no-untyped-def]
    Registration.objects.filter(pk=field["Anna"].pk).update(status="withdrawn")
    mailoutbox.clear()
    assert [r.pk for r in tournament_places_fill(tournament_id=field["Anna"].tournament_id)] == [
        field["Chen"].pk
    ]
    assert tournament_places_fill(tournament_id=field["Anna"].tournament_id) == []
    assert len(mailoutbox) == 1


def test_loading_rows_costs_no_query_for_the_watch(field):  # type: ignore[no-untyped-def]
    """The signal receivers remember loaded values without asking the database, even for
    rows loaded without those fields."""
    with CaptureQueriesContext(connection) as queries:
        list(Registration.objects.only("name"))
        list(Tournament.objects.only("slug"))
    assert len(queries.captured_queries) == 2


# --- The master class's paths -----------------------------------------------------------------
@pytest.fixture
def seats() -> dict[str, MasterClassSignup]:
    session = make_session(seats=2)
    people = {}
    for name in ("Anna", "Boris", "Chen", "Dana"):
        people[name], _ = masterclass.signup_create(
            experience="newcomer",
            session=session,
            name=name,
            email=f"{name.lower()}@example.org",
            phone="",
            language="en",
        )
    assert [p.status for p in people.values()] == ["booked", "booked"] + ["waitlisted"] * 2
    return people


def guest_cancels_by_link(client, organiser, admin, people) -> None:  # type: ignore[no-untyped-def]
    anna = people["Anna"]
    url = reverse(
        "registrations:signup_cancel", args=[tokens.make_token(tokens.SIGNUP, anna.pk, anna.email)]
    )
    assert b"waiting list" in client.get(url).content  # says what happens to the seat
    client.post(url)


def admin_cancels_the_signup(client, organiser, admin, people) -> None:  # type: ignore[no-untyped-def]
    admin_save(admin, people["Anna"], status="cancelled")


def admin_deletes_the_signup(client, organiser, admin, people) -> None:  # type: ignore[no-untyped-def]
    admin_delete(admin, people["Anna"])


def admin_adds_a_seat(client, organiser, admin, people) -> None:  # type: ignore[no-untyped-def]
    admin_save(admin, people["Anna"].session, seats="3")


def admin_cancels_in_the_sessions_inline(client, organiser, admin, people) -> None:  # type: ignore[no-untyped-def]
    session = people["Anna"].session
    url = reverse("admin:registrations_masterclasssession_change", args=[session.pk])
    parser = _AdminForm()
    parser.feed(admin.get(url).content.decode())
    index = next(
        k for k, v in parser.data.items() if k.endswith("-id") and v == str(people["Anna"].pk)
    )
    prefix = index[: -len("-id")]
    response = admin.post(url, {**parser.data, f"{prefix}-status": "cancelled", "_save": "Save"})
    assert response.status_code == 302


def organiser_anonymises_the_guest(client, organiser, admin, people) -> None:  # type: ignore[no-untyped-def]
    url = reverse("registrations:person")
    organiser.post(url, {"email": "anna@example.org", "action": "anonymise", "confirm": "yes"})


SESSION_PATHS: list[Callable[..., None]] = [
    guest_cancels_by_link,
    admin_cancels_the_signup,
    admin_deletes_the_signup,
    admin_adds_a_seat,
    admin_cancels_in_the_sessions_inline,
    organiser_anonymises_the_guest,
]


@pytest.mark.parametrize("path", SESSION_PATHS, ids=lambda p: p.__name__)
def test_every_path_that_frees_or_adds_a_seat_books_the_first_waiting(
    path, seats, client, organiser, admin, mailoutbox
):  # type: ignore[no-untyped-def]
    mailoutbox.clear()
    path(client, organiser, admin, seats)
    assert MasterClassSignup.objects.get(pk=seats["Chen"].pk).status == "booked"
    assert MasterClassSignup.objects.get(pk=seats["Dana"].pk).status == "waitlisted"
    promoted = [m for m in mailoutbox if m.to == ["chen@example.org"]]
    assert len(promoted) == 1 and "a seat is free" in promoted[0].subject
    no_free_place_while_someone_waits()


def test_a_session_that_has_begun_books_nobody(seats, mailoutbox):  # type: ignore[no-untyped-def]
    MasterClassSession.objects.update(starts_at=timezone.now() - timezone.timedelta(minutes=5))
    masterclass.signup_cancel(signup=seats["Anna"])
    assert MasterClassSignup.objects.get(pk=seats["Chen"].pk).status == "waitlisted"
