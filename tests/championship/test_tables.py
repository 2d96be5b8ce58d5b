"""championship.tables: the worker's recomputations are coalesced and spaced out, and spectators
are told which earlier version to be shown only while one is on its way."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.db.models import F
from django.test import Client
from django.test.utils import CaptureQueriesContext

from championship import tables
from championship.models import Tournament
from championship.public_views import _page_key
from common.cache import FORMAT
from games.demo import create_running_swiss

pytestmark = pytest.mark.django_db


def test_results_in_quick_succession_make_one_recomputation_at_most_every_interval(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    t = create_running_swiss(slug="q", players=6, rounds=2)
    now = [tables.time.time() + 100]  # long after the set-up's recomputations
    monkeypatch.setattr(tables.time, "time", lambda: now[0])
    assert tables.queued(t.pk) == 0  # the first result: at once
    now[0] += 0.3
    assert tables.queued(t.pk) is None  # queued already, not started: it will read this one too
    tables.warm(t.pk)  # the worker starts (and finishes)
    now[0] += 0.5
    # A result 0.5 s after the recomputation started: the next one 1.5 s later.
    assert tables.queued(t.pk) == pytest.approx(tables.WARM_INTERVAL - 0.5)
    assert tables.queued(t.pk) is None
    now[0] += 10
    tables.warm(t.pk)
    now[0] += 5
    assert tables.queued(t.pk) == 0  # long after the last: at once again


def test_spectators_get_an_earlier_version_only_while_a_recomputation_is_on_its_way(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    t = create_running_swiss(slug="s", players=6, rounds=2)
    tables.warm(t.pk)  # ready: the current version
    assert tables.spectators_version(t.pk, t.version) is None
    assert tables.spectators_version(t.pk, t.version + 1) is None  # nothing asked of the worker
    tables.queued(t.pk)  # a result was committed: version + 1
    assert tables.spectators_version(t.pk, t.version + 1) == t.version
    later = tables.time.time() + tables.STALE_SECONDS
    monkeypatch.setattr(tables.time, "time", lambda: later)
    assert tables.spectators_version(t.pk, t.version + 1) is None  # too long: compute it
    tables.not_queued(t.pk)
    assert tables.queued(t.pk) is not None  # a failed send does not block the next one


def test_with_a_worker_the_main_pages_are_rendered_before_spectators_ask(
    client: Client, settings: Any
) -> None:
    """The worker renders the overview, standings, crosstable and each round's pairings on
    the tables it computed, in the languages spectators read: their requests only read them."""
    from championship import tasks

    t = create_running_swiss(slug="p", players=8, rounds=2)
    urls = ("/t/p/", "/t/p/standings/", "/t/p/crosstable/", "/t/p/pairings/1/")
    for url in urls:  # spectators read them in English
        client.get(url, headers={"accept-language": "en"})
    english = client.get("/t/p/standings/", headers={"accept-language": "en"}).content
    settings.CELERY_TASK_ALWAYS_EAGER = False
    Tournament.objects.filter(pk=t.pk).update(version=F("version") + 1)  # a result came in:
    tables.version_changed(t.pk)  # what its commit does (services.changes)
    tables.queued(t.pk)
    tasks.warm_public_pages_task(t.pk)  # what the worker runs
    t.refresh_from_db()

    def kept(language: str, url: str) -> bool:
        return cache.has_key(f"{FORMAT}:{_page_key(t.pk, t.version, language, url, '')}")

    assert all(kept("en", url) for url in urls)
    # Nobody read the Russian pages: not rendered (the first request renders them).
    assert not any(kept("ru", url) for url in urls)
    for url in urls:
        with CaptureQueriesContext(connection) as ctx:
            page = client.get(url, headers={"accept-language": "en"})
        assert page.status_code == 200
        assert len(ctx.captured_queries) <= 1, (url, [q["sql"] for q in ctx.captured_queries])
        assert f'data-version="{t.version}"' in page.content.decode()
    assert client.get("/t/p/standings/", headers={"accept-language": "en"}).content != english
    assert client.get("/t/p/standings/", headers={"accept-language": "ru"}).status_code == 200
    assert kept("ru", "/t/p/standings/")
