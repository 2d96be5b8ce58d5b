"""Issue 21, point 11: who is in the tournament is one answer
(``selectors.tournament_field``) that the count and the list of every public page take; and
the † of points that include a provisional result is beside points wherever they are shown
(``Marks.provisional_points``): standings, crosstable, the overview's leaders, a player's
page, the pairings' points before a round, the standings download."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import timezone

from championship import selectors, services
from championship.models import Entrant, Tournament
from registrations.models import Registration
from registrations.services import entries, participation
from registrations.services import field as registration_field
from tests.championship.organiser import make, play
from tests.championship.results import enter
from tests.conftest import make_registrations

pytestmark = pytest.mark.django_db


def listed(html: str, list_id: str) -> list[str]:
    """The names in the page's list (the tournament page's <ol>, the players table)."""
    part = html.split(f'id="{list_id}"', 1)[1].split("</ol>" if list_id == "field" else "</table>")[
        0
    ]
    if list_id == "field":
        return re.findall(r"<li>(?:<a [^>]*>)?([^<(]+?)(?:</a>)?(?: <span|</li>)", part)
    return re.findall(r"<tr><td>\d*</td><td>(?:<a [^>]*>)?([^<]+?)(?:</a>)?(?: <span|</td>)", part)


def count(html: str) -> int:
    found = re.search(r"(\d+) players? in the tournament", html)
    assert found, "no count"
    return int(found.group(1))


def test_the_issue_the_count_and_the_list_are_the_same_twelve() -> None:
    """Ten confirmed registrations, an entrant whose e-mail is not confirmed (checked in by
    the organisers) and a walk-in: the page said 12 and listed 10."""
    t = make(n=0)
    make_registrations(t, 10)
    now = timezone.now()
    boris = Registration.objects.create(
        tournament=t,
        name="Boris Unconfirmed",
        email="boris@example.org",
        experience="club",
        language="en",
        consent_at=now,
    )
    registration_field.registration_check_in(registration=boris, checked_in=True)
    Entrant.objects.create(tournament=t, name="Walk In", checked_in=True)
    # Not listed: a registration nobody confirmed, and a withdrawn one.
    make_registrations(t, 1, prefix="u", email_confirmed_at=None)
    make_registrations(t, 1, prefix="w", status="withdrawn")
    client = Client()
    for url, list_id in ((f"/tournaments/{t.slug}/", "field"), (f"/t/{t.slug}/players/", "")):
        html = client.get(url).content.decode()
        names = listed(html, list_id or "players-count")
        assert count(html) == 12 == len(names), (url, names)
        assert "Boris Unconfirmed" in names and "Walk In" in names
        assert "1 more registered, not listed until their e-mail address is confirmed" in html
    field = selectors.tournament_field(t)
    assert field.count == len(field.players) == 12 and field.unconfirmed == 1


def test_once_started_the_field_is_the_numbered_entrants_withdrawn_ones_marked() -> None:
    t = make(n=6, rounds=3)
    Entrant.objects.create(tournament=t, name="Never Came")  # not checked in: not numbered
    make_registrations(t, 2)  # entered, never made entrants: not in a started tournament
    play(t)
    services.participant_withdraw(entrant=t.entrants.get(name="P3"))
    t.refresh_from_db()
    field = selectors.tournament_field(t)
    assert [p.name for p in field.players] == ["P1", "P2", "P3", "P4", "P5", "P6"]
    assert field.count == 5
    html = Client().get(f"/tournaments/{t.slug}/").content.decode()
    assert count(html) == 5 and "Never Came" not in html and "withdrawn" in html


def test_the_kept_players_page_follows_registrations() -> None:
    """The public players page is kept under the tournament's version; before the start a
    registration confirmed (or withdrawn) changes it, so its version changes too."""
    t = make(n=0)
    reg = make_registrations(t, 1, email_confirmed_at=None)[0]
    client = Client()
    url = f"/t/{t.slug}/players/"
    assert count(client.get(url).content.decode()) == 0
    entries.registration_confirm_email(registration=Registration.objects.get(pk=reg.pk))
    assert count(client.get(url).content.decode()) == 1
    participation.participant_withdraw(registration=Registration.objects.get(pk=reg.pk))
    assert count(client.get(url).content.decode()) == 0


@pytest.fixture
def provisional() -> Tournament:
    """Round 1 published, P1 beat P? with a result not yet confirmed (two-person
    confirmation); the other results confirmed; round 2 paired and published."""
    from django.contrib.auth.models import User

    t = make(n=4, rounds=3, two_person_confirmation=True)
    rnd = services.round_pair_next(tournament=t)
    services.round_publish(round=rnd)
    second = User.objects.create_user("second")
    first, other = list(rnd.boards.exclude(black=None).order_by("number"))
    enter(first, "1-0", "home")  # provisional
    enter(other, "1-0", "home")
    services.game_results_confirm(board=other, user=second)
    services.round_publish(round=services.round_pair_next(tournament=t, unconfirmed_ok=True))
    t.provisional_player = first.white  # type: ignore[attr-defined]
    return t


def test_the_leaders_on_the_overview_carry_the_mark(provisional: Tournament) -> None:
    html = Client().get(f"/t/{provisional.slug}/").content.decode()
    leaders = html.split("Leaders", 1)[1].split("</ol>")[0]
    assert leaders.count('class="prov"') == 2  # both players of the unconfirmed board
    assert "provisional: entered, awaiting a second arbiter's confirmation" in html


def test_every_other_place_with_points_carries_it_too(provisional: Tournament) -> None:
    t = provisional
    player = t.provisional_player  # type: ignore[attr-defined]
    client = Client()
    page = client.get(f"/t/{t.slug}/players/{player.pk}/").content.decode()
    assert re.search(r"Rank \d+ · points: \d+ <span class=\"prov\"", page)
    cross = client.get(f"/t/{t.slug}/crosstable/").content.decode()
    assert cross.count('<td class="c-pts"><strong>1</strong> <span class="prov"') == 1
    pairings = client.get(f"/t/{t.slug}/pairings/2/").content.decode()
    # Points before round 2 include round 1's provisional result: both players marked.
    assert pairings.count("includes a provisional result") == 2
    csv = client.get(f"/t/{t.slug}/standings/?format=csv").content.decode("utf-8-sig")
    header, *rows = csv.strip().splitlines()
    assert header.endswith('"Includes a provisional result"')
    assert sum(1 for r in rows if r.endswith('"†"')) == 2
    # After round 1 only (?round=1) the mark stays; confirmed, it goes everywhere.
    from django.contrib.auth.models import User

    board = t.round_set.get(number=1).boards.get(white=player)
    services.game_results_confirm(board=board, user=User.objects.create_user("third"))
    for url in ("/", "/crosstable/", "/pairings/2/", f"/players/{player.pk}/"):
        assert 'class="prov"' not in client.get(f"/t/{t.slug}{url}").content.decode(), url
