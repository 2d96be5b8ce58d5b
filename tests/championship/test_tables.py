"""championship.tables: the worker's recomputations are coalesced and spaced out, and spectators
are told which earlier version to be shown only while one is on its way."""

from __future__ import annotations

import pytest

from championship import tables
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
