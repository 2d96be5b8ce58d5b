"""Pairing when things break: the queue down (refused at once, nothing changed) and the worker
killed in the middle of a pairing (shown as failed, never paired later by surprise, and it can
be started again). The organiser's requests run in separate processes whose Redis database is
that of the worker this test starts and kills (the suite's own worker must not take the task)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.contrib.auth.models import Group, User

from championship.apps import ORGANISERS_GROUP
from championship.models import Entrant, Tournament
from tests.integration.test_worker_killed import ROOT, start_worker

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

ORGANISER = (
    "from django.test import Client; from django.contrib.auth.models import User;"
    "import json, time; o = Client(); o.force_login(User.objects.get(username='org'));"
)


def _field(slug: str, players: int) -> Tournament:
    t = Tournament.objects.create(
        name=slug, slug=slug, starts_on="2027-03-14", ends_on="2027-03-14", rounds=5
    )
    Entrant.objects.bulk_create(
        Entrant(tournament=t, name=f"P{i}", rating=1000 + i, checked_in=True)
        for i in range(players)
    )
    User.objects.create_user("org", password="pw-organiser-123").groups.add(
        Group.objects.get(name=ORGANISERS_GROUP)
    )
    return t


def _as_organiser(code: str, env: dict[str, str], timeout: int = 120) -> str:
    """Run ``code`` in a process of its own as the logged-in organiser ``o``; its last line."""
    proc = subprocess.run(
        [sys.executable, "manage.py", "shell", "-v", "0", "-c", ORGANISER + code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout.strip().splitlines()[-1]


def test_with_redis_down_pairing_says_it_cannot_start_and_nothing_changes() -> None:
    t = _field("down", 6)
    env = {**os.environ, "REDIS_URL": "redis://127.0.0.1:1/0"}
    line = _as_organiser(
        f"r = o.post('/t/{t.slug}/manage/pair/', follow=True);"
        "print(r.status_code, 'cannot start now' in r.content.decode())",
        env,
    )
    assert line == "200 True"
    assert t.round_set.count() == 0


#: Loaded by the worker's Python at start (``sitecustomize``): the pairing engine takes eight
#: seconds more, so that the worker is surely killed in the middle of it (a first round is
#: otherwise paired in a few milliseconds).
SLOW_PAIRING = """
import time
import championship.pairing as pairing

_pair_swiss = pairing.pair_swiss


def pair_swiss(*args, **kwargs):
    time.sleep(8)
    return _pair_swiss(*args, **kwargs)


pairing.pair_swiss = pair_swiss
"""


def test_a_worker_killed_while_pairing_is_shown_failed_and_never_pairs_later(
    tmp_path: Path,
) -> None:
    t = _field("killed", 600)
    subprocess.run(["redis-cli", "-n", "12", "flushdb"], check=True, capture_output=True)
    (tmp_path / "sitecustomize.py").write_text(SLOW_PAIRING)
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")])),
        "REDIS_URL": "redis://127.0.0.1:6379/12",
        "CELERY_VISIBILITY_TIMEOUT": "4",
        "PAIRING_HEARTBEAT_STALE": "15",
    }
    status = f"json.loads(o.get('/t/{t.slug}/manage/pair/status.json').content)"
    worker = start_worker(env)
    try:
        time.sleep(3)  # the worker connects
        line = _as_organiser(
            f"o.post('/t/{t.slug}/manage/pair/'); deadline = time.monotonic() + 60\n"
            f"while {status}['state'] != 'running' and time.monotonic() < deadline:\n"
            "    time.sleep(0.05)\n"
            f"print({status}['state'])",
            env,
        )
        worker.send_signal(signal.SIGKILL)  # in the middle of the pairing
        worker.wait(30)
        assert line == "running", "no worker took the pairing"
        time.sleep(17)  # past the heartbeat
        failed = json.loads(_as_organiser(f"print(json.dumps({status}))", env))
        assert failed["state"] == "failed" and "interrupted" in failed["text"], failed
        assert t.round_set.count() == 0  # nothing half-saved
    finally:
        if worker.poll() is None:
            worker.kill()
    worker = start_worker(env)  # the worker is back: the lost task does not come back to pair
    try:
        time.sleep(10)  # past the broker's visibility timeout
        assert t.round_set.count() == 0
        # The organiser starts it again, and it is paired once.
        line = _as_organiser(
            f"o.post('/t/{t.slug}/manage/pair/'); deadline = time.monotonic() + 240\n"
            f"while {status}['state'] in ('queued', 'running') and time.monotonic() < deadline:\n"
            "    time.sleep(0.5)\n"
            f"print({status}['state'])",
            env,
            timeout=300,
        )
        assert line == "done"
        assert list(t.round_set.values_list("number", flat=True)) == [1]
    finally:
        worker.terminate()
        worker.wait(60)
