"""The one door of withdrawals: a player withdrawn (or brought back) by any page — the
organisers' entrants page, the registration's page, the player's own link, the admin,
anonymisation, the absences rule of the next pairing. A withdrawal is one fact with two records,
the entrant's (the championship's: not paired after a round) and the registration's (withdrawn,
its place to the waiting list, an e-mail), written here together in one transaction. This app is
the layer above both; the championship's own callers reach this door through
``championship.services.participant_withdraw`` / ``participant_reinstate``, which it installs
when it is ready (``install``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from championship.models import Entrant, RegistrationState, Tournament
from championship.services import tournament_changed
from championship.services.entrants import (
    WithdrawnBy,
    _check_not_finished,
    entrant_withdrawn_set,
    withdrawal_door_install,
)
from championship.services.errors import RegistrationClosed

from ..models import Registration
from .outbox import outbox_enqueue
from .waiting_list import tournament_places_fill, tournament_status_for_newcomer


@dataclass
class Withdrawal:
    """What a withdrawal did, for the page to say it."""

    name: str
    #: The round after which the entrant is no longer paired (0: before round 1); None when
    #: the player has no entrant (yet).
    after: int | None = None
    #: The tournament had started (round 1 paired): free places are no longer filled.
    started: bool = False
    #: The registration was withdrawn now (it held a place: ``had_place``).
    registration_withdrawn: bool = False
    had_place: bool = False
    emailed: bool = False
    #: Names of the people entered from the waiting list into the place freed.
    promoted: list[str] = field(default_factory=list)
    #: People still waiting when a place was freed after the start (not filled).
    waiting: int = 0

    def message(self) -> str:
        """What happened, in the organiser's words."""
        name = self.name
        if self.after is None:
            parts = [_("%(name)s is withdrawn.") % {"name": name}]
        elif self.after == 0:
            parts = [_("%(name)s is withdrawn before round 1: never paired.") % {"name": name}]
        else:
            parts = [
                _("%(name)s is withdrawn after round %(n)d: not paired in later rounds.")
                % {"name": name, "n": self.after}
            ]
        if self.registration_withdrawn:
            if self.emailed:
                parts.append(_("Their registration is withdrawn and they are e-mailed."))
            else:
                parts.append(_("Their registration is withdrawn."))
        if self.promoted:
            parts.append(
                _("The place goes to %(names)s from the waiting list (e-mailed).")
                % {"names": ", ".join(self.promoted)}
            )
        elif self.had_place and self.started and self.waiting:
            parts.append(
                _(
                    "The tournament has started, so the place is not given to the waiting "
                    "list: add a player as a late entry if you wish."
                )
            )
        return " ".join(parts)


@dataclass
class Reinstatement:
    """What bringing a withdrawn player back did."""

    name: str
    #: The registration's status now (None: no registration).
    status: str | None = None
    #: The entrant is paired again (None: no entrant, or still withdrawn while waiting).
    back: bool = False
    started: bool = False

    def message(self) -> str:
        name = self.name
        if self.status == Registration.Status.WAITLISTED:
            return _(
                "The field is full: %(name)s is on the waiting list and is entered, with an "
                "e-mail, when a place is free."
            ) % {"name": name}
        if self.back and self.started:
            return _("%(name)s is back in the tournament: paired again from the next round.") % {
                "name": name
            }
        return _("%(name)s is entered again.") % {"name": name}


def _pair_of(
    entrant: Entrant | None, registration: Registration | None
) -> tuple[Entrant | None, Registration | None, int]:
    """The entrant and the registration of one player (either may be None) and the
    tournament's id."""
    if entrant is None and registration is None:
        raise ValueError("an entrant or a registration")
    if registration is None and entrant is not None and entrant.registration_id is not None:
        registration = Registration.objects.filter(pk=entrant.registration_id).first()
    if entrant is None and registration is not None:
        entrant = Entrant.objects.filter(registration=registration).first()
    if (
        entrant is not None
        and registration is not None
        and entrant.registration_id != registration.pk
    ):
        raise ValueError("the entrant and the registration are two players")
    if entrant is not None:
        return entrant, registration, entrant.tournament_id
    assert registration is not None
    return entrant, registration, registration.tournament_id


def participant_withdraw(
    *,
    entrant: Entrant | None = None,
    registration: Registration | None = None,
    after: int | None = None,
    by: WithdrawnBy = WithdrawnBy.ORGANISER,
    now: datetime | None = None,
) -> Withdrawal:
    """Withdraw a player: the one door for every page that does it (the entrants page, the
    registration's page, the player's own link, the admin, anonymisation). A withdrawal is one
    fact with two records, written here together:

    - the entrant (if any) is not paired after round ``after`` (default: the last published
      round — a draft is not a played round; 0 before round 1); requested byes for later
      rounds are cancelled, and a draft of a later round holding them is stale;
    - the registration (if any) is withdrawn; the player is e-mailed a confirmation (not when
      anonymised: they cannot be reached), and the place goes to the first on the waiting list
      (``registrations.services.waiting_list``) — only while the tournament has not started.
      Once round 1 is paired the field is the tournament's: nobody is entered from the waiting
      list, and the message says so.

    ``ChampionshipError`` says why it cannot be done (nothing changed). Withdrawing twice
    changes nothing (a different ``after`` corrects the round)."""
    entrant, registration, tournament_id = _pair_of(entrant, registration)
    now = now or timezone.now()
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament_id)
        _check_not_finished(t)
        started = t.status != Tournament.Status.REGISTRATION
        result = Withdrawal(
            name=entrant.name if entrant is not None else registration.name,  # type: ignore[union-attr]
            started=started,
        )
        if entrant is not None:
            entrant_withdrawn_set(entrant=entrant, tournament=t, after=after)
            result.after = entrant.withdrawn_after
        if registration is not None:
            reg = Registration.objects.select_for_update().get(pk=registration.pk)
            if reg.status != Registration.Status.WITHDRAWN:
                result.registration_withdrawn = True
                result.had_place = reg.status == Registration.Status.ENTERED
                reg.status = Registration.Status.WITHDRAWN
                reg.withdrawn_at = now
                # An UPDATE, not save(): the places are filled here, in this transaction
                # (a save would have ``registrations.signals`` fill them again after it).
                Registration.objects.filter(pk=reg.pk).update(
                    status=reg.status, withdrawn_at=now, updated_at=now
                )
                if by != WithdrawnBy.PRIVACY:
                    outbox_enqueue(
                        kind="registration_withdrawn",
                        object_id=reg.pk,
                        params={
                            "by_organiser": by == WithdrawnBy.ORGANISER,
                            "had_place": result.had_place and not started,
                            "started": started,
                        },
                    )
                    result.emailed = True
                result.promoted = [r.name for r in tournament_places_fill(tournament_id=t.pk)]
                if started:
                    result.waiting = Registration.objects.filter(
                        tournament=t, status=Registration.Status.WAITLISTED
                    ).count()
            registration.status, registration.withdrawn_at = reg.status, reg.withdrawn_at
        tournament_changed(t.pk)  # the public list of players (an UPDATE sends no signal)
    return result


def participant_reinstate(
    *,
    entrant: Entrant | None = None,
    registration: Registration | None = None,
    by: WithdrawnBy = WithdrawnBy.ORGANISER,
    now: datetime | None = None,
) -> Reinstatement:
    """Undo a withdrawal, through the same door as ``participant_withdraw``.

    - Before the tournament starts the registration re-enters as a newcomer would: entered if
      a place is free and nobody waits, else at the end of the waiting list (its entrant, if
      any, stays withdrawn until the waiting list gives it a place). A player doing it through
      their link needs registration to be open (``Tournament.registration_state``); an
      organiser does not.
    - Once the tournament has started the player is back from the next round (the rounds
      missed meanwhile count as absent, zero points) and their registration is entered again:
      the cap governs registration, not an organiser's decision during play. A player cannot
      do it through their link then (registration is closed).

    ``ChampionshipError`` (``RegistrationClosed`` for a closed registration) says why it
    cannot be done; nothing changed."""
    entrant, registration, tournament_id = _pair_of(entrant, registration)
    now = now or timezone.now()
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament_id)
        _check_not_finished(t)
        started = t.status != Tournament.Status.REGISTRATION
        result = Reinstatement(
            name=entrant.name if entrant is not None else registration.name,  # type: ignore[union-attr]
            started=started,
        )
        if by == WithdrawnBy.PLAYER and t.registration_state(now) != RegistrationState.OPEN:
            raise RegistrationClosed(_("Registration for this tournament is closed."))
        if registration is not None:
            reg = Registration.objects.select_for_update().get(pk=registration.pk)
            if reg.status == Registration.Status.WITHDRAWN:
                if started:
                    reg.status = Registration.Status.ENTERED
                else:
                    tournament_places_fill(tournament_id=t.pk)
                    reg.status = tournament_status_for_newcomer(tournament=t)
                    reg.created_at = now  # a newcomer's place in the waiting list's order
                reg.withdrawn_at = None
                Registration.objects.filter(pk=reg.pk).update(
                    status=reg.status, created_at=reg.created_at, withdrawn_at=None, updated_at=now
                )
            registration.status, registration.created_at = reg.status, reg.created_at
            registration.withdrawn_at = reg.withdrawn_at
            result.status = reg.status
            tournament_changed(t.pk)
        if entrant is not None:
            entrant.refresh_from_db()
            if result.status in (None, Registration.Status.ENTERED):
                if entrant.withdrawn_after is not None:
                    entrant.withdrawn_after = None
                    entrant.save(update_fields=["withdrawn_after"])
                result.back = True
    return result


class _Door:
    """The door as the championship's services see it (``championship.services.entrants
    .WithdrawalDoor``)."""

    def withdraw(
        self, *, entrant: Entrant, after: int | None, by: WithdrawnBy, now: datetime | None
    ) -> Withdrawal:
        return participant_withdraw(entrant=entrant, after=after, by=by, now=now)

    def reinstate(
        self, *, entrant: Entrant, by: WithdrawnBy, now: datetime | None
    ) -> Reinstatement:
        return participant_reinstate(entrant=entrant, by=by, now=now)


def install() -> None:
    """Give the championship its door of withdrawals (``RegistrationsConfig.ready``)."""
    withdrawal_door_install(_Door())
