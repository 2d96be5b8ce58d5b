"""Places freed or added by any save or delete, wherever it comes from (the admin today, an
organisers' settings form tomorrow), are filled from the waiting list once committed
(``services.waiting_list``). The services that free places fill them themselves, in their
own transaction; for them this is a second, idempotent call that finds nothing to do.

What each model's row held when it was loaded is kept on the instance (``post_init``, reading
only fields already loaded, so no query), and compared with what is saved:

- a tournament's ``entry_cap`` raised or removed, a session's ``seats`` raised;
- a registration's status or tournament changed, a sign-up's status or session changed;
- an entered registration or a booked sign-up deleted.

And a published round's pairings, or its start, changed (``championship.signals``): the
players are e-mailed (``services.pairing_notices``).

Any save or delete of a registration also makes its tournament's public pages new (the list
of players before the start includes registrations: ``championship.selectors.
tournament_field``).

Connected in ``RegistrationsConfig.ready``."""

from __future__ import annotations

from functools import partial
from typing import Any

from django.db import transaction
from django.db.models.signals import post_delete, post_init, post_save
from django.utils import timezone

from championship.models import Entrant, Tournament
from championship.signals import round_pairings_changed

from .models import MasterClassSession, MasterClassSignup, Registration
from .services.pairing_notices import on_round_pairings_changed
from .services.waiting_list import session_seats_fill, tournament_places_fill

#: Fields watched per model (attribute names).
WATCHED: dict[type, tuple[str, ...]] = {
    Tournament: ("entry_cap",),
    MasterClassSession: ("seats",),
    Registration: ("status", "tournament_id"),
    MasterClassSignup: ("status", "session_id"),
}
_LOADED = "_registrations_loaded"
_UNKNOWN = object()


def _remember(sender: type, instance: Any, **kwargs: Any) -> None:
    setattr(instance, _LOADED, {f: instance.__dict__.get(f, _UNKNOWN) for f in WATCHED[sender]})


def _loaded(instance: Any, field: str) -> Any:
    return getattr(instance, _LOADED, {}).get(field, _UNKNOWN)


def _fill_tournament(tournament_id: Any) -> None:
    if tournament_id not in (None, _UNKNOWN):
        transaction.on_commit(partial(tournament_places_fill, tournament_id=tournament_id))


def _fill_session(session_id: Any) -> None:
    if session_id not in (None, _UNKNOWN):
        transaction.on_commit(partial(session_seats_fill, session_id=session_id))


def _more(before: Any, after: int | None) -> bool:
    """A capacity raised (or removed: None is no cap), or not known before."""
    if before is _UNKNOWN:
        return True
    if before is None:
        return False
    return after is None or after > before


def tournament_saved(sender: type, instance: Tournament, created: bool, **kwargs: Any) -> None:
    if not created and _more(_loaded(instance, "entry_cap"), instance.entry_cap):
        _fill_tournament(instance.pk)
    _remember(sender, instance)


def session_saved(sender: type, instance: MasterClassSession, created: bool, **kwargs: Any) -> None:
    if not created and _more(_loaded(instance, "seats"), instance.seats):
        _fill_session(instance.pk)
    _remember(sender, instance)


def _field_changed(*tournament_ids: Any) -> None:
    """A registration's change can change who the public pages list before the tournament
    starts (``championship.selectors.tournament_field``): their kept pages are made new."""
    from championship.services.changes import tournament_changed

    for tournament_id in {t for t in tournament_ids if t not in (None, _UNKNOWN)}:
        tournament_changed(tournament_id)


def registration_saved(sender: type, instance: Registration, created: bool, **kwargs: Any) -> None:
    if not kwargs.get("raw"):
        _field_changed(instance.tournament_id, _loaded(instance, "tournament_id"))
    if not created:
        before = (_loaded(instance, "status"), _loaded(instance, "tournament_id"))
        if before != (instance.status, instance.tournament_id):
            _fill_tournament(before[1])
            if before[1] != instance.tournament_id:
                _fill_tournament(instance.tournament_id)
    _remember(sender, instance)


def registration_deleted(sender: type, instance: Registration, **kwargs: Any) -> None:
    _field_changed(instance.tournament_id)
    if instance.status == Registration.Status.ENTERED:
        _fill_tournament(instance.tournament_id)


def signup_saved(sender: type, instance: MasterClassSignup, created: bool, **kwargs: Any) -> None:
    if not created:
        before = (_loaded(instance, "status"), _loaded(instance, "session_id"))
        if before != (instance.status, instance.session_id):
            _fill_session(before[1])
            if before[1] != instance.session_id:
                _fill_session(instance.session_id)
    _remember(sender, instance)


def signup_deleted(sender: type, instance: MasterClassSignup, **kwargs: Any) -> None:
    if instance.status == MasterClassSignup.Status.BOOKED:
        _fill_session(instance.session_id)


def entrant_saved(sender: type, instance: Entrant, **kwargs: Any) -> None:
    """Check-in is one fact, the entrant's (``Entrant.checked_in``): the registration's time
    of check-in follows it, whichever way the entrant was saved (the services, the admin, an
    import). The registrations app listens: the championship knows nothing of it."""
    if instance.registration_id is None or kwargs.get("raw"):
        return
    now = timezone.now()
    at = (instance.checked_in_at or now) if instance.checked_in else None
    Registration.objects.filter(
        pk=instance.registration_id, checked_in_at__isnull=instance.checked_in
    ).update(checked_in_at=at, updated_at=now)


def connect() -> None:
    for model in WATCHED:
        post_init.connect(_remember, sender=model, dispatch_uid=f"registrations-loaded-{model}")
    post_save.connect(tournament_saved, sender=Tournament, dispatch_uid="registrations-t")
    post_save.connect(session_saved, sender=MasterClassSession, dispatch_uid="registrations-s")
    post_save.connect(registration_saved, sender=Registration, dispatch_uid="registrations-r")
    post_save.connect(signup_saved, sender=MasterClassSignup, dispatch_uid="registrations-u")
    post_save.connect(entrant_saved, sender=Entrant, dispatch_uid="registrations-entrant")
    post_delete.connect(registration_deleted, sender=Registration, dispatch_uid="registrations-rd")
    post_delete.connect(signup_deleted, sender=MasterClassSignup, dispatch_uid="registrations-ud")
    # A published round's pairings (or start) told to its players, in the same transaction.
    round_pairings_changed.connect(
        on_round_pairings_changed, dispatch_uid="registrations-pairing-notices"
    )
