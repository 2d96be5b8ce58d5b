"""The application as a chess clock (RULES.md §6), pure: no database, no global time. The
stored clock is each side's time left when the clock last changed hands and since when the
side to move has been thinking; what it shows at a moment is computed here, with that moment
passed in."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from .engine import BLACK, WHITE
from .engine.core import SideName, ascii_number


@dataclass(frozen=True)
class StoredClock:
    """What a game stores of its clock (``running_since`` None: stopped; times None: never
    started)."""

    white_ms: int | None
    black_ms: int | None
    running_since: datetime | None


@dataclass(frozen=True)
class Clock:
    """The clock as of ``now``: time left for each side in ms, and whose clock runs."""

    white_ms: int
    black_ms: int
    running: SideName | None  # the side whose clock runs, or None
    now: datetime

    def left(self, side: str) -> int:
        return self.white_ms if side == WHITE else self.black_ms

    @property
    def fallen(self) -> SideName | None:
        """The side whose flag has fallen (its running clock is at zero), if any."""
        if self.running is not None and self.left(self.running) <= 0:
            return self.running
        return None


def clock_at(stored: StoredClock, *, to_move: SideName, over: bool, now: datetime) -> Clock | None:
    """The clock at ``now``: the side to move has spent the time since ``running_since``
    (nothing runs once the game is over). None if the clock was never started."""
    if stored.white_ms is None or stored.black_ms is None:
        return None
    white, black = stored.white_ms, stored.black_ms
    running: SideName | None = None
    if stored.running_since is not None and not over:
        running = to_move
        spent = int((now - stored.running_since) / timedelta(milliseconds=1))
        if running == WHITE:
            white -= spent
        else:
            black -= spent
    return Clock(max(white, 0), max(black, 0), running, now)


def may_have_fallen(stored: StoredClock, now: datetime, *, fresh_ms: int) -> bool:
    """Whether a flag may be down at ``now``, known without whose clock runs (which takes a
    replay of the sheet): False while the time since the clock started is less than each
    side's time left and than ``fresh_ms``, the time both are given at the change of phase (a
    turn stored meanwhile may have started it). A look at the clock settles a flag only then."""
    if stored.running_since is None or stored.white_ms is None or stored.black_ms is None:
        return False
    spent = (now - stored.running_since) / timedelta(milliseconds=1)
    return spent >= min(stored.white_ms, stored.black_ms, fresh_ms)


def stopped(clock: Clock | None) -> dict[str, int]:
    """The running side's time left, to store when its clock stops ({} if none runs)."""
    if clock is None or clock.running is None:
        return {}
    return {f"clock_{clock.running}_ms": clock.left(clock.running)}


def clock_text(ms: int) -> str:
    """``h:mm:ss`` as a sheet writes a clock."""
    seconds = max(ms, 0) // 1000
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def valid_clock_text(text: str) -> bool:
    """``h:mm:ss`` in ASCII digits (``0:²²:00`` is not a clock)."""
    parts = text.split(":")
    if len(parts) != 3 or len(parts[1]) != 2 or len(parts[2]) != 2:
        return False
    hours, minutes, seconds = (ascii_number(p, 2) for p in parts)
    return (
        hours is not None
        and minutes is not None
        and seconds is not None
        and max(minutes, seconds) < 60
    )


__all__ = ["BLACK", "WHITE", "Clock", "StoredClock", "clock_at", "clock_text", "stopped"]
