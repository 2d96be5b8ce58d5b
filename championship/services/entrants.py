"""Writes of a tournament's field: entrants added, imported from registrations, withdrawn."""

from __future__ import annotations

from django.db import transaction

from registrations.models import Registration

from ..models import Board, Entrant, Tournament
from .changes import tournament_changed


def entrants_import_registrations(*, tournament: Tournament) -> int:
    """Confirmed, entered registrations become entrants (once each)."""
    regs = Registration.objects.filter(
        tournament=tournament,
        status=Registration.Status.ENTERED,
        email_confirmed_at__isnull=False,
        entrant__isnull=True,
    )
    made = [Entrant(tournament=tournament, registration=r, name=r.name, club=r.club) for r in regs]
    Entrant.objects.bulk_create(made)
    if made:
        tournament_changed(tournament.pk)  # the public list of players changes
    return len(made)


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
    """Add an entrant. A late entry (rounds already paired) gets the next starting number and,
    for the rounds it missed, zero points (``missed_rounds="Z"``) or requested half-point byes
    (``"H"``), recorded as bye boards of those rounds."""
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
        rounds = list(locked.round_set.order_by("number"))
        if rounds:
            last = (
                locked.entrants.exclude(starting_number=None).order_by("-starting_number").first()
            )
            entrant.starting_number = ((last.starting_number or 0) if last else 0) + 1
            # Not in any round paired so far (a draft is re-paired to include them).
            entrant.joined_round = max(joined_round, rounds[-1].number + 1)
            entrant.save(update_fields=["starting_number", "joined_round"])
            if missed_rounds == "H":
                for rnd in rounds:
                    if rnd.number < entrant.joined_round:
                        number = (
                            rnd.boards.order_by("-number").values_list("number", flat=True).first()
                            or 0
                        ) + 1
                        Board.objects.create(round=rnd, number=number, white=entrant, bye="H")
    return entrant


def entrant_withdraw(*, entrant: Entrant) -> Entrant:
    played = (
        entrant.tournament.round_set.order_by("-number").values_list("number", flat=True).first()
        or 0
    )
    entrant.withdrawn_after = played
    entrant.save(update_fields=["withdrawn_after"])
    return entrant
