"""The pure core of the schedule (championship.schedule): local times on the venue's clocks,
across the change to summer time in Toronto (14 March 2027), suggested starts, shifting, and
the players' check-in window. No database."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from championship import schedule
from championship.schedule import CheckIn
from tests.hypothesis_profiles import examples

ZONE = "America/Toronto"
SATURDAY, SUNDAY = date(2027, 3, 13), date(2027, 3, 14)


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


def test_a_wall_clock_time_is_the_venue_s_on_either_side_of_the_change() -> None:
    # 10:00 on Saturday is standard time (UTC-5), 10:00 on Sunday summer time (UTC-4).
    assert schedule.local(SATURDAY, time(10), ZONE) == utc(2027, 3, 13, 15)
    assert schedule.local(SUNDAY, time(10), ZONE) == utc(2027, 3, 14, 14)


def test_a_time_the_clocks_skip_is_refused() -> None:
    with pytest.raises(schedule.NonexistentTime):
        schedule.local(SUNDAY, time(2, 30), ZONE)
    # The night the clocks go back, 01:30 happens twice: the first one is meant.
    assert schedule.local(date(2027, 11, 7), time(1, 30), ZONE) == utc(2027, 11, 7, 5, 30)


def test_suggested_starts_keep_each_day_s_first_round_at_its_time_across_the_change() -> None:
    starts = schedule.suggest(
        first=SATURDAY,
        last=SUNDAY,
        rounds=7,
        first_start=time(10),
        round_minutes=150,
        zone=ZONE,
    )
    on_clocks = [
        (s.astimezone(ZoneInfo(ZONE)).date(), s.astimezone(ZoneInfo(ZONE)).time()) for s in starts
    ]
    assert on_clocks == [
        (SATURDAY, time(10)),
        (SATURDAY, time(12, 30)),
        (SATURDAY, time(15)),
        (SATURDAY, time(17, 30)),
        (SUNDAY, time(10)),
        (SUNDAY, time(12, 30)),
        (SUNDAY, time(15)),
    ]
    # Sunday's 10:00 is an hour less after Saturday's than a day: the clocks went forward.
    assert starts[4] - starts[0] == timedelta(hours=23)


def test_suggested_rounds_a_day_and_the_last_day_takes_what_is_left() -> None:
    starts = schedule.suggest(
        first=SATURDAY, last=SUNDAY, rounds=5, first_start=time(9), round_minutes=60,
        per_day=2, zone=ZONE,
    )  # fmt: skip
    days = [s.astimezone(ZoneInfo(ZONE)).date() for s in starts]
    assert days == [SATURDAY, SATURDAY, SUNDAY, SUNDAY, SUNDAY]


def test_a_first_start_the_clocks_skip_is_taken_an_hour_later() -> None:
    starts = schedule.suggest(
        first=SUNDAY, last=SUNDAY, rounds=1, first_start=time(2, 30), round_minutes=60, zone=ZONE
    )
    assert starts == [utc(2027, 3, 14, 7, 30)]  # 03:30 summer time


def test_shifting_moves_the_round_and_the_later_ones_by_real_minutes() -> None:
    starts = {
        1: schedule.local(SATURDAY, time(23), ZONE),
        2: schedule.local(SUNDAY, time(1, 30), ZONE),
        3: schedule.local(SUNDAY, time(10), ZONE),
    }
    moved = schedule.shifted(starts, from_round=2, minutes=60)
    assert moved[1] == starts[1]
    # 01:30 standard time + 60 minutes is 03:30 summer time (02:30 never happens).
    assert moved[2].astimezone(ZoneInfo(ZONE)).time() == time(3, 30)
    assert moved[2] - starts[2] == timedelta(minutes=60)
    assert moved[3].astimezone(ZoneInfo(ZONE)).time() == time(11)


@settings(max_examples=examples(200))
@given(
    minutes=st.integers(min_value=-1440, max_value=1440),
    offsets=st.lists(st.integers(min_value=0, max_value=3000), min_size=1, max_size=9),
    start=st.integers(min_value=1, max_value=9),
)
def test_a_shift_keeps_the_order_and_the_gaps_of_the_rounds_it_moves(
    minutes: int, offsets: list[int], start: int
) -> None:
    base = schedule.local(SATURDAY, time(8), ZONE)
    times = sorted(schedule.after(base, m) for m in offsets)
    starts = dict(enumerate(times, start=1))
    moved = schedule.shifted(starts, from_round=start, minutes=minutes)
    for n in starts:
        expected = timedelta(minutes=minutes) if n >= start else timedelta(0)
        assert moved[n] - starts[n] == expected
    later = [n for n in starts if n >= start]
    assert not schedule.out_of_order({n: moved[n] for n in later})


def test_rounds_out_of_order_are_named() -> None:
    a = schedule.local(SATURDAY, time(10), ZONE)
    assert schedule.out_of_order({1: a, 2: a + timedelta(hours=2), 3: a + timedelta(hours=1)}) == [
        3
    ]
    assert schedule.out_of_order({1: a, 2: a}) == []


def window(now: datetime, **changes: object) -> schedule.Window:
    arguments: dict[str, object] = {
        "enabled": True,
        "round_one": schedule.local(SUNDAY, time(10), ZONE),
        "opens_minutes": 60,
        "closes_minutes": 15,
        "round_one_published": False,
        "now": now,
        **changes,
    }
    return schedule.check_in_window(**arguments)  # type: ignore[arg-type]


def test_the_check_in_window_is_relative_to_round_one_and_closes_at_the_cut_off() -> None:
    ten = schedule.local(SUNDAY, time(10), ZONE)
    before = window(ten - timedelta(minutes=61))
    assert before.state is CheckIn.NOT_YET and before.next_change == ten - timedelta(hours=1)
    assert window(ten - timedelta(minutes=60)).state is CheckIn.OPEN
    last_moment = window(ten - timedelta(minutes=15, microseconds=1))
    assert last_moment.state is CheckIn.OPEN and last_moment.closes == ten - timedelta(minutes=15)
    assert window(ten - timedelta(minutes=15)).state is CheckIn.CLOSED
    # Round 1 published closes it whatever the clock says.
    assert window(ten - timedelta(minutes=30), round_one_published=True).state is CheckIn.STARTED
    assert window(ten, enabled=False).state is CheckIn.OFF
    assert window(ten, round_one=None).state is CheckIn.NO_TIME


def test_a_window_across_the_change_of_the_clocks_counts_real_minutes() -> None:
    # Round 1 at 03:30 on the night the clocks go forward: check-in an hour of real time before
    # it opens at 01:30 standard time (02:30 never shows on the clocks).
    three_thirty = schedule.local(SUNDAY, time(3, 30), ZONE)
    opened = window(three_thirty, round_one=three_thirty).opens
    assert opened is not None
    assert opened.astimezone(ZoneInfo(ZONE)).time() == time(1, 30)
    assert three_thirty - opened == timedelta(hours=1)
