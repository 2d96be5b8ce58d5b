"""Browser tests: Playwright drives Debian's Chromium (never a downloaded browser): its headless
shell (package ``chromium-headless-shell``) where installed, else the full ``chromium``.

The headless shell is the same Chromium (the same Blink, the same version, from the same
source package) without the browser's own window machinery: what Playwright itself runs for
headless tests. On this suite it takes 43 % less CPU than the full browser in headless mode
(docs/testing.md), and the full one is still used when it is the only one there.

Without either the tests are skipped, and the run ends with a loud notice saying so."""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest


def _chromium() -> str | None:
    """The browser to drive: ``CHROMIUM_PATH``, else Debian's headless shell, else Debian's
    chromium."""
    if os.environ.get("CHROMIUM_PATH"):
        return os.environ["CHROMIUM_PATH"]
    for path in ("/usr/lib/chromium/chromium-headless-shell", "/usr/bin/chromium"):
        if os.path.exists(path):
            return path
    return shutil.which("chromium-headless-shell") or shutil.which("chromium")


CHROMIUM = _chromium()
# Playwright's sync API runs an event loop in this thread; the live server's database access
# from the test thread is synchronous and safe here.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

SKIPPED: list[str] = []

#: The one timeout of the browser tests, in seconds: every Playwright wait (a selector, a
#: navigation, a function) and every ``wait_for`` gives up after this long. Generous, so that a
#: busy machine makes a test slower, never red; tests wait on conditions, never fixed sleeps.
TIMEOUT = 90


#: The live server's requests being answered now (``_cached_static_handler`` counts them).
_IN_FLIGHT = [0]
_IN_FLIGHT_LOCK = threading.Lock()


def _cached_static_handler() -> Any:
    """The live server's handler of /static/: Django's (the files found by the finders, as
    ``runserver`` serves them), with a ``Cache-Control`` a browser keeps them by, as
    production's WhiteNoise gives its hashed names. Without it every page of a test's context
    fetched Bootstrap's CSS and JavaScript again through the server's Python: 7 % of the whole
    suite's Python time went to serving the same files."""
    from django.contrib.staticfiles.handlers import StaticFilesHandler

    class CachedStaticFilesHandler(StaticFilesHandler):
        def __call__(self, environ: Any, start_response: Any) -> Any:
            with _IN_FLIGHT_LOCK:
                _IN_FLIGHT[0] += 1
            try:
                return super().__call__(environ, start_response)
            finally:
                with _IN_FLIGHT_LOCK:
                    _IN_FLIGHT[0] -= 1

        def serve(self, request: Any) -> Any:
            response = super().serve(request)
            if response.status_code == 200:
                response["Cache-Control"] = "max-age=86400"
            return response

    return CachedStaticFilesHandler


@pytest.fixture(scope="session")
def live_server(request: Any) -> Iterator[Any]:
    """pytest-django's live server (one per worker, on a free port), its static files
    cacheable (``_cached_static_handler``)."""
    from pytest_django.live_server_helper import LiveServer

    addr = request.config.getvalue("liveserver") or os.getenv(
        "DJANGO_LIVE_TEST_SERVER_ADDRESS", "localhost"
    )
    server = LiveServer(addr, start=False)
    server.thread.static_handler = _cached_static_handler()
    server.start()
    yield server
    server.stop()


@pytest.fixture(autouse=True)
def _live_server_quiet_before_the_flush(request: Any) -> Iterator[None]:
    """A test's database is emptied only once the live server has answered what it was still
    answering: a page's last poll, sent just before the test closed it, was being answered
    while the flush ran, and SQLite's in-memory tables answered the flush "database table is
    locked" (once in CI: the next test then found the last one's tournament)."""
    if "live_server" not in request.fixturenames or not request.node.get_closest_marker(
        "django_db"
    ):
        yield
        return
    request.getfixturevalue("_django_db_helper")  # set up first, so torn down after this
    yield
    end = time.monotonic() + TIMEOUT
    while _IN_FLIGHT[0] and time.monotonic() < end:
        time.sleep(0.02)


def pytest_collection_modifyitems(config, items):  # type: ignore[no-untyped-def]
    for item in items:
        if "tests/browser/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if CHROMIUM is None:
        SKIPPED.append("chromium not found")
        pytest.skip(
            "BROWSER TESTS SKIPPED: Debian's chromium is not installed"
            " (apt-get install chromium-headless-shell)"
        )
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=TIMEOUT * 1000)  # expect(...) waits as long as the rest

    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield browser
        browser.close()


#: Screenshots are for a person to look at (``SCREENSHOTS=1``: each test writes them where it
#: says, under /tmp); they assert nothing, and a full page's PNG costs a tenth of a second or
#: more, so a run of the suite takes none by default.
SCREENSHOTS = os.environ.get("SCREENSHOTS", "") not in ("", "0")


def screenshot(target: Any, path: str, **options: Any) -> None:
    """``target.screenshot(path=path, **options)`` (a page or an element) when SCREENSHOTS is
    set."""
    if SCREENSHOTS:
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        target.screenshot(path=path, **options)


def keep(path: str, data: bytes) -> None:
    """Write ``data`` (a printed PDF) to ``path`` for a person to look at, when SCREENSHOTS is
    set, making its folder: a test writing straight into a folder another test makes passes
    only when that test happened to run first on the same worker (one did not, on a fresh
    machine)."""
    if SCREENSHOTS:
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        with open(path, "wb") as out:
            out.write(data)


def watched_page(browser: Any, **context_options: Any) -> tuple[Any, Any]:
    """(context, page) recording console errors and every CSP violation the pages report."""
    context = browser.new_context(**context_options)
    context.set_default_timeout(TIMEOUT * 1000)
    context.set_default_navigation_timeout(TIMEOUT * 1000)
    context.add_init_script(
        "window.__csp = [];"
        "document.addEventListener('securitypolicyviolation',"
        " e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));"
    )
    page = context.new_page()
    page.console_errors = []
    page.on("console", lambda m: m.type == "error" and page.console_errors.append(m.text))
    return context, page


def organiser_page(
    browser: Any, live_server: Any, next_url: str, height: int = 1000
) -> tuple[Any, Any]:
    """(context, page) of an organiser (user ``org``, made here) logged in and at ``next_url``."""
    from django.contrib.auth.models import Group, User

    from championship.apps import ORGANISERS_GROUP

    user = User.objects.create_user("org", password="pw-organiser-123")
    user.groups.add(Group.objects.get(name=ORGANISERS_GROUP))
    ctx, page = watched_page(browser, viewport={"width": 1280, "height": height})
    page.goto(f"{live_server.url}/accounts/login/?next={next_url}")
    page.fill("#id_username", "org")
    page.fill("#id_password", "pw-organiser-123")
    page.click("main button[type=submit]")
    page.wait_for_url(f"{live_server.url}{next_url}")
    return ctx, page


def close(context: Any) -> None:
    """Close a context after its pages have left the site: a page still polling the live
    server (live.js, the clock) once left ``context.close()`` waiting forever in CI."""
    for page in context.pages:
        page.goto("about:blank")
    context.close()


@pytest.fixture
def phone_page(browser: Any) -> Iterator[Any]:
    """A page the size of a phone, collecting console errors (CSP violations among them)."""
    context, page = watched_page(
        browser,
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        locale="en-CA",
    )
    yield page
    close(context)


def settled(read: Any) -> Any:
    """``read()`` on a page that may reload itself meanwhile (the live pages do when a result
    comes in): a read cut by the navigation is tried again once the new page is there."""
    from playwright.sync_api import Error

    end = time.monotonic() + TIMEOUT
    while True:
        try:
            return read()
        except Error as exc:
            if time.monotonic() > end or "context was destroyed" not in str(exc).lower():
                raise
            time.sleep(0.1)


def wait_for(check: Any, seconds: float = TIMEOUT) -> None:
    """Wait until ``check()`` (a read of the database) holds. On SQLite the live server's
    thread shares the in-memory database, whose table locks answer "database table is locked"
    at once instead of waiting: such a read is simply tried again."""
    from django.db import OperationalError

    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            if check():
                return
        except OperationalError as exc:
            if "locked" not in str(exc):
                raise
        time.sleep(0.1)
    raise AssertionError("condition not met in time")


def click_to(page: Any, selector: str) -> None:
    """Click something that loads a new page and wait until that page has loaded (Playwright's
    click does not wait for the navigation it starts; the old page would be read)."""
    with page.expect_navigation():
        page.click(selector)


def open_menu(page: Any) -> None:
    """Open the phone's menu and wait until it has finished opening: a click on a link while
    the menu still unfolds can land where the link is not yet (once, on a busy machine, the
    language switch's click navigated nowhere)."""
    page.click("nav .navbar-toggler")
    page.wait_for_function(
        "() => { const m = document.querySelector('#nav');"
        " return m && m.classList.contains('show') && !m.classList.contains('collapsing'); }"
    )
    next_frame(page)


def next_frame(page: Any) -> None:
    """Wait until the browser has drawn what the last change did (two animation frames)."""
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def mark_document(page: Any) -> None:
    """Mark the loaded document, so that ``same_document`` can tell a live update from a
    reload."""
    page.evaluate("window.__sameDocument = true")


def same_document(page: Any) -> bool:
    """True while the page marked by ``mark_document`` has not been reloaded or left."""
    return bool(page.evaluate("window.__sameDocument === true"))


def csp_violations(page: Any) -> list[str]:
    """Violations on the current page plus CSP errors logged on any page so far."""
    # Recorded where the init script ran (a live page may be reloading itself at that moment).
    seen = list(settled(lambda: page.evaluate("window.__csp || []")))
    logged = getattr(page, "console_errors", [])
    return seen + [m for m in logged if "Content Security Policy" in m]


def pytest_terminal_summary(terminalreporter, exitstatus, config):  # type: ignore[no-untyped-def]
    if SKIPPED:
        bar = "!" * 78
        terminalreporter.write_line(bar, red=True, bold=True)
        terminalreporter.write_line(
            "!!! BROWSER TESTS WERE SKIPPED: Debian's chromium is missing. "
            "Install it: apt-get install chromium-headless-shell",
            red=True,
            bold=True,
        )
        terminalreporter.write_line(bar, red=True, bold=True)
