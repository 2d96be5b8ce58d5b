"""Celery tasks of the games app (thin: the work is in ``games.analysis``)."""

from __future__ import annotations

import logging

from celery import shared_task

from . import analysis

log = logging.getLogger(__name__)


@shared_task
def analyse_game_task(analysis_id: int, token: str) -> str:
    """Analyse a finished game for the request ``token`` of its ``GameAnalysis`` row,
    reporting progress (and a heartbeat) after every ply. Acknowledged late: if the worker
    dies, the broker delivers the task again and it takes over once the heartbeat is stale; a
    task of a replaced request or of a game changed meanwhile does nothing."""
    outcome = analysis.run(analysis_id, token)
    if outcome != "done":
        log.info("analysis %s (%s): %s", analysis_id, token, outcome)
    return outcome
