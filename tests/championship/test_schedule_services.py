"""The schedule's services: each round's start set and shifted (across the change to summer
time), the calendar SEQUENCE raised when a round moves, a new zone keeping the clocks' times,
and the players' own check-in — through the organisers' check-in service, refused before the
window and after the cut-off with the reason, marked as done by the player."""

from __future__ import annotations

from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
import time_machine

from championship import services
from championship.models import Entrant, RoundStart, Tournament
from championship.services import ChampionshipError
from registrations.models import Registration
from registrations.services import field as registration_field
from tests.championship.day import (
    SATURDAY,
    SUNDAY,
    TORONTO,
    at,
    field,
    register,
    timetable,
    weekend,
)

pytestmark = pytest.mark.django_db


def on_clocks(t: Tournament) -> dict[int, str]:
    return {
        r.number: r.starts_at.astimezone(TORONTO).strftime("%a %H:%M")
        for r in RoundStart.objects.filter(tournament=t)
    }


def test_a_schedule_across_the_change_of_the_clocks_reads_the_same_hours_each_day() -> None:
    t = weekend()
    timetable(t)
    assert on_clocks(t) == {
        1: "Sat 10:00",
        2: "Sat 12:30",
        3: "Sat 15:00",
        4: "Sun 10:00",
        5: "Sun 12:30",
        6: "Sun 15:00",
    }
    starts = {r.number: r.starts_at for r in RoundStart.objects.filter(tournament=t)}
    assert starts[4] - starts[1] == timedelta(hours=23)  # the night was an hour shorter


def test_shifting_from_a_round_moves_it_and_the_later_ones_and_raises_their_sequence() -> None:
    t = weekend()
    timetable(t)
    moved = services.round_starts_shift(tournament=t, from_round=3, minutes=45)
    assert moved == [3, 4, 5, 6]
    assert on_clocks(t) == {
        1: "Sat 10:00",
        2: "Sat 12:30",
        3: "Sat 15:45",
        4: "Sun 10:45",
        5: "Sun 13:15",
        6: "Sun 15:45",
    }
    sequences = dict(RoundStart.objects.filter(tournament=t).values_list("number", "sequence"))
    assert sequences == {1: 0, 2: 0, 3: 1, 4: 1, 5: 1, 6: 1}
    services.round_starts_shift(tournament=t, from_round=6, minutes=-45)
    assert RoundStart.objects.get(tournament=t, number=6).sequence == 2
    assert services.round_starts_shift(tournament=t, from_round=2, minutes=0) == []


def test_a_shift_over_the_night_the_clocks_go_forward_counts_real_minutes() -> None:
    t = weekend(rounds=2)
    services.round_starts_set(tournament=t, starts={1: at(SATURDAY, 23, 30), 2: at(SUNDAY, 1, 30)})
    services.round_starts_shift(tournament=t, from_round=2, minutes=60)
    # 01:30 standard time and an hour: 03:30 summer time.
    assert on_clocks(t)[2] == "Sun 03:30"


def test_times_out_of_order_or_beyond_the_rounds_are_refused_and_nothing_is_saved() -> None:
    t = weekend(rounds=3)
    timetable(t)
    before = on_clocks(t)
    with pytest.raises(ChampionshipError, match="Round 3 would start"):
        services.round_starts_set(tournament=t, starts={3: at(SATURDAY, 11)})
    with pytest.raises(ChampionshipError, match="there is no round 4"):
        services.round_starts_set(tournament=t, starts={4: at(SUNDAY, 18)})
    with pytest.raises(ChampionshipError, match="No round from round 9"):
        services.round_starts_shift(tournament=t, from_round=9, minutes=10)
    assert on_clocks(t) == before
    # A time cleared: the round has no time any more.
    services.round_starts_set(tournament=t, starts={3: None})
    assert 3 not in on_clocks(t)


def test_a_new_zone_keeps_the_times_on_the_clocks() -> None:
    t = weekend(rounds=2)
    services.round_starts_set(tournament=t, starts={1: at(SATURDAY, 10), 2: at(SATURDAY, 14)})
    t.time_zone = "America/Vancouver"
    services.schedule_settings_save(tournament=t)
    vancouver = {
        r.number: r.starts_at.astimezone(ZoneInfo("America/Vancouver")).strftime("%H:%M")
        for r in RoundStart.objects.filter(tournament=t)
    }
    assert vancouver == {1: "10:00", 2: "14:00"}


def test_a_cut_off_before_check_in_opens_is_refused() -> None:
    t = weekend()
    t.check_in_opens_minutes, t.check_in_closes_minutes = 15, 30
    with pytest.raises(ChampionshipError, match="cut-off must come after"):
        services.schedule_settings_save(tournament=t)


# The players' own check-in --------------------------------------------------------------------


def test_a_player_checks_in_during_the_window_through_the_organisers_service() -> None:
    t = weekend()
    timetable(t)
    anna = register(t, "Anna")
    with time_machine.travel(at(SATURDAY, 9, 20), tick=False):
        done = registration_field.registration_self_check_in(registration=anna)
    assert done.checked_in and done.created  # the entrant made, as the organisers' check-in does
    entrant = Entrant.objects.get(registration=anna)
    assert entrant.checked_in and entrant.checked_in_by == Entrant.CheckedInBy.PLAYER
    assert entrant.checked_in_at == at(SATURDAY, 9, 20)
    anna.refresh_from_db()
    assert anna.checked_in_at == at(SATURDAY, 9, 20)
    # Pressed twice: still one entrant, the first time kept.
    with time_machine.travel(at(SATURDAY, 9, 25), tick=False):
        registration_field.registration_self_check_in(registration=anna)
    assert Entrant.objects.filter(registration=anna).count() == 1
    entrant.refresh_from_db()
    assert entrant.checked_in_at == at(SATURDAY, 9, 20)


def test_an_organiser_check_in_is_marked_as_theirs() -> None:
    t = weekend()
    anna = register(t, "Anna")
    registration_field.registration_check_in(registration=anna, checked_in=True)
    entrant = Entrant.objects.get(registration=anna)
    assert entrant.checked_in_by == Entrant.CheckedInBy.ORGANISER
    services.entrant_check_in(entrant=entrant, checked_in=False)
    entrant.refresh_from_db()
    assert entrant.checked_in_by == "" and entrant.checked_in_at is None


@pytest.mark.parametrize(
    ("when", "reason"),
    [
        (at(SATURDAY, 8, 59), "Check-in opens at"),
        (at(SATURDAY, 9, 45), "Check-in closed at"),
        (at(SATURDAY, 11), "Check-in closed at"),
    ],
)
def test_self_check_in_outside_the_window_is_refused_with_the_reason(when, reason) -> None:  # type: ignore[no-untyped-def]
    t = weekend()
    timetable(t)
    anna = register(t, "Anna")
    with time_machine.travel(when, tick=False), pytest.raises(ChampionshipError, match=reason):
        registration_field.registration_self_check_in(registration=anna)
    assert not Entrant.objects.filter(registration=anna).exists()
    anna.refresh_from_db()
    assert anna.checked_in_at is None


def test_the_cut_off_says_when_it_was_and_sends_the_player_to_the_arbiter() -> None:
    t = weekend()
    timetable(t)
    anna = register(t, "Anna")
    with (
        time_machine.travel(at(SATURDAY, 9, 50), tick=False),
        pytest.raises(ChampionshipError) as refused,
    ):
        registration_field.registration_self_check_in(registration=anna)
    assert "9:45" in str(refused.value) and "arbiter" in str(refused.value)


def test_self_check_in_closes_once_round_one_is_published_whatever_the_clock() -> None:
    t = weekend()
    timetable(t)
    field(t, 4)
    anna = register(t, "Anna")
    with time_machine.travel(at(SATURDAY, 9, 10), tick=False):
        services.round_publish(round=services.round_pair_next(tournament=t))
        with pytest.raises(ChampionshipError, match="Round 1 is paired"):
            registration_field.registration_self_check_in(registration=anna)


def test_without_a_time_for_round_one_or_with_self_check_in_off_it_is_refused() -> None:
    t = weekend()
    anna = register(t, "Anna")
    with pytest.raises(ChampionshipError, match="round 1's start time"):
        registration_field.registration_self_check_in(registration=anna)
    timetable(t)
    Tournament.objects.filter(pk=t.pk).update(self_check_in=False)
    with (
        time_machine.travel(at(SATURDAY, 9, 30), tick=False),
        pytest.raises(ChampionshipError, match="see the arbiter"),
    ):
        registration_field.registration_self_check_in(registration=anna)


def test_only_entered_players_check_themselves_in() -> None:
    t = weekend()
    timetable(t)
    waiting = register(t, "Wait", status=Registration.Status.WAITLISTED)
    gone = register(t, "Gone", status=Registration.Status.WITHDRAWN)
    with time_machine.travel(at(SATURDAY, 9, 30), tick=False):
        with pytest.raises(ChampionshipError, match="waiting list"):
            registration_field.registration_self_check_in(registration=waiting)
        with pytest.raises(ChampionshipError, match="withdrawn"):
            registration_field.registration_self_check_in(registration=gone)
    assert not Entrant.objects.filter(tournament=t).exists()
