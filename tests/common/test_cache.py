"""common.cache: one request computes a missing value or renders a missing page while the
others wait for it, and a waiter whose computer gave up does not wait out the clock."""

from __future__ import annotations

import threading
import time

import pytest
from django.core.cache import cache
from django.http import HttpResponse, HttpResponseNotFound
from django.test import RequestFactory

from common import cache as layers


@pytest.fixture(autouse=True)
def _empty() -> None:
    cache.clear()


CROWD = 6


@pytest.fixture
def waiting(monkeypatch: pytest.MonkeyPatch) -> threading.Semaphore:
    """Released once by each request that finds another one computing and starts to wait for
    it; the waits never run out during a test (however slow the machine), so what a test sees
    is the order of events, not their speed."""
    arrived = threading.Semaphore(0)
    real = layers._waited_for

    def waited_for(key: str, guard: str) -> object:
        arrived.release()
        return real(key, guard)

    monkeypatch.setattr(layers, "_waited_for", waited_for)
    monkeypatch.setattr(layers, "WAIT_SECONDS", 3600.0)
    return arrived


def all_waiting(arrived: threading.Semaphore, count: int) -> None:
    """Block until ``count`` requests wait (the one computing holds its work until then)."""
    for _ in range(count):
        assert arrived.acquire(timeout=120), "the others never waited"


def test_a_crowd_computes_a_value_once(waiting: threading.Semaphore) -> None:
    calls: list[int] = []

    def compute() -> int:
        calls.append(1)
        all_waiting(waiting, CROWD - 1)  # everyone else asks meanwhile
        return 42

    found: list[int] = []
    threads = [
        threading.Thread(target=lambda: found.append(layers.computed("k", compute)))
        for _ in range(CROWD)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert found == [42] * CROWD
    assert len(calls) == 1


def test_a_crowd_renders_a_page_once(waiting: threading.Semaphore) -> None:
    renders: list[int] = []

    def render() -> HttpResponse:
        renders.append(1)
        all_waiting(waiting, CROWD - 1)
        return HttpResponse("<p>standings</p>" * 50)

    bodies: list[bytes] = []

    def ask() -> None:
        request = RequestFactory().get("/t/x/standings/")
        bodies.append(layers.page_for(request, "page-a", render).content)

    threads = [threading.Thread(target=ask) for _ in range(CROWD)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert bodies == [b"<p>standings</p>" * 50] * CROWD
    assert len(renders) == 1


def test_a_waiter_does_not_wait_out_the_clock_when_the_render_gives_up(
    waiting: threading.Semaphore,
) -> None:
    """The request holding the guard got a 404 (nothing kept): the waiting one renders at once
    instead of waiting out ``WAIT_SECONDS`` (an hour in this test)."""
    renders: list[str] = []

    def missing() -> HttpResponse:
        renders.append("first")
        all_waiting(waiting, 1)  # the second request waits for this one
        return HttpResponseNotFound("no such round")

    def second_render() -> HttpResponse:
        renders.append("second")
        return HttpResponseNotFound("no such round")

    first = threading.Thread(
        target=lambda: layers.page_for(RequestFactory().get("/"), "page-b", missing)
    )
    first.start()
    while not renders:  # the first holds the guard
        time.sleep(0.01)
    began = time.monotonic()
    response = layers.page_for(RequestFactory().get("/"), "page-b", second_render)
    first.join()
    assert response.status_code == 404
    assert renders == ["first", "second"]
    # It did not sit out the hour: well under it, on the slowest machine.
    assert time.monotonic() - began < layers.WAIT_SECONDS / 10


def test_a_missing_page_may_be_answered_instead_and_a_kept_one_is_not() -> None:
    request = RequestFactory().get("/")
    other = HttpResponse("earlier")
    assert (
        layers.page_for(request, "p", lambda: HttpResponse("new"), instead=lambda: other) is other
    )
    # Nothing offered instead: rendered and kept; then kept pages come first.
    assert (
        layers.page_for(request, "p", lambda: HttpResponse("new"), instead=lambda: None).content
        == b"new"
    )
    assert (
        layers.page_for(request, "p", lambda: HttpResponse("newer"), instead=lambda: other).content
        == b"new"
    )


# --- the near copy in each process ---------------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_near_value_lives_until_its_moment_and_the_least_read_goes_first() -> None:
    clock = Clock()
    near = layers.Near(size=2, clock=clock)
    near.put("a", 1, 0.5)
    near.put("b", 2, 10)
    assert near.get("a") == 1
    clock.now += 0.5
    assert near.get("a") is None  # its time is up
    near.put("a", 1, 10)
    assert near.get("b") == 2  # "a" is now the least recently read
    near.put("c", 3, 10)
    assert (near.get("a"), near.get("b"), near.get("c")) == (None, 2, 3)
    near.forget(["b", "nothing"])
    assert near.get("b") is None and near.get("c") == 3


class Counting:
    """The cache, counting the round trips a request makes to it."""

    def __init__(self) -> None:
        self.trips = 0

    def __getattr__(self, name: str) -> object:
        attribute = getattr(cache, name)
        if not callable(attribute):
            return attribute

        def counted(*args: object, **kwargs: object) -> object:
            self.trips += 1
            return attribute(*args, **kwargs)

        return counted


@pytest.fixture
def trips(monkeypatch: pytest.MonkeyPatch, settings: object) -> Counting:
    """The near copy on (as with Redis) and empty; the cache's round trips counted."""
    settings.NEAR_CACHE_MS = 500  # type: ignore[attr-defined]
    counting = Counting()
    monkeypatch.setattr(layers, "cache", counting)
    clock = Clock()
    monkeypatch.setattr(layers, "near", layers.Near(clock=clock))
    counting.clock = clock  # type: ignore[attr-defined]
    return counting


def test_a_current_key_is_read_near_until_a_write_forgets_it_or_its_time_is_up(
    trips: Counting,
) -> None:
    layers.keep_current("k", "v1", 1)
    assert trips.trips == 1
    assert layers.current("k") == "v1" and trips.trips == 1  # near: no round trip
    cache.set("k", "v2", 1)  # another process's write, not forgotten here yet
    assert layers.current("k") == "v1"
    trips.clock.now += 0.5  # type: ignore[attr-defined]
    assert layers.current("k") == "v2" and trips.trips == 2  # within NEAR_CACHE_MS
    layers.forget_current(["k"])  # a write in this process: forgotten at once
    assert layers.current("k") is None


def test_without_a_shared_cache_nothing_is_kept_near(settings: object) -> None:
    settings.NEAR_CACHE_MS = 0  # type: ignore[attr-defined]
    layers.near.clear()
    layers.keep_current("k", "v1", 1)
    cache.set("k", "v2", 1)
    assert layers.current("k") == "v2"
    assert layers.near.get("k") is None


def test_a_kept_page_is_sent_from_near_without_a_round_trip(trips: Counting) -> None:
    request = RequestFactory().get("/p/")
    first = layers.page_for(request, "page-key", lambda: HttpResponse(b"<p>x</p>" * 100))
    before = trips.trips
    again = layers.page_for(request, "page-key", lambda: HttpResponseNotFound())
    assert again.status_code == 200 and again.content == first.content
    assert trips.trips == before
    trips.clock.now += 600  # a versioned page is never stale: kept as long as in the cache
    assert layers.page_for(request, "page-key", HttpResponseNotFound).status_code == 200
    assert trips.trips == before
