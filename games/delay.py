"""Spectators see the games of a tournament some minutes late (``Tournament.
spectator_delay_minutes``, against cheating, as chess broadcasts do); the boards' tablets and
the arbiters (anyone who may change games) never.

A game as it was at a past moment is its snapshot of that moment (``GameSnapshot``: written
with every new version, so the latest one at or before the moment is the state then) applied
to the game's row: its version, termination, adjournment and stored clock, and the sheet cut
after the snapshot's ply. The clock then is ``clock_at`` of that stored clock at the moment.

- a game with no snapshot at or before the moment but some after it was as created then
  (nothing played, the clock never started);
- a game with no snapshot at all has not changed since it was created (or predates the
  snapshots: migration ``0006`` gave those one, dated at their creation): it is shown as it is.

What is delayed: the moves, the clocks and the end of a game recorded on its sheet, on every
page and feed a spectator reads (the game's page, its live state and version, its record, the
round's multiboard). What is not: a result an organiser enters on the results page (the
standings and pairings show it at once, as they do without a delay), and a correction of the
sheet (a turn taken back): the delayed view shows the sheet as it is now, cut at the ply it
had then.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Exists, OuterRef, Subquery
from django.http import HttpRequest
from django.utils import timezone

from .models import Game, GameSnapshot, Turn

#: Who sees the games live whatever the delay: the arbiters and organisers.
UNDELAYED_PERMISSION = "games.change_game"


def delay_minutes_for(request: HttpRequest, minutes: int | None) -> int:
    """The delay (minutes) this request sees a tournament's games with: the tournament's for a
    spectator, 0 for the arbiters and organisers (and for a game outside a tournament)."""
    if not minutes:
        return 0
    if request.user.is_authenticated and request.user.has_perm(UNDELAYED_PERMISSION):
        return 0
    return int(minutes)


def cutoff(minutes: int, now: datetime | None = None) -> datetime:
    """The moment a spectator with a delay of ``minutes`` sees the games at."""
    return (now or timezone.now()) - timedelta(minutes=minutes)


@dataclass(frozen=True)
class Moment:
    """What a game's snapshot says (None for a game shown as it is)."""

    version: int
    ply: int
    termination: str = ""
    termination_side: str = ""
    adjourned: bool = False
    clock_white_ms: int | None = None
    clock_black_ms: int | None = None
    clock_running_since: datetime | None = None

    @classmethod
    def of(cls, snapshot: GameSnapshot) -> Moment:
        return cls(
            version=snapshot.version,
            ply=snapshot.ply,
            termination=snapshot.termination,
            termination_side=snapshot.termination_side,
            adjourned=snapshot.adjourned,
            clock_white_ms=snapshot.clock_white_ms,
            clock_black_ms=snapshot.clock_black_ms,
            clock_running_since=snapshot.clock_running_since,
        )


#: A game as created: nothing played, the clock never started.
CREATED = Moment(version=0, ply=0)


def moments(game_ids: Iterable[int], at: datetime) -> dict[int, Moment | None]:
    """Each game's state at ``at`` (None: shown as it is, see the module's docstring), in two
    queries however many games."""
    ids = list(game_ids)
    if not ids:
        return {}
    latest = (
        GameSnapshot.objects.filter(game=OuterRef("pk"), at__lte=at)
        .order_by("-at", "-version")
        .values("pk")[:1]
    )
    rows = (
        Game.objects.filter(pk__in=ids)
        .annotate(
            snapshot=Subquery(latest),
            history=Exists(GameSnapshot.objects.filter(game=OuterRef("pk"))),
        )
        .values_list("pk", "snapshot", "history")
    )
    found = list(rows)
    snapshots = GameSnapshot.objects.in_bulk([s for _pk, s, _h in found if s is not None])
    out: dict[int, Moment | None] = {}
    for pk, snapshot, history in found:
        if snapshot is not None:
            out[pk] = Moment.of(snapshots[snapshot])
        else:
            out[pk] = CREATED if history else None
    return out


def moment(game_id: int, at: datetime) -> Moment | None:
    return moments([game_id], at).get(game_id)


def as_of(game: Game, moment: Moment | None) -> Game:
    """A copy of ``game`` as it was at the moment (its fields from the snapshot), to read and
    never to save; the game itself for None."""
    if moment is None:
        return game
    then = copy.copy(game)
    then.version = moment.version
    then.termination = moment.termination
    then.termination_side = moment.termination_side
    then.adjourned = moment.adjourned
    then.clock_white_ms = moment.clock_white_ms
    then.clock_black_ms = moment.clock_black_ms
    then.clock_running_since = moment.clock_running_since
    return then


def behind(moment: Moment | None, version: int) -> bool:
    """Is the state at the moment an earlier one than the game's ``version``?"""
    return moment is not None and moment.version != version


def cut(turns: list[Turn], moment: Moment | None) -> list[Turn]:
    """The turns a spectator sees at the moment (``turns`` in ply order)."""
    return turns if moment is None else turns[: moment.ply]
