"""Writes of a tournament's field: entrants added, edited, deleted, checked in (one fact,
shared with the registrations list, which follows it: ``registrations.signals``), withdrawn and
back; requested byes and forbidden pairs. (Registrations become entrants in the registrations
app, a layer above: ``registrations.services.field``.)

A round is *played* once it is published: a draft is never a played round. Whatever changes
who should be in a draft (a withdrawal, a late entry, an un-withdrawal) makes the draft stale
(``draft_problems``): it cannot be published and the organiser pairs it again."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from .. import manager
from ..models import Board, Entrant, ForbiddenPair, RequestedBye, Round, Tournament
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


def _late_entry(locked: Tournament, entrant: Entrant, *, joined_round: int, missed: str) -> None:
    """Make ``entrant`` (saved) a late entry once rounds are paired: the next starting number,
    joining after the last published round at the earliest; for the rounds it missed zero
    points, or half-point byes (``missed="H"``) up to the tournament's cap."""
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
    if missed != "H":
        return
    allowed = max(0, locked.max_half_point_byes - half_point_byes(entrant))
    for rnd in published:
        if allowed <= 0 or rnd.number >= entrant.joined_round:
            break
        if rnd.boards.filter(Q(white=entrant) | Q(black=entrant)).exists():
            continue
        number = (rnd.boards.order_by("-number").values_list("number", flat=True).first() or 0) + 1
        Board.objects.create(round=rnd, number=number, white=entrant, bye="H")
        allowed -= 1


def entrant_add(
    *,
    tournament: Tournament,
    name: str,
    club: str = "",
    rating: int | None = None,
    joined_round: int = 1,
    checked_in: bool = False,
    missed_rounds: str = "Z",
) -> Entrant:
    """Add an entrant. A late entry (rounds already published) gets the next starting number
    and, for the rounds it missed, zero points (``missed_rounds="Z"``) or half-point byes
    (``"H"``, as many as the tournament allows a player), recorded as bye boards of those
    rounds. A draft paired without them is stale: pair it again."""
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
            _late_entry(locked, entrant, joined_round=joined_round, missed=missed_rounds)
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


def entrant_withdraw(*, entrant: Entrant, after: int | None = None) -> Entrant:
    """Withdraw ``entrant`` after round ``after`` (default: the last published round — a
    draft is not a played round): not paired in any later round. Their requested byes for
    later rounds are cancelled; a draft of a later round is stale."""
    _check_not_finished(entrant.tournament)
    allowed = withdraw_rounds(entrant)
    if after is None:
        after = max(last_published_round(entrant.tournament), allowed[0])
    if after not in allowed:
        raise ChampionshipError(
            _("%(name)s can be withdrawn after round %(low)d to %(high)d.")
            % {"name": entrant.name, "low": allowed[0], "high": allowed[-1]}
        )
    with transaction.atomic():
        entrant.withdrawn_after = after
        entrant.save(update_fields=["withdrawn_after"])
        RequestedBye.objects.filter(entrant=entrant, round_number__gt=after).delete()
    return entrant


def entrant_unwithdraw(*, entrant: Entrant) -> Entrant:
    """Undo a withdrawal: paired again from the next round (rounds missed meanwhile count as
    absent, zero points)."""
    _check_not_finished(entrant.tournament)
    entrant.withdrawn_after = None
    entrant.save(update_fields=["withdrawn_after"])
    return entrant


@dataclass
class CheckIn:
    """What checking in did: ``late_from`` is the round a late entry joins at (None: not a
    late entry)."""

    entrant: Entrant
    checked_in: bool
    late_from: int | None = None
    created: bool = False

    def message(self) -> str:
        """What happened, in the organiser's words."""
        name = self.entrant.name
        if not self.checked_in:
            return _("%(name)s is no longer checked in.") % {"name": name}
        if self.late_from is not None:
            return _(
                "%(name)s is checked in as a late entry: paired from round %(n)d on; the rounds "
                "before count as absent (zero points)."
            ) % {"name": name, "n": self.late_from}
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
) -> CheckIn:
    """Check an entrant in (or undo it). The one fact behind both the entrants page and the
    registrations list: ``Entrant.checked_in``; the registration's ``checked_in_at`` is only
    the time it was done, written together with it (``registrations.signals``). ``by`` says
    who did it (an organiser, or the player from their own page:
    ``registrations.services.field.registration_self_check_in``), kept with the time for the
    arbiter.

    After round 1 is paired a player checked in is a late entry from the next round; a
    player already paired cannot be checked out (withdraw them instead)."""
    now = now or timezone.now()
    t = entrant.tournament
    _check_not_finished(t)
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=t.pk)
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
            _late_entry(locked, entrant, joined_round=1, missed="Z")
            result.late_from = entrant.joined_round
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
