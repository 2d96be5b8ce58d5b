"""A player's own page (issue 22, point 2), reached from the signed link of their e-mails:
status, schedule, self check-in while the window is open (refused after the cut-off with the
reason), their board, colour and opponent once a round is published, results and standing,
the way to withdraw; no one else's personal data; a bounded number of queries; what its live
updates poll. And the public schedule (point 1): times on the venue's clocks, the calendar
file with an event per round."""

from __future__ import annotations

import re
from datetime import timedelta
from urllib.parse import urlsplit

import pytest
import time_machine
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from icalendar import Calendar

from championship import services
from championship.models import Board, Entrant, Round, RoundStart
from registrations import tokens
from registrations.models import Registration
from tests.championship.day import SATURDAY, at, field, page_url, register, timetable, weekend
from tests.championship.results import enter
from tests.conftest import shows_phone, signed_links
from tests.games.helpers import organiser_client

pytestmark = pytest.mark.django_db


def text(response) -> str:  # type: ignore[no-untyped-def]
    return response.content.decode()


def get(client: Client, url: str, **headers: str):  # type: ignore[no-untyped-def]
    return client.get(url, HTTP_ACCEPT_LANGUAGE=headers.get("language", "en"))


@pytest.fixture
def day():  # type: ignore[no-untyped-def]
    t = weekend()
    timetable(t)
    players = field(t, 5, walk_ins=1)
    anna = register(t, "Anna Ivanova", phone="+14165550199")
    return t, players, anna


def test_before_the_window_the_page_says_when_check_in_opens(client, day) -> None:  # type: ignore[no-untyped-def]
    t, _players, anna = day
    with time_machine.travel(at(SATURDAY, 8), tick=False):
        page = text(get(client, page_url(anna)))
    assert "Anna Ivanova" in page and "Spring Open" in page
    assert "Check-in opens at 9 a.m. on Saturday, March 13, 2027." in page
    assert 'value="check_in"' not in page
    # The schedule, on the venue's clocks, each day in words.
    assert "Saturday, March 13, 2027" in page and "Sunday, March 14, 2027" in page
    assert 'data-starts-at="2027-03-14T10:00:00-04:00"' in page  # summer time on Sunday
    assert 'data-starts-at="2027-03-13T10:00:00-05:00"' in page


def test_a_player_checks_in_from_the_page_and_the_arbiter_sees_how(client, day) -> None:  # type: ignore[no-untyped-def]
    t, _players, anna = day
    with time_machine.travel(at(SATURDAY, 9, 20), tick=False):
        page = text(get(client, page_url(anna)))
        assert 'value="check_in"' in page and "Open until 9:45 a.m." in page
        response = client.post(page_url(anna), {"action": "check_in"}, follow=True)
    assert "You are checked in. See you at the board!" in text(response)
    assert "You checked in at 9:20 a.m." in text(response)
    entrant = Entrant.objects.get(registration=anna)
    assert entrant.checked_in and entrant.checked_in_by == "player"
    org, _user = organiser_client()
    entrants = text(org.get(reverse("championship:entrants", args=[t.slug])))
    assert entrants.count("by themselves") == 1
    dashboard = text(org.get(reverse("championship:dashboard", args=[t.slug])))
    assert "7 checked in" in dashboard and "(1 by themselves)" in dashboard


def test_after_the_cut_off_the_button_is_gone_and_a_late_post_is_refused_with_the_reason(
    client, day
) -> None:  # type: ignore[no-untyped-def]
    t, _players, anna = day
    with time_machine.travel(at(SATURDAY, 9, 44), tick=False):
        form_page = text(get(client, page_url(anna)))
    assert 'value="check_in"' in form_page
    with time_machine.travel(at(SATURDAY, 9, 46), tick=False):
        # The form shown at 9:44 is sent at 9:46: refused, and said why.
        response = client.post(page_url(anna), {"action": "check_in"}, follow=True)
    page = text(response)
    assert "Check-in closed at 9:45 a.m." in page and "arbiter" in page
    assert 'value="check_in"' not in page
    assert not Entrant.objects.filter(registration=anna).exists()


def test_once_a_round_is_published_the_page_shows_board_colour_opponent_and_time(
    client, day
) -> None:  # type: ignore[no-untyped-def]
    t, players, _anna = day
    rnd = services.round_pair_next(tournament=t)
    services.round_publish(round=rnd)
    reg = players[0]
    entrant = Entrant.objects.get(registration=reg)
    board = Board.objects.filter(round=rnd).filter(white=entrant).first() or Board.objects.get(
        round=rnd, black=entrant
    )
    with time_machine.travel(at(SATURDAY, 9, 50), tick=False):
        page = text(get(client, page_url(reg)))
    assert 'id="my-board"' in page
    if board.black_id is None:
        assert "bye" in page.lower()
    else:
        white = board.white_id == entrant.pk
        opponent = board.black if white else board.white
        assert f"Board {board.number}" in page
        assert ("White" if white else "Black") in page
        assert opponent is not None and opponent.name in page
        assert 'data-countdown-to="2027-03-13T10:00:00-05:00"' in page
        # A result: the page shows it, and the standing.
        enter(board, "1-0", "resign")
        page = text(get(client, page_url(reg)))
        assert "Rank " in page and "Your results" in page


def test_the_page_is_in_the_language_of_the_link(client, day) -> None:  # type: ignore[no-untyped-def]
    t, _players, anna = day
    with time_machine.travel(at(SATURDAY, 9, 20), tick=False):
        page = text(client.get(page_url(anna) + "?lang=ru", HTTP_ACCEPT_LANGUAGE="en"))
    assert "Регистрация" in page or "Отметиться" in page or "отметьте" in page.lower()
    assert "суббота, 13 марта 2027" in page.lower()


def test_no_personal_data_of_anyone_on_the_page(client, day) -> None:  # type: ignore[no-untyped-def]
    t, players, anna = day
    services.round_publish(round=services.round_pair_next(tournament=t))
    for reg in [*players, anna]:
        page = text(get(client, page_url(reg)))
        for other in Registration.objects.filter(tournament=t):
            assert other.email not in page
            assert str(other.phone) not in page
            assert not shows_phone(page, str(other.phone))


def test_links_that_do_not_open_the_page(client, day, settings) -> None:  # type: ignore[no-untyped-def]
    t, players, anna = day
    good = page_url(anna)
    assert get(client, good[:-3] + "xx/").status_code == 400  # tampered
    manage = tokens.make_token(tokens.MANAGE, anna.pk, anna.email)  # another purpose
    assert get(client, reverse("registrations:my_day", args=[t.slug, manage])).status_code == 400
    other = weekend(slug="other")
    token = good.rstrip("/").rsplit("/", 1)[1]
    assert get(client, reverse("registrations:my_day", args=[other.slug, token])).status_code == 400
    with time_machine.travel(timedelta(seconds=settings.SIGNED_LINK_MAX_AGE + 60)):
        expired = get(client, good)
    assert expired.status_code == 410 and "lost" in text(expired).lower()
    Registration.objects.filter(pk=anna.pk).update(email="new@example.org")
    assert get(client, good).status_code == 400  # the address it was sent to changed


def test_a_withdrawn_or_waiting_player_sees_their_status_and_no_check_in(client, day) -> None:  # type: ignore[no-untyped-def]
    t, _players, anna = day
    waiting = register(t, "Wait Ing", status=Registration.Status.WAITLISTED)
    with time_machine.travel(at(SATURDAY, 9, 20), tick=False):
        page = text(get(client, page_url(waiting)))
        assert "on the waiting list, position 1" in page and 'value="check_in"' not in page
        Registration.objects.filter(pk=anna.pk).update(status=Registration.Status.WITHDRAWN)
        page = text(get(client, page_url(anna)))
    assert "withdrawn" in page and 'value="check_in"' not in page


def test_the_withdrawal_goes_through_the_existing_path(client, day) -> None:  # type: ignore[no-untyped-def]
    t, _players, anna = day
    page = text(get(client, page_url(anna)))
    manage = tokens.make_token(tokens.MANAGE, anna.pk, anna.email)
    withdraw = reverse("registrations:withdraw", args=[manage])
    assert signed_links(page, "registrations:withdraw", tokens.MANAGE) == [(anna.pk, anna.email)]
    client.post(withdraw)
    anna.refresh_from_db()
    assert anna.status == Registration.Status.WITHDRAWN


def test_the_hall_s_absence_question_has_its_place_but_is_off_here(client, day) -> None:  # type: ignore[no-untyped-def]
    from pathlib import Path

    t, _players, anna = day
    source = Path("templates/championship/player/_day.html").read_text()
    assert (
        '{% if absence_question %}{% include "championship/player/_absence.html" %}{% endif %}'
        in source
    )
    assert get(client, page_url(anna)).status_code == 200


def test_what_the_live_page_polls_changes_with_the_day(client, day) -> None:  # type: ignore[no-untyped-def]
    t, players, anna = day
    state = reverse("registrations:my_day_state", args=page_url(anna).strip("/").split("/")[1::2])
    state = page_url(anna) + "state.json"
    first = get(client, state).json()["version"]
    assert get(client, state).json()["version"] == first
    services.round_publish(round=services.round_pair_next(tournament=t))
    second = get(client, state).json()["version"]
    assert second != first
    with CaptureQueriesContext(connection) as ctx:
        get(client, state)
    assert len(ctx.captured_queries) <= 2
    assert get(client, page_url(anna)[:-3] + "x/state.json").status_code == 404


def _queries(client: Client, url: str) -> int:
    client.get(url)  # warm: session, kept tables
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200
    return len(ctx.captured_queries)


def test_the_player_page_and_the_public_schedule_use_a_bounded_number_of_queries(client) -> None:  # type: ignore[no-untyped-def]
    org, _user = organiser_client()  # an organiser's overview is rendered, never kept
    counts = []
    for n, slug in ((6, "small"), (30, "large")):
        t = weekend(slug=slug)
        timetable(t)
        regs = field(t, n, walk_ins=2)
        for _ in range(2):
            rnd = services.round_pair_next(tournament=t)
            services.round_publish(round=rnd)
            for b in rnd.boards.exclude(black=None):
                enter(b, "1-0", "home")
        counts.append(
            (
                _queries(client, page_url(regs[0])),
                _queries(org, reverse("championship:overview", args=[t.slug])),
                _queries(client, reverse("tournament_detail", args=[t.slug])),
                _queries(client, reverse("championship:schedule_ics", args=[t.slug])),
            )
        )
    assert counts[0] == counts[1], counts
    player, overview, detail, calendar = counts[1]
    # The player page: 6, 3 for the report on their analysed games and training (issue 24), 1
    # for the hall's question to an absent player.
    assert player <= 10 and overview <= 16 and detail <= 10 and calendar <= 3, counts


def test_the_public_pages_show_the_schedule_and_no_one_s_data(client, day) -> None:  # type: ignore[no-untyped-def]
    t, players, anna = day
    for url in (reverse("championship:overview", args=[t.slug]), f"/tournaments/{t.slug}/"):
        page = text(get(client, url))
        assert 'id="schedule"' in page and "data-countdown" in page
        assert "Check-in before round 1: from 9 a.m. to 9:45 a.m." in page
        assert "10 a.m." in page and "12:30 p.m." in page
        assert "America/Toronto" in page
        assert anna.email not in page


def test_the_schedule_s_calendar_has_an_event_per_round_that_moves_with_it(client, day) -> None:  # type: ignore[no-untyped-def]
    t, _players, _anna = day
    url = reverse("championship:schedule_ics", args=[t.slug])
    first = Calendar.from_ical(get(client, url).content)
    events = {str(e["uid"]): e for e in first.walk("VEVENT")}
    assert len(events) == 6
    round4 = events[next(uid for uid in events if uid.startswith(f"tournament-{t.pk}-round-4@"))]
    assert round4.decoded("dtstart").isoformat() == "2027-03-14T10:00:00-04:00"
    assert round4["dtstart"].params["TZID"] == "America/Toronto"
    assert round4.decoded("dtend") - round4.decoded("dtstart") == timedelta(minutes=t.round_length)
    assert int(round4["sequence"]) == 0
    assert first.walk("VTIMEZONE"), "the zone's definition"
    assert b"VALUE=DATE" not in get(client, url).content  # real times, no whole days
    services.round_starts_shift(tournament=t, from_round=4, minutes=30)
    moved = {str(e["uid"]): e for e in Calendar.from_ical(get(client, url).content).walk("VEVENT")}
    assert set(moved) == set(events)  # same UIDs: calendars move the events
    assert int(moved[str(round4["uid"])]["sequence"]) == 1
    assert moved[str(round4["uid"])].decoded("dtstart").isoformat() == "2027-03-14T10:30:00-04:00"
    RoundStart.objects.filter(tournament=t).delete()
    whole = Calendar.from_ical(get(client, url).content)
    (event,) = whole.walk("VEVENT")
    assert str(event["uid"]).startswith(f"tournament-{t.pk}@")  # before any time: the days


def test_the_confirmation_e_mail_gives_real_times_the_page_and_its_qr_code(mailoutbox) -> None:  # type: ignore[no-untyped-def]
    from registrations.services import entries

    t = weekend()
    timetable(t)
    entries.registration_create(
        tournament=t,
        name="Olga",
        email="olga@example.org",
        phone="",
        club="",
        experience="club",
        language="en",
    )
    (message,) = mailoutbox
    assert "Round 1 starts: Saturday, March 13, 2027, 10 a.m." in message.body
    assert "Check-in: from 9 a.m. to 9:45 a.m." in message.body
    link = re.search(r"http://\S+/t/day/my/\S+/", message.body)
    assert link is not None
    page = Client().get(urlsplit(link.group(0)).path, HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200 and "Olga" in text(page)
    names = {a.filename: a for a in message.attachments}
    assert names["your-page-qr.png"].content.startswith(b"\x89PNG")
    calendar = Calendar.from_ical(names["tournament.ics"].content)
    starts = sorted(e.decoded("dtstart").isoformat() for e in calendar.walk("VEVENT"))
    assert starts[0] == "2027-03-13T10:00:00-05:00" and len(starts) == 6


def test_a_published_round_s_late_result_keeps_the_page_working(client, day) -> None:  # type: ignore[no-untyped-def]
    t, players, _anna = day
    for _ in range(2):
        rnd = services.round_pair_next(tournament=t)
        services.round_publish(round=rnd)
        for b in rnd.boards.exclude(black=None):
            enter(b, "0-1", "home")
    assert Round.objects.filter(tournament=t).count() == 2
    for reg in players:
        assert get(client, page_url(reg)).status_code == 200


def test_a_moved_round_shows_at_once_on_the_kept_public_page(client, day) -> None:  # type: ignore[no-untyped-def]
    t, _players, _anna = day
    overview = reverse("championship:overview", args=[t.slug])
    assert "3 p.m." in text(get(client, overview))  # kept for spectators now
    services.round_starts_shift(tournament=t, from_round=3, minutes=30)
    page = text(get(client, overview))
    assert "3:30 p.m." in page and 'data-starts-at="2027-03-13T15:30:00-05:00"' in page


def test_a_russian_player_reads_check_in_in_the_same_words_everywhere(client, day) -> None:  # type: ignore[no-untyped-def]
    """In Russian the page said "Отметка откроется в 9:00, 13 марта 2027 г.." (the short
    date's "г." and the sentence's full stop) under the heading "Прибытие", and the calendar
    file called the same window "Регистрация на месте": one word, "Отметка", and one stop."""
    t, _players, anna = day
    with time_machine.travel(at(SATURDAY, 8), tick=False):
        page = text(get(client, page_url(anna), language="ru"))
    assert "Отметка откроется в 9:00, суббота, 13 марта 2027." in page
    assert "г.." not in page and "Прибытие" not in page
    assert '<h2 class="h6">Отметка</h2>' in page
    url = reverse("championship:schedule_ics", args=[t.slug])
    calendar = Calendar.from_ical(get(client, url, language="ru").content)
    descriptions = [str(e.get("description", "")) for e in calendar.walk("VEVENT")]
    assert any(d.startswith("Отметка: 09:00–09:45.") for d in descriptions), descriptions
    assert not any("Регистрация" in d for d in descriptions)


def test_the_schedule_s_calendar_links_to_the_site_never_to_the_requests_host(  # type: ignore[no-untyped-def]
    client, day, settings
) -> None:
    """Links that leave the site are built from SITE_URL (common.links), never from the
    request's Host header: the public calendar file linked to whatever host asked for it."""
    t, _players, _anna = day
    settings.SITE_URL = "https://nardy.example.org"
    settings.ALLOWED_HOSTS = ["*"]
    url = reverse("championship:schedule_ics", args=[t.slug])
    response = client.get(url, HTTP_HOST="elsewhere.example")
    calendar = Calendar.from_ical(response.content)
    urls = {str(e["url"]) for e in calendar.walk("VEVENT")}
    assert urls == {f"https://nardy.example.org/t/{t.slug}/"}


def _my_results(page: str) -> list[str]:
    return re.findall(r'<strong class="outcome">([^<]*)</strong>', page)


def test_results_read_in_words_from_the_player_s_point_of_view(client, day) -> None:  # type: ignore[no-untyped-def]
    """The walker read "Результат: 1" for a win and "Результат: −" for a no-show's loss: the
    player's own page has no legend for the crosstable's symbols, so it says Win, Loss or Draw
    (and how the game ended, in the termination names of the results' pages)."""
    t, players, _anna = day
    rnd = services.round_pair_next(tournament=t)
    services.round_publish(round=rnd)
    boards = [
        b
        for b in rnd.boards.exclude(black=None).select_related("white", "black")
        if b.white.registration_id and b.black and b.black.registration_id
    ]
    assert len(boards) >= 2
    home, forfeit = boards[:2]
    enter(home, "0-1", "home")
    enter(forfeit, "1-0", "forfeit")
    regs = {r.pk: r for r in players}

    def page_of(entrant: Entrant, language: str) -> str:
        return text(get(client, page_url(regs[entrant.registration_id]), language=language))

    assert home.black is not None and forfeit.black is not None
    assert _my_results(page_of(home.black, "en")) == ["Win (home)"]
    assert _my_results(page_of(home.white, "en")) == ["Loss (home)"]
    assert "Result: <strong>Loss (home)</strong>" in page_of(home.white, "en")
    assert _my_results(page_of(forfeit.black, "en")) == ["Loss (forfeit)"]
    assert _my_results(page_of(forfeit.black, "ru")) == ["Поражение (неявка)"]
    assert _my_results(page_of(forfeit.white, "ru")) == ["Победа (неявка)"]
    enter(home, "1/2-1/2", "agreement")
    assert _my_results(page_of(home.white, "ru")) == ["Ничья (по соглашению)"]
    assert _my_results(page_of(home.black, "en")) == ["Draw (agreement)"]


def test_no_rank_and_no_training_before_a_game_has_a_result(client, day) -> None:  # type: ignore[no-untyped-def]
    """Round 1 published, nothing played: the walker read "Rank 1, 0 points" and a "Train on
    your own mistakes" button with 0 positions. The rank comes with the first result (on the
    public player page too); the button with a position to train on."""
    t, players, _anna = day
    rnd = services.round_pair_next(tournament=t)
    services.round_publish(round=rnd)
    board = rnd.boards.exclude(black=None).select_related("white").first()
    assert board is not None
    reg = next(r for r in players if r.pk == board.white.registration_id)
    public = reverse("championship:player", args=[t.slug, board.white_id])
    page = text(get(client, page_url(reg)))
    assert "Your results" in page and 'id="my-standing"' not in page
    assert "Rank " not in page and "training-entry" not in page
    assert "Rank " not in text(get(client, public))
    other = rnd.boards.exclude(black=None).exclude(pk=board.pk).first()
    assert other is not None
    enter(other, "1-0", "home")  # a result elsewhere: the standings rank everyone
    assert 'id="my-standing"' in text(get(client, page_url(reg)))
    assert "Rank " in text(get(client, public))
    assert "training-entry" not in text(get(client, page_url(reg)))
