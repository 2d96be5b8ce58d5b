"""Issue 21, point 4: a withdrawal is one fact with one door
(``championship.services.participant_withdraw`` / ``participant_reinstate``), whichever page
the organiser — or the player — uses: the entrant is no longer paired, the registration is
withdrawn, the player is e-mailed, and the place goes to the first person waiting (before the
tournament starts only; afterwards the page says so)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.urls import reverse

from championship import services
from championship.models import Entrant, Tournament
from registrations import tokens
from registrations.models import Registration
from registrations.services import entries, participation
from registrations.services import field as registration_field
from registrations.services.privacy import person_anonymise
from tests.championship.organiser import play
from tests.games.helpers import organiser_client
from tests.registrations.test_waiting_list import admin_save

pytestmark = pytest.mark.django_db


def register(t: Tournament, name: str) -> Registration:
    reg = entries.registration_create(
        tournament=t,
        name=name,
        email=f"{name.lower()}@example.org",
        phone="+14165550123",
        club="Toronto",
        experience="club",
        language="en",
    ).registration
    entries.registration_confirm_email(registration=reg)
    return reg


@pytest.fixture
def full(tournament: Tournament) -> Tournament:
    """A field of two checked in (Anna, Boris), Chen then Dana waiting."""
    tournament.entry_cap = 2
    tournament.save()
    for name in ("Anna", "Boris", "Chen", "Dana"):
        register(tournament, name)
    for reg in Registration.objects.filter(status="entered"):
        registration_field.registration_check_in(registration=reg, checked_in=True)
    mail.outbox.clear()
    return tournament


def status(name: str) -> str:
    return Registration.objects.get(name=name).status


def anna_entrant() -> Entrant:
    return Entrant.objects.get(name="Anna")


def by_entrants_page(t: Tournament) -> None:
    org, _user = organiser_client()
    url = reverse("championship:entrant_withdraw", args=[t.slug, anna_entrant().pk])
    response = org.post(url, {"after": "0", "confirm": "yes"}, follow=True)
    html = response.content.decode()
    assert "Their registration is withdrawn and they are e-mailed." in html
    assert "The place goes to Chen from the waiting list" in html


def by_registration_page(t: Tournament) -> None:
    org, _user = organiser_client()
    pk = Registration.objects.get(name="Anna").pk
    url = reverse("registrations:registration_detail", args=[pk])
    response = org.post(url, {"action": "withdraw", "confirm": "yes"}, follow=True)
    assert "The place goes to Chen" in response.content.decode()


def by_the_players_link(t: Tournament) -> None:
    reg = Registration.objects.get(name="Anna")
    token = tokens.make_token(tokens.MANAGE, reg.pk, reg.email)
    Client().post(reverse("registrations:withdraw", args=[token]))


def by_the_admin(t: Tournament) -> None:
    admin = Client()
    admin.force_login(User.objects.create_superuser("root", "root@example.org", "pw-root-123"))
    admin_save(admin, Registration.objects.get(name="Anna"), status="withdrawn")


def by_anonymising(t: Tournament) -> None:
    person_anonymise(email="anna@example.org")


DOORS: list[Callable[[Tournament], None]] = [
    by_entrants_page,
    by_registration_page,
    by_the_players_link,
    by_the_admin,
    by_anonymising,
]


@pytest.mark.parametrize("door", DOORS, ids=lambda d: d.__name__)
def test_every_door_withdraws_both_records_and_gives_the_place_on(
    full: Tournament, door: Callable[[Tournament], None]
) -> None:
    """The issue: on the entrants page the registration stayed "entered" and nobody waiting
    was promoted or e-mailed. Whichever door, the same four things happen."""
    anna = anna_entrant()
    door(full)
    anna.refresh_from_db()
    assert anna.withdrawn_after == 0  # never paired
    assert Registration.objects.get(pk=anna.registration_id).status == "withdrawn"
    assert status("Chen") == "entered" and status("Dana") == "waitlisted"
    subjects = [m.subject for m in mail.outbox]
    assert any("a place is free" in s for s in subjects) and mail.outbox[-1].to
    promoted = [m for m in mail.outbox if "a place is free" in m.subject]
    assert [m.to for m in promoted] == [["chen@example.org"]]
    withdrawn = [m for m in mail.outbox if "withdrawn" in m.subject]
    if door is by_anonymising:
        assert withdrawn == []  # unreachable: no e-mail, and the name is gone from the field
        assert anna.name == "A."
    else:
        assert [m.to for m in withdrawn] == [["anna@example.org"]]
    # No free place while someone waits, and nothing happens twice.
    participation.participant_withdraw(
        registration=Registration.objects.get(pk=anna.registration_id)
    )
    assert status("Dana") == "waitlisted"


def test_a_withdrawal_during_the_tournament_keeps_the_waiting_list_and_says_why(
    full: Tournament,
) -> None:
    """README: free places are filled only while the tournament has not started."""
    for name in ("Chen", "Dana"):
        Registration.objects.filter(name=name).update(status="waitlisted")
    Entrant.objects.create(tournament=full, name="Walk-in", checked_in=True)
    play(full)
    draft = services.round_pair_next(tournament=full)  # round 2, a draft
    reg = Registration.objects.get(name="Anna")
    token = tokens.make_token(tokens.MANAGE, reg.pk, reg.email)
    client = Client()
    page = client.get(reverse("registrations:withdraw", args=[token])).content.decode()
    assert "under way" in page and "results so far stay" in page
    client.post(reverse("registrations:withdraw", args=[token]))
    assert anna_entrant().withdrawn_after == 1  # the draft of round 2 is not a played round
    assert status("Anna") == "withdrawn" and status("Chen") == "waitlisted"
    assert any("Anna" in p for p in services.draft_problems(draft))
    body = next(m.body for m in mail.outbox if "withdrawn" in m.subject)
    assert "results so far stay" in body and "waiting list" not in body
    # An organiser withdrawing Boris is told why nobody is entered from the waiting list.
    org, _user = organiser_client()
    boris = Entrant.objects.get(name="Boris")
    url = reverse("championship:entrant_withdraw", args=[full.slug, boris.pk])
    assert "The tournament has started" in org.get(url).content.decode()
    html = org.post(url, {"after": "1", "confirm": "yes"}, follow=True).content.decode()
    assert "place is not given to the waiting list" in html
    assert status("Boris") == "withdrawn" and status("Chen") == "waitlisted"


def test_undoing_a_withdrawal_enters_the_registration_again_through_the_same_door(
    full: Tournament,
) -> None:
    org, _user = organiser_client()
    services.participant_withdraw(entrant=anna_entrant())
    assert status("Chen") == "entered"  # the place went on
    response = org.post(
        reverse("championship:entrants", args=[full.slug]),
        {"action": "unwithdraw", "entrant": anna_entrant().pk},
        follow=True,
    )
    # The field is full again: Anna waits at the end of the list, not paired meanwhile.
    assert "on the waiting list" in response.content.decode()
    assert status("Anna") == "waitlisted" and anna_entrant().withdrawn_after == 0
    # When Boris withdraws, Dana (first) gets the place, then Anna when Chen withdraws.
    participation.participant_withdraw(registration=Registration.objects.get(name="Boris"))
    assert status("Dana") == "entered" and status("Anna") == "waitlisted"
    participation.participant_withdraw(registration=Registration.objects.get(name="Chen"))
    assert status("Anna") == "entered"
    assert anna_entrant().withdrawn_after is None  # in the field again


def test_once_started_an_organiser_brings_a_player_back_from_the_next_round(
    full: Tournament,
) -> None:
    play(full)
    services.participant_withdraw(entrant=anna_entrant())
    assert anna_entrant().withdrawn_after == 1 and status("Anna") == "withdrawn"
    org, _user = organiser_client()
    pk = Registration.objects.get(name="Anna").pk
    html = org.post(
        reverse("registrations:registration_detail", args=[pk]),
        {"action": "reenter"},
        follow=True,
    ).content.decode()
    assert "paired again from the next round" in html
    assert status("Anna") == "entered" and anna_entrant().withdrawn_after is None
    # The player cannot through their link: registration is closed once round 1 is paired.
    services.participant_withdraw(entrant=anna_entrant())
    reg = Registration.objects.get(name="Anna")
    with pytest.raises(services.RegistrationClosed):
        participation.participant_reinstate(registration=reg, by=services.WithdrawnBy.PLAYER)


def test_a_finished_tournament_refuses_a_withdrawal_by_any_door(full: Tournament) -> None:
    play(full)
    services.tournament_finish(tournament=full)
    reg = Registration.objects.get(name="Anna")
    token = tokens.make_token(tokens.MANAGE, reg.pk, reg.email)
    html = Client().post(reverse("registrations:withdraw", args=[token]), follow=True)
    assert "The tournament is finished" in html.content.decode()
    assert status("Anna") == "entered" and anna_entrant().withdrawn_after is None


def test_the_admin_shows_an_entrants_withdrawal_but_leaves_it_to_the_door(
    full: Tournament,
) -> None:
    admin = Client()
    admin.force_login(User.objects.create_superuser("root", "root@example.org", "pw-root-123"))
    url = reverse("admin:championship_entrant_change", args=[anna_entrant().pk])
    html = admin.get(url).content.decode()
    assert 'name="withdrawn_after"' not in html and 'name="checked_in"' not in html


def test_a_walk_in_is_withdrawn_and_back_without_a_registration(full: Tournament) -> None:
    walk_in = Entrant.objects.create(tournament=full, name="Walk-in", checked_in=True)
    done = services.participant_withdraw(entrant=walk_in)
    assert done.after == 0 and not done.registration_withdrawn and not mail.outbox
    back = services.participant_reinstate(entrant=walk_in)
    walk_in.refresh_from_db()
    assert back.back and walk_in.withdrawn_after is None
