"""A tournament's day in plain Python (no Django): local times in the venue's zone, a suggested
schedule, shifting rounds, and the players' check-in window.

Times are aware ``datetime``s in UTC. A person reads and types wall-clock times of the venue's
zone (``zoneinfo``): ``local`` turns those into moments, and the pages turn moments back into
the zone's clocks. Arithmetic and comparisons are on moments (Python subtracts and compares two
datetimes of the *same* zone by their wall clocks), so that "60 minutes later" is 60 minutes
later across a change of the clocks, and a day's first round at 10:00 is 10:00 on both sides
of it."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from enum import Enum
from zoneinfo import ZoneInfo


class NonexistentTime(ValueError):
    """A wall-clock time the zone skips (the hour the clocks go forward)."""

    def __init__(self, day: date, at: time, zone: str) -> None:
        super().__init__(f"{day} {at} does not exist in {zone}")
        self.day, self.at, self.zone = day, at, zone


def local(day: date, at: time, zone: str) -> datetime:
    """The moment (UTC) that reads ``day`` at ``at`` on the venue's clocks. A time the clocks
    skip (02:30 on the night they go forward) raises ``NonexistentTime``; a time they pass
    twice (the night they go back) is the first of the two."""
    tz = ZoneInfo(zone)
    wall = datetime.combine(day, at).replace(tzinfo=tz, fold=0)
    moment = wall.astimezone(UTC)
    if moment.astimezone(tz).replace(tzinfo=None) != wall.replace(tzinfo=None):
        raise NonexistentTime(day, at, zone)
    return moment


def days(first: date, last: date) -> list[date]:
    """The tournament's days, first to last."""
    return [first + timedelta(days=i) for i in range((last - first).days + 1)]


def suggest(
    *,
    first: date,
    last: date,
    rounds: int,
    first_start: time,
    round_minutes: int,
    per_day: int | None = None,
    zone: str,
) -> list[datetime]:
    """Starts for rounds 1..``rounds``: the rounds spread over the tournament's days
    (``per_day`` a day, by default as evenly as the days allow, the last day taking what is
    left), each day's first at ``first_start`` and the next ones ``round_minutes`` apart.
    A first start the clocks skip that day is taken an hour later."""
    every = days(first, last)
    per_day = per_day or max(1, math.ceil(rounds / len(every)))
    out: list[datetime] = []
    for i in range(rounds):
        day = every[min(i // per_day, len(every) - 1)]
        k = i - every.index(day) * per_day
        try:
            opening = local(day, first_start, zone)
        except NonexistentTime:
            later = (datetime.combine(day, first_start) + timedelta(hours=1)).time()
            opening = local(day, later, zone)
        out.append(after(opening, k * round_minutes))
    return out


def after(start: datetime, minutes: int) -> datetime:
    """The moment (UTC) ``minutes`` of real time after ``start``."""
    return start.astimezone(UTC) + timedelta(minutes=minutes)


def shifted(starts: dict[int, datetime], *, from_round: int, minutes: int) -> dict[int, datetime]:
    """The starts of round ``from_round`` and every later one moved by ``minutes`` (earlier
    when negative) of real time; the rounds before it unchanged."""
    return {n: after(s, minutes) if n >= from_round else s for n, s in starts.items()}


def on_clocks(moment: datetime, zone: str) -> datetime:
    """``moment`` as the venue's clocks show it (for people, never for arithmetic)."""
    return moment.astimezone(ZoneInfo(zone))


def out_of_order(starts: dict[int, datetime]) -> list[int]:
    """The rounds that start before an earlier round does (a schedule must not)."""
    wrong = []
    latest: datetime | None = None
    for n in sorted(starts):
        if latest is not None and starts[n] < latest:
            wrong.append(n)
        else:
            latest = starts[n]
    return wrong


class CheckIn(Enum):
    """Where the players' own check-in stands."""

    OFF = "off"  # the organisers check everyone in
    NO_TIME = "no_time"  # round 1 has no start yet, so there is no window
    NOT_YET = "not_yet"
    OPEN = "open"
    CLOSED = "closed"  # the cut-off has passed
    STARTED = "started"  # round 1 is published: its field is set


@dataclass(frozen=True)
class Window:
    """The check-in window before round 1: ``opens`` to ``closes`` (the cut-off)."""

    state: CheckIn
    opens: datetime | None = None
    closes: datetime | None = None
    #: The next moment the state changes by itself (when a page should look again).
    next_change: datetime | None = None


def check_in_window(
    *,
    enabled: bool,
    round_one: datetime | None,
    opens_minutes: int,
    closes_minutes: int,
    round_one_published: bool,
    now: datetime,
) -> Window:
    """The players' check-in at ``now``: it is relative to round 1's start — it opens
    ``opens_minutes`` before it and closes ``closes_minutes`` before it (the cut-off), or as
    soon as round 1 is published. Whoever comes later is checked in by the arbiter, as a late
    entry from a later round."""
    if not enabled:
        return Window(CheckIn.OFF)
    if round_one is None:
        return Window(CheckIn.NO_TIME)
    opens = after(round_one, -opens_minutes)
    closes = after(round_one, -closes_minutes)
    if round_one_published:
        return Window(CheckIn.STARTED, opens, closes)
    if now >= closes:
        return Window(CheckIn.CLOSED, opens, closes)
    if now < opens:
        return Window(CheckIn.NOT_YET, opens, closes, next_change=opens)
    return Window(CheckIn.OPEN, opens, closes, next_change=closes)
