"""Integration tests run by .ci/run against the real PostgreSQL and Redis, with a real Celery
worker started by the script. They use the database named by DATABASE_URL as it is (already
migrated by .ci/run), so that the worker sees the same rows; each test commits for real and
the tables are flushed after it."""

from __future__ import annotations

import os

import pytest

REQUIRED = ("DATABASE_URL", "REDIS_URL", "EMAIL_URL")


def pytest_collection_modifyitems(config, items):  # type: ignore[no-untyped-def]
    for item in items:
        if "tests/integration/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.integration)


@pytest.fixture(scope="session")
def django_db_setup():  # type: ignore[no-untyped-def]
    missing = [name for name in REQUIRED if not os.environ.get(name)]
    if missing:
        pytest.fail(f"integration tests need {', '.join(missing)} (run them with .ci/integration)")
    from django.conf import settings

    assert settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
    assert not settings.CELERY_TASK_ALWAYS_EAGER


def _worker_busy() -> bool:
    """Whether the Celery worker has work left: a task in its queues or fetched and not yet
    started (the public tables' recomputation is sent with a countdown), in Redis, the broker;
    or a statement or transaction open on the test database besides this one."""
    import redis
    from django.db import connection

    broker = redis.Redis.from_url(os.environ["REDIS_URL"])
    if broker.llen("celery") or broker.llen("analysis") or broker.hlen("unacked"):
        return True  # the worker's -Q (.ci/integration); "unacked": fetched, not yet run
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            " AND pid <> pg_backend_pid() AND state <> 'idle'"
        )
        return bool(cursor.fetchone()[0])


@pytest.fixture(autouse=True)
def _worker_drained(request):  # type: ignore[no-untyped-def]
    """After each test, wait until the worker has sent every queued e-mail and has no task
    left (the pages renewed, the club's rating recomputed after the test's commits), so that
    flushing the tables does not race a task still reading or writing them: the flush's
    TRUNCATE and the rating's writes once deadlocked."""
    yield
    if not request.node.get_closest_marker("django_db"):
        return
    import time

    from registrations.models import OutboundEmail

    deadline = time.monotonic() + 60
    unsent = [OutboundEmail.Status.PENDING, OutboundEmail.Status.SENDING]
    while OutboundEmail.objects.filter(status__in=unsent).exists() or _worker_busy():
        if time.monotonic() > deadline:
            pytest.fail("the Celery worker was still busy 60 s after the test")
        time.sleep(0.1)
    time.sleep(0.3)  # the last task's transaction and connection close
