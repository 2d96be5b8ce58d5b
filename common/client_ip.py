"""The client's address, for rate limiting and login throttling.

Without a proxy the address is ``REMOTE_ADDR``, the peer of the connection. Behind a reverse
proxy that peer is the proxy, and the visitor's address is in a header the proxy sets; the
setting ``TRUSTED_PROXY_HEADER`` names it (``HTTP_X_REAL_IP`` for the shipped nginx
configuration, which sets ``X-Real-IP $remote_addr``, overwriting whatever the client sent).
Only that header is read, and only when configured: ``X-Forwarded-For`` and friends are never
trusted, since a client can write anything there. A missing or malformed value falls back to
``REMOTE_ADDR``; nothing here raises."""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest

#: Used when not even ``REMOTE_ADDR`` holds an address (a Unix socket without a proxy header):
#: such requests then share one rate-limit bucket instead of failing.
UNKNOWN = "0.0.0.0"


def parse_address(value: object) -> str | None:
    """The canonical text of one IPv4 or IPv6 address, or None for anything else (lists,
    ports, ``unknown``, empty, NUL bytes, ...). IPv4-mapped IPv6 becomes IPv4; an IPv6 zone
    is dropped."""
    if not isinstance(value, str) or len(value) > 64:
        return None
    try:
        address = ipaddress.ip_address(value.strip())
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Address(int(address)))  # without a %zone
    return str(address)


def trusted_header() -> str:
    """The ``request.META`` key of the trusted proxy's header, or '' for none. Accepts the
    META form (``HTTP_X_REAL_IP``) or the header's name (``X-Real-IP``)."""
    name = (getattr(settings, "TRUSTED_PROXY_HEADER", "") or "").strip()
    if not name:
        return ""
    key = name.upper().replace("-", "_")
    return key if key.startswith("HTTP_") else f"HTTP_{key}"


def client_ip(request: HttpRequest) -> str:
    """The visitor's address (see the module's docstring). django-ratelimit calls this
    through ``RATELIMIT_IP_META_KEY``; the login throttle uses it too."""
    header = trusted_header()
    if header:
        address = parse_address(request.META.get(header))
        if address is not None:
            return address
    return parse_address(request.META.get("REMOTE_ADDR")) or UNKNOWN


def client_network(request: HttpRequest) -> str:
    """The visitor's address as a rate-limit key: IPv4 as it is, IPv6 reduced to its /64
    (one household or server gets a whole /64), as django-ratelimit's ``ip`` key does."""
    address = client_ip(request)
    if ":" not in address:
        return address
    prefix = int(getattr(settings, "RATELIMIT_IPV6_MASK", 64))
    return str(ipaddress.ip_network(f"{address}/{prefix}", strict=False).network_address)
