"""The one place where free places are filled from a waiting list, in its order, with an
e-mail to each person entered.

Every path that frees or adds a place ends here:

- a withdrawal, whoever makes it and on whichever page — the player's link, the registration's
  page, the entrants page, the admin, anonymising (``championship.services.
  participant_withdraw``, the one door of withdrawals) — and a cancellation of a master-class
  seat (``masterclass.signup_cancel``), in the same transaction;
- anonymising a person entered in a tournament or booked for a session still to come
  (``privacy``), in the same transaction;
- any other save or delete: the admin withdrawing, moving or deleting a registration or a
  sign-up, raising or removing a tournament's cap, adding seats to a session — from the admin
  today or any form tomorrow — through the signal receivers of ``registrations.signals``, once
  the change is committed.

A new registration or sign-up fills first and is entered only into a place still free after
that, so nobody is entered ahead of the people waiting, and a free place is never shown while
someone waits. Filling is idempotent: a second call finds nothing to do.

Places are filled only before the event: once a tournament has started (its status is no
longer *registration*) or a session has begun, nobody is entered any more.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from championship.models import Entrant, Tournament
from championship.services.changes import tournament_changed

from ..models import MasterClassSession, MasterClassSignup, Registration
from .outbox import outbox_enqueue


def tournament_places_free(*, tournament: Tournament) -> int | None:
    """Places not taken (None: no cap)."""
    if tournament.entry_cap is None:
        return None
    entered = Registration.objects.filter(
        tournament=tournament, status=Registration.Status.ENTERED
    ).count()
    return max(0, tournament.entry_cap - entered)


def tournament_places_fill(*, tournament_id: int) -> list[Registration]:
    """Enter people from the tournament's waiting list, first come first served, while places
    are free; each gets an e-mail. Returns those entered."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if tournament is None or tournament.status != Tournament.Status.REGISTRATION:
            return []
        free = tournament_places_free(tournament=tournament)
        waiting = Registration.objects.filter(
            tournament=tournament, status=Registration.Status.WAITLISTED
        ).order_by("created_at", "pk")
        if free is not None:
            waiting = waiting[:free]
        entered = list(waiting)
        # One UPDATE, not save(): a save would tell ``registrations.signals`` that a status
        # changed, and it would fill again after the commit for nothing.
        Registration.objects.filter(pk__in=[r.pk for r in entered]).update(
            status=Registration.Status.ENTERED, updated_at=timezone.now()
        )
        for registration in entered:
            registration.status = Registration.Status.ENTERED
            outbox_enqueue(kind="registration_promoted", object_id=registration.pk)
        # Someone who withdrew and entered again at the end of the list kept their entrant,
        # withdrawn before round 1: given a place, it is in the field again (one fact).
        for entrant in Entrant.objects.filter(
            registration__in=[r.pk for r in entered], withdrawn_after=0
        ):
            entrant.withdrawn_after = None
            entrant.save(update_fields=["withdrawn_after"])
        if entered:  # the public list of players changes (championship.selectors)
            tournament_changed(tournament.pk)
    return entered


def tournament_status_for_newcomer(*, tournament: Tournament) -> str:
    """Entered or waiting, for someone joining now. Call with the tournament row locked,
    after :func:`tournament_places_fill`: a place still free is nobody else's."""
    free = tournament_places_free(tournament=tournament)
    waiting = Registration.objects.filter(
        tournament=tournament, status=Registration.Status.WAITLISTED
    ).exists()
    if (free is None or free > 0) and not waiting:
        return Registration.Status.ENTERED
    return Registration.Status.WAITLISTED


def session_seats_free(*, session: MasterClassSession) -> int:
    booked = MasterClassSignup.objects.filter(
        session=session, status=MasterClassSignup.Status.BOOKED
    ).count()
    return max(0, session.seats - booked)


def session_seats_fill(*, session_id: int, now: datetime | None = None) -> list[MasterClassSignup]:
    """Book seats for the session's waiting list in order while seats are free; each person
    gets an e-mail. Returns those booked."""
    now = now or timezone.now()
    with transaction.atomic():
        session = MasterClassSession.objects.select_for_update().filter(pk=session_id).first()
        if session is None or session.starts_at <= now:
            return []
        free = session_seats_free(session=session)
        waiting = MasterClassSignup.objects.filter(
            session=session, status=MasterClassSignup.Status.WAITLISTED
        ).order_by("created_at", "pk")[:free]
        booked = list(waiting)
        MasterClassSignup.objects.filter(pk__in=[s.pk for s in booked]).update(
            status=MasterClassSignup.Status.BOOKED
        )
        for signup in booked:
            signup.status = MasterClassSignup.Status.BOOKED
            outbox_enqueue(kind="signup_promoted", object_id=signup.pk)
    return booked


def session_status_for_newcomer(*, session: MasterClassSession) -> str:
    """Booked or waiting, for someone signing up now (session row locked, after filling)."""
    waiting = MasterClassSignup.objects.filter(
        session=session, status=MasterClassSignup.Status.WAITLISTED
    ).exists()
    if session_seats_free(session=session) > 0 and not waiting:
        return MasterClassSignup.Status.BOOKED
    return MasterClassSignup.Status.WAITLISTED
