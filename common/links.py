"""Absolute links, built in one place from ``settings.SITE_URL``: e-mails, calendar files, the
tablets' QR codes, anything printed or sent that leaves the site.

Never from the request (``request.build_absolute_uri``, the ``Host`` header): a request may
come with any ``Host`` the proxy passes on (``ALLOWED_HOSTS`` may list several names, or
``*`` behind a proxy), and a link printed on a QR code or sent in an e-mail would carry it.
``check --deploy`` warns when ``SITE_URL`` is left at its local default in production."""

from __future__ import annotations

from urllib.parse import urlencode, urlsplit

from django.conf import settings
from django.core import checks


def absolute_url(path: str, language: str | None = None) -> str:
    """The link to ``path`` (from ``reverse``) on the site; with ``language`` it opens in that
    language whatever the browser's (the pages honour ``?lang=`` and remember it)."""
    if not path.startswith("/"):
        raise ValueError(f"not a path on the site: {path!r}")
    url = str(settings.SITE_URL).rstrip("/") + path
    return f"{url}?{urlencode({'lang': language})}" if language else url


@checks.register(checks.Tags.security, deploy=True)
def check_site_url(**kwargs: object) -> list[checks.CheckMessage]:
    """In production the links must name the site: not the local default, and over HTTPS."""
    parts = urlsplit(str(getattr(settings, "SITE_URL", "")))
    if parts.scheme == "https" and parts.hostname not in (None, "127.0.0.1", "localhost"):
        return []
    return [
        checks.Warning(
            f"SITE_URL is {settings.SITE_URL!r}: the links in e-mails and the tablets' QR codes "
            "are built from it (never from the request's Host header).",
            hint="Set SITE_URL to the site's public address, e.g. https://nardy.example.org.",
            id="common.W001",
        )
    ]
