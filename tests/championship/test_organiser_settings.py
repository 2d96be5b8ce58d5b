"""Issue 11, point 1: a tournament created and edited on the organisers' pages, every value
validated next to its field; tie-breaks chosen by name and never stored unknown; finishing."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.utils import translation

from championship import services
from championship.models import Tournament
from tests.championship.organiser import make, play, settings_data
from tests.games.helpers import organiser_client

pytestmark = pytest.mark.django_db

NEW = {
    "name": "Toronto Spring Open",
    "name_ru": "Весенний турнир Торонто",
    "slug": "spring",
    "description": "Five rounds.",
    "description_ru": "Пять туров.",
    "starts_on": "2027-04-10",
    "ends_on": "2027-04-11",
    "venue": "Library",
    "system": "swiss",
    "ruleset": "dutch-2025",
    "rounds": "5",
    "phase1_minutes": "25",
    "phase2_minutes": "20",
    "points_win": "1",
    "points_draw": "0.5",
    "points_loss": "0",
    "points_bye": "1",
    "games_per_pairing": "1",
    "max_half_point_byes": "2",
    "entry_cap": "40",
    "registration_open": "on",
    "registration_opens_on": "2027-03-01",
    "registration_closes_on": "2027-04-08",
    "two_person_confirmation": "on",
    "tiebreak_1": "bh_c1",
    "tiebreak_2": "bh",
    "tiebreak_3": "sb",
}


def test_an_organiser_creates_a_tournament_with_every_setting() -> None:
    org, _user = organiser_client()
    page = org.get("/manage/new/")
    assert page.status_code == 200
    assert "Buchholz Cut-1 (BH-C1)" in page.content.decode()  # tie-breaks by their names
    response = org.post("/manage/new/", NEW, follow=True)
    t = Tournament.objects.get(slug="spring")
    assert response.redirect_chain[-1][0] == "/t/spring/manage/"
    assert "is created" in response.content.decode()
    assert (t.name_ru, t.description_ru, t.venue) == (
        "Весенний турнир Торонто",
        "Пять туров.",
        "Library",
    )
    assert (t.rounds, t.phase1_minutes, t.phase2_minutes, t.entry_cap) == (5, 25, 20, 40)
    assert t.tiebreaks == "bh_c1,bh,sb" and t.max_half_point_byes == 2
    assert t.two_person_confirmation and not t.forbid_same_club
    assert str(t.registration_closes_on) == "2027-04-08"
    # The hall's settings left empty take their defaults (issue 22).
    assert (t.no_show_minutes, t.absences_to_withdraw, t.spectator_delay_minutes) == (15, None, 0)


def test_the_halls_settings_are_saved() -> None:
    org, _user = organiser_client()
    org.post(
        "/manage/new/",
        {
            **NEW,
            "no_show_minutes": "20",
            "absences_to_withdraw": "2",
            "spectator_delay_minutes": "15",
        },
    )
    t = Tournament.objects.get(slug="spring")
    assert (t.no_show_minutes, t.absences_to_withdraw, t.spectator_delay_minutes) == (20, 2, 15)


def test_tie_breaks_are_named_in_the_users_language() -> None:
    org, _user = organiser_client()
    org.cookies["django_language"] = "ru"
    with translation.override("ru"):
        html = org.get("/manage/new/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Бухгольц" in html


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("rounds", "0", "greater than or equal to 1"),
        ("rounds", "abc", "whole number"),
        ("rounds", "two", "whole number"),
        ("phase1_minutes", "-5", "greater than or equal to 1"),
        ("points_win", "x", "number"),
        ("system", "chess", "valid choice"),
        ("tiebreak_1", "BH-C1", "valid choice"),
        ("tiebreak_2", "bh_c1", "once"),
        ("ends_on", "2027-04-01", "before the first day"),
        ("registration_closes_on", "2027-02-01", "close before it opens"),
        ("starts_on", "14/04/2027x", "valid date"),
        ("entry_cap", "0", "greater than or equal to 1"),
        ("no_show_minutes", "abc", "whole number"),
        ("absences_to_withdraw", "0", "greater than or equal to 1"),
        ("spectator_delay_minutes", "999", "less than or equal to 180"),
    ],
)
def test_a_wrong_value_is_refused_next_to_its_field(field: str, value: str, message: str) -> None:
    org, _user = organiser_client()
    response = org.post("/manage/new/", {**NEW, field: value})
    assert response.status_code == 400
    html = response.content.decode()
    assert message in html and "invalid-feedback" in html
    assert not Tournament.objects.exists()


def test_rounds_cannot_go_below_those_paired_and_the_system_is_fixed_once_paired() -> None:
    t = make(rounds=5)
    play(t)
    play(t)
    org, _user = organiser_client()
    url = f"/t/{t.slug}/manage/settings/"
    for changes, message in [
        ({"rounds": "1"}, "2 rounds are paired already"),
        ({"system": "rr"}, "cannot change once round 1 is paired"),
        ({"games_per_pairing": "2"}, "cannot change once round 1 is paired"),
    ]:
        response = org.post(url, settings_data(t, **changes))
        assert response.status_code == 400
        assert message in response.content.decode()
    t.refresh_from_db()
    assert (t.rounds, t.system, t.games_per_pairing) == (5, "swiss", 1)
    response = org.post(
        url, settings_data(t, rounds="3", tiebreak_1="sb", tiebreak_3="bh_c1"), follow=True
    )
    assert "settings are saved" in response.content.decode()
    t.refresh_from_db()
    assert t.rounds == 3 and t.tiebreak_order[0] == "sb"


def test_an_unknown_tie_break_cannot_be_stored_and_a_stored_one_takes_no_page_down() -> None:
    t = make()
    play(t)
    t.tiebreaks = "BH-C1, BH, SB"
    with pytest.raises(ValidationError):
        t.save()
    with pytest.raises(ValidationError):
        t.full_clean()
    # Stored behind the model's back (an old database, a raw update): ignored by the pages.
    Tournament.objects.filter(pk=t.pk).update(tiebreaks="BH-C1,nonsense,sb,sb", version=99)
    t.refresh_from_db()
    assert t.tiebreak_order == ["sb"]
    for page in ("", "standings/", "crosstable/", "players/", "pairings/1/", "export.trf"):
        assert Client().get(f"/t/{t.slug}/{page}").status_code == 200, page
    org, _user = organiser_client()
    assert org.get(f"/t/{t.slug}/standings/?format=xlsx").status_code == 200
    assert org.get(f"/t/{t.slug}/manage/settings/").status_code == 200


def test_finishing_asks_first_freezes_and_marks_every_public_page_final() -> None:
    t = make(rounds=2)
    play(t)
    org, _user = organiser_client()
    url = f"/t/{t.slug}/manage/finish/"
    assert "Yes, finish the tournament" in org.get(url).content.decode()
    org.post(url, {"action": "finish"})  # not confirmed: nothing happens
    assert Tournament.objects.get(pk=t.pk).status == "running"
    response = org.post(url, {"action": "finish", "confirm": "yes"}, follow=True)
    assert "standings are final" in response.content.decode()
    t.refresh_from_db()
    assert t.status == "finished" and t.finished_at is not None
    for page in ("", "standings/", "crosstable/", "players/", "pairings/1/"):
        assert 'id="final-mark"' in Client().get(f"/t/{t.slug}/{page}").content.decode(), page
    # Frozen: no pairing, no result, no entrant, no setting.
    with pytest.raises(services.ChampionshipError, match="finished"):
        services.round_pair_next(tournament=t)
    with pytest.raises(services.ChampionshipError, match="finished"):
        services.entrant_add(tournament=t, name="Late")
    board = t.round_set.get(number=1).boards.exclude(black=None).first()
    game = board.results.get(number=1)
    with pytest.raises(services.ResultsRefused):
        services.game_result_set(
            entries=[services.ResultEntry(board, 1, "0-1", "resign", game.version)], user=None
        )
    response = org.post(f"/t/{t.slug}/manage/settings/", settings_data(t, name="Changed"))
    assert Tournament.objects.get(pk=t.pk).name == "Open"
    # The settings, byes and forbidden pairs are shown, not offered (a change is refused).
    for page, fields in (
        ("settings", "settings"),
        ("byes", "byes"),
        ("forbidden-pairs", "forbidden"),
    ):
        html = org.get(f"/t/{t.slug}/manage/{page}/").content.decode()
        assert f'<fieldset id="{fields}-fields" disabled>' in html, page
    # Reopened (asks first too): not final any more.
    org.post(url, {"action": "reopen"})
    assert Tournament.objects.get(pk=t.pk).status == "finished"
    org.post(url, {"action": "reopen", "confirm": "yes"})
    assert Tournament.objects.get(pk=t.pk).status == "running"
    assert 'id="final-mark"' not in Client().get(f"/t/{t.slug}/").content.decode()
    for page, fields in (
        ("settings", "settings"),
        ("byes", "byes"),
        ("forbidden-pairs", "forbidden"),
    ):
        html = org.get(f"/t/{t.slug}/manage/{page}/").content.decode()
        assert f'<fieldset id="{fields}-fields">' in html, page


def test_a_tournament_with_a_draft_or_missing_results_cannot_finish() -> None:
    t = make(rounds=3)
    play(t)
    services.round_pair_next(tournament=t)
    org, _user = organiser_client()
    response = org.post(
        f"/t/{t.slug}/manage/finish/", {"action": "finish", "confirm": "yes"}, follow=True
    )
    assert "still a draft" in response.content.decode()
    assert Tournament.objects.get(pk=t.pk).status != "finished"


def test_registration_opens_and_closes_on_its_dates() -> None:
    import datetime

    import time_machine

    t = make(n=0, registration_opens_on="2027-03-01", registration_closes_on="2027-03-10")
    url = f"/tournaments/{t.slug}/register/"
    for day, open_ in [
        ("2027-02-28", False),
        ("2027-03-01", True),
        ("2027-03-10", True),
        ("2027-03-11", False),
    ]:
        with time_machine.travel(
            datetime.datetime.fromisoformat(f"{day}T12:00:00-05:00"), tick=False
        ):
            t.refresh_from_db()
            assert t.registration_is_open is open_, day
            html = Client().get(url).content.decode()
            assert ('name="email"' in html) is open_, day


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("en", "Another tournament already has this web address: choose another one."),
        ("ru", "Этот адрес уже занят другим турниром: выберите другой."),
    ],
)
def test_a_web_address_taken_is_refused_in_words_not_with_the_fields_label(
    language: str, message: str
) -> None:
    """Django's own message ("Tournament with this Адрес (slug) already exists.") put the
    field's label mid-sentence, wrongly cased and undeclined."""
    make(slug="spring")
    org, _user = organiser_client()
    org.cookies["django_language"] = language
    response = org.post("/manage/new/", {**NEW, "slug": "spring"})
    assert response.status_code == 400  # refused, the form shown again
    html = response.content.decode()
    assert message in html
    assert "already exists" not in html and "уже существует" not in html
    assert Tournament.objects.filter(slug="spring").count() == 1


@pytest.mark.parametrize(
    ("field", "value", "bound"),
    [
        ("rounds", "-3", "greater than or equal to 1"),
        ("phase1_minutes", "-5", "greater than or equal to 1"),
        ("entry_cap", "-1", "greater than or equal to 1"),
        ("max_half_point_byes", "-1", "greater than or equal to 0"),
        ("rounds", "40000", "less than or equal to"),
    ],
)
def test_a_number_out_of_range_gets_one_message(field: str, value: str, bound: str) -> None:
    """The page's bounds replace the model field's (a positive integer's 0 to 32767), so a
    number out of range is told once what the page accepts."""
    org, _user = organiser_client()
    response = org.post("/manage/new/", {**NEW, field: value})
    assert response.status_code == 400
    errors = response.context["form"].errors[field]
    assert len(errors) == 1 and bound in errors[0], errors
