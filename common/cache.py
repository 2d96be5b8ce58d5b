"""Caching, in two layers and no more, both keyed by a version that a write makes new:

1. **computed values** (a tournament's standings, crosstable, data): ``computed(key, compute)``
   keeps each under its versioned key; when it is missing, one request computes it while the
   others wait for it (a single guard against a crowd computing the same table at once);
2. **whole public pages** for anonymous visitors: ``page_for(request, key, render)`` keeps a
   page gzipped with an ETag derived from its key, so a refresh of an unchanged page is answered
   ``304`` from the version alone, and a hit is one cache read sent compressed; one request
   renders a missing page while the others wait for it, and the caller may answer a missing
   page with another one (``instead``: the tournament pages give an earlier version's while a
   worker computes the new tables, championship.tables).

A version names one state of the data, so nothing is ever invalidated: a new version makes new
keys and the old ones expire. The cache is Django's (django-redis in production, which answers
"not found" while Redis is down: then everything is computed, nothing fails).

**A near copy in each process** (``near``), where the cache is another process (Redis): what a
spectator's poll reads — a kept page under its versioned key (never stale: kept as long as in
the cache), and the few keys that name what is current, which a write forgets at its commit (a
round's feed key, a game's live state: ``current``, ``keep_current``, ``forget_current``) — is
kept in the process as well, so a poll of an unchanged round makes no round trip to the cache:
under the hall's load a third of a spectators' worker's time went to those round trips (the
socket, then the interpreter's lock after it). A key a write forgets is reused here for
``settings.NEAR_CACHE_MS`` at most: the writing process forgets it at once, the others within
that. 0 turns the near copy off (the default without Redis: the local-memory cache is in the
process already)."""

from __future__ import annotations

import gzip
import hashlib
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, TypeVar

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils.cache import get_conditional_response, patch_vary_headers

T = TypeVar("T")

#: How long values and pages are kept (a new version makes new keys anyway).
SECONDS = 3600
#: How long a request waits for another one computing the same value before computing it too.
WAIT_SECONDS = 10.0
#: How long the guard of a computation holds (a crashed computer frees it by then).
GUARD_SECONDS = 30
#: Part of every page key: change it when ``Page`` changes, so a deploy never reads pages kept
#: by the previous code.
FORMAT = "page3"

ACCEPTS_GZIP = re.compile(r"\bgzip\b")


class Near:
    """A few values kept in this process, each until its own moment, the least recently read
    dropped beyond ``size`` (thread-safe: a worker's threads share it)."""

    def __init__(self, size: int = 256, clock: Callable[[], float] = time.monotonic) -> None:
        self.size = size
        self._clock = clock
        self._items: OrderedDict[str, tuple[float, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> Any:
        """The value kept under ``key`` (None: none, or its time is up)."""
        with self._lock:
            item = self._items.get(key)
            if item is None:
                return None
            if item[0] <= self._clock():
                del self._items[key]
                return None
            self._items.move_to_end(key)
            return item[1]

    def put(self, key: str, value: Any, seconds: float) -> None:
        with self._lock:
            self._items[key] = (self._clock() + seconds, value)
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def forget(self, keys: Iterable[str]) -> None:
        with self._lock:
            for key in keys:
                self._items.pop(key, None)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


#: This process's near copy (see the module's docstring).
near = Near()


def _near_seconds() -> float:
    return int(getattr(settings, "NEAR_CACHE_MS", 0)) / 1000


def _near_or_shared(key: str, keep_near: float) -> Any:
    """The value under ``key``: this process's near copy, else the cache's (then kept near for
    ``keep_near`` seconds); straight from the cache while the near copy is off."""
    if not _near_seconds():
        return cache.get(key)
    found = near.get(key)
    if found is None:
        found = cache.get(key)
        if found is not None:
            near.put(key, found, keep_near)
    return found


def current(key: str) -> Any:
    """The value under ``key``, one that a write forgets (``forget_current``): this process's
    near copy while it is fresh (``NEAR_CACHE_MS``), else the cache's."""
    return _near_or_shared(key, _near_seconds())


def keep_current(key: str, value: Any, seconds: float) -> None:
    """Keeps ``value`` under ``key`` for ``seconds`` (near for at most ``NEAR_CACHE_MS``)."""
    cache.set(key, value, seconds)
    near_seconds = _near_seconds()
    if near_seconds:
        near.put(key, value, min(seconds, near_seconds))


def forget_current(keys: list[str]) -> None:
    """A write changed what ``keys`` name (after its commit): forgotten in the cache and in
    this process at once (the other processes' near copies within ``NEAR_CACHE_MS``)."""
    cache.delete_many(keys)
    near.forget(keys)


def _kept_page(key: str) -> Page | None:
    """The page kept under ``key`` (versioned: never stale, so kept near as long as in the
    cache)."""
    page: Page | None = _near_or_shared(key, SECONDS)
    return page


#: Values already read by this unit of work (``reading``): a page or a recomputation that
#: asks for the same table twice reads it from the cache once. Not a cache: it lives as long as
#: the ``with`` block.
_read: ContextVar[dict[str, Any] | None] = ContextVar("computed_read", default=None)


@contextmanager
def reading() -> Iterator[None]:
    """Within the block, each computed value is read from the cache (and unpickled) once."""
    token = _read.set({})
    try:
        yield
    finally:
        _read.reset(token)


def computed(key: str, compute: Callable[[], T], *, seconds: int = SECONDS) -> T:
    """The value under ``key`` (which names a version), computed once: while one request
    computes it, the others wait for it rather than compute it again."""
    read = _read.get()
    if read is not None and key in read:
        return read[key]  # type: ignore[no-any-return]
    value = _computed(key, compute, seconds)
    if read is not None:
        read[key] = value
    return value


def _computed(key: str, compute: Callable[[], T], seconds: int) -> T:
    value: T | None = cache.get(key)
    if value is not None:
        return value
    guard = f"{key}:computing"
    if cache.add(guard, 1, GUARD_SECONDS) is False:  # someone else computes it (None: no cache)
        value = _waited_for(key, guard)
        if value is not None:
            return value
    try:
        value = compute()
        cache.set(key, value, seconds)
    finally:
        cache.delete(guard)
    return value


def _waited_for(key: str, guard: str) -> Any:
    """The value another request is putting under ``key`` while it holds ``guard``: None if it
    gave up (an error, a page not to keep) or took longer than ``WAIT_SECONDS``."""
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        time.sleep(0.02)
        found = cache.get_many([key, guard])
        if key in found:
            return found[key]
        if guard not in found:
            return cache.get(key)  # (put there just before the guard went)
    return None


@dataclass(frozen=True)
class Page:
    body: bytes  # gzipped if ``packed``
    packed: bool
    content_type: str

    @property
    def content(self) -> bytes:
        """The uncompressed HTML (for the rare client that does not accept gzip)."""
        return gzip.decompress(self.body) if self.packed else self.body


def _pack(content: bytes, content_type: str) -> Page:
    body = gzip.compress(content, compresslevel=6, mtime=0)
    if len(body) >= len(content):
        return Page(content, False, content_type)
    return Page(body, True, content_type)


def etag_of(key: str) -> str:
    return f'"{hashlib.blake2b(key.encode(), digest_size=12).hexdigest()}"'


def _send(request: HttpRequest, page: Page, etag: str) -> HttpResponse:
    packed = page.packed and bool(ACCEPTS_GZIP.search(request.headers.get("Accept-Encoding", "")))
    tag = f'{etag[:-1]}-gz"' if packed else etag
    response = HttpResponse(page.body if packed else page.content, page.content_type)
    if packed:
        response["Content-Encoding"] = "gzip"
    response["ETag"] = tag
    patch_vary_headers(response, ("Cookie", "Accept-Language", "Accept-Encoding"))
    return response


def page_for(
    request: HttpRequest,
    key: str,
    render: Callable[[], HttpResponse],
    *,
    instead: Callable[[], HttpResponse | None] | None = None,
    seconds: int = SECONDS,
) -> HttpResponse:
    """The page named by ``key`` (its version, language and address) for an anonymous
    visitor: ``304`` if the visitor has it, else from the cache, else rendered (and kept if it
    is a 200, for ``seconds``). When it is not kept yet, ``instead`` may answer with another
    page (an earlier version's, while a worker computes what this one needs). While one request
    renders a page, the others asking for it wait for it (up to ``WAIT_SECONDS``) rather than
    render it too."""
    key = f"{FORMAT}:{key}"
    etag = etag_of(key)
    packed = bool(ACCEPTS_GZIP.search(request.headers.get("Accept-Encoding", "")))
    not_modified = get_conditional_response(request, etag=f'{etag[:-1]}-gz"' if packed else etag)
    if not_modified is not None:
        patch_vary_headers(not_modified, ("Cookie", "Accept-Language", "Accept-Encoding"))
        return not_modified
    page = _kept_page(key)
    if page is None and instead is not None:
        other = instead()
        if other is not None:
            return other
    if page is None:
        made = _rendered_once(key, render, seconds)
        if isinstance(made, HttpResponse):
            return made
        page = made
    return _send(request, page, etag)


def _rendered_once(
    key: str, render: Callable[[], HttpResponse], seconds: int = SECONDS
) -> Page | HttpResponse:
    """The page under ``key`` rendered by this request and kept, or by another one rendering
    it at the same time (waited for); a response other than 200 is returned as it is."""
    guard = f"{key}:rendering"
    if cache.add(guard, 1, GUARD_SECONDS) is False:  # another request renders it
        page: Page | None = _waited_for(key, guard)
        if page is not None:
            return page
    try:
        response = render()
        if response.status_code != 200:
            return response
        page = _pack(response.content, response["Content-Type"])
        cache.set(key, page, seconds)
        if _near_seconds():
            near.put(key, page, seconds)
    finally:
        cache.delete(guard)
    return page


def anonymous(request: HttpRequest) -> bool:
    """May this request be answered with the page every anonymous visitor gets? (Not for a
    logged-in user, a pending message, or anything but GET and HEAD.)"""
    return (
        request.method in ("GET", "HEAD")
        and not request.user.is_authenticated
        and "messages" not in request.COOKIES
    )
