"""Celery tasks of the championship app (thin: load by id, call a service)."""

from __future__ import annotations

import logging
from typing import Any

from celery import shared_task
from django.conf import settings
from django.utils import translation

from . import jobs, services, tables
from .models import Tournament

log = logging.getLogger(__name__)


@shared_task(acks_late=False)
def pair_round_task(
    tournament_id: int, job_id: str, language: str | None = None, unconfirmed_ok: bool = False
) -> dict[str, Any]:
    """Pair the next round for the organiser's request ``job_id`` (see ``jobs``), reporting
    progress for the organiser's page. Acknowledged when taken: if the worker dies, the task is
    not delivered again (the page shows the job failed and the organiser starts it again).
    ``unconfirmed_ok``: the organiser chose to pair although some results are unconfirmed."""
    if not jobs.claim(tournament_id, job_id):
        log.warning("pairing request %s of tournament %s is stale: ignored", job_id, tournament_id)
        return {"ok": False, "stale": True}
    t = Tournament.objects.get(pk=tournament_id)
    try:
        # Messages in the language of the organiser who asked (the worker has none of its own).
        with translation.override(language), jobs.heartbeat(tournament_id, job_id):
            rnd = services.round_pair_next(
                tournament=t,
                progress=jobs.progress(tournament_id, job_id),
                unconfirmed_ok=unconfirmed_ok,
            )
    except services.ChampionshipError as exc:
        # The code and params let the page say it in its reader's language.
        # Nothing changed; the tournament's version says when the refusal stops being news
        # (a draft published, a result entered: the page no longer shows it).
        jobs.finish(
            tournament_id,
            job_id,
            state="error",
            text=str(exc),
            code=exc.code,
            params=exc.params,
            version=t.version,
        )
        return {"ok": False, "error": str(exc)}
    except Exception:
        jobs.finish(tournament_id, job_id, state="failed", reason="crashed")
        raise
    jobs.finish(tournament_id, job_id, state="done", step="done", round=rnd.number)
    return {"ok": True, "round": rnd.number}


@shared_task
def warm_public_pages_task(tournament_id: int) -> None:
    """Recompute the standings, crosstable and leaders after a result (see tables.warm), and
    render the main public pages on them (public_views.prerender)."""
    from .public_views import prerender

    # Inline (no worker: the development default) the pages are rendered by the requests.
    tables.warm(tournament_id, then=None if settings.CELERY_TASK_ALWAYS_EAGER else prerender)


@shared_task
def ratings_recompute_task() -> None:
    """Recompute the club's rating list (services.ratings), one at a time, with progress."""
    services.ratings_run_queued()
