"""Issue 21 point 7: every page at a phone's width. A browser at 390×844 walks every page of
the site (each URL pattern reversed with a running tournament's objects, as the endpoint walk
does: the public pages, the organisers' pages of the tournament, the tablet, the registration
and master-class pages) as an organiser, in English and in Russian, and no page is wider than
the screen, nor a table scrolls sideways in its own box (but the standings' and the
crosstable's, whose rank, name and points stay in view). On the public pairings every board's
Black and result are on the screen (they were 731 px off a 390 px phone). Screenshots under /tmp/phone-walk/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import get_resolver

from tests.browser.conftest import close, screenshot, watched_page
from tests.test_every_endpoint import _fill, _patterns, _valid_values
from tests.test_russian_pages import world

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = Path("/tmp/phone-walk")
WIDTH, HEIGHT = 390, 844


def html_pages(w: dict[str, Any]) -> list[str]:
    """Every page of the site that answers HTML to a superuser (admin and data files left
    out)."""
    root = Client()
    root.force_login(w["root"])
    urls = []
    for route, params in _patterns(get_resolver().url_patterns):
        if route.startswith(("i18n/", "static/", "admin/", "lang/", "accounts/logout")):
            continue
        if "(?P<" in route:
            continue
        values = _valid_values(root, route, params, w["pools"]) if params else {}
        if values is None:
            continue
        url = _fill(route, values)
        response = root.get(url)
        if response.status_code == 200 and "text/html" in response.get("Content-Type", ""):
            urls.append(url)
    return urls


@pytest.mark.parametrize("language", ["en", "ru"])
def test_no_page_is_wider_than_a_phone(live_server: Any, browser: Any, language: str) -> None:
    w = world()
    urls = html_pages(w)
    assert len(urls) >= 30, urls
    context, page = watched_page(
        browser, viewport={"width": WIDTH, "height": HEIGHT}, is_mobile=True, has_touch=True
    )
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    try:
        page.goto(f"{live_server.url}/accounts/login/")
        page.fill("#id_username", "root")
        page.fill("#id_password", "pw-root-12345")
        with page.expect_navigation():
            page.click("main button[type=submit]")
        wide = []
        for url in urls:
            page.goto(live_server.url + url)
            size = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
            # A table scrolling sideways in its own box hides columns just the same (the
            # standings and the crosstable scroll on purpose: rank, name and points stay).
            boxes = page.evaluate(
                "Array.from(document.querySelectorAll('.table-responsive, .table-scroll'))"
                ".filter(e => !e.querySelector('.sticky-cols')"
                " && e.scrollWidth > e.clientWidth + 1)"
                ".map(e => [e.scrollWidth, e.clientWidth])"
            )
            if boxes:
                wide.append((url, boxes))
            if size[0] > size[1]:
                name = url.strip("/").replace("/", "_")[:80] or "home"
                screenshot(page, str(SHOTS / f"{name}-{language}.png"), full_page=True)
                wide.append((url, size))
        assert not wide, wide
        # The public pairings: Black and the result of every board on the screen.
        page.goto(f"{live_server.url}/t/lv/pairings/2/")
        cells = page.eval_on_selector_all(
            ".table-pairings tbody td.c-b, .table-pairings tbody td.c-res",
            "els => els.map(e => e.getBoundingClientRect().right)",
        )
        assert cells and max(cells) <= WIDTH, cells
        screenshot(page, str(SHOTS / f"pairings-{language}.png"), full_page=True)
    finally:
        close(context)
