"""Celery tasks of the championship app (thin: load by id, call a service)."""

from __future__ import annotations

import contextlib
from typing import Any

from celery import shared_task
from django.core.cache import cache

from . import selectors, services
from .models import Tournament

STATUS_SECONDS = 900


def status_key(tournament_id: int) -> str:
    return f"pairing-status:{tournament_id}"


def set_status(tournament_id: int, **status: Any) -> None:
    # Progress is a nicety: pairing goes on without the cache.
    with contextlib.suppress(Exception):
        cache.set(status_key(tournament_id), status, STATUS_SECONDS)


@shared_task
def pair_round_task(tournament_id: int) -> dict[str, Any]:
    """Pair the next round, reporting progress in the cache for the organiser's page."""
    t = Tournament.objects.get(pk=tournament_id)

    def progress(text: str, percent: int) -> None:
        set_status(tournament_id, state="running", text=str(text), percent=percent)

    try:
        rnd = services.round_pair_next(tournament=t, progress=progress)
    except services.ChampionshipError as exc:
        set_status(tournament_id, state="error", text=str(exc), percent=100)
        return {"ok": False, "error": str(exc)}
    set_status(tournament_id, state="done", text="", percent=100, round=rnd.number)
    return {"ok": True, "round": rnd.number}


@shared_task
def warm_public_pages_task(tournament_id: int) -> None:
    """Recompute the standings, crosstable and leaders after a result (see selectors.warm)."""
    selectors.warm(tournament_id)
