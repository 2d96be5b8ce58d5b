"""Issue 21, point 9: a player who joins late gets the same choice for the rounds they missed
whichever way they join — checked in on the entrants page or on the registrations list after
round 1, or added with the add form: zero points, or half-point byes up to the tournament's
``max_half_point_byes``. One service (``services.entrants._late_entry``) decides the joining
round and the byes, and the organiser is told which round scores what, and why."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from championship import services, tables
from championship.models import Board, Entrant, RequestedBye
from registrations.models import Registration
from tests.championship.organiser import make, play
from tests.games.helpers import organiser_client
from tests.hypothesis_profiles import examples

pytestmark = pytest.mark.django_db


def points(t, entrant: Entrant) -> Fraction:  # type: ignore[no-untyped-def]
    entrant.refresh_from_db()
    row = next(r for r in tables.standings(t) if r.number == entrant.starting_number)
    return Fraction(str(row.points))


def bye_rounds(entrant: Entrant) -> list[int]:
    return sorted(
        Board.objects.filter(white=entrant, black=None, bye="H").values_list(
            "round__number", flat=True
        )
    )


def test_the_issue_a_late_arrival_checked_in_after_round_one_can_have_the_half_point() -> None:
    t = make(n=6, rounds=4, max_half_point_byes=1)
    late = Entrant.objects.create(tournament=t, name="Dmitri", rating=2100)
    play(t)
    org, _user = organiser_client()
    page = org.get(reverse("championship:entrants", args=[t.slug])).content.decode()
    # The same choice as the add form, on the check-in itself.
    assert "Late entry, paired from round 2. Missed rounds:" in page
    assert "Check in: zero points" in page and "Check in: a half-point bye (1 at most)" in page
    response = org.post(
        reverse("championship:entrants", args=[t.slug]),
        {"action": "check_in", "entrant": late.pk, "missed_rounds": "H"},
        follow=True,
    )
    html = response.content.decode()
    assert "Dmitri is a late entry: paired from round 2 on." in html
    assert "A half-point bye for round 1." in html
    assert bye_rounds(late) == [1] and points(t, late) == Fraction(1, 2)
    rnd = services.round_pair_next(tournament=t)
    assert rnd.boards.filter(white=late).exists() or rnd.boards.filter(black=late).exists()


def test_the_registrations_list_offers_the_same_choice() -> None:
    t = make(n=6, rounds=4, max_half_point_byes=2)
    play(t)
    play(t)
    now = timezone.now()
    anna = Registration.objects.create(
        tournament=t,
        name="Anna",
        email="anna@example.org",
        experience="club",
        language="en",
        consent_at=now,
        email_confirmed_at=now,
    )
    org, _user = organiser_client()
    page = org.get(reverse("registrations:list", args=[t.slug])).content.decode()
    assert "Check in: half-point byes (2 at most)" in page
    response = org.post(
        reverse("registrations:check_in", args=[anna.pk]), {"missed_rounds": "H"}, follow=True
    )
    assert "Half-point byes for rounds 1, 2." in response.content.decode()
    entrant = Entrant.objects.get(registration=anna)
    assert entrant.joined_round == 3 and bye_rounds(entrant) == [1, 2]


def test_beyond_the_cap_missed_rounds_score_zero_and_the_message_says_why() -> None:
    t = make(n=6, rounds=5, max_half_point_byes=1)
    late = Entrant.objects.create(tournament=t, name="Boris")
    play(t)
    play(t)
    done = services.entrant_check_in(entrant=late, checked_in=True, missed_rounds="H")
    assert done.late is not None and done.late.half == [1] and done.late.zero == [2]
    assert "Zero points for round 2: the tournament allows 1 half-point bye a player" in (
        done.message()
    )
    assert points(t, late) == Fraction(1, 2)


def test_zero_is_offered_alone_when_the_tournament_allows_no_half_point_bye() -> None:
    t = make(n=4, rounds=3, max_half_point_byes=0)
    Entrant.objects.create(tournament=t, name="Chen")
    play(t)
    org, _user = organiser_client()
    page = org.get(reverse("championship:entrants", args=[t.slug])).content.decode()
    assert (
        "Check in: zero points" in page and "half-point bye" not in page.split('id="entrants"')[1]
    )


def test_a_later_joining_round_gets_its_half_point_byes_when_those_rounds_are_paired() -> None:
    """The add form's "joins at round 3" with half-point byes: round 1 (played) gets a bye
    board at once, round 2 (not yet paired) a requested bye the pairing honours."""
    t = make(n=6, rounds=5, max_half_point_byes=2)
    play(t)
    org, _user = organiser_client()
    response = org.post(
        reverse("championship:entrants", args=[t.slug]),
        {"action": "add", "name": "Dana", "joined_round": "3", "missed_rounds": "H"},
        follow=True,
    )
    assert "Half-point byes for rounds 1, 2." in response.content.decode()
    dana = Entrant.objects.get(name="Dana")
    assert dana.joined_round == 3
    assert list(RequestedBye.objects.filter(entrant=dana).values_list("round_number", "kind")) == [
        (2, "H")
    ]
    draft = services.round_pair_next(tournament=t)
    assert services.draft_problems(draft) == []
    services.round_publish(round=draft)
    assert bye_rounds(dana) == [1, 2] and points(t, dana) == Fraction(1)


def test_a_tampered_choice_gets_a_message_not_an_error() -> None:
    t = make(n=4, rounds=3)
    late = Entrant.objects.create(tournament=t, name="Eve")
    play(t)
    org, _user = organiser_client()
    response = org.post(
        reverse("championship:entrants", args=[t.slug]),
        {"action": "check_in", "entrant": late.pk, "missed_rounds": "½"},
        follow=True,
    )
    assert response.status_code == 200
    assert "Choose how the rounds missed score" in response.content.decode()
    late.refresh_from_db()
    assert not late.checked_in


@settings(max_examples=examples(12), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    played=st.integers(min_value=1, max_value=3),
    cap=st.integers(min_value=0, max_value=3),
    half=st.booleans(),
)
def test_missed_rounds_are_each_scored_once_within_the_cap(
    played: int, cap: int, half: bool
) -> None:
    """Whatever the rounds played, the cap and the choice: every round before the joining
    round is either a half-point bye or zero, half-point byes never exceed the cap, and with
    "half" chosen as many as the cap allows are given, earliest first."""
    from django.core.cache import cache
    from django.db import transaction

    cache.clear()  # the examples roll back, and a later one may reuse the ids (and versions)
    with transaction.atomic():
        t = make(slug=f"p{played}{cap}{int(half)}", n=4, rounds=5, max_half_point_byes=cap)
        late = Entrant.objects.create(tournament=t, name="Late")
        for _ in range(played):
            play(t)
        done = services.entrant_check_in(
            entrant=late, checked_in=True, missed_rounds="H" if half else "Z"
        )
        assert done.late is not None
        assert done.late.joined_round == played + 1
        assert sorted(done.late.half + done.late.zero) == list(range(1, played + 1))
        expected = min(cap, played) if half else 0
        assert done.late.half == list(range(1, expected + 1))
        assert bye_rounds(late) == done.late.half
        assert points(t, late) == Fraction(expected, 2)
        transaction.set_rollback(True)
