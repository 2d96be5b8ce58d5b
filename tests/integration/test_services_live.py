"""Parallel requests on PostgreSQL, a real Celery worker through Redis."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connections
from django.test import Client
from django.urls import reverse

from championship.models import Tournament
from games.demo import create_running_swiss
from registrations.models import MasterClassSignup, Registration
from tests.conftest import make_session, registration_form

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def in_parallel(n: int, work: Callable[[int], Any]) -> list[Any]:
    """Run work(i) in n threads released at the same moment; each has its own connection."""
    barrier = threading.Barrier(n)
    results: list[Any] = [None] * n
    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            barrier.wait()
            results[i] = work(i)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors
    return results


def form(email: str, **extra: str) -> dict[str, str]:
    return registration_form(email=email, **{"name": "Игрок", "language": "en", **extra})


@pytest.fixture
def capped() -> Tournament:
    return Tournament.objects.create(
        name="Cap", slug="cap", starts_on="2027-03-14", ends_on="2027-03-14", entry_cap=5
    )


def test_parallel_registrations_never_exceed_the_cap(capped: Tournament) -> None:
    url = reverse("registrations:register", args=[capped.slug])
    codes = in_parallel(16, lambda i: Client().post(url, form(f"p{i}@example.org")).status_code)
    assert codes == [302] * 16
    assert Registration.objects.filter(tournament=capped, status="entered").count() == 5
    assert Registration.objects.filter(tournament=capped, status="waitlisted").count() == 11


def test_parallel_duplicates_make_one_row(capped: Tournament) -> None:
    url = reverse("registrations:register", args=[capped.slug])
    emails = ["same@example.org", "SAME@example.org", "Same@Example.org", "same@EXAMPLE.org"] * 2
    codes = in_parallel(8, lambda i: Client().post(url, form(emails[i])).status_code)
    assert codes == [302] * 8
    assert Registration.objects.filter(tournament=capped).count() == 1


def test_parallel_signups_for_the_last_seats() -> None:
    session = make_session(seats=3)
    url = reverse("registrations:signup", args=[session.pk])
    data = {"name": "N", "phone": "", "language": "en", "consent": "on", "experience": "newcomer"}
    in_parallel(
        10, lambda i: Client().post(url, {**data, "email": f"s{i}@example.org"}).status_code
    )
    assert MasterClassSignup.objects.filter(session=session, status="booked").count() == 3
    assert MasterClassSignup.objects.filter(session=session, status="waitlisted").count() == 7


def test_a_real_worker_sends_the_confirmation_email(capped: Tournament) -> None:
    mail_dir = Path(settings.EMAIL_FILE_PATH)
    before = set(mail_dir.glob("*")) if mail_dir.exists() else set()
    url = reverse("registrations:register", args=[capped.slug])
    assert Client().post(url, form("worker@example.org", language="ru")).status_code == 302
    deadline = time.monotonic() + 60
    found = None
    while time.monotonic() < deadline and found is None:
        for path in set(mail_dir.glob("*")) - before if mail_dir.exists() else []:
            text = path.read_text(encoding="utf-8", errors="replace")
            if "worker@example.org" in text:
                found = text
        time.sleep(0.2)
    assert found is not None, "the Celery worker did not send the e-mail within 60 s"
    assert "/registration/confirm/" in found


def test_redis_cache_round_trip() -> None:
    assert "RedisCache" in settings.CACHES["default"]["BACKEND"]
    cache.set("integration-probe", {"ok": 1}, 30)
    assert cache.get("integration-probe") == {"ok": 1}


def test_redis_down_pages_serve_forms_save_then_the_email_goes_out(capped: Tournament) -> None:
    """A separate process whose Redis (cache and broker) is a closed port: pages still serve,
    the registration and an organiser's result are saved, the e-mail stays pending. Then, with Redis back (this
    process and the real worker), the periodic sweeper sends the e-mail, once."""
    import os
    import subprocess
    import sys
    from datetime import timedelta

    from django.contrib.auth.models import Group, User
    from django.utils import timezone

    from championship.apps import ORGANISERS_GROUP
    from championship.models import Board, GameResult
    from registrations.models import OutboundEmail
    from registrations.tasks import send_pending_emails

    live = create_running_swiss(slug="live", players=6, rounds=1)
    board = Board.objects.filter(round__tournament=live).exclude(black=None).first()
    board.games.all().delete()  # typed in, no sheet
    game = GameResult.objects.get(board=board)
    flipped = "0-1" if game.result != "0-1" else "1-0"
    User.objects.create_user("org", password="pw-organiser-123").groups.add(
        Group.objects.get(name=ORGANISERS_GROUP)
    )
    result = {
        "action": "results",
        f"result-{game.pk}": flipped,
        f"termination-{game.pk}": "resign",
        f"version-{game.pk}": game.version,
    }
    code = (
        "from django.test import Client; c = Client();"
        "print(c.get('/').status_code, c.get('/t/live/standings/').status_code,"
        " c.get('/t/live/pairings/1/').status_code);"
        f"r = c.post('/tournaments/{capped.slug}/register/', {form('down@example.org')!r});"
        "print(r.status_code);"
        "from django.contrib.auth.models import User; o = Client();"
        "o.force_login(User.objects.get(username='org'));"
        f"print(o.post('/t/live/manage/round/1/', {result!r}).status_code)"
    )
    env = {**os.environ, "REDIS_URL": "redis://127.0.0.1:1/0"}
    proc = subprocess.run(
        [sys.executable, "manage.py", "shell", "-v", "0", "-c", code],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    lines = proc.stdout.strip().splitlines()
    assert lines[-3:] == ["200 200 200", "302", "302"], proc.stdout + proc.stderr
    game.refresh_from_db()
    assert game.result == flipped  # the result is saved although its pages could not be queued
    reg = Registration.objects.get(email="down@example.org")
    row = OutboundEmail.objects.get(object_id=reg.pk, kind="registration_confirm")
    assert row.status == "pending"
    OutboundEmail.objects.filter(pk=row.pk).update(created_at=timezone.now() - timedelta(minutes=5))
    assert send_pending_emails.apply_async(ignore_result=False).get(timeout=60) >= 1  # real worker
    row.refresh_from_db()
    assert row.status == "sent" and row.attempts == 1
    mail_dir = Path(settings.EMAIL_FILE_PATH)
    sent = [p for p in mail_dir.glob("*") if "down@example.org" in p.read_text(errors="replace")]
    assert len(sent) == 1
