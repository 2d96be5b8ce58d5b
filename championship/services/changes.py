"""Public pages are made new in one place: here.

Every write that changes what a tournament's public pages show records it with
``tournament_changed``: the tournament gets a new version inside the same transaction (so the
new data and the new version become visible together, at commit), once per transaction however
many rows it writes, and after the commit a worker recomputes the public tables for it. (The
queue of ``transaction.on_commit`` tells what this transaction did already: Django keeps it per
transaction and savepoint, and drops what a rollback undid.)

No caller has to remember it: ``connect()`` (from the app's ``ready``) records every save and
delete of the models the pages show, the admin's included; only the bulk writes of the services
(``bulk_create``, ``update``), which send no signal, call it themselves."""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.db.models import F, Model
from django.db.models.signals import post_delete, post_save

log = logging.getLogger(__name__)


class _Renewal:
    """Queued once per transaction (``transaction.on_commit``): after the commit, a worker
    recomputes the public tables of each tournament it holds. Its presence in the queue says
    which tournaments already have their new version in this transaction; a rolled-back
    transaction (or savepoint) drops it from the queue together with the versions it made."""

    def __init__(self) -> None:
        self.tournaments: set[int] = set()

    def __call__(self) -> None:
        for tournament_id in sorted(self.tournaments):
            _warm(tournament_id)
        _ratings()


def _ratings() -> None:
    """The club's rating list follows every change of the tournaments' data (coalesced; the
    recomputation stops at once when the rated games are the same)."""
    from .ratings import queue_now

    queue_now()


def _queued() -> _Renewal | None:
    """This transaction's renewal, if one is queued."""
    queue = getattr(transaction.get_connection(), "run_on_commit", [])
    return next((entry[1] for entry in queue if isinstance(entry[1], _Renewal)), None)


def tournament_changed(tournament_id: int | None) -> None:
    """What the public pages of this tournament show has changed."""
    if tournament_id is None:
        return
    from ..models import Tournament

    renewal = _queued()
    if renewal is not None and tournament_id in renewal.tournaments:
        return  # this transaction made its new version already
    Tournament.objects.filter(pk=tournament_id).update(version=F("version") + 1)
    if renewal is None:
        renewal = _Renewal()
        renewal.tournaments.add(tournament_id)
        transaction.on_commit(renewal)
    else:
        renewal.tournaments.add(tournament_id)


def _warm(tournament_id: int) -> None:
    """Have a worker recompute the public tables for the new version (the writer does not wait
    for it)."""
    from .. import tables
    from ..tasks import warm_public_pages_task

    tables.version_changed(tournament_id)
    countdown = tables.queued(tournament_id)
    if countdown is None:
        return  # a recomputation is queued already and will read this version
    try:
        warm_public_pages_task.apply_async((tournament_id,), countdown=countdown)
    except Exception:  # the pages compute what they need themselves
        tables.not_queued(tournament_id)
        log.warning("could not queue the public tables' recomputation", exc_info=True)


def _tournament_of(instance: Model) -> int | None:
    """The tournament whose public pages show ``instance``."""
    from ..models import (
        Board,
        Entrant,
        ForbiddenPair,
        GameResult,
        RequestedBye,
        Round,
        RoundStart,
        Tournament,
    )

    if isinstance(instance, Tournament):
        return instance.pk
    if isinstance(instance, Entrant | ForbiddenPair | Round | RoundStart):
        return instance.tournament_id
    if isinstance(instance, RequestedBye):
        return (
            Entrant.objects.filter(pk=instance.entrant_id)
            .values_list("tournament_id", flat=True)
            .first()
        )
    if isinstance(instance, Board):
        return (
            Round.objects.filter(pk=instance.round_id)
            .values_list("tournament_id", flat=True)
            .first()
        )
    if isinstance(instance, GameResult):
        return (
            Board.objects.filter(pk=instance.board_id)
            .values_list("round__tournament_id", flat=True)
            .first()
        )
    return None


def _saved(sender: Any, instance: Model, **kwargs: Any) -> None:
    if kwargs.get("raw"):
        return  # fixtures and restores: the restore records its tournament itself
    update_fields = kwargs.get("update_fields")
    if update_fields is not None and set(update_fields) <= {"version"}:
        return
    tournament_changed(_tournament_of(instance))


def _deleted(sender: Any, instance: Model, **kwargs: Any) -> None:
    from ..models import Tournament

    if isinstance(instance, Tournament):
        return  # gone with its pages
    try:
        tournament_changed(_tournament_of(instance))
    except Exception:  # a cascade deleting the tournament too: nothing left to renew
        log.debug("no tournament to renew after deleting %r", instance, exc_info=True)


def connect() -> None:
    from ..models import (
        Board,
        Entrant,
        ForbiddenPair,
        GameResult,
        RequestedBye,
        Round,
        RoundStart,
        Tournament,
    )

    for model in (
        Tournament,
        Entrant,
        RequestedBye,
        ForbiddenPair,
        Round,
        RoundStart,
        Board,
        GameResult,
    ):
        post_save.connect(_saved, sender=model, dispatch_uid=f"changes-save-{model.__name__}")
        post_delete.connect(_deleted, sender=model, dispatch_uid=f"changes-del-{model.__name__}")
