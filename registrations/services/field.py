"""Registrations and the tournament's field: a registered player checked in from the
registrations list (their entrant made then), and confirmed registrations added as entrants.
The registrations app is a layer above the championship: it calls the championship's services
for the field; the championship knows nothing of registrations."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.utils.translation import gettext as _

from championship.models import Entrant, Tournament
from championship.services import ChampionshipError, CheckIn, entrant_check_in, tournament_changed

from ..models import Registration


def _check_not_finished(t: Tournament) -> None:
    if t.status == Tournament.Status.FINISHED:
        raise ChampionshipError(
            _("The tournament is finished: reopen it first to change anything.")
        )


def registration_check_in(*, registration: Registration, checked_in: bool) -> CheckIn:
    """Check in a registered player from the registrations list: their entrant (made now if
    they have none yet) is checked in — the same fact the tournament pairs by."""
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
    result = entrant_check_in(entrant=entrant, checked_in=checked_in)
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
    names the entered ones left out (e-mail not confirmed) and those on the waiting list."""
    _check_not_finished(tournament)
    report = ImportReport()
    regs = Registration.objects.filter(
        tournament=tournament, entrant__isnull=True, anonymised_at__isnull=True
    ).exclude(status=Registration.Status.WITHDRAWN)
    made = []
    for r in regs.order_by("created_at", "pk"):
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
