"""Faults found by trying the platform as people do on a tournament day (issue 21's walk at
390, 1024 and 1280 px in both languages), each kept from coming back."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import close, organiser_page

pytestmark = pytest.mark.django_db(transaction=True)


def page_width(page: Any) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth"))


def test_an_organisers_menu_bar_fits_every_width_in_both_languages(
    live_server: Any, browser: Any
) -> None:
    """The organiser's menu (their menu, the administration, log out) is longer than a
    visitor's: in Russian it ran 16 px off a 1024 px screen (log out out of reach, the page
    scrolling sideways). Every width from a tablet to a laptop keeps it on the screen."""
    ctx, page = organiser_page(browser, live_server, "/manage/")
    for language in ("ru", "en"):
        page.goto(f"{live_server.url}/lang/{language}/?next=/manage/")
        for width in (768, 900, 1024, 1100, 1199, 1280):
            page.set_viewport_size({"width": width, "height": 800})
            assert page_width(page) <= width, (language, width, page_width(page))
            logout = page.locator(".site-nav form[action$='/logout/'] button")
            if logout.is_visible():
                box = logout.bounding_box()
                assert box is not None and box["x"] + box["width"] <= width, (language, width)
    close(ctx)
