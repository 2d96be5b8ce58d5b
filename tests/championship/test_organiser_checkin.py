"""Issue 11, point 3: check-in is one fact shared by the registrations list and the
tournament's entrants; "add confirmed registrations" names whom it left out and why; a player
checked in after round 1 is a late entry from the next round and is told so."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from championship import services
from championship.models import Entrant
from registrations.models import Registration
from tests.championship.organiser import make, play
from tests.games.helpers import organiser_client

pytestmark = pytest.mark.django_db


def register(t, name: str, *, confirmed: bool = True, status: str = "entered") -> Registration:  # type: ignore[no-untyped-def]
    now = timezone.now()
    return Registration.objects.create(
        tournament=t,
        name=name,
        email=f"{name.lower()}@example.org",
        experience="club",
        language="en",
        consent_at=now,
        status=status,
        email_confirmed_at=now if confirmed else None,
    )


def test_checking_in_on_the_registrations_list_checks_the_entrant_in_and_back() -> None:
    t = make(n=0)
    anna = register(t, "Anna")
    org, _user = organiser_client()
    check = reverse("registrations:check_in", args=[anna.pk])
    response = org.post(check, follow=True)
    assert "added to the tournament" in response.content.decode()
    entrant = Entrant.objects.get(registration=anna)
    assert entrant.checked_in
    anna.refresh_from_db()
    assert anna.checked_in_at is not None
    # The entrants page shows the same fact; undoing it there undoes it on the list.
    assert "✓" in org.get(f"/t/{t.slug}/manage/entrants/").content.decode()
    org.post(f"/t/{t.slug}/manage/entrants/", {"action": "check_out", "entrant": entrant.pk})
    anna.refresh_from_db()
    entrant.refresh_from_db()
    assert not entrant.checked_in and anna.checked_in_at is None
    org.post(f"/t/{t.slug}/manage/entrants/", {"action": "check_in", "entrant": entrant.pk})
    anna.refresh_from_db()
    assert anna.checked_in_at is not None
    org.post(check)  # toggled on the list: off again, on both
    entrant.refresh_from_db()
    anna.refresh_from_db()
    assert not entrant.checked_in and anna.checked_in_at is None
    assert Entrant.objects.filter(registration=anna).count() == 1


def test_a_waitlisted_registration_cannot_be_checked_in() -> None:
    t = make(n=0)
    wait = register(t, "Wait", status="waitlisted")
    org, _user = organiser_client()
    response = org.post(reverse("registrations:check_in", args=[wait.pk]), follow=True)
    assert "only entered players" in response.content.decode()
    assert not Entrant.objects.exists()


def test_add_confirmed_registrations_says_whom_it_left_out_and_why() -> None:
    t = make(n=0)
    register(t, "Anna")
    register(t, "Boris", confirmed=False)
    register(t, "Chen", status="waitlisted")
    org, _user = organiser_client()
    response = org.post(f"/tournaments/{t.slug}/entrants/import/", follow=True)
    html = response.content.decode()
    assert "1 confirmed registration added" in html
    assert "Boris (e-mail not confirmed)" in html and "Chen (on the waiting list)" in html
    assert list(t.entrants.values_list("name", flat=True)) == ["Anna"]


def test_a_player_checked_in_after_round_one_is_a_late_entry_and_is_paired() -> None:
    t = make(n=6, rounds=4)
    late = Entrant.objects.create(tournament=t, name="Dmitri", rating=2100)  # not checked in
    play(t)
    org, _user = organiser_client()
    response = org.post(
        f"/t/{t.slug}/manage/entrants/", {"action": "check_in", "entrant": late.pk}, follow=True
    )
    assert "late entry: paired from round 2 on" in response.content.decode()
    late.refresh_from_db()
    assert late.checked_in and late.starting_number == 7 and late.joined_round == 2
    rnd = services.round_pair_next(tournament=t)
    assert rnd.boards.filter(white=late).exists() or rnd.boards.filter(black=late).exists()


def test_a_registered_player_checked_in_during_a_draft_makes_the_draft_stale() -> None:
    t = make(n=6, rounds=4)
    play(t)
    draft = services.round_pair_next(tournament=t)
    anna = register(t, "Anna")
    org, _user = organiser_client()
    response = org.post(reverse("registrations:check_in", args=[anna.pk]), follow=True)
    assert "late entry" in response.content.decode()
    assert "Anna should play round 2" in " ".join(services.draft_problems(draft))
    assert "stale-draft" in org.get(f"/t/{t.slug}/manage/").content.decode()


def test_a_paired_player_cannot_be_checked_out() -> None:
    t = make(n=4, rounds=3)
    play(t)
    e = t.entrants.get(name="P1")
    org, _user = organiser_client()
    response = org.post(
        f"/t/{t.slug}/manage/entrants/", {"action": "check_out", "entrant": e.pk}, follow=True
    )
    assert "withdraw them instead" in response.content.decode()
    assert Entrant.objects.get(pk=e.pk).checked_in


def test_the_registration_follows_the_entrant_whichever_way_it_is_saved() -> None:
    t = make(n=0)
    anna = register(t, "Anna")
    entrant = Entrant.objects.create(tournament=t, registration=anna, name="Anna")
    entrant.checked_in = True
    entrant.save()  # e.g. the admin
    anna.refresh_from_db()
    assert anna.checked_in_at is not None
    entrant.checked_in = False
    entrant.save()
    anna.refresh_from_db()
    assert anna.checked_in_at is None
