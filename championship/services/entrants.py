"""Writes of a tournament's field: entrants added, edited, deleted, checked in (one fact,
shared with the registrations list, which follows it: ``registrations.signals``), withdrawn and
back; requested byes and forbidden pairs. (Registrations become entrants in the registrations
app, a layer above: ``registrations.services.field``.)

A round is *played* once it is published: a draft is never a played round. Whatever changes
who should be in a draft (a withdrawal, a late entry, an un-withdrawal) makes the draft stale
(``draft_problems``): it cannot be published and the organiser pairs it again."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Protocol

from django.db import transaction
from django.db.models import Count, Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .. import manager
from ..models import (
    Board,
    Entrant,
    ForbiddenPair,
    RequestedBye,
    Round,
    Tournament,
)
from .errors import ChampionshipError


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
                ngettext(
                    "A half-point bye for round %(rounds)s.",
                    "Half-point byes for rounds %(rounds)s.",
                    len(self.half),
                )
                % {"rounds": _rounds(self.half)}
            )
        if self.zero:
            rounds = {"rounds": _rounds(self.zero)}
            if self.missed_rounds == RequestedBye.Kind.HALF:
                parts.append(
                    ngettext(
                        "Zero points for round %(rounds)s:",
                        "Zero points for rounds %(rounds)s:",
                        len(self.zero),
                    )
                    % rounds
                )
                parts.append(
                    ngettext(
                        "the tournament allows %(cap)d half-point bye a player.",
                        "the tournament allows %(cap)d half-point byes a player.",
                        self.cap,
                    )
                    % {"cap": self.cap}
                )
            else:
                parts.append(
                    ngettext(
                        "Zero points for round %(rounds)s (absent).",
                        "Zero points for rounds %(rounds)s (absent).",
                        len(self.zero),
                    )
                    % rounds
                )
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


class WithdrawalOutcome(Protocol):
    """What the door of withdrawals tells the page: ``message()``, in the organiser's words."""

    def message(self) -> str: ...


class WithdrawalDoor(Protocol):
    """The one door of withdrawals (``participant_withdraw`` / ``participant_reinstate``). A
    withdrawal is one fact with two records, the entrant's and the registration's, so the door
    lives a layer above both, in the registrations app
    (``registrations.services.participation``), which installs it when it is ready
    (``withdrawal_door_install``). The championship's own pages and services (the entrants page,
    the absences rule of the next pairing) go through it here, importing nothing above them —
    as the games app adds its part of a board to the backup."""

    def withdraw(
        self, *, entrant: Entrant, after: int | None, by: WithdrawnBy, now: datetime | None
    ) -> WithdrawalOutcome: ...

    def reinstate(
        self, *, entrant: Entrant, by: WithdrawnBy, now: datetime | None
    ) -> WithdrawalOutcome: ...


_DOOR: list[WithdrawalDoor] = []


def withdrawal_door_install(door: WithdrawalDoor) -> None:
    """Called once by the registrations app when it is ready."""
    _DOOR[:] = [door]


def _door() -> WithdrawalDoor:
    if not _DOOR:
        raise RuntimeError("the registrations app installs the door of withdrawals")
    return _DOOR[0]


def entrant_withdrawn_set(*, entrant: Entrant, tournament: Tournament, after: int | None) -> None:
    """The entrant's record of a withdrawal, written by the door inside its transaction (the
    tournament row locked): not paired after round ``after`` (default: the last published
    round — a draft is not a played round; 0 before round 1); requested byes for later rounds
    are cancelled, and a draft of a later round holding them is stale. Withdrawing twice
    changes nothing (a different ``after`` corrects the round)."""
    entrant.refresh_from_db()
    if entrant.withdrawn_after is None or after is not None:
        allowed = withdraw_rounds(entrant)
        chosen = max(last_published_round(tournament), allowed[0]) if after is None else after
        if chosen not in allowed:
            raise ChampionshipError(
                _("%(name)s can be withdrawn after round %(low)d to %(high)d.")
                % {"name": entrant.name, "low": allowed[0], "high": allowed[-1]}
            )
        entrant.withdrawn_after = chosen
        entrant.save(update_fields=["withdrawn_after"])
        RequestedBye.objects.filter(entrant=entrant, round_number__gt=chosen).delete()


def participant_withdraw(
    *,
    entrant: Entrant,
    after: int | None = None,
    by: WithdrawnBy = WithdrawnBy.ORGANISER,
    now: datetime | None = None,
) -> WithdrawalOutcome:
    """Withdraw a player, from the championship's pages: through the one door (above)."""
    return _door().withdraw(entrant=entrant, after=after, by=by, now=now)


def participant_reinstate(
    *,
    entrant: Entrant,
    by: WithdrawnBy = WithdrawnBy.ORGANISER,
    now: datetime | None = None,
) -> WithdrawalOutcome:
    """Undo a withdrawal, from the championship's pages: through the one door (above)."""
    return _door().reinstate(entrant=entrant, by=by, now=now)


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
    *,
    entrant: Entrant,
    checked_in: bool,
    by: str = Entrant.CheckedInBy.ORGANISER,
    now: datetime | None = None,
    missed_rounds: str = RequestedBye.Kind.ZERO,
) -> CheckIn:
    """Check an entrant in (or undo it). The one fact behind both the entrants page and the
    registrations list: ``Entrant.checked_in``; the registration's ``checked_in_at`` is only
    the time it was done, written together with it (``registrations.signals``). ``by`` says
    who did it (an organiser, or the player from their own page:
    ``registrations.services.field.registration_self_check_in``), kept with the time for the
    arbiter.

    After round 1 is paired a player checked in is a late entry from the next round; the
    rounds they missed score as ``missed_rounds`` says (zero, or half-point byes up to the
    tournament's cap: ``_late_entry``, the same as the add form). A player already paired
    cannot be checked out (withdraw them instead)."""
    now = now or timezone.now()
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
        if checked_in != entrant.checked_in or not checked_in:
            entrant.checked_in_by = by if checked_in else ""
            entrant.checked_in_at = now if checked_in else None
        entrant.checked_in = checked_in
        entrant.save(update_fields=["checked_in", "checked_in_by", "checked_in_at"])
        if checked_in and paired and entrant.starting_number is None:
            result.late = _late_entry(locked, entrant, joined_round=1, missed=missed_rounds)
    return result


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
                ngettext(
                    "%(name)s has %(n)d half-point bye already, the most this tournament "
                    "allows: request a zero-point bye instead.",
                    "%(name)s has %(n)d half-point byes already, the most this tournament "
                    "allows: request a zero-point bye instead.",
                    t.max_half_point_byes,
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
