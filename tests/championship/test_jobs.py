"""The pairing job: a request, claimed once by its task, a heartbeat, failure when its worker
is gone or it never started, and the organiser's page when the queue is down."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client

from championship import jobs, tasks
from championship.apps import ORGANISERS_GROUP
from championship.models import Entrant, Tournament

T = 7  # a tournament id: the job functions need no row


def test_a_request_is_claimed_once_by_its_own_task() -> None:
    job = jobs.request(T, now=1000)
    assert jobs.status(T, now=1001)["state"] == "queued"
    assert not jobs.claim(T, "someone-else", now=1001)
    assert jobs.claim(T, job, now=1002)
    assert jobs.status(T, now=1003)["state"] == "running"
    assert not jobs.claim(T, job, now=1004)  # delivered twice: the second does nothing


def test_a_newer_request_makes_the_older_task_stale() -> None:
    old = jobs.request(T, now=1000)
    new = jobs.request(T, now=1001)
    assert not jobs.claim(T, old, now=1002)
    assert jobs.claim(T, new, now=1002)


def test_a_task_that_turns_up_late_never_pairs(settings) -> None:  # type: ignore[no-untyped-def]
    settings.PAIRING_QUEUE_TIMEOUT = 300
    job = jobs.request(T, now=1000)
    assert not jobs.claim(T, job, now=1000 + 3600)  # redelivered an hour later
    assert jobs.status(T, now=1000 + 3600) | {"state": "failed", "reason": "not_started"} == (
        jobs.status(T, now=1000 + 3600)
    )


def test_a_running_job_without_heartbeat_is_shown_failed(settings) -> None:  # type: ignore[no-untyped-def]
    settings.PAIRING_HEARTBEAT_STALE = 60
    job = jobs.request(T, now=1000)
    assert jobs.claim(T, job, now=1000)
    assert jobs.status(T, now=1059)["state"] == "running"
    failed = jobs.status(T, now=1061)
    assert failed["state"] == "failed" and failed["reason"] == "worker_lost"
    assert not jobs.busy(T)  # the organiser may start again


def test_progress_keeps_the_heartbeat_fresh() -> None:
    import time

    job = jobs.request(T)
    assert jobs.claim(T, job)
    jobs.progress(T, job)("pairing", 30)
    status = jobs.status(T, now=time.time() + 30)
    assert status["state"] == "running" and status["step"] == "pairing"


def test_the_heartbeat_thread_renews_the_job(settings) -> None:  # type: ignore[no-untyped-def]
    import threading
    import time

    settings.PAIRING_HEARTBEAT_STALE = 0.2  # a beat every 0.05 s
    job = jobs.request(T)
    assert jobs.claim(T, job, now=0)  # a heartbeat from long ago
    from django.core.cache import cache

    def beat() -> float:
        return float(cache.get(jobs._key(T))["beat_at"])  # as stored, without judging it

    begun = time.time()
    with jobs.heartbeat(T, job):
        while beat() == 0:  # (pytest-timeout ends a thread that never beats)
            time.sleep(0.02)
    assert beat() >= begun  # renewed by the thread, not the claim's beat from long ago
    assert jobs.status(T, now=beat())["state"] == "running"
    assert not any(t.name.startswith("pairing-heartbeat") for t in threading.enumerate())


@pytest.fixture
def organiser() -> Client:
    user = User.objects.create_user("org", password="pw-org-12345")
    user.groups.add(Group.objects.get(name=ORGANISERS_GROUP))
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def field(tournament: Tournament) -> Tournament:
    Entrant.objects.bulk_create(
        Entrant(tournament=tournament, name=f"P{i}", rating=1500 + i, checked_in=True)
        for i in range(6)
    )
    return tournament


@pytest.mark.django_db
def test_pairing_with_the_queue_down_says_so_and_changes_nothing(organiser, field, monkeypatch):  # type: ignore[no-untyped-def]
    from kombu.exceptions import OperationalError

    def down(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(tasks.pair_round_task, "delay", down)
    response = organiser.post(f"/t/{field.slug}/manage/pair/", follow=True)
    assert response.status_code == 200
    assert "cannot start now" in response.content.decode()
    assert field.round_set.count() == 0 and not jobs.busy(field.pk)


@pytest.mark.django_db
def test_pairing_runs_reports_done_and_refuses_a_second_start_meanwhile(
    organiser, field, monkeypatch
):  # type: ignore[no-untyped-def]
    queued: list[tuple[int, str]] = []
    monkeypatch.setattr(tasks.pair_round_task, "delay", lambda *a: queued.append(a))
    organiser.post(f"/t/{field.slug}/manage/pair/")
    response = organiser.post(f"/t/{field.slug}/manage/pair/", follow=True)
    assert "being paired already" in response.content.decode() and len(queued) == 1
    status = organiser.get(f"/t/{field.slug}/manage/pair/status.json").json()
    assert status["state"] == "queued" and status["text"] == "Waiting for a worker"
    assert tasks.pair_round_task(*queued[0])["ok"]  # the worker runs it
    assert field.round_set.count() == 1
    status = organiser.get(
        f"/t/{field.slug}/manage/pair/status.json", HTTP_ACCEPT_LANGUAGE="ru"
    ).json()
    assert status["state"] == "done" and status["round"] == 1
    assert tasks.pair_round_task(*queued[0]) == {"ok": False, "stale": True}  # redelivered
    assert field.round_set.count() == 1


@pytest.mark.django_db
def test_a_failed_job_is_shown_on_the_dashboard_in_russian(organiser, field, settings):  # type: ignore[no-untyped-def]
    settings.PAIRING_HEARTBEAT_STALE = 60
    job = jobs.request(field.pk, now=0)
    jobs.claim(field.pk, job, now=0)
    organiser.cookies["django_language"] = "ru"
    html = organiser.get(f"/t/{field.slug}/manage/").content.decode()
    assert "Ничего не сохранено" in html


@pytest.mark.django_db
def test_a_refused_pairing_is_not_shown_once_the_tournament_has_changed(organiser, field):  # type: ignore[no-untyped-def]
    """A second press of "Pair the next round" (a double click, a second tab) is refused:
    round 1 is still a draft. The dashboard kept saying so in red after the draft was
    published, until the next pairing. A refusal is shown while the tournament is as it
    was when refused."""
    from championship import services

    dashboard = f"/t/{field.slug}/manage/"
    organiser.post(f"/t/{field.slug}/manage/pair/")  # round 1, a draft (tasks run inline)
    organiser.post(f"/t/{field.slug}/manage/pair/")  # again: refused
    refused = "Round 1 is still a draft"
    assert refused in organiser.get(dashboard).content.decode()
    status = organiser.get(f"/t/{field.slug}/manage/pair/status.json").json()
    assert status["state"] == "error"
    pair_button = f'action="/t/{field.slug}/manage/pair/"'
    assert pair_button not in organiser.get(dashboard).content.decode()  # the draft comes first
    services.round_publish(round=field.round_set.get(number=1))
    assert refused not in organiser.get(dashboard).content.decode()
    assert pair_button in organiser.get(dashboard).content.decode()
    assert organiser.get(f"/t/{field.slug}/manage/pair/status.json").json()["state"] == "idle"
