"""Caching, in two layers and no more, both keyed by a version that a write makes new:

1. **computed values** (a tournament's standings, crosstable, data): ``computed(key, compute)``
   keeps each under its versioned key; when it is missing, one request computes it while the
   others wait for it (a single guard against a crowd computing the same table at once);
2. **whole public pages** for anonymous visitors: ``page_for(request, key, render)`` keeps a
   page gzipped with an ETag derived from its key, so a refresh of an unchanged page is answered
   ``304`` from the version alone, and a hit is one cache read sent compressed.

A version names one state of the data, so nothing is ever invalidated: a new version makes new
keys and the old ones expire. The cache is Django's (django-redis in production, which answers
"not found" while Redis is down: then everything is computed, nothing fails)."""

from __future__ import annotations

import gzip
import hashlib
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

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


def computed(key: str, compute: Callable[[], T], *, seconds: int = SECONDS) -> T:
    """The value under ``key`` (which names a version), computed once: while one request
    computes it, the others wait for it rather than compute it again."""
    value: T | None = cache.get(key)
    if value is not None:
        return value
    guard = f"{key}:computing"
    if cache.add(guard, 1, GUARD_SECONDS) is False:  # someone else computes it (None: no cache)
        deadline = time.monotonic() + WAIT_SECONDS
        while time.monotonic() < deadline:
            time.sleep(0.05)
            value = cache.get(key)
            if value is not None:
                return value
    try:
        value = compute()
        cache.set(key, value, seconds)
    finally:
        cache.delete(guard)
    return value


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


def page_for(request: HttpRequest, key: str, render: Callable[[], HttpResponse]) -> HttpResponse:
    """The page named by ``key`` (its version, language and address) for an anonymous
    visitor: ``304`` if the visitor has it, else from the cache, else rendered (and kept if it
    is a 200)."""
    key = f"{FORMAT}:{key}"
    etag = etag_of(key)
    packed = bool(ACCEPTS_GZIP.search(request.headers.get("Accept-Encoding", "")))
    not_modified = get_conditional_response(request, etag=f'{etag[:-1]}-gz"' if packed else etag)
    if not_modified is not None:
        patch_vary_headers(not_modified, ("Cookie", "Accept-Language", "Accept-Encoding"))
        return not_modified
    page: Page | None = cache.get(key)
    if page is None:
        response = render()
        if response.status_code != 200:
            return response
        page = _pack(response.content, response["Content-Type"])
        cache.set(key, page, SECONDS)
    return _send(request, page, etag)


def anonymous(request: HttpRequest) -> bool:
    """May this request be answered with the page every anonymous visitor gets? (Not for a
    logged-in user, a pending message, or anything but GET and HEAD.)"""
    return (
        request.method in ("GET", "HEAD")
        and not request.user.is_authenticated
        and "messages" not in request.COOKIES
    )
