"""Whole public pages for anonymous visitors, kept ready to send once per version: the HTML,
its gzip and an ETag. A 500-entrant standings page is about 220 KB of HTML and 20 KB
compressed: less to carry over the hall's Wi-Fi, compressed once instead of by the proxy on
every request; a refresh of an unchanged page is answered 304 without a body.

The pages are public and hold no secret or token (anonymous visitors only, no CSRF form), so
compressing them does not expose anything to BREACH-style attacks."""

from __future__ import annotations

import gzip
import hashlib
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.cache import get_conditional_response, patch_vary_headers

ACCEPTS_GZIP = re.compile(r"\bgzip\b")
#: Part of every cache key of a page: change it when ``Page`` changes, so that a deploy never
#: reads pages kept by the previous code.
FORMAT = "page2"


@dataclass(frozen=True)
class Page:
    body: bytes  # gzipped if ``packed``
    packed: bool
    content_type: str
    etag: str

    @property
    def content(self) -> bytes:
        """The uncompressed HTML (for the rare client that does not accept gzip)."""
        return gzip.decompress(self.body) if self.packed else self.body


def page(content: bytes, content_type: str) -> Page:
    """Kept compressed only: the cache then moves a tenth of the bytes on every hit."""
    etag = f'"{hashlib.blake2b(content, digest_size=12).hexdigest()}"'
    body = gzip.compress(content, compresslevel=6, mtime=0)
    if len(body) >= len(content):
        return Page(content, False, content_type, etag)
    return Page(body, True, content_type, etag)


def respond(request: HttpRequest, page: Page) -> HttpResponse:
    """The page in the encoding the client accepts, or 304 if it has it already."""
    packed = page.packed and bool(ACCEPTS_GZIP.search(request.headers.get("Accept-Encoding", "")))
    etag = f'{page.etag[:-1]}-gz"' if packed else page.etag
    response = HttpResponse(page.body if packed else page.content, page.content_type)
    if packed:
        response["Content-Encoding"] = "gzip"
    response["ETag"] = etag
    patch_vary_headers(response, ("Cookie", "Accept-Language", "Accept-Encoding"))
    return get_conditional_response(request, etag=etag, response=response)  # type: ignore[no-any-return]


class Recent:
    """The pages this process served last, by their versioned cache key (a key names one
    version of one page, so its content never changes: nothing to invalidate). Saves the
    trip to Redis on the pages every spectator refreshes. Off (size 0) unless the shared
    cache is Redis: with the development cache there is nothing to save."""

    def __init__(self) -> None:
        self._items: OrderedDict[str, Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> Any:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: str, value: Any) -> None:
        size = settings.PUBLIC_PAGES_IN_MEMORY
        if size <= 0:
            return
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


recent = Recent()
