"""The pairing job an organiser starts: its request, its progress and its heartbeat.

A pairing runs in a worker (a big field takes a while). What can go wrong is that the worker
never takes it (the queue is down: refused at once), or dies in the middle (the heartbeat
stops: shown as failed within ``heartbeat_stale()`` seconds, a minute, and the organiser can start again),
or that a task lost on the way turns up much later. The last is answered by the request: each
start is a request with an id and a time, the task pairs only for the tournament's current
request and only soon after it was made, so a stale task never pairs a round by surprise.

The state lives in the cache (Redis in production): it is progress, not data — losing it only
means the organiser presses the button again."""

from __future__ import annotations

import contextlib
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from django.conf import settings
from django.core.cache import cache

#: Kept this long after the last change (an organiser looking at the page next morning).
STATUS_SECONDS = 24 * 3600


def heartbeat_stale() -> float:
    """A job whose heartbeat is older than this many seconds has lost its worker."""
    return float(settings.PAIRING_HEARTBEAT_STALE)


def heartbeat_every() -> float:
    """A running task renews its heartbeat this often: four beats in the stale time."""
    return max(heartbeat_stale() / 4, 0.05)


def queue_timeout() -> int:
    """A request no worker started within this many seconds is given up: a task that turns up
    later (a broker redelivering it after a worker's death) does nothing."""
    return int(settings.PAIRING_QUEUE_TIMEOUT)


def _key(tournament_id: int) -> str:
    return f"pairing-job:{tournament_id}"


def _write(tournament_id: int, status: dict[str, Any]) -> None:
    with contextlib.suppress(Exception):  # progress is a nicety; the pairing goes on
        cache.set(_key(tournament_id), status, STATUS_SECONDS)


def status(tournament_id: int, now: float | None = None) -> dict[str, Any]:
    """The job as the organiser's page shows it; a job whose worker is gone is ``failed``."""
    job: dict[str, Any] = cache.get(_key(tournament_id)) or {"state": "idle"}
    now = time.time() if now is None else now
    if job["state"] == "running" and now - job.get("beat_at", 0) > heartbeat_stale():
        job = {**job, "state": "failed", "reason": "worker_lost"}
        _write(tournament_id, job)
    elif job["state"] == "queued" and now - job.get("requested_at", 0) > queue_timeout():
        job = {**job, "state": "failed", "reason": "not_started"}
        _write(tournament_id, job)
    return job


def busy(tournament_id: int) -> bool:
    return status(tournament_id)["state"] in ("queued", "running")


def request(tournament_id: int, now: float | None = None) -> str:
    """A new request (replacing any earlier one): its id goes with the task."""
    now = time.time() if now is None else now
    job_id = uuid.uuid4().hex
    _write(
        tournament_id,
        {"id": job_id, "state": "queued", "step": "queued", "percent": 0, "requested_at": now},
    )
    return job_id


def forget(tournament_id: int, job_id: str) -> None:
    """Take back a request whose task could not be queued."""
    job = cache.get(_key(tournament_id))
    if job and job.get("id") == job_id:
        with contextlib.suppress(Exception):
            cache.delete(_key(tournament_id))


def claim(tournament_id: int, job_id: str, now: float | None = None) -> bool:
    """May the task that carries ``job_id`` pair now? Only for the current request, only once
    and only soon after it was made."""
    now = time.time() if now is None else now
    job = cache.get(_key(tournament_id))
    if job is None or job.get("id") != job_id or job.get("state") != "queued":
        return False
    if now - job.get("requested_at", 0) > queue_timeout():
        _write(tournament_id, {**job, "state": "failed", "reason": "not_started"})
        return False
    _write(tournament_id, {**job, "state": "running", "beat_at": now})
    return True


def progress(tournament_id: int, job_id: str) -> Callable[[str, int], None]:
    """A callback for the service: the step reached and the percentage."""

    def report(step: str, percent: int) -> None:
        job = cache.get(_key(tournament_id)) or {}
        if job.get("id") not in (None, job_id):
            return  # a newer request took over the status
        _write(
            tournament_id,
            {
                **job,
                "id": job_id,
                "state": "running",
                "step": step,
                "percent": percent,
                "beat_at": time.time(),
            },
        )

    return report


def finish(tournament_id: int, job_id: str, **outcome: Any) -> None:
    job = cache.get(_key(tournament_id)) or {}
    if job.get("id") not in (None, job_id):
        return
    _write(tournament_id, {**job, "id": job_id, "percent": 100, **outcome})


@contextmanager
def heartbeat(tournament_id: int, job_id: str) -> Iterator[None]:
    """While inside, a thread renews the job's heartbeat: a pairing of thousands of players
    reports no step for minutes, but its worker is alive. A killed worker takes the thread
    with it, and the heartbeat goes stale."""
    stop = threading.Event()
    every = heartbeat_every()

    def beat() -> None:
        while not stop.wait(every):
            job = cache.get(_key(tournament_id))
            if job and job.get("id") == job_id and job.get("state") == "running":
                _write(tournament_id, {**job, "beat_at": time.time()})

    thread = threading.Thread(target=beat, name=f"pairing-heartbeat-{tournament_id}", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(every * 2)
