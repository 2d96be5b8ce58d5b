"""The database goes away in the middle of saving a result — this request's connection cut,
or the whole PostgreSQL server restarted: the organiser gets a clear error page, nothing is
half-saved, and the next request works again."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
import warnings
from collections.abc import Callable

import psycopg
import pytest
from django.conf import settings
from django.contrib.auth.models import Group, User
from django.db import connection
from django.test import Client

from championship.apps import ORGANISERS_GROUP
from championship.models import Board, GameResult, ResultChange
from games.demo import create_running_swiss

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def _other_connection(dbname: str | None = None) -> psycopg.Connection:  # type: ignore[type-arg]
    """A connection of its own to the test server, outside Django's."""
    db = settings.DATABASES["default"]
    return psycopg.connect(
        host=db["HOST"],
        port=db["PORT"] or 5432,
        user=db["USER"],
        dbname=dbname or db["NAME"],
        autocommit=True,
    )


def _terminate_my_connection() -> None:
    """What a restart does to this request's connection, without touching the others."""
    pid = connection.connection.info.backend_pid
    with _other_connection() as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])


def _server_started_at() -> object:
    with _other_connection() as other:
        return other.execute("SELECT pg_postmaster_start_time()").fetchone()[0]  # type: ignore[index]


def _local_cluster(port: int) -> tuple[str, str] | None:
    """The cluster this machine runs on our port, if pg_ctlcluster manages it and we may."""
    if shutil.which("pg_lsclusters") is None or os.geteuid() != 0:
        return None
    listing = subprocess.run(
        ["pg_lsclusters", "--no-header"], capture_output=True, text=True, check=False
    ).stdout
    for line in listing.splitlines():
        version, name, cluster_port, status, *_ = line.split()
        if int(cluster_port) == port and status == "online":
            return version, name
    return None


def _restart_postgresql() -> None:
    """A real restart of the PostgreSQL server we use (CI's here: a local cluster managed by
    pg_ctlcluster), back up when this returns. Where the server is not this machine's to
    restart, every connection to our database is cut instead — what the application sees of a
    restart — and a warning says so."""
    db = settings.DATABASES["default"]
    before = _server_started_at()
    cluster = _local_cluster(int(db["PORT"] or 5432))
    if cluster is None:
        warnings.warn(
            "PostgreSQL is not restartable from here: cutting every connection instead",
            stacklevel=1,
        )
        with _other_connection("postgres") as other:
            other.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = %s AND pid <> pg_backend_pid()",
                [db["NAME"]],
            )
        return
    subprocess.run(
        ["pg_ctlcluster", "--skip-systemctl-redirect", *cluster, "restart", "-m", "fast"],
        check=True,
        timeout=60,
    )
    for _ in range(60):
        if subprocess.run(["pg_isready", "-h", "127.0.0.1", "-q"], check=False).returncode == 0:
            break
        time.sleep(0.5)
    else:
        pytest.fail("PostgreSQL did not come back within 30 s")
    assert _server_started_at() != before  # it really restarted


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
    game = GameResult.objects.get(board=board)
    before = (game.result, game.termination, game.version)
    changes_before = ResultChange.objects.count()

    real_create = ResultChange.objects.create

    def lose_the_database_then_create(**kwargs):  # type: ignore[no-untyped-def]
        # The board's UPDATE has run inside the transaction; now the server goes away.
        outage()
        return real_create(**kwargs)

    monkeypatch.setattr(ResultChange.objects, "create", lose_the_database_then_create)
    flipped = "0-1" if game.result != "0-1" else "1-0"
    form = {
        "action": "results",
        f"result-{game.pk}": flipped,
        f"termination-{game.pk}": "resign",
        f"version-{game.pk}": game.version,
    }
    response = client.post("/t/db/manage/round/1/", form)
    assert response.status_code == 503
    assert b"Nothing was saved" in response.content
    monkeypatch.undo()
    connection.close()
    game.refresh_from_db()
    assert (game.result, game.termination, game.version) == before  # nothing half-saved
    assert ResultChange.objects.count() == changes_before
    # The same form sent again: the next request reconnects and works.
    response = client.post("/t/db/manage/round/1/", form)
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.result == flipped
