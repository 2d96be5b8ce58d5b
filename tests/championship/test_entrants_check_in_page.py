"""Issue 21, point 13: check-in on the entrants page has a search (any script), a count of
checked in / expected, an in-page check-in for the page's script (JSON: the row and the
counts), and a plain POST that lands back at the same player. The page's queries do not grow
with the field. (The browser walk of 40 arrivals: tests/browser/test_check_in_journey.py.)"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from championship.models import Entrant, Tournament
from tests.championship.organiser import make
from tests.conftest import make_registrations
from tests.games.helpers import organiser_client

pytestmark = pytest.mark.django_db


def page_url(t: Tournament) -> str:
    return reverse("championship:entrants", args=[t.slug])


def test_a_plain_check_in_lands_back_at_the_same_player() -> None:
    t = make(n=30)
    Entrant.objects.filter(tournament=t).update(checked_in=False)
    p25 = Entrant.objects.get(tournament=t, name="P25")
    org, _user = organiser_client()
    response = org.post(page_url(t), {"action": "check_in", "entrant": p25.pk})
    assert response.status_code == 302
    assert response["Location"] == f"{page_url(t)}#entrant-{p25.pk}"
    page = org.get(response["Location"]).content.decode()
    assert f'id="entrant-{p25.pk}"' in page and "P25 is checked in." in page
    assert "Checked in: <span data-checked-count>1</span> of <span data-expected-count>30" in page


def test_the_script_gets_the_row_and_the_counts_without_a_reload() -> None:
    t = make(n=5)
    Entrant.objects.filter(tournament=t).update(checked_in=False)
    p2 = Entrant.objects.get(tournament=t, name="P2")
    org, _user = organiser_client()
    json = {"HTTP_ACCEPT": "application/json"}
    answer = org.post(page_url(t), {"action": "check_in", "entrant": p2.pk}, **json).json()
    assert answer["ok"] and answer["message"] == "P2 is checked in."
    assert answer["checked_in"] == 1 and answer["expected"] == 5
    assert f'id="entrant-{p2.pk}"' in answer["row"] and "data-checked-in" in answer["row"]
    # A refusal is an answer too (no 500, nothing changed): a paired player cannot be
    # checked out; an entrant of another tournament is not found.
    other = make(slug="other", n=1).entrants.get()
    Entrant.objects.filter(pk=other.pk).update(checked_in=False)
    refused = org.post(page_url(t), {"action": "check_in", "entrant": other.pk}, **json)
    assert refused.status_code == 400 and not refused.json()["ok"]
    assert not Entrant.objects.get(pk=other.pk).checked_in  # untouched
    junk = org.post(page_url(t), {"action": "check_in", "entrant": "x'"}, **json)
    assert junk.status_code == 400


def test_the_search_finds_any_script_any_case_and_without_accents() -> None:
    t = make(n=0)
    for name, club in (("Анна Иванова", "Toronto"), ("Pavel Petrov", "Ёлка"), ("José Núñez", "")):
        Entrant.objects.create(tournament=t, name=name, club=club)
    org, _user = organiser_client()
    for query, found in (
        ("иван", "Анна Иванова"),
        ("иван ан", "Анна Иванова"),
        ("АННА", "Анна Иванова"),
        ("ёлк", "Pavel Petrov"),
        ("елк", "Pavel Petrov"),
        ("nunez", "José Núñez"),
    ):
        html = org.get(page_url(t), {"q": query}).content.decode()
        listed = html.split('id="entrants"')[1]
        assert found in listed, query
        assert listed.count("data-entrant=") == 1, query


def test_the_count_says_who_is_expected_and_who_is_not_in_the_list_yet() -> None:
    t = make(n=4)
    Entrant.objects.filter(tournament=t, name="P4").update(withdrawn_after=0)
    make_registrations(t, 3)  # entered, no entrant yet
    html = organiser_client()[0].get(page_url(t)).content.decode()
    assert "Checked in: <span data-checked-count>3</span> of <span data-expected-count>3" in html
    assert "3 entered registrations are not in this list yet" in html


@pytest.mark.parametrize("n", [10, 80])
def test_the_entrants_page_reads_a_bounded_number_of_queries(n: int) -> None:
    t = make(slug=f"q{n}", n=n)
    make_registrations(t, n // 2)
    org, _user = organiser_client()
    org.get(page_url(t))  # sessions, permissions
    with CaptureQueriesContext(connection) as queries:
        assert org.get(page_url(t)).status_code == 200
    # (13 with the organisers' tab row, which names the latest round; 14 with the entrants a
    # registration is matched against, registrations.selectors.EntrantsAlready: one query
    # whatever the field.)
    assert len(queries) <= 14, [q["sql"] for q in queries]
