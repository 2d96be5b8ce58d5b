"""Writes of a tournament's field: entrants added, edited, deleted, imported from
registrations, checked in (one fact, shared with the registrations list), withdrawn and back;
requested byes and forbidden pairs.

A round is *played* once it is published: a draft is never a played round. Whatever changes
who should be in a draft (a withdrawal, a late entry, an un-withdrawal) makes the draft stale
(``draft_problems``): it cannot be published and the organiser pairs it again."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

from django.db import transaction
from django.db.models import Count, Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from registrations.models import Registration

from .. import manager
from ..models import (
    Board,
    Entrant,
    ForbiddenPair,
    RegistrationState,
    RequestedBye,
    Round,
    Tournament,
)
from .changes import tournament_changed
from .errors import ChampionshipError, RegistrationClosed


def _check_not_finished(t: Tournament) -> None:
    if t.status == Tournament.Status.FINISHED:
        raise ChampionshipError(
            _("The tournament is finished: reopen it first to change anything.")
        )


def last_published_round(t: Tournament) -> int:
    """The number of the last published (played) round, 0 before round 1."""
    return (
        t.round_set.filter(status=Round.Status.PUBLISHED)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
        or 0
    )


def last_paired_round(t: Tournament) -> int:
    """The number of the last paired round, draft or published, 0 before round 1."""
    return t.round_set.order_by("-number").values_list("number", flat=True).first() or 0


def total_rounds(t: Tournament) -> int:
    """How many rounds the tournament has (a round robin's follow from its field)."""
    n = t.entrants.exclude(starting_number=None).count() or t.entrants.count()
    return manager.total_rounds(t, n)


def half_point_byes(entrant: Entrant) -> int:
    """Half-point byes the entrant has: on bye boards of rounds paired, and requested for
    rounds not yet paired."""
    boards = Board.objects.filter(white=entrant, black=None, bye="H").values_list(
        "round__number", flat=True
    )
    paired = set(boards)
    requested = RequestedBye.objects.filter(entrant=entrant, kind=RequestedBye.Kind.HALF)
    return len(paired) + requested.exclude(round_number__in=paired).count()


# Entrants -----------------------------------------------------------------------------------


def same_name(t: Tournament, name: str, *, exclude: int | None = None) -> list[Entrant]:
    """Entrants of ``t`` with this name (letter case and spacing aside)."""
    wanted = " ".join(name.split()).casefold()
    qs = t.entrants.all()
    if exclude is not None:
        qs = qs.exclude(pk=exclude)
    return [e for e in qs if " ".join(e.name.split()).casefold() == wanted]


@dataclass
class LateEntry:
    """What joining late gave a player: the round they are paired from, and how each round
    they missed scores (``half``: half-point byes; ``zero``: zero points, absent)."""

    joined_round: int
    half: list[int] = field(default_factory=list)
    zero: list[int] = field(default_factory=list)
    #: The choice made for the missed rounds, and the tournament's cap of half-point byes.
    missed_rounds: str = "Z"
    cap: int = 0

    def message(self, name: str) -> str:
        """What happened, in the organiser's words: which rounds score what, and why."""
        parts = [
            _("%(name)s is a late entry: paired from round %(n)d on.")
            % {"name": name, "n": self.joined_round}
        ]
        if self.half:
            parts.append(
                _("Half-point byes for round(s) %(rounds)s.") % {"rounds": _rounds(self.half)}
            )
        if self.zero:
            if self.missed_rounds == RequestedBye.Kind.HALF:
                why = _(
                    "Zero points for round(s) %(rounds)s: the tournament allows %(cap)d "
                    "half-point bye(s) a player."
                ) % {"rounds": _rounds(self.zero), "cap": self.cap}
            else:
                why = _("Zero points for round(s) %(rounds)s (absent).") % {
                    "rounds": _rounds(self.zero)
                }
            parts.append(why)
        return " ".join(parts)


def _rounds(numbers: list[int]) -> str:
    return ", ".join(str(n) for n in numbers)


def late_entry_from(t: Tournament) -> int | None:
    """The round a player joining now is paired from (None: no round paired yet, so joining
    now is not late)."""
    found = t.round_set.aggregate(
        paired=Count("pk"), played=Max("number", filter=Q(status=Round.Status.PUBLISHED))
    )
    if not found["paired"]:
        return None
    return int(found["played"] or 0) + 1


def _late_entry(
    locked: Tournament, entrant: Entrant, *, joined_round: int, missed: str
) -> LateEntry:
    """The one place that makes ``entrant`` (saved) a late entry once rounds are paired, for
    every door a player joins by (the add form, a check-in on either page): the next starting
    number, joining after the last published round at the earliest; each round it missed
    scores zero (``missed="Z"``), or a half-point bye (``"H"``) as long as the tournament's
    cap of half-point byes a player allows (``max_half_point_byes``), zero beyond it. Missed
    rounds already published get bye boards; those not yet paired (a later joining round)
    get requested byes, which the pairing honours."""
    last = (
        locked.entrants.exclude(starting_number=None)
        .exclude(pk=entrant.pk)
        .order_by("-starting_number")
        .first()
    )
    if entrant.starting_number is None:
        entrant.starting_number = ((last.starting_number or 0) if last else 0) + 1
    published = list(locked.round_set.filter(status=Round.Status.PUBLISHED).order_by("number"))
    played = published[-1].number if published else 0
    entrant.joined_round = max(joined_round, played + 1)
    entrant.save(update_fields=["starting_number", "joined_round"])
    done = LateEntry(
        joined_round=entrant.joined_round, missed_rounds=missed, cap=locked.max_half_point_byes
    )
    allowed = 0
    if missed == RequestedBye.Kind.HALF:
        allowed = max(0, locked.max_half_point_byes - half_point_byes(entrant))
    by_number = {rnd.number: rnd for rnd in published}
    for number in range(1, entrant.joined_round):
        rnd = by_number.get(number)
        if rnd is not None and rnd.boards.filter(Q(white=entrant) | Q(black=entrant)).exists():
            continue
        if allowed <= 0:
            done.zero.append(number)
            continue
        if rnd is not None:
            last_board = rnd.boards.order_by("-number").values_list("number", flat=True).first()
            Board.objects.create(
                round=rnd, number=(last_board or 0) + 1, white=entrant, bye=RequestedBye.Kind.HALF
            )
        elif not locked.round_set.filter(number=number).exists():
            RequestedBye.objects.update_or_create(
                entrant=entrant, round_number=number, defaults={"kind": RequestedBye.Kind.HALF}
            )
        else:  # a draft of a round the entrant misses: it scores zero
            done.zero.append(number)
            continue
        done.half.append(number)
        allowed -= 1
    return done


def entrant_add(
    *,
    tournament: Tournament,
    name: str,
    club: str = "",
    rating: int | None = None,
    joined_round: int = 1,
    checked_in: bool = False,
    missed_rounds: str = RequestedBye.Kind.ZERO,
) -> Entrant:
    """Add an entrant. Once rounds are paired it is a late entry (``_late_entry``: the next
    starting number, and for the rounds it missed zero points or half-point byes up to the
    tournament's cap, as ``missed_rounds`` says); ``entrant.late`` then tells what it got. A
    draft paired without them is stale: pair it again."""
    _check_not_finished(tournament)
    entrant = Entrant(
        tournament=tournament,
        name=name,
        club=club,
        rating=rating,
        joined_round=joined_round,
        checked_in=checked_in,
    )
    entrant.full_clean()
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        entrant.save()
        if locked.round_set.exists():
            entrant.late = _late_entry(  # type: ignore[attr-defined]
                locked, entrant, joined_round=joined_round, missed=missed_rounds
            )
    return entrant


def entrant_edit(
    *,
    entrant: Entrant,
    name: str,
    club: str,
    rating: int | None,
    starting_number: int | None = None,
) -> Entrant:
    """Correct an entrant's name, club and rating; the starting number only before round 1
    is paired (afterwards the pairings refer to it)."""
    t = entrant.tournament
    _check_not_finished(t)
    fields = ["name", "club", "rating"]
    entrant.name, entrant.club, entrant.rating = name, club, rating
    if not t.round_set.exists():
        if (
            starting_number is not None
            and t.entrants.exclude(pk=entrant.pk).filter(starting_number=starting_number).exists()
        ):
            raise ChampionshipError(
                _("Starting number %(n)d belongs to another entrant.") % {"n": starting_number}
            )
        entrant.starting_number = starting_number
        fields.append("starting_number")
    elif starting_number is not None and starting_number != entrant.starting_number:
        raise ChampionshipError(_("Starting numbers cannot change once round 1 is paired."))
    entrant.full_clean(exclude=["tournament", "registration"])
    entrant.save(update_fields=fields)
    return entrant


def entrant_delete(*, entrant: Entrant) -> None:
    """Delete an entrant never paired (a duplicate, a mistake)."""
    _check_not_finished(entrant.tournament)
    if Board.objects.filter(Q(white=entrant) | Q(black=entrant)).exists():
        raise ChampionshipError(
            _(
                "%(name)s is in a round's pairings and cannot be deleted: withdraw them instead "
                "(or delete the draft first)."
            )
            % {"name": entrant.name}
        )
    entrant.delete()


def withdraw_rounds(entrant: Entrant) -> list[int]:
    """The rounds ``N`` an entrant can be withdrawn after: from the last published round
    they are in (they played it) to the last round but one."""
    t = entrant.tournament
    played_in = (
        Board.objects.filter(round__tournament=t, round__status=Round.Status.PUBLISHED)
        .filter(Q(white=entrant) | Q(black=entrant))
        .order_by("-round__number")
        .values_list("round__number", flat=True)
        .first()
        or 0
    )
    last = max(total_rounds(t) - 1, last_published_round(t), played_in)
    return list(range(played_in, last + 1))


class WithdrawnBy(StrEnum):
    """Who withdraws a player (or brings them back): it decides the e-mail and whether
    registration must be open."""

    PLAYER = "player"  # through the link in their e-mail
    ORGANISER = "organiser"  # any organiser page, the admin
    PRIVACY = "privacy"  # anonymising the person: they cannot be reached, no e-mail


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
    from registrations.services.outbox import outbox_enqueue
    from registrations.services.waiting_list import tournament_places_fill

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
            entrant.refresh_from_db()
            if entrant.withdrawn_after is None or after is not None:
                allowed = withdraw_rounds(entrant)
                chosen = max(last_published_round(t), allowed[0]) if after is None else after
                if chosen not in allowed:
                    raise ChampionshipError(
                        _("%(name)s can be withdrawn after round %(low)d to %(high)d.")
                        % {"name": entrant.name, "low": allowed[0], "high": allowed[-1]}
                    )
                entrant.withdrawn_after = chosen
                entrant.save(update_fields=["withdrawn_after"])
                RequestedBye.objects.filter(entrant=entrant, round_number__gt=chosen).delete()
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
    from registrations.services.waiting_list import (
        tournament_places_fill,
        tournament_status_for_newcomer,
    )

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


def entrant_withdraw(*, entrant: Entrant, after: int | None = None) -> Entrant:
    """``participant_withdraw`` by an organiser (the same door), returning the entrant."""
    participant_withdraw(entrant=entrant, after=after, by=WithdrawnBy.ORGANISER)
    entrant.refresh_from_db()
    return entrant


def entrant_unwithdraw(*, entrant: Entrant) -> Entrant:
    """``participant_reinstate`` by an organiser (the same door), returning the entrant."""
    participant_reinstate(entrant=entrant, by=WithdrawnBy.ORGANISER)
    entrant.refresh_from_db()
    return entrant


@dataclass
class CheckIn:
    """What checking in did: ``late`` says what a late entry got (None: not a late entry)."""

    entrant: Entrant
    checked_in: bool
    late: LateEntry | None = None
    created: bool = False

    @property
    def late_from(self) -> int | None:
        return self.late.joined_round if self.late is not None else None

    def message(self) -> str:
        """What happened, in the organiser's words."""
        name = self.entrant.name
        if not self.checked_in:
            return _("%(name)s is no longer checked in.") % {"name": name}
        if self.late is not None:
            return _("%(name)s is checked in.") % {"name": name} + " " + self.late.message(name)
        if self.created:
            return _("%(name)s is checked in and added to the tournament's entrants.") % {
                "name": name
            }
        return _("%(name)s is checked in.") % {"name": name}


def entrant_check_in(
    *, entrant: Entrant, checked_in: bool, missed_rounds: str = RequestedBye.Kind.ZERO
) -> CheckIn:
    """Check an entrant in (or undo it). The one fact behind both the entrants page and the
    registrations list: ``Entrant.checked_in``; the registration's ``checked_in_at`` is only
    the time it was done, written here together with it.

    After round 1 is paired a player checked in is a late entry from the next round; the
    rounds they missed score as ``missed_rounds`` says (zero, or half-point byes up to the
    tournament's cap: ``_late_entry``, the same as the add form). A player already paired
    cannot be checked out (withdraw them instead)."""
    t = entrant.tournament
    _check_not_finished(t)
    if missed_rounds not in RequestedBye.Kind.values:
        raise ChampionshipError(_("Choose how the rounds missed score: zero or half-point byes."))
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=t.pk)
        entrant.refresh_from_db(fields=["checked_in", "starting_number"])
        paired = locked.round_set.exists()
        result = CheckIn(entrant, checked_in)
        if not checked_in and paired and entrant.starting_number is not None:
            raise ChampionshipError(
                _(
                    "%(name)s is already in the tournament's rounds: withdraw them instead of "
                    "undoing the check-in."
                )
                % {"name": entrant.name}
            )
        entrant.checked_in = checked_in
        entrant.save(update_fields=["checked_in"])
        if checked_in and paired and entrant.starting_number is None:
            result.late = _late_entry(locked, entrant, joined_round=1, missed=missed_rounds)
        if entrant.registration_id is not None:
            Registration.objects.filter(pk=entrant.registration_id).update(
                checked_in_at=timezone.now() if checked_in else None, updated_at=timezone.now()
            )
    return result


def registration_check_in(
    *,
    registration: Registration,
    checked_in: bool,
    missed_rounds: str = RequestedBye.Kind.ZERO,
) -> CheckIn:
    """Check in a registered player from the registrations list: their entrant (made now if
    they have none yet) is checked in — the same fact the tournament pairs by, through
    ``entrant_check_in`` (a late entry's missed rounds as ``missed_rounds`` says)."""
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
    result = entrant_check_in(entrant=entrant, checked_in=checked_in, missed_rounds=missed_rounds)
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


# Requested byes ----------------------------------------------------------------------------


def bye_request(*, entrant: Entrant, round_number: int, kind: str) -> RequestedBye:
    """Request a half-point or zero-point bye for a round not yet paired, within the
    tournament's rounds and the half-point cap."""
    t = entrant.tournament
    _check_not_finished(t)
    if kind not in RequestedBye.Kind.values:
        raise ChampionshipError(_("Choose a half-point or a zero-point bye."))
    total = total_rounds(t)
    if round_number < 1 or round_number > total:
        raise ChampionshipError(
            _("The tournament has %(total)d rounds: there is no round %(n)d.")
            % {"total": total, "n": round_number}
        )
    paired = t.round_set.filter(number=round_number).first()
    if paired is not None:
        if paired.status == Round.Status.DRAFT:
            raise ChampionshipError(
                _(
                    "Round %(n)d is paired already (a draft): delete the draft, request the bye, "
                    "then pair the round again."
                )
                % {"n": round_number}
            )
        raise ChampionshipError(
            _("Round %(n)d is paired already: a bye can be requested only for a later round.")
            % {"n": round_number}
        )
    if entrant.withdrawn_after is not None and entrant.withdrawn_after < round_number:
        raise ChampionshipError(
            _("%(name)s is withdrawn after round %(after)d.")
            % {"name": entrant.name, "after": entrant.withdrawn_after}
        )
    if entrant.joined_round > round_number:
        raise ChampionshipError(
            _("%(name)s joins at round %(joined)d.")
            % {"name": entrant.name, "joined": entrant.joined_round}
        )
    with transaction.atomic():
        existing = RequestedBye.objects.filter(entrant=entrant, round_number=round_number).first()
        if (
            kind == RequestedBye.Kind.HALF
            and not (existing and existing.kind == RequestedBye.Kind.HALF)
            and half_point_byes(entrant) >= t.max_half_point_byes
        ):
            raise ChampionshipError(
                _(
                    "%(name)s has %(n)d half-point bye(s) already, the most this tournament "
                    "allows: request a zero-point bye instead."
                )
                % {"name": entrant.name, "n": t.max_half_point_byes}
            )
        bye, _created = RequestedBye.objects.update_or_create(
            entrant=entrant, round_number=round_number, defaults={"kind": kind}
        )
    return bye


def bye_cancel(*, bye: RequestedBye) -> None:
    """Cancel a requested bye of a round not yet paired."""
    entrant = bye.entrant
    _check_not_finished(entrant.tournament)
    if entrant.tournament.round_set.filter(number=bye.round_number).exists():
        raise ChampionshipError(
            _("Round %(n)d is paired already: its byes cannot change (delete the draft first).")
            % {"n": bye.round_number}
        )
    bye.delete()


# Forbidden pairs ---------------------------------------------------------------------------


def forbidden_pair_add(
    *, tournament: Tournament, first: Entrant, second: Entrant, kind: str, reason: str = ""
) -> ForbiddenPair:
    """Two entrants who must not be paired with each other (family, same club, other)."""
    _check_not_finished(tournament)
    if first.pk == second.pk:
        raise ChampionshipError(_("Choose two different players."))
    if first.tournament_id != tournament.pk or second.tournament_id != tournament.pk:
        raise ChampionshipError(_("Choose players of this tournament."))
    if kind not in ForbiddenPair.Kind.values:
        raise ChampionshipError(_("Choose a reason from the list."))
    if ForbiddenPair.objects.filter(
        Q(first=first, second=second) | Q(first=second, second=first), tournament=tournament
    ).exists():
        raise ChampionshipError(
            _("%(a)s and %(b)s are already a forbidden pair.") % {"a": first, "b": second}
        )
    pair = ForbiddenPair(
        tournament=tournament, first=first, second=second, kind=kind, reason=reason
    )
    pair.full_clean()
    pair.save()
    return pair


def forbidden_pair_remove(*, pair: ForbiddenPair) -> None:
    _check_not_finished(pair.tournament)
    pair.delete()
