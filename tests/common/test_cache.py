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
