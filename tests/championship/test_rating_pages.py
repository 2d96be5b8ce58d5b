"""The public rating list and a person's page, the crosstable's rating column, seeding by the
rating and the organisers' people pages: what they show, what they never show (contacts),
bad input, and query counts that do not grow with the number of events."""

from __future__ import annotations

import random
from datetime import date, timedelta

import pytest
from django.contrib.auth.models import Group, User
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from championship import services
from championship.apps import ORGANISERS_GROUP
from championship.models import Entrant, PersonRating, Tournament
from people.models import Person
from registrations.models import Registration
from tests.conftest import shows_phone

from .ratings_world import event, game

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser() -> Client:
    user = User.objects.create_user("org", password="pw-organiser-123")
    user.groups.add(Group.objects.get(name=ORGANISERS_GROUP))
    client = Client()
    client.force_login(user)
    return client


def series(n_events: int, players: int = 6, prefix: str = "e") -> list[Person]:
    """``n_events`` events a month apart, each a round robin's first rounds among the same
    players, with contacts on registrations."""
    # One transaction, as a service writes a tournament: written row by row in autocommit, the
    # world renewed every page and recomputed the club's rating after every game.
    with transaction.atomic():
        people = [Person.objects.create(name=f"Игрок {i}") for i in range(players)]
        rng = random.Random(n_events)
        for k in range(n_events):
            day = date(2025, 1, 5) + timedelta(days=31 * k)
            t = event(f"{prefix}{k}", day, people)
            for p in people:
                r = Registration.objects.create(
                    tournament=t,
                    name=p.name,
                    email=f"{p.pk}@secret.example",
                    phone="+14165550199",
                    experience="club",
                    language="ru",
                    consent_at=timezone.now(),
                    person=p,
                )
                Entrant.objects.filter(tournament=t, person=p).update(registration=r)
            for rnd in (1, 2):
                order = people[:]
                rng.shuffle(order)
                for w, b in zip(order[::2], order[1::2], strict=True):
                    result = rng.choice(["1-0", "0-1", "1/2-1/2"])
                    ending = "agreement" if result == "1/2-1/2" else "home"
                    game(t, rnd, w, b, result, ending, day=day + timedelta(days=rnd))
    services.ratings_recompute()
    return people


def count(client: Client, url: str) -> int:
    client.get(url)  # warm up (session, caches)
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(ctx.captured_queries)


def test_queries_do_not_grow_with_the_number_of_events(client: Client) -> None:
    few = series(2)
    few_counts = (count(client, "/ratings/"), count(client, f"/people/{few[0].pk}/"))
    many = series(8, prefix="m")
    many_counts = (count(client, "/ratings/"), count(client, f"/people/{many[0].pk}/"))
    assert few_counts == many_counts
    assert many_counts[0] <= 6 and many_counts[1] <= 10


def test_the_list_shows_established_players_first_and_provisional_apart(client: Client) -> None:
    people = series(8)
    late = [Person.objects.create(name=f"Newcomer {i}") for i in range(2)]
    day = date(2025, 8, 20)  # the last month of the series: one game each
    game(event("late", day, late), 1, late[0], late[1], "1-0", day=day)
    services.ratings_recompute()
    page = client.get("/ratings/").content.decode()
    established, provisional = page.index("Established ratings"), page.index("Provisional")
    assert established < provisional
    rows = {r.person_id: r for r in PersonRating.objects.filter(month=date(2025, 8, 1))}
    assert rows[late[0].pk].rd >= 110 and any(r.rd < 110 for r in rows.values())
    for p in [*people, *late]:
        where = page.index(f"/people/{p.pk}/")
        assert (where < provisional) == (rows[p.pk].rd < 110), p.name
    assert 'class="prov-rating"' not in page[established:provisional]
    assert 'class="prov-rating"' in page[provisional:]


def test_a_dated_list_and_bad_months(client: Client) -> None:
    series(3)
    feb = client.get("/ratings/2025-02/")
    assert feb.status_code == 200 and "February 2025" in feb.content.decode()
    assert client.get("/ratings/?month=2025-02").url == "/ratings/2025-02/"
    assert client.get("/ratings/?month=garbage").status_code == 200  # the current list
    for bad in (
        "/ratings/2025-13/",
        "/ratings/2019-01/",
        "/ratings/2025-00/",
        "/ratings/99999-01/",
    ):
        assert client.get(bad).status_code == 404, bad


def test_a_persons_page_has_games_ratings_and_no_personal_data(client: Client) -> None:
    people = series(2)
    page = client.get(f"/people/{people[0].pk}/").content.decode()
    assert "e0" in page and "e1" in page
    assert "→" in page  # rating before → after on each game
    assert "secret.example" not in page and not shows_phone(page, "+14165550199")


def test_a_merged_person_leads_to_the_kept_one_and_the_unplayed_have_no_page(
    client: Client,
) -> None:
    from people.services import person_merge

    a, b = series(2)[:2]
    person_merge(kept=a, merged=b)
    assert client.get(f"/people/{b.pk}/").url == f"/people/{a.pk}/"
    nobody = Person.objects.create(name="Registered only")
    assert client.get(f"/people/{nobody.pk}/").status_code == 404
    assert client.get("/people/999999/").status_code == 404


def test_the_crosstable_shows_the_club_rating(client: Client) -> None:
    series(2)
    page = client.get("/t/e1/crosstable/").content.decode()
    assert "Club rating" in page and "rating-share" in page and "→" in page


def test_seeding_by_the_club_rating_then_by_name_or_lot(organiser: Client) -> None:
    people = series(3)
    t = Tournament.objects.create(
        name="Next", slug="next", starts_on="2027-03-14", ends_on="2027-03-15"
    )
    newcomer = Person.objects.create(name="Aaron New")
    for p in [*people, newcomer]:
        Entrant.objects.create(tournament=t, name=p.name, person=p, rating=1234)
    response = organiser.post("/t/next/manage/entrants/seed/", {"then": "name"})
    assert response.status_code == 302
    order = list(t.entrants.order_by("starting_number").values_list("name", "rating"))
    ratings = [r for _n, r in order]
    assert order[-1] == ("Aaron New", None)  # not rated: after the rated ones
    assert ratings[:-1] == sorted(ratings[:-1], reverse=True)
    lot = services.entrants_seed_by_rating(tournament=t, then="lot", rng=random.Random(3))
    assert [e.name for e in lot][-1] == "Aaron New"
    bad = organiser.post("/t/next/manage/entrants/seed/", {"then": "<script>"})
    assert bad.status_code == 302 and t.entrants.exclude(starting_number=None).count() == 7


def test_people_pages_for_organisers_only(client: Client, organiser: Client) -> None:
    people = series(2)
    for url in ("/organiser/players/", f"/organiser/players/{people[0].pk}/"):
        assert client.get(url).status_code == 302  # to the login
        page = organiser.get(url)
        assert page.status_code == 200
    assert "secret.example" in organiser.get(f"/organiser/players/{people[0].pk}/").content.decode()
    twin = Person.objects.create(name="игрок  0")
    event("x", date(2026, 6, 1), [twin])
    listing = organiser.get("/organiser/players/").content.decode()
    assert "игрок  0" in listing and "same name" in listing
    for bad in ({"other": "abc"}, {"other": "99999999999999999999"}, {}):
        r = organiser.post(f"/organiser/players/{people[0].pk}/merge/", bad)
        assert r.status_code == 302
    r = organiser.post(f"/organiser/players/{people[0].pk}/merge/", {"other": twin.pk})
    twin.refresh_from_db()
    assert twin.merged_into_id == people[0].pk
    change = people[0].changes.get()
    organiser.post(f"/organiser/players/changes/{change.pk}/undo/")
    twin.refresh_from_db()
    assert twin.merged_into_id is None
    again = organiser.post(f"/organiser/players/changes/{change.pk}/undo/", follow=True)
    assert "undone already" in again.content.decode()
    assert organiser.post("/organiser/players/changes/999999/undo/").status_code == 404
    split = organiser.post(
        f"/organiser/players/{people[0].pk}/split/",
        {
            "row": ["championship.entrant:abc", "nonsense", "registrations.registration:1:2"],
            "name": "X",
        },
        follow=True,
    )
    assert split.status_code == 200 and "Choose the tournaments" in split.content.decode()
