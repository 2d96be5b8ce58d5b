"""The database goes away in the middle of saving a result — this request's connection cut,
or the whole PostgreSQL server restarted: the organiser gets a clear error page, nothing is
half-saved, and the next request works again."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Callable

import psycopg
import pytest
from django.conf import settings
from django.contrib.auth.models import Group, User
from django.db import connection
from django.test import Client

from championship import services
from championship.apps import ORGANISERS_GROUP
from championship.demo import create_running_swiss
from championship.models import Board, ResultChange

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def _terminate_my_connection() -> None:
    """What a restart does to this request's connection, without touching the others."""
    pid = connection.connection.info.backend_pid
    db = settings.DATABASES["default"]
    with psycopg.connect(
        host=db["HOST"],
        port=db["PORT"] or 5432,
        user=db["USER"],
        dbname=db["NAME"],
        autocommit=True,
    ) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])


def _restart_postgresql() -> None:
    """A real restart of the machine's PostgreSQL cluster (the one CI starts), back up when
    this returns."""
    (version,) = os.listdir("/etc/postgresql")
    subprocess.run(
        ["pg_ctlcluster", "--skip-systemctl-redirect", version, "main", "restart", "-m", "fast"],
        check=True,
        timeout=60,
    )
    for _ in range(60):
        if subprocess.run(["pg_isready", "-h", "127.0.0.1", "-q"], check=False).returncode == 0:
            return
        time.sleep(0.5)
    pytest.fail("PostgreSQL did not come back within 30 s")


@pytest.mark.parametrize("outage", [_terminate_my_connection, _restart_postgresql])
def test_database_lost_during_result_entry(
    monkeypatch: pytest.MonkeyPatch, outage: Callable[[], None]
) -> None:
    t = create_running_swiss(slug="db", players=6, rounds=1, unfinished_last=False)
    user = User.objects.create_user("org", password="pw-organiser-123")
    user.groups.add(Group.objects.get(name=ORGANISERS_GROUP))
    client = Client(raise_request_exception=False)
    client.force_login(user)
    board = Board.objects.filter(round__tournament=t).exclude(black=None).first()
    board.games.all().delete()  # a game recorded without a sheet: the result is typed in
    before = (board.result, board.termination, board.version)
    changes_before = ResultChange.objects.count()

    real_create = ResultChange.objects.create

    def lose_the_database_then_create(**kwargs):  # type: ignore[no-untyped-def]
        # The board's UPDATE has run inside the transaction; now the server goes away.
        outage()
        return real_create(**kwargs)

    monkeypatch.setattr(services.ResultChange.objects, "create", lose_the_database_then_create)
    flipped = "0-1" if board.result != "0-1" else "1-0"
    response = client.post(
        "/t/db/manage/round/1/",
        {
            "action": "results",
            f"result-{board.pk}": flipped,
            f"termination-{board.pk}": "resign",
            f"version-{board.pk}": board.version,
        },
    )
    assert response.status_code == 503
    assert b"Nothing was saved" in response.content
    monkeypatch.undo()
    connection.close()
    board.refresh_from_db()
    assert (board.result, board.termination, board.version) == before  # nothing half-saved
    assert ResultChange.objects.count() == changes_before
    # The next request reconnects and works.
    response = client.post(
        "/t/db/manage/round/1/",
        {
            "action": "results",
            f"result-{board.pk}": flipped,
            f"termination-{board.pk}": "resign",
            f"version-{board.pk}": board.version,
        },
    )
    assert response.status_code == 302
    board.refresh_from_db()
    assert board.result == flipped
