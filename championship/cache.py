"""A Redis cache that degrades instead of failing: if Redis is unreachable, reads miss and
writes are dropped (logged), so pages are computed and served from the database."""

from __future__ import annotations

import logging
import time
from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient

log = logging.getLogger(__name__)

#: After a failure, skip Redis for this many seconds instead of waiting on it every call.
BACKOFF_SECONDS = 5.0


class _ReusedClient(RedisCacheClient):
    """Django builds a new ``redis.Redis`` object around the connection pool on every call
    (a fifth of a cached page's time); a client is thread-safe, so one per pool serves all."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients.setdefault(id(pool), self._client(connection_pool=pool))
        return client


class ResilientRedisCache(RedisCache):
    _down_until = 0.0

    def __init__(self, server: Any, params: Any) -> None:
        super().__init__(server, params)
        self._class = _ReusedClient

    def _guard(self, default: Any, method: str, *args: Any, **kwargs: Any) -> Any:
        if time.monotonic() < ResilientRedisCache._down_until:
            return default
        try:
            return getattr(super(), method)(*args, **kwargs)
        except Exception as exc:  # redis.ConnectionError, TimeoutError, ...
            ResilientRedisCache._down_until = time.monotonic() + BACKOFF_SECONDS
            log.warning("cache unavailable (%s: %s); serving without it", type(exc).__name__, exc)
            return default

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        return self._guard(default, "get", key, default, version)

    def set(self, *args: Any, **kwargs: Any) -> None:
        self._guard(None, "set", *args, **kwargs)

    def add(self, *args: Any, **kwargs: Any) -> bool:
        return bool(self._guard(False, "add", *args, **kwargs))

    def delete(self, *args: Any, **kwargs: Any) -> bool:
        return bool(self._guard(False, "delete", *args, **kwargs))

    def get_many(self, *args: Any, **kwargs: Any) -> dict[Any, Any]:
        return self._guard({}, "get_many", *args, **kwargs)

    def set_many(self, *args: Any, **kwargs: Any) -> list[Any]:
        return self._guard([], "set_many", *args, **kwargs)

    def incr(self, key: Any, delta: int = 1, version: Any = None) -> int:
        result = self._guard(None, "incr", key, delta, version)
        if result is None:
            raise ValueError("cache unavailable")  # django-ratelimit then counts from zero
        return int(result)

    def touch(self, *args: Any, **kwargs: Any) -> bool:
        return bool(self._guard(False, "touch", *args, **kwargs))

    def has_key(self, *args: Any, **kwargs: Any) -> bool:
        return bool(self._guard(False, "has_key", *args, **kwargs))

    def clear(self) -> None:
        self._guard(None, "clear")
