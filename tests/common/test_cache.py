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


def test_a_crowd_computes_a_value_once() -> None:
    calls: list[int] = []

    def compute() -> int:
        calls.append(1)
        time.sleep(0.2)
        return 42

    found: list[int] = []
    threads = [
        threading.Thread(target=lambda: found.append(layers.computed("k", compute)))
        for _ in range(6)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert found == [42] * 6
    assert len(calls) == 1


def test_a_crowd_renders_a_page_once() -> None:
    renders: list[int] = []

    def render() -> HttpResponse:
        renders.append(1)
        time.sleep(0.2)
        return HttpResponse("<p>standings</p>" * 50)

    bodies: list[bytes] = []

    def ask() -> None:
        request = RequestFactory().get("/t/x/standings/")
        bodies.append(layers.page_for(request, "page-a", render).content)

    threads = [threading.Thread(target=ask) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert bodies == [b"<p>standings</p>" * 50] * 6
    assert len(renders) == 1


def test_a_waiter_does_not_wait_out_the_clock_when_the_render_gives_up() -> None:
    """The request holding the guard got a 404 (nothing kept): the other renders at once."""
    started = threading.Event()

    def missing() -> HttpResponse:
        started.set()
        time.sleep(0.2)
        return HttpResponseNotFound("no such round")

    first = threading.Thread(
        target=lambda: layers.page_for(RequestFactory().get("/"), "page-b", missing)
    )
    first.start()
    started.wait(5)
    begun = time.monotonic()
    response = layers.page_for(RequestFactory().get("/"), "page-b", missing)
    first.join()
    assert response.status_code == 404
    assert time.monotonic() - begun < 2  # not layers.WAIT_SECONDS


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
