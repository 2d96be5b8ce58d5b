"""Issue 11, point 4: requested byes listed per round, added and cancelled, half-point or
zero-point, only for rounds not yet paired and within the tournament's rounds; a cap on
half-point byes per player that late entries obey too."""

from __future__ import annotations

import pytest

from championship import services
from championship.models import RequestedBye
from tests.championship.organiser import make, play
from tests.games.helpers import organiser_client

pytestmark = pytest.mark.django_db


def test_byes_are_listed_per_round_added_and_cancelled() -> None:
    t = make(n=6, rounds=5, max_half_point_byes=2)
    org, _user = organiser_client()
    url = f"/t/{t.slug}/manage/byes/"
    p1, p2 = t.entrants.get(name="P1"), t.entrants.get(name="P2")
    response = org.post(
        url, {"action": "add", "entrant": p1.pk, "round": "2", "kind": "H"}, follow=True
    )
    assert "P1: a half-point bye in round 2" in response.content.decode()
    org.post(url, {"action": "add", "entrant": p2.pk, "round": "2", "kind": "Z"})
    org.post(url, {"action": "add", "entrant": p1.pk, "round": "4", "kind": "H"})
    html = org.get(url).content.decode()
    assert html.index("Round 2") < html.index("Round 4")
    assert "zero-point bye" in html
    bye = RequestedBye.objects.get(entrant=p1, round_number=4)
    response = org.post(url, {"action": "cancel", "bye": bye.pk}, follow=True)
    assert "is cancelled" in response.content.decode()
    assert not RequestedBye.objects.filter(pk=bye.pk).exists()


@pytest.mark.parametrize(
    ("round_", "message"),
    [
        ("9", "no round 9"),
        ("0", "greater than or equal to 1"),
        ("abc", "whole number"),
        ("1", "paired already"),
    ],
)
def test_a_bye_outside_the_rounds_or_for_a_paired_round_is_refused(
    round_: str, message: str
) -> None:
    t = make(n=6, rounds=5)
    play(t)
    org, _user = organiser_client()
    e = t.entrants.get(name="P3")
    response = org.post(
        f"/t/{t.slug}/manage/byes/",
        {"action": "add", "entrant": e.pk, "round": round_, "kind": "H"},
    )
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not RequestedBye.objects.exists()


def test_a_bye_for_a_draft_round_or_an_unknown_kind_is_refused() -> None:
    t = make(n=6, rounds=5)
    play(t)
    services.round_pair_next(tournament=t)
    org, _user = organiser_client()
    e = t.entrants.get(name="P3")
    url = f"/t/{t.slug}/manage/byes/"
    assert (
        "delete the draft"
        in org.post(
            url, {"action": "add", "entrant": e.pk, "round": "2", "kind": "H"}
        ).content.decode()
    )
    assert (
        org.post(url, {"action": "add", "entrant": e.pk, "round": "3", "kind": "X"}).status_code
        == 400
    )
    assert (
        org.post(url, {"action": "add", "entrant": "999999", "round": "3", "kind": "H"}).status_code
        == 400
    )
    assert org.post(url, {"action": "cancel", "bye": "abc"}).status_code == 302
    assert not RequestedBye.objects.exists()


def test_half_point_byes_are_capped_per_player() -> None:
    t = make(n=6, rounds=5)  # one half-point bye a player by default
    e = t.entrants.get(name="P1")
    services.bye_request(entrant=e, round_number=2, kind="H")
    with pytest.raises(services.ChampionshipError, match="the most this tournament allows"):
        services.bye_request(entrant=e, round_number=3, kind="H")
    services.bye_request(entrant=e, round_number=3, kind="Z")  # a zero-point one is fine
    services.bye_request(entrant=e, round_number=2, kind="H")  # the same one again: no change
    assert RequestedBye.objects.filter(entrant=e).count() == 2


def test_late_entries_byes_obey_the_cap() -> None:
    t = make(n=6, rounds=5)
    play(t)
    play(t)
    play(t)
    org, _user = organiser_client()
    org.post(
        f"/t/{t.slug}/manage/entrants/",
        {"action": "add", "name": "Late", "rating": "1500", "missed_rounds": "H"},
    )
    late = t.entrants.get(name="Late")
    assert late.joined_round == 4
    assert services.half_point_byes(late) == 1  # of three missed rounds, one half point
    with pytest.raises(services.ChampionshipError, match="the most"):
        services.bye_request(entrant=late, round_number=5, kind="H")


def test_a_withdrawn_player_or_a_late_one_before_joining_gets_no_bye() -> None:
    t = make(n=6, rounds=5)
    play(t)
    e = t.entrants.get(name="P1")
    services.entrant_withdraw(entrant=e, after=2)
    with pytest.raises(services.ChampionshipError, match="withdrawn after round 2"):
        services.bye_request(entrant=e, round_number=3, kind="Z")
