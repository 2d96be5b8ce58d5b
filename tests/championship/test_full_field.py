"""A full field is announced on the home page and the tournament page, not only on the form."""

from __future__ import annotations

from django.test import Client

from championship.models import Tournament
from tests.conftest import make_registrations


def test_a_full_field_says_so_before_the_form(client: Client, tournament: Tournament) -> None:
    tournament.entry_cap = 2
    tournament.registration_open = True
    tournament.save()
    make_registrations(tournament, 1, status="entered")
    page = client.get(f"/tournaments/{tournament.slug}/").content.decode()
    assert "field-full" not in page and "Join the waiting list" not in page
    assert "Join the waiting list" not in client.get("/").content.decode()
    make_registrations(tournament, 1, prefix="q", status="entered")
    page = client.get(f"/tournaments/{tournament.slug}/").content.decode()
    assert 'id="field-full"' in page and "Join the waiting list" in page
    assert "Join the waiting list" in client.get("/").content.decode()


def test_someone_waiting_means_full_even_below_the_cap(
    client: Client, tournament: Tournament
) -> None:
    tournament.entry_cap = 10
    tournament.registration_open = True
    tournament.save()
    make_registrations(tournament, 1, status="waitlisted")
    assert 'id="field-full"' in client.get(f"/tournaments/{tournament.slug}/").content.decode()
