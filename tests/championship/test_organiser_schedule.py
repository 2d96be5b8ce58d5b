"""The organisers' schedule page: times suggested from the tournament's days and a round
length (nothing saved until saved), typed and saved (a time the clocks skip, half a time, a
round before an earlier one refused next to the field, keeping what was typed), shifted from a
round on, and the zone and check-in window; only organisers."""

from __future__ import annotations

import pytest
import time_machine
from django.urls import reverse

from championship import services
from championship.models import RoundStart, Tournament
from tests.championship.day import SATURDAY, SUNDAY, TORONTO, at, timetable, weekend
from tests.games.helpers import organiser_client

pytestmark = pytest.mark.django_db


def url(t: Tournament) -> str:
    return reverse("championship:schedule", args=[t.slug])


def starts(t: Tournament) -> dict[int, str]:
    return {
        r.number: r.starts_at.astimezone(TORONTO).strftime("%m-%d %H:%M")
        for r in RoundStart.objects.filter(tournament=t)
    }


def times_post(t: Tournament, **typed: str) -> dict[str, str]:
    data = {"action": "times"}
    for n in range(1, t.rounds + 1):
        data[f"day_{n}"] = ""
        data[f"time_{n}"] = ""
    data.update(typed)
    return data


def test_only_organisers_see_the_schedule_page(client) -> None:  # type: ignore[no-untyped-def]
    t = weekend()
    assert client.get(url(t)).status_code == 302  # to the login page
    org, _user = organiser_client()
    page = org.get(url(t))
    assert page.status_code == 200
    assert "Round starts" in page.content.decode()


def test_suggested_times_fill_the_form_and_nothing_is_saved_until_saved() -> None:
    t = weekend(rounds=6)
    org, _user = organiser_client()
    page = org.get(url(t), {"first_start": "10:00", "per_day": "3"}).content.decode()
    assert "nothing is saved until you press Save the times" in page
    assert 'name="day_4" value="2027-03-14"' in page and 'name="time_4" value="10:00"' in page
    assert 'name="time_2" value="12:15"' in page  # 2 × (30 + 30) + 15 minutes later
    assert not RoundStart.objects.filter(tournament=t).exists()
    typed = {f"day_{n}": d for n, d in ((1, "2027-03-13"), (2, "2027-03-13"), (4, "2027-03-14"))}
    typed.update({"time_1": "10:00", "time_2": "12:30", "time_4": "10:00"})
    response = org.post(url(t), times_post(t, **typed), follow=True)
    assert "The starts of rounds 1, 2, 4 are saved." in response.content.decode()
    assert starts(t) == {1: "03-13 10:00", 2: "03-13 12:30", 4: "03-14 10:00"}


def test_mistakes_are_refused_next_to_the_field_and_what_was_typed_stays() -> None:
    t = weekend(rounds=4)
    org, _user = organiser_client()
    response = org.post(
        url(t),
        times_post(
            t,
            day_1="2027-03-14",
            time_1="02:30",  # the clocks skip it that night
            day_2="2027-03-14",  # a day without a time
            day_3="2027-03-14",
            time_3="12:00",
            day_4="2027-03-14",
            time_4="11:00",  # before round 3
        ),
    )
    page = response.content.decode()
    assert response.status_code == 400
    assert "02:30 does not exist on 2027-03-14 in America/Toronto" in page
    assert "Give the time too, or clear the day." in page
    assert "This round would start before an earlier round." in page
    assert 'name="time_1" value="02:30"' in page and 'name="time_4" value="11:00"' in page
    assert not RoundStart.objects.filter(tournament=t).exists()
    bad = org.post(url(t), times_post(t, day_1="abc", time_1="25:99"))
    assert bad.status_code == 400 and not RoundStart.objects.exists()


def test_shift_from_a_round_by_minutes() -> None:
    t = weekend()
    timetable(t)
    org, _user = organiser_client()
    response = org.post(
        url(t), {"action": "shift", "from_round": "5", "minutes": "-20"}, follow=True
    )
    assert "Rounds 5, 6 moved 20 minutes earlier." in response.content.decode()
    assert starts(t)[5] == "03-14 12:10" and starts(t)[4] == "03-14 10:00"
    for bad in ({"from_round": "x", "minutes": "10"}, {"from_round": "1", "minutes": "99999"}):
        before = starts(t)
        assert org.post(url(t), {"action": "shift", **bad}).status_code == 400
        assert starts(t) == before


def test_the_zone_and_the_check_in_window_are_set_and_checked() -> None:
    t = weekend()
    timetable(t)
    org, _user = organiser_client()
    data = {
        "action": "settings",
        "time_zone": "Europe/Moscow",
        "round_minutes": "120",
        "self_check_in": "on",
        "check_in_opens_minutes": "90",
        "check_in_closes_minutes": "10",
    }
    assert org.post(url(t), data).status_code == 302
    t.refresh_from_db()
    assert (t.time_zone, t.round_minutes, t.check_in_opens_minutes) == ("Europe/Moscow", 120, 90)
    # The rounds kept their times on the clocks, now Moscow's.
    moscow = RoundStart.objects.get(tournament=t, number=1).starts_at
    assert moscow.astimezone(__import__("zoneinfo").ZoneInfo("Europe/Moscow")).hour == 10
    refused = org.post(url(t), {**data, "time_zone": "Mars/Olympus"})
    assert (
        refused.status_code == 400 and "Unknown time zone: Mars/Olympus" in refused.content.decode()
    )
    refused = org.post(url(t), {**data, "check_in_closes_minutes": "120"})
    assert refused.status_code == 400 and "cut-off must come after" in refused.content.decode()
    t.refresh_from_db()
    assert t.time_zone == "Europe/Moscow" and t.check_in_closes_minutes == 10


def test_a_finished_tournament_s_schedule_does_not_change() -> None:
    t = weekend()
    timetable(t)
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.FINISHED)
    org, _user = organiser_client()
    before = starts(t)
    response = org.post(
        url(t), {"action": "shift", "from_round": "1", "minutes": "10"}, follow=True
    )
    assert "finished" in response.content.decode()
    assert starts(t) == before
    assert at(SATURDAY, 10) and SUNDAY and services
    # The page shows the schedule but offers no control that would be refused.
    page = org.get(url(t)).content.decode()
    assert '<fieldset id="schedule-fields" disabled>' in page
    inside = page[page.index('id="schedule-fields"') : page.rindex("</fieldset>")]
    for form in ("suggest-form", "times-form", "shift-form", "schedule-settings"):
        assert f'id="{form}"' in inside, form
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.RUNNING)
    assert '<fieldset id="schedule-fields">' in org.get(url(t)).content.decode()


@pytest.mark.parametrize(
    ("field", "value", "bound"),
    [
        ("round_minutes", "-5", "greater than or equal to 10"),
        ("round_minutes", "99999", "less than or equal to 1440"),
        ("check_in_opens_minutes", "-1", "greater than or equal to 1"),
        ("check_in_closes_minutes", "-1", "greater than or equal to 0"),
    ],
)
def test_a_number_out_of_range_gets_one_message_with_the_pages_own_bound(
    field: str, value: str, bound: str
) -> None:
    """-5 minutes for a round said both "at least 0" (the model's field) and "at least 10"
    (the page's bound): the page's bounds replace the field's."""
    t = weekend()
    org, _user = organiser_client()
    data = {
        "action": "settings",
        "time_zone": "America/Toronto",
        "round_minutes": "120",
        "self_check_in": "on",
        "check_in_opens_minutes": "60",
        "check_in_closes_minutes": "15",
        field: value,
    }
    response = org.post(url(t), data)
    assert response.status_code == 400
    form = response.context["settings_form"]
    assert form.errors[field] == [f"Ensure this value is {bound}."]
    assert form[field].value() == value  # what was typed stays


def test_the_dashboard_s_next_round_is_never_one_already_played() -> None:
    """Round 1 played to its last result ahead of its time: the dashboard still said "Next:
    round 1, Saturday 10 a.m.". The next round is the first one to come that is not played
    out; a finished tournament has none."""
    from championship.models import Board
    from tests.championship.day import field
    from tests.championship.results import enter

    t = weekend()
    timetable(t)
    field(t, 4)
    dashboard = reverse("championship:dashboard", args=[t.slug])
    rnd = services.round_pair_next(tournament=t)
    services.round_publish(round=rnd)
    with time_machine.travel(at(SATURDAY, 8), tick=False):
        org, _user = organiser_client()
        page = org.get(dashboard).content.decode()
        assert "Next: round 1, Saturday, March 13, 2027, 10 a.m." in page  # published, to play
        for board in Board.objects.filter(round=rnd).exclude(black=None):
            enter(board, "1-0", "resign")
        page = org.get(dashboard).content.decode()
        assert "Next: round 2, Saturday, March 13, 2027, 12:30 p.m." in page
        assert "Next: round 1" not in page
        Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.FINISHED)
        assert "Next: round" not in org.get(dashboard).content.decode()


def test_the_check_in_count_names_self_check_ins_only_when_there_are_some() -> None:
    """ "24 игрока отмечены · 0 сами." — "0 by themselves" said nothing and read badly in
    Russian; the dashboard already left it out."""
    from tests.championship.day import field

    t = weekend()
    timetable(t)
    field(t, 3)  # checked in by the organisers
    org, _user = organiser_client()
    page = org.get(url(t)).content.decode()
    assert "3 players checked in." in page and "by themselves" not in page


@pytest.mark.parametrize(
    ("minutes", "language", "said"),
    [
        ("-40", "en", "Rounds 1, 2, 3, 4, 5, 6 moved 40 minutes earlier."),
        ("1", "en", "Rounds 1, 2, 3, 4, 5, 6 moved 1 minute later."),
        ("-40", "ru", "Туры 1, 2, 3, 4, 5, 6 сдвинуты на 40 минут раньше."),
        ("21", "ru", "Туры 1, 2, 3, 4, 5, 6 сдвинуты на 21 минуту позже."),
        ("15", "ru", "Туры 1, 2, 3, 4, 5, 6 сдвинуты на 15 минут позже."),
        ("-3", "ru", "Туры 1, 2, 3, 4, 5, 6 сдвинуты на 3 минуты раньше."),
    ],
)
def test_a_shift_is_said_in_words_earlier_or_later(minutes: str, language: str, said: str) -> None:
    """The walker read "Rounds 1, 2, 3, 4, 5, 6, 7 moved by -40 minutes": a signed number
    where words say which way, in both languages with their plurals."""
    t = weekend()
    timetable(t)
    org, _user = organiser_client()
    response = org.post(
        url(t),
        {"action": "shift", "from_round": "1", "minutes": minutes},
        follow=True,
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert said in response.content.decode()
