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


@pytest.fixture(autouse=True)
def _worker_drained(request):  # type: ignore[no-untyped-def]
    """After each test, wait until the worker has sent every queued e-mail, so that flushing
    the tables does not race a task still reading them."""
    yield
    if not request.node.get_closest_marker("django_db"):
        return
    import time

    from registrations.models import OutboundEmail

    deadline = time.monotonic() + 60
    unsent = [OutboundEmail.Status.PENDING, OutboundEmail.Status.SENDING]
    while OutboundEmail.objects.filter(status__in=unsent).exists():
        if time.monotonic() > deadline:
            pytest.fail("the Celery worker left e-mails pending for 60 s")
        time.sleep(0.1)
    time.sleep(0.3)  # the last task's transaction and connection close
