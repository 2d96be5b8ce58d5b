"""Registrations and the tournament's field: a registered player checked in from the
registrations list (their entrant made then), and confirmed registrations added as entrants.
The registrations app is a layer above the championship: it calls the championship's services
for the field; the championship knows nothing of registrations."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from zoneinfo import ZoneInfo

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from championship import schedule, selectors
from championship.models import Entrant, RequestedBye, Tournament
from championship.services import ChampionshipError, CheckIn, entrant_check_in, tournament_changed
from championship.services.schedule import time_text
from common import dates

from ..models import Registration
from ..selectors import EntrantsAlready


def _check_not_finished(t: Tournament) -> None:
    if t.status == Tournament.Status.FINISHED:
        raise ChampionshipError(
            _("The tournament is finished: reopen it first to change anything.")
        )


def registration_check_in(
    *,
    registration: Registration,
    checked_in: bool,
    by: str = Entrant.CheckedInBy.ORGANISER,
    now: datetime | None = None,
    missed_rounds: str = RequestedBye.Kind.ZERO,
) -> CheckIn:
    """Check in a registered player from the registrations list (or the player themselves,
    ``by``): their entrant (made now if they have none yet) is checked in — the same fact the
    tournament pairs by, through ``entrant_check_in`` (a late entry's missed rounds as
    ``missed_rounds`` says)."""
    if registration.status != Registration.Status.ENTERED and checked_in:
        raise ChampionshipError(
            _("%(name)s is not entered (%(status)s): only entered players can be checked in.")
            % {"name": registration.name, "status": registration.get_status_display()}
        )
    entrant = Entrant.objects.filter(registration=registration).first()
    created = False
    if entrant is None:
        if not checked_in:
            Registration.objects.filter(pk=registration.pk).update(checked_in_at=None)
            return CheckIn(Entrant(name=registration.name), False)
        _check_not_finished(registration.tournament)
        entrant = Entrant.objects.create(
            tournament=registration.tournament,
            registration=registration,
            name=registration.name,
            club=registration.club,
        )
        created = True
    result = entrant_check_in(
        entrant=entrant, checked_in=checked_in, by=by, now=now, missed_rounds=missed_rounds
    )
    result.created = created
    return result


@dataclass
class ImportReport:
    """What "add confirmed registrations" did: who was added, who was left out and why."""

    added: list[str] = field(default_factory=list)
    #: (name, reason) of each entered registration left out.
    left_out: list[tuple[str, str]] = field(default_factory=list)


def entrants_import_registrations(*, tournament: Tournament) -> ImportReport:
    """Entered registrations with a confirmed e-mail become entrants (once each); the report
    names the entered ones left out (e-mail not confirmed) and those on the waiting list. A
    second registration of a player who is an entrant already (``selectors.EntrantsAlready``)
    is neither added nor named: that player is in."""
    _check_not_finished(tournament)
    report = ImportReport()
    regs = Registration.objects.filter(
        tournament=tournament, entrant__isnull=True, anonymised_at__isnull=True
    ).exclude(status=Registration.Status.WITHDRAWN)
    already = EntrantsAlready(tournament)
    made = []
    for r in regs.order_by("created_at", "pk"):
        if already(r.person_id, r.name, r.phone):
            continue
        if r.status == Registration.Status.WAITLISTED:
            report.left_out.append((r.name, _("on the waiting list")))
        elif r.email_confirmed_at is None:
            report.left_out.append((r.name, _("e-mail not confirmed")))
        else:
            made.append(
                Entrant(
                    tournament=tournament,
                    registration=r,
                    name=r.name,
                    club=r.club,
                    checked_in=r.checked_in_at is not None,
                )
            )
            report.added.append(r.name)
    with transaction.atomic():
        Entrant.objects.bulk_create(made)
        if made:
            tournament_changed(tournament.pk)  # the public list of players changes
    return report


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
            "time": time_text(window.opens, t),
            "day": dates.long_date(day),
        }
    if window.state is schedule.CheckIn.STARTED:
        return _(
            "Round 1 is paired, so check-in is closed. Please see the arbiter: you can "
            "still be checked in as a late entry."
        )
    if window.state is schedule.CheckIn.CLOSED and window.closes is not None:
        return _(
            "Check-in closed at %(time)s (the cut-off before round 1). Please see the "
            "arbiter: you can still be checked in as a late entry."
        ) % {"time": time_text(window.closes, t)}
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
