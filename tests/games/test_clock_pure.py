"""The clock (games.clock) without a database or a patched time: the moment is an argument."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from games.clock import (
    Clock,
    StoredClock,
    clock_at,
    clock_text,
    may_have_fallen,
    stopped,
    valid_clock_text,
)

T0 = datetime(2027, 3, 14, 10, 0, tzinfo=UTC)


def test_a_clock_never_started_shows_nothing() -> None:
    assert clock_at(StoredClock(None, None, None), to_move="white", over=False, now=T0) is None


def test_the_side_to_move_spends_the_time_since_the_clock_started() -> None:
    stored = StoredClock(1_800_000, 1_800_000, T0)
    c = clock_at(stored, to_move="black", over=False, now=T0 + timedelta(seconds=42.4))
    assert c == Clock(1_800_000, 1_757_600, "black", T0 + timedelta(seconds=42.4))
    assert stopped(c) == {"clock_black_ms": 1_757_600}


def test_a_stopped_or_finished_clock_does_not_run() -> None:
    paused = clock_at(StoredClock(5_000, 7_000, None), to_move="white", over=False, now=T0)
    over = clock_at(
        StoredClock(5_000, 7_000, T0), to_move="white", over=True, now=T0 + timedelta(hours=1)
    )
    for c in (paused, over):
        assert c is not None and (c.white_ms, c.black_ms, c.running) == (5_000, 7_000, None)
        assert stopped(c) == {} and c.fallen is None


def test_a_flag_falls_at_zero_and_time_left_is_never_negative() -> None:
    c = clock_at(
        StoredClock(1_000, 60_000, T0), to_move="white", over=False, now=T0 + timedelta(seconds=5)
    )
    assert c is not None and c.white_ms == 0 and c.fallen == "white"


@given(st.integers(0, 10 * 3600 * 1000))
def test_clock_text_reads_back(ms: int) -> None:
    text = clock_text(ms)
    h, m, s = (int(x) for x in text.split(":"))
    assert valid_clock_text(text) and (h * 3600 + m * 60 + s) * 1000 == ms - ms % 1000


def test_written_clocks_are_checked() -> None:
    assert valid_clock_text("0:29:31") and not valid_clock_text("0:60:00")
    assert not valid_clock_text("29:31") and not valid_clock_text("a:bb:cc")


@given(
    white=st.one_of(st.none(), st.integers(0, 4_000_000)),
    black=st.one_of(st.none(), st.integers(0, 4_000_000)),
    started=st.booleans(),
    spent=st.integers(0, 5_000_000),
    to_move=st.sampled_from(["white", "black"]),
    over=st.booleans(),
    fresh=st.integers(1, 4_000_000),
)
def test_a_flag_is_never_down_where_the_quick_look_says_none_can_be(
    white: int | None,
    black: int | None,
    started: bool,
    spent: int,
    to_move: str,
    over: bool,
    fresh: int,
) -> None:
    """clock_settle skips its locked replay where may_have_fallen is False: no flag may be
    down there, whichever side is to move."""
    stored = StoredClock(white, black, T0 if started else None)
    now = T0 + timedelta(milliseconds=spent)
    if not may_have_fallen(stored, now, fresh_ms=fresh):
        c = clock_at(stored, to_move=to_move, over=over, now=now)
        assert c is None or c.fallen is None


def test_the_quick_look_counts_the_fresh_time_of_a_phase_change() -> None:
    """A look at a game read just before the turn that began phase 2 (both clocks given
    ``fresh_ms`` anew): while less than that has run, no flag; from then on, settle."""
    stored = StoredClock(1_500_000, 1_600_000, T0)
    assert not may_have_fallen(stored, T0 + timedelta(seconds=299), fresh_ms=300_000)
    assert may_have_fallen(stored, T0 + timedelta(seconds=300), fresh_ms=300_000)
    assert not may_have_fallen(StoredClock(1_000, 2_000, None), T0, fresh_ms=300_000)
    assert may_have_fallen(StoredClock(1_000, 2_000, T0), T0 + timedelta(seconds=1), fresh_ms=9)
