"""Writes of the schedule: each round's scheduled start (set, or shifted from a round on). (The
players' own check-in from their page is the registrations app's,
``registrations.services.field.registration_self_check_in``: it goes through the one check-in
service the organisers use once the window allows it.)

The times are aware datetimes (stored in UTC); a person reads and types them on the clocks of
the tournament's zone (``Tournament.time_zone``, ``championship.schedule``)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from django.db import transaction
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from .. import schedule, selectors
from ..models import Round, RoundStart, Tournament
from ..signals import round_pairings_changed
from .entrants import _check_not_finished, total_rounds
from .errors import ChampionshipError


def day_text(value: datetime, t: Tournament) -> str:
    """The day of ``value`` on the tournament's clocks, in the active language."""
    return formats.date_format(timezone.localtime(value, ZoneInfo(t.time_zone)), "DATE_FORMAT")


def time_text(value: datetime, t: Tournament) -> str:
    """The time of day of ``value`` on the tournament's clocks, in the active language."""
    return formats.time_format(timezone.localtime(value, ZoneInfo(t.time_zone)), "TIME_FORMAT")


def _say(value: datetime, t: Tournament) -> str:
    return f"{day_text(value, t)} {time_text(value, t)}"


def _moved(t: Tournament, changed: list[int]) -> None:
    """Players of a published round whose start moved are told (the pairing e-mails), unless
    the round is played (every result in): a correction of the record tells nobody."""
    played = selectors.rounds_done(t)
    published = t.round_set.filter(number__in=changed, status=Round.Status.PUBLISHED)
    for rnd in published.exclude(number__in=played).order_by("number"):
        round_pairings_changed.send(sender=Round, round=rnd)


def _minute(value: datetime) -> datetime:
    """A start as the schedule holds it: to the minute (the form shows and takes minutes, so a
    start stored with seconds is not "changed" by saving the form as it was shown)."""
    return value.replace(second=0, microsecond=0)


def round_starts_set(*, tournament: Tournament, starts: dict[int, datetime | None]) -> list[int]:
    """Set each given round's scheduled start (None: no time); returns the rounds whose start
    changed. Rounds must be within the tournament's and in order (a round does not start
    before an earlier one). A moved start raises the round's calendar SEQUENCE; the players of
    a published round are told its new time."""
    _check_not_finished(tournament)
    total = total_rounds(tournament)
    beyond = sorted(n for n in starts if n < 1 or n > total)
    if beyond:
        raise ChampionshipError(
            _("The tournament has %(total)d rounds: there is no round %(n)d.")
            % {"total": total, "n": beyond[0]}
        )
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament.pk)
        existing = {r.number: r for r in t.round_starts.all()}
        wanted = {n: s.starts_at for n, s in existing.items()}
        starts = {n: None if at is None else _minute(at) for n, at in starts.items()}
        for n, at in starts.items():
            if at is None:
                wanted.pop(n, None)
            else:
                wanted[n] = at
        wrong = schedule.out_of_order(wanted)
        if wrong:
            n = wrong[0]
            earlier = max(m for m in wanted if m < n and wanted[m] > wanted[n])
            raise ChampionshipError(
                _("Round %(n)d would start (%(at)s) before round %(m)d (%(earlier)s).")
                % {
                    "n": n,
                    "at": _say(wanted[n], t),
                    "m": earlier,
                    "earlier": _say(wanted[earlier], t),
                }
            )
        changed = []
        for n, at in sorted(starts.items()):
            row = existing.get(n)
            if at is None:
                if row is not None:
                    row.delete()
                    changed.append(n)
            elif row is None:
                RoundStart.objects.create(tournament=t, number=n, starts_at=at)
                changed.append(n)
            elif _minute(row.starts_at) != at:
                row.starts_at = at
                row.sequence += 1
                row.save(update_fields=["starts_at", "sequence"])
                changed.append(n)
        # A round no longer in the tournament (fewer rounds now) keeps no time.
        RoundStart.objects.filter(tournament=t, number__gt=total).delete()
        _moved(t, changed)
    return changed


def schedule_settings_save(*, tournament: Tournament) -> Tournament:
    """Save the tournament's zone, round length and check-in window (validated as every
    setting is). A new zone keeps each round's time on the clocks ("10:00" stays 10:00, now in
    the new zone): the organiser corrects the zone, not the times."""
    from .tournaments import tournament_save

    old = Tournament.objects.filter(pk=tournament.pk).values_list("time_zone", flat=True).first()
    with transaction.atomic():
        tournament_save(tournament=tournament)
        if old is not None and old != tournament.time_zone:
            starts: dict[int, datetime | None] = {}
            for number, at in selectors.round_starts(tournament).items():
                wall = timezone.localtime(at, ZoneInfo(old))
                try:
                    starts[number] = schedule.local(wall.date(), wall.time(), tournament.time_zone)
                except schedule.NonexistentTime:  # skipped by the new zone's clocks: the
                    # moment that wall time names before the change, an hour later after it
                    starts[number] = wall.replace(tzinfo=ZoneInfo(tournament.time_zone))
            if starts:
                round_starts_set(tournament=tournament, starts=starts)
    return tournament


def round_starts_shift(*, tournament: Tournament, from_round: int, minutes: int) -> list[int]:
    """Move round ``from_round`` and every later round that has a time by ``minutes``
    (earlier when negative) of real time: the rounds before it stay. Returns the rounds
    moved."""
    _check_not_finished(tournament)
    if minutes == 0:
        return []
    current = selectors.round_starts(tournament)
    moving = {n: at for n, at in current.items() if n >= from_round}
    if not moving:
        raise ChampionshipError(
            _("No round from round %(n)d on has a time to shift.") % {"n": from_round}
        )
    moved = schedule.shifted(current, from_round=from_round, minutes=minutes)
    changes: dict[int, datetime | None] = {n: moved[n] for n in moving}
    return round_starts_set(tournament=tournament, starts=changes)
