"""Settings from the environment: zero-config default, production refusals, check --deploy."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run_manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(
            ("DJANGO_", "DATABASE_URL", "REDIS_URL", "EMAIL_URL", "TRUSTED_PROXY_", "RATELIMIT_")
        )
    }
    clean.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_zero_config_default_is_sqlite_locmem_and_inline_tasks() -> None:
    code = (
        "from django.conf import settings as s;"
        "print(s.DATABASES['default']['ENGINE'], s.CACHES['default']['BACKEND'],"
        " s.CELERY_TASK_ALWAYS_EAGER, s.EMAIL_BACKEND)"
    )
    out = run_manage("shell", "-v", "0", "-c", code).stdout.split()
    assert out == [
        "django.db.backends.sqlite3",
        "django.core.cache.backends.locmem.LocMemCache",
        "True",
        "django.core.mail.backends.console.EmailBackend",
    ]


def test_environment_switches_to_postgresql_redis_and_smtp() -> None:
    code = (
        "from django.conf import settings as s;"
        "print(s.DATABASES['default']['ENGINE'], s.CACHES['default']['BACKEND'],"
        " s.CELERY_BROKER_URL, s.CELERY_TASK_ALWAYS_EAGER,"
        " s.EMAIL_BACKEND, s.EMAIL_HOST, s.EMAIL_PORT)"
    )
    out = run_manage(
        "shell",
        "-v",
        "0",
        "-c",
        code,
        DATABASE_URL="postgres://u@127.0.0.1:5432/x",
        REDIS_URL="redis://127.0.0.1:6379/3",
        EMAIL_URL="smtp://user:pw@mail.example.org:2525",
    ).stdout.split()
    assert out == [
        "django.db.backends.postgresql",
        "django_redis.cache.RedisCache",
        "redis://127.0.0.1:6379/3",
        "False",
        "django.core.mail.backends.smtp.EmailBackend",
        "mail.example.org",
        "2525",
    ]


def test_production_refuses_to_start_without_a_secret_key() -> None:
    proc = run_manage("check", DJANGO_DEBUG="0", DJANGO_ALLOWED_HOSTS="nardy.example.org")
    assert proc.returncode != 0
    assert "DJANGO_SECRET_KEY must be set" in proc.stderr


def test_check_deploy_is_clean_under_production_settings() -> None:
    proc = run_manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY="x" * 20 + "a-long-random-production-secret-key-0123456789",
        DJANGO_ALLOWED_HOSTS="nardy.example.org",
        REDIS_URL="redis://127.0.0.1:6379/0",
        SITE_URL="https://nardy.example.org",
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "no issues" in proc.stdout


@pytest.mark.parametrize("site_url", [None, "http://nardy.example.org", "https://localhost:8000"])
def test_check_deploy_warns_while_the_links_would_not_name_the_site(site_url: str | None) -> None:
    """Every absolute link (e-mails, the tablets' QR codes) is built from SITE_URL, never from
    the request's Host header: in production it must be the site's HTTPS address."""
    env = {"SITE_URL": site_url} if site_url else {}
    saved = os.environ.pop("SITE_URL", None)
    try:
        proc = run_manage(
            "check",
            "--deploy",
            "--fail-level",
            "WARNING",
            DJANGO_DEBUG="0",
            DJANGO_SECRET_KEY="x" * 20 + "a-long-random-production-secret-key-0123456789",
            DJANGO_ALLOWED_HOSTS="nardy.example.org",
            REDIS_URL="redis://127.0.0.1:6379/0",
            **env,
        )
    finally:
        if saved is not None:
            os.environ["SITE_URL"] = saved
    assert proc.returncode != 0
    assert "common.W001" in proc.stdout + proc.stderr


def test_the_forgeable_client_address_setting_is_refused() -> None:
    proc = run_manage("check", RATELIMIT_IP_META_KEY="HTTP_X_FORWARDED_FOR")
    assert proc.returncode != 0
    assert "TRUSTED_PROXY_HEADER=HTTP_X_REAL_IP" in proc.stderr


def test_the_trusted_proxy_header_comes_from_the_environment() -> None:
    code = "from django.conf import settings as s; print(repr(s.TRUSTED_PROXY_HEADER))"
    assert run_manage("shell", "-v", "0", "-c", code).stdout.strip() == "''"
    proc = run_manage("shell", "-v", "0", "-c", code, TRUSTED_PROXY_HEADER="HTTP_X_REAL_IP")
    assert proc.stdout.strip() == "'HTTP_X_REAL_IP'"


def test_the_analysis_gets_little_time_when_it_runs_inline() -> None:
    """Without a worker the analysis of a finished game runs in the request that finished it:
    10 ms a ply (a few seconds a game); with a worker 200 ms; the environment overrides."""
    code = "from django.conf import settings as s; print(s.ANALYSIS_MS_PER_PLY)"
    env = {k: v for k, v in os.environ.items() if k.startswith("ANALYSIS_")}
    for key in env:
        os.environ.pop(key)
    try:
        inline = run_manage("shell", "-v", "0", "-c", code).stdout.split()
        worker = run_manage(
            "shell", "-v", "0", "-c", code, REDIS_URL="redis://127.0.0.1:6379/3"
        ).stdout.split()
        chosen = run_manage("shell", "-v", "0", "-c", code, ANALYSIS_MS_PER_PLY="50").stdout
    finally:
        os.environ.update(env)
    assert inline == ["10"] and worker == ["200"] and chosen.split() == ["50"]


def test_a_worker_puts_what_it_loaded_out_of_the_collectors_reach() -> None:
    """championship/wsgi.py freezes the objects a worker has when its application is loaded
    (common.warm), so that a full collection does not look at them again
    (docs/performance.md)."""
    import gc

    from common import warm

    holder = [object()]  # a container the collector tracks
    assert gc.is_tracked(holder)
    before = gc.get_freeze_count()
    try:
        warm.freeze_as_warmed()
        assert gc.get_freeze_count() > before
        assert not any(o is holder for o in gc.get_objects())
    finally:
        warm.stop()
        gc.unfreeze()
    assert any(o is holder for o in gc.get_objects())


def test_a_worker_freezes_again_as_its_first_requests_warm_it() -> None:
    """What the first requests load (views, templates, catalogues) is frozen at each of
    ``WARM_REQUESTS`` served (the receiver of Django's ``request_finished``, called here as
    the signal calls it: the signal's other receivers would reach for the database): not
    before the first, not between them, not after the last."""
    import gc

    from common import warm

    finished = warm.freeze_as_warmed()
    gc.unfreeze()
    served = 0
    try:
        for checkpoint in [*warm.WARM_REQUESTS, warm.WARM_REQUESTS[-1] * 2]:
            holder = [object()]  # a container the collector tracks, made after the last freeze
            while served < checkpoint - 1:
                finished(signal=None, sender=None)
                served += 1
            assert any(o is holder for o in gc.get_objects()), served
            finished(signal=None, sender=None)
            served += 1
            frozen = not any(o is holder for o in gc.get_objects())
            assert frozen == (checkpoint in warm.WARM_REQUESTS), served
            gc.unfreeze()
    finally:
        assert warm.stop()  # it was connected to request_finished
        gc.unfreeze()
