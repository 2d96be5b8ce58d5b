"""Writes of the schedule: each round's scheduled start (set, or shifted from a round on), and
the players' own check-in from their page, which goes through the one check-in service the
organisers use (``entrants.registration_check_in``) once the window allows it.

The times are aware datetimes (stored in UTC); a person reads and types them on the clocks of
the tournament's zone (``Tournament.time_zone``, ``championship.schedule``)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from django.db import transaction
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from registrations import dates
from registrations.models import Registration

from .. import schedule, selectors
from ..models import Entrant, Round, RoundStart, Tournament
from ..signals import round_pairings_changed
from .entrants import CheckIn, _check_not_finished, registration_check_in, total_rounds
from .errors import ChampionshipError


def _day(value: datetime, t: Tournament) -> str:
    """The day of ``value`` on the tournament's clocks, in the active language."""
    return formats.date_format(timezone.localtime(value, ZoneInfo(t.time_zone)), "DATE_FORMAT")


def _time(value: datetime, t: Tournament) -> str:
    """The time of day of ``value`` on the tournament's clocks, in the active language."""
    return formats.time_format(timezone.localtime(value, ZoneInfo(t.time_zone)), "TIME_FORMAT")


def _say(value: datetime, t: Tournament) -> str:
    return f"{_day(value, t)} {_time(value, t)}"


def _moved(t: Tournament, changed: list[int]) -> None:
    """Players of a published round whose start moved are told (the pairing e-mails)."""
    published = t.round_set.filter(number__in=changed, status=Round.Status.PUBLISHED)
    for rnd in published.order_by("number"):
        round_pairings_changed.send(sender=Round, round=rnd)


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
            elif row.starts_at != at:
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


def self_check_in_refusal(registration: Registration, window: schedule.Window) -> str | None:
    """Why this player cannot check themselves in now (None: they can), in their words."""
    t = registration.tournament
    if registration.status != Registration.Status.ENTERED:
        if registration.status == Registration.Status.WAITLISTED:
            return _("You are on the waiting list: only entered players check in.")
        return _("Your registration is withdrawn.")
    if t.is_finished:
        return _("The tournament is finished.")
    if window.state is schedule.CheckIn.OFF:
        return _("The organisers check players in at the venue: please see the arbiter.")
    if window.state is schedule.CheckIn.NO_TIME:
        return _("Check-in opens once the organisers set round 1's start time.")
    if window.state is schedule.CheckIn.NOT_YET and window.opens is not None:
        # The day in words (Russian's short date ends in "г.", which doubled the full stop).
        day = timezone.localtime(window.opens, ZoneInfo(t.time_zone)).date()
        return _("Check-in opens at %(time)s on %(day)s.") % {
            "time": _time(window.opens, t),
            "day": dates.long_date(day),
        }
    if window.state is schedule.CheckIn.STARTED:
        return _(
            "Round 1 is under way, so check-in is closed. Please see the arbiter: you can "
            "still be checked in as a late entry."
        )
    if window.state is schedule.CheckIn.CLOSED and window.closes is not None:
        return _(
            "Check-in closed at %(time)s (the cut-off before round 1). Please see the "
            "arbiter: you can still be checked in as a late entry."
        ) % {"time": _time(window.closes, t)}
    return None


def registration_self_check_in(
    *, registration: Registration, now: datetime | None = None
) -> CheckIn:
    """The player checks themselves in from their page: allowed while the check-in window is
    open (``selectors.check_in_window``: before round 1, until the cut-off), refused with the
    reason otherwise (``ChampionshipError``). The check-in itself is the organisers' one,
    marked as done by the player — the single call site of the self check-in."""
    now = now or timezone.now()
    with transaction.atomic():
        reg = Registration.objects.select_related("tournament").get(pk=registration.pk)
        window = selectors.check_in_window(reg.tournament, now=now)
        refusal = self_check_in_refusal(reg, window)
        if refusal is not None:
            raise ChampionshipError(refusal)
        return registration_check_in(
            registration=reg, checked_in=True, by=Entrant.CheckedInBy.PLAYER, now=now
        )
