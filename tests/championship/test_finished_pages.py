"""A finished tournament, as its pages show it (the state the services already refuse to
change): the player's own page, the public pages, the calendar file and the e-mails no longer
present the rounds never played as to come, nothing offers check-in, withdrawal or pairing,
the round's progress is over, and the finish page warns of the rounds not played first."""

from __future__ import annotations

import json

import pytest
import time_machine
from django.test import Client
from django.urls import reverse
from icalendar import Calendar

from championship import selectors, services
from championship.models import Tournament
from registrations import tokens
from registrations.models import Registration
from registrations.services import entries
from registrations.services import field as registration_field
from tests.championship.day import SATURDAY, at, field, page_url, register, timetable, weekend
from tests.championship.organiser import play
from tests.games.helpers import organiser_client

pytestmark = pytest.mark.django_db


def text(response) -> str:  # type: ignore[no-untyped-def]
    return response.content.decode()


def get(client: Client, url: str, language: str = "en"):  # type: ignore[no-untyped-def]
    return client.get(url, HTTP_ACCEPT_LANGUAGE=language)


@pytest.fixture
def after_round_one() -> tuple[Tournament, Registration]:
    """Six rounds scheduled, round 1 played to its last result, Elena entered and playing."""
    t = weekend()
    timetable(t)
    field(t, 3)
    elena = register(t, "Elena Sokolova", language="ru")
    registration_field.registration_check_in(registration=elena, checked_in=True)
    with time_machine.travel(at(SATURDAY, 10), tick=False):
        play(t)
    return t, elena


def finish(t: Tournament) -> Tournament:
    return services.tournament_finish(tournament=t)


def test_the_schedule_of_a_finished_tournament_is_the_rounds_played(after_round_one) -> None:  # type: ignore[no-untyped-def]
    t, _elena = after_round_one
    assert [r.number for r in selectors.schedule_rows(t)] == [1, 2, 3, 4, 5, 6]
    assert selectors.rounds_not_played(t) == [2, 3, 4, 5, 6]
    t = finish(t)
    assert [r.number for r in selectors.schedule_rows(t)] == [1]


def test_the_player_page_says_finished_with_the_final_place_and_offers_nothing_to_come(
    client, after_round_one
) -> None:  # type: ignore[no-untyped-def]
    t, elena = after_round_one
    with time_machine.travel(at(SATURDAY, 11), tick=False):
        before = text(get(client, page_url(elena)))
        assert 'data-round="2"' in before and 'id="withdraw-link"' in before
        version = json.loads(text(client.get(page_url(elena) + "state.json")))["version"]
        finish(t)
        # The page polls: the finished state is a new version, so the page is fetched again.
        assert json.loads(text(client.get(page_url(elena) + "state.json")))["version"] != version
        page = text(get(client, page_url(elena)))
        russian = text(get(client, page_url(elena), "ru"))
    assert "The tournament is finished: the standings are final." in page
    assert "Your final place: " in page
    assert "Турнир завершён: таблица окончательная." in russian
    assert "Ваше итоговое место: " in russian
    for shown in (page, russian):
        assert 'data-round="1"' in shown
        assert 'data-round="2"' not in shown and 'data-round="6"' not in shown
        assert "data-countdown" not in shown
        assert 'data-refresh-at=""' in shown
        assert 'id="withdraw-link"' not in shown
        assert 'value="check_in"' not in shown and 'id="my-check-in"' not in shown


def test_the_public_pages_show_no_countdown_nor_rounds_to_come(client, after_round_one) -> None:  # type: ignore[no-untyped-def]
    t, _elena = after_round_one
    finish(t)
    for url in (
        reverse("tournament_detail", args=[t.slug]),
        reverse("championship:overview", args=[t.slug]),
    ):
        for language in ("en", "ru"):
            page = text(get(client, url, language))
            assert "data-countdown" not in page, url
            assert 'data-round="2"' not in page and 'data-round="1"' in page, url
    assert "these are the rounds that were played" in text(
        get(client, reverse("tournament_detail", args=[t.slug]))
    )


def test_the_calendar_cancels_the_rounds_a_finished_tournament_did_not_play(
    client, after_round_one
) -> None:  # type: ignore[no-untyped-def]
    t, _elena = after_round_one
    url = reverse("championship:schedule_ics", args=[t.slug])

    def events() -> dict[int, tuple[str, int]]:
        calendar = Calendar.from_ical(client.get(url).content)
        return {
            int(str(e["uid"]).split("-round-")[1].split("@")[0]): (
                str(e.get("status", "")),
                int(e["sequence"]),
            )
            for e in calendar.walk("VEVENT")
        }

    running = events()
    assert all(status == "" for status, _ in running.values())
    finish(t)
    done = events()
    assert done[1] == running[1]
    for n in range(2, 7):
        assert done[n] == ("CANCELLED", running[n][1] + 1)
    services.tournament_reopen(tournament=Tournament.objects.get(pk=t.pk))
    assert all(status == "" for status, _ in events().values())


def test_the_link_e_mail_of_a_finished_tournament_announces_nothing_to_come(
    after_round_one, mailoutbox
) -> None:  # type: ignore[no-untyped-def]
    t, elena = after_round_one
    finish(t)
    mailoutbox.clear()
    entries.person_links_send(email=elena.email)
    (message,) = mailoutbox
    assert "Турнир завершён." in message.body
    assert "Тур 1 начинается" not in message.body and "Регистрация на месте" not in message.body
    assert not [a for a in message.attachments if a[0].endswith(".ics")]


def test_a_finished_tournament_offers_no_withdrawal(client, after_round_one) -> None:  # type: ignore[no-untyped-def]
    t, elena = after_round_one
    token = tokens.make_token(tokens.MANAGE, elena.pk, elena.email)
    manage = reverse("registrations:manage", args=[token])
    withdraw = reverse("registrations:withdraw", args=[token])
    assert 'id="withdraw"' in text(get(client, manage))
    finish(t)
    for language, says in (
        ("en", "The tournament is finished: withdrawing from it is no longer possible."),
        ("ru", "Турнир завершён: сняться с него уже нельзя."),
    ):
        page = text(get(client, manage, language))
        assert 'id="withdraw"' not in page and says in page
        confirm = text(get(client, withdraw, language))
        assert says in confirm
        assert 'id="confirm-withdraw"' not in confirm
        assert "withdraw-consequences" not in confirm
    # Posted anyway (an old tab): refused, nothing changed.
    client.post(withdraw)
    assert Registration.objects.get(pk=elena.pk).status == Registration.Status.ENTERED


def test_a_finished_dashboard_offers_reopening_not_pairing(after_round_one) -> None:  # type: ignore[no-untyped-def]
    t, _elena = after_round_one
    dashboard = reverse("championship:dashboard", args=[t.slug])
    progress = reverse("games:round_progress", args=[t.slug, 1])
    with time_machine.travel(at(SATURDAY, 11), tick=False):
        org, _user = organiser_client()
        assert "Pair the next round" in text(org.get(dashboard))
        finish(t)
        page = text(org.get(dashboard))
        fragment = text(org.get(progress))
        russian = text(org.get(progress, HTTP_ACCEPT_LANGUAGE="ru"))
    assert "Pair the next round" not in page and 'id="reopen"' in page
    assert reverse("championship:finish", args=[t.slug]) in page
    assert "running for" not in fragment and "round over" in fragment
    assert "тур окончен" in russian


def test_a_round_whose_every_game_is_over_is_over_not_running(after_round_one) -> None:  # type: ignore[no-untyped-def]
    t, _elena = after_round_one
    with time_machine.travel(at(SATURDAY, 11), tick=False):
        org, _user = organiser_client()
        fragment = text(org.get(reverse("games:round_progress", args=[t.slug, 1])))
    assert "running for" not in fragment and "round over" in fragment


@pytest.mark.parametrize(
    ("rounds", "language", "says"),
    [
        (6, "en", "5 rounds of the schedule have not been played"),
        (2, "en", "1 round of the schedule has not been played"),
        (6, "ru", "5 туров расписания не сыграно"),
        (3, "ru", "2 тура расписания не сыграны"),
        (2, "ru", "1 тур расписания не сыгран"),
    ],
)
def test_the_finish_page_counts_the_rounds_not_played(
    rounds: int, language: str, says: str
) -> None:
    t = weekend(rounds=rounds)
    field(t, 4)
    org, _user = organiser_client()
    url = reverse("championship:finish", args=[t.slug])
    play(t)
    page = text(org.get(url, HTTP_ACCEPT_LANGUAGE=language))
    assert says in page


def test_the_finish_page_has_no_warning_once_every_round_is_played() -> None:
    t = weekend(rounds=1)
    field(t, 4)
    play(t)
    org, _user = organiser_client()
    page = text(org.get(reverse("championship:finish", args=[t.slug])))
    assert 'id="not-played"' not in page
