"""Names are single-line and free of control characters wherever they are stored, so no
export line (.nrd tag, TRF line, CSV row) can be forged; slugs are validated on every save."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import connection
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from championship.models import Entrant, Tournament
from common.text import single_line
from games.demo import create_running_swiss
from games.models import Game
from registrations.models import MasterClassSignup, Registration
from tests.conftest import make_session, registration_form

FORGED = 'Anna\r\n001  999 m    Forged Player\n\t[Event "forged"]\x00\x1b\x85\u2028end'
CLEAN = 'Anna 001  999 m    Forged Player [Event "forged"] end'


@pytest.mark.parametrize(
    "text, expected",
    [
        ("a\nb", "a b"),
        (" a \r\n\t b ", "a b"),
        ("a\n\n\nb", "a b"),
        ("a \n \n b", "a b"),
        ("x\x00y", "xy"),
        ("\x1b[31mred", "[31mred"),
        ("A  B", "A  B"),  # spaces inside a line are the writer's business
        ("a\u2028b\u2029c\x85d\x0be\x0cf", "a b c d e f"),
        ("\n\t ", ""),
        ("Мария Кузнецова", "Мария Кузнецова"),
    ],
)
def test_single_line(text, expected):
    assert single_line(text) == expected


@given(st.text())
def test_single_line_is_one_clean_line(text: str) -> None:
    line = single_line(text)
    assert len(line.splitlines()) <= 1
    assert not any(ord(ch) < 32 or 0x7F <= ord(ch) <= 0x9F for ch in line)
    assert line == line.strip() and single_line(line) == line


@pytest.mark.django_db
def test_every_way_of_storing_a_name_keeps_it_on_one_line(tournament):
    created = Entrant.objects.create(tournament=tournament, name=FORGED, club=FORGED)
    assert created.name == CLEAN  # the instance in hand too, not only the row
    Entrant.objects.bulk_create([Entrant(tournament=tournament, name=FORGED, starting_number=7)])
    Entrant.objects.filter(starting_number=7).update(club=FORGED)
    created.name = "Olga\nSmirnova"
    created.save(update_fields=["name"])
    stored = list(Entrant.objects.order_by("pk").values_list("name", "club"))
    assert stored == [("Olga Smirnova", CLEAN), (CLEAN, CLEAN)]


@pytest.mark.django_db
def test_full_clean_cleans_and_refuses_a_name_of_control_characters(tournament):
    registration = Registration(
        tournament=tournament,
        name="Anna\nIvanova",
        email="a@example.org",
        club="Toronto\r\n",
        experience="club",
        language="en",
        consent_at="2027-01-01T00:00Z",
    )
    registration.full_clean()
    assert (registration.name, registration.club) == ("Anna Ivanova", "Toronto")
    registration.name = "\n\t\x00"
    with pytest.raises(ValidationError) as caught:
        registration.full_clean()
    assert "name" in caught.value.message_dict


@pytest.mark.django_db
def test_the_public_forms_store_single_line_names_and_clubs(client, tournament):
    data = registration_form(name="Анна\nИванова", club="Toronto\n012 Forged Open")
    client.post(reverse("registrations:register", args=[tournament.slug]), data)
    assert Registration.objects.values_list("name", "club").get() == (
        "Анна Иванова",
        "Toronto 012 Forged Open",
    )
    session = make_session()
    client.post(
        reverse("registrations:signup", args=[session.pk]),
        {
            "name": "Sam\r\nPatel",
            "email": "s@example.org",
            "language": "en",
            "experience": "newcomer",
            "consent": "on",
        },
    )
    assert MasterClassSignup.objects.values_list("name", flat=True).get() == "Sam Patel"


@pytest.mark.django_db
def test_tournament_entrant_and_game_names_reach_the_exports_on_one_line(client):
    t = create_running_swiss(slug="lines", players=4, rounds=1, unfinished_last=False)
    t.name, t.venue = "Open\n012 Forged", "Toronto\r\n022 Nowhere"
    t.save()
    entrant = t.entrants.order_by("pk").first()
    entrant.name = "Anna\n001    9 m    Forged"
    entrant.save()
    cache.clear()  # the public data were cached when the demo was made
    trf = client.get(reverse("championship:trf", args=[t.slug])).content.decode().splitlines()
    assert not any(line.startswith(("012 Forged", "022 Nowhere")) for line in trf)
    assert sum(line.startswith("001 ") for line in trf) == 4  # the four players, no fifth
    assert any("Anna 001 9 m Forged" in line for line in trf)  # one line, single spaces
    nrd = client.get(reverse("games:tournament_records", args=[t.slug])).content.decode()
    games = Game.objects.filter(board__round__tournament=t).count()
    assert nrd.count("[Event ") == games and '[Event "Open 012 Forged"]' in nrd
    assert not any(line.startswith("001") for line in nrd.splitlines())
    friendly = Game.objects.create(white_name='A\n[Result "1-0"]', black_name="B\tC")
    assert (friendly.white_name, friendly.black_name) == ('A [Result "1-0"]', "B C")
    record = client.get(reverse("games:record", args=[friendly.pk])).content.decode()
    assert '[White "A [Result \\"1-0\\"]"]' in record and '[Black "B C"]' in record


@pytest.mark.django_db
def test_the_record_writer_holds_even_for_a_name_stored_behind_the_models_back(client):
    t = create_running_swiss(slug="raw", players=2, rounds=1, unfinished_last=False)
    game = Game.objects.filter(board__round__tournament=t).first()
    with connection.cursor() as cursor:  # as an old row or a manual SQL fix could hold it
        cursor.execute(
            "UPDATE games_game SET event = %s WHERE id = %s", ['E\n\n[Event "forged"]', game.pk]
        )
    record = client.get(reverse("games:record", args=[game.pk])).content.decode()
    assert not any(line.startswith('[Event "forged"]') for line in record.splitlines())


@pytest.mark.django_db
@pytest.mark.parametrize("slug", ["bad slug", "<b>", "", "a/b", "ünï", "x\n"])
def test_a_bad_slug_cannot_be_saved_by_any_way_in(slug):
    with pytest.raises(ValidationError):
        Tournament.objects.create(name="T", slug=slug, starts_on="2027-03-14", ends_on="2027-03-14")
    assert not Tournament.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("slug", ["bad slug", "<b>"])
def test_the_admin_form_refuses_a_bad_slug_and_cleans_the_name(rf, slug):
    from django.contrib import admin
    from django.contrib.auth.models import User
    from django.forms.models import model_to_dict

    request = rf.get("/admin/championship/tournament/add/")
    request.user = User(is_superuser=True, is_staff=True)
    form_class = admin.site._registry[Tournament].get_form(request)
    defaults = Tournament(name="x", slug="x", starts_on="2027-03-14", ends_on="2027-03-14")
    data = {k: v for k, v in model_to_dict(defaults).items() if v is not None}
    form = form_class(data={**data, "name": "Open\n[Event]", "slug": slug})
    assert not form.is_valid() and "slug" in form.errors
    form = form_class(data={**data, "name": "Open\n[Event]", "slug": "open"})
    assert form.is_valid(), form.errors
    assert form.save().name == "Open [Event]"
