from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.utils import timezone

from championship.models import Tournament
from registrations.models import MasterClassSession, Registration
from tests import hypothesis_profiles  # noqa: F401  (the suite's Hypothesis profile, loaded first)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: Any, items: list[Any]) -> None:
    """The long modules first: those with a test marked ``slow``, then the browser's, then the
    rest, each module's tests together and in their order (a module's fixtures are made once).
    The workers split the list and steal from each other's ends, so the run ends on short tests
    instead of one worker walking the endpoints alone while the other has finished."""
    weight: dict[str, int] = {}
    for item in items:
        module = item.nodeid.split("::", 1)[0]
        if item.get_closest_marker("slow"):
            weight[module] = 0
        elif "tests/browser/" in module:
            weight.setdefault(module, 1)
    items.sort(key=lambda item: weight.get(item.nodeid.split("::", 1)[0], 2))


@pytest.fixture(autouse=True, scope="session")
def _fast_password_hashing() -> Any:
    """Passwords hashed with MD5 in the tests (Django's advice for test runs): PBKDF2 costs a
    fifth of a second a user on purpose, and the suite creates and signs in hundreds. PBKDF2
    stays accepted, so a hash made before this fixture still checks."""
    from django.test import override_settings

    with override_settings(
        PASSWORD_HASHERS=[
            "django.contrib.auth.hashers.MD5PasswordHasher",
            "django.contrib.auth.hashers.PBKDF2PasswordHasher",
        ]
    ):
        yield


@pytest.fixture(autouse=True, scope="session")
def _demo_games_played_once() -> Any:
    """The demo's games (``games.demo.create_running_swiss``, behind most tests' tournaments)
    are played by the rules engine from a seeded generator: the same generator state gives the
    same game, so each game is played once per worker and then copied (a pickle round trip,
    about a tenth of playing it), the generator left where playing would leave it. What the
    tests get is exactly what they would get without it."""
    import pickle

    from games import demo

    real = demo.play_game
    kept: dict[Any, tuple[bytes, Any]] = {}

    def play_game(rng: Any, **options: Any) -> Any:
        key = (rng.getstate(), tuple(sorted(options.items())))
        if key in kept:
            game, after = kept[key]
            rng.setstate(after)
            return pickle.loads(game)
        played = real(rng, **options)
        if len(kept) > 3000:  # about 100 MB: start again
            kept.clear()
        kept[key] = (pickle.dumps(played), rng.getstate())
        return played

    demo.play_game = play_game
    yield
    demo.play_game = real


@pytest.fixture(autouse=True)
def _isolation(settings):  # type: ignore[no-untyped-def]
    """Each test starts with an empty cache and without rate limiting (one test turns it on)."""
    from django.utils import translation

    settings.RATELIMIT_ENABLE = False
    settings.ANALYSIS_MS_PER_PLY = 1  # a finished game's analysis runs inline: keep it short
    cache.clear()
    translation.activate(settings.LANGUAGE_CODE)  # a Russian request before leaves it active
    yield
    translation.deactivate()
    cache.clear()


class RateLimitClock:
    """django-ratelimit's clock during a test: still, unless a test moves it. Its windows are
    fixed spans of the epoch (``40/10m`` ends every ten minutes), so a test counting posts
    against a limit would otherwise start over whenever the wall clock crossed a window's end —
    more often the slower the machine."""

    def __init__(self) -> None:
        import time as real_time

        self.now = real_time.time()

    def time(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture(autouse=True)
def ratelimit_clock(monkeypatch) -> RateLimitClock:  # type: ignore[no-untyped-def]
    """The rate limits' clock, held still for the test (``ratelimit_clock.advance(s)`` moves
    it); the live server's thread reads the same one."""
    import django_ratelimit.core

    clock = RateLimitClock()
    monkeypatch.setattr(django_ratelimit.core, "time", clock)
    return clock


@pytest.fixture
def tournament(db) -> Tournament:  # type: ignore[no-untyped-def]
    start = timezone.localdate() + timedelta(days=30)
    return Tournament.objects.create(
        name="Toronto Open",
        slug="toronto-open",
        venue="Toronto",
        starts_on=start,
        ends_on=start,
        entry_cap=None,
    )


def make_session(
    *, seats: int = 10, days: int = 7, language: str = "en", tournament=None
) -> MasterClassSession:  # type: ignore[no-untyped-def]
    day: date = timezone.localdate() + timedelta(days=days)
    return MasterClassSession.objects.create(
        title=f"Master class {language}",
        starts_at=timezone.make_aware(datetime.combine(day, time(18, 30))),
        place="Library",
        language=language,
        seats=seats,
        tournament=tournament,
    )


def _code_depth(connection) -> int:  # type: ignore[no-untyped-def]
    """How many atomic blocks the code under test has open (the test's own, which Django's
    test case opens and rolls back, are not counted)."""
    return sum(1 for block in connection.atomic_blocks if not block._from_testcase)


def _run(func, robust: bool) -> None:  # type: ignore[no-untyped-def]
    if not robust:
        func()
        return
    try:
        func()
    except Exception:  # as Django's robust callbacks: logged, the others still run
        import logging

        logging.getLogger("django.db.backends.base").exception("on_commit callback failed")


@pytest.fixture(autouse=True)
def _commit_where_the_code_commits(request, monkeypatch):  # type: ignore[no-untyped-def]
    """Tests run inside a transaction that is rolled back (Django's test case), so its
    ``on_commit`` callbacks (e-mails queued, pages renewed) would never run. Here they run where
    production would run them: when the code's own outermost ``atomic`` block ends without an
    error (a block that failed drops them, as Django drops a rolled-back savepoint's), or at once
    when the code is in no transaction of its own (autocommit). So a transaction's work is done
    once, as in production (``championship.services.changes`` renews a tournament once per
    transaction, however many rows it writes), not once per row. Tests that commit for real
    (``transaction=True``, integration) are Django's own behaviour already."""
    if request.node.get_closest_marker("integration"):
        return
    from django.db import transaction

    real_on_commit = transaction.on_commit
    real_enter = transaction.Atomic.__enter__
    real_exit = transaction.Atomic.__exit__
    marks: dict[int, int] = {}  # id of the code's outermost open block → queue length at entry

    def on_commit(func, using=None, robust=False):  # type: ignore[no-untyped-def]
        connection = transaction.get_connection(using)
        if _code_depth(connection) == 0:
            _run(func, robust)  # autocommit: done as soon as asked
        else:
            real_on_commit(func, using=using, robust=robust)

    def enter(self):  # type: ignore[no-untyped-def]
        connection = transaction.get_connection(self.using)
        outermost = _code_depth(connection) == 0 and connection.in_atomic_block
        real_enter(self)
        if outermost:
            marks[id(self)] = len(connection.run_on_commit)

    def exit(self, exc_type, exc_value, traceback):  # type: ignore[no-untyped-def]
        connection = transaction.get_connection(self.using)
        mark = marks.pop(id(self), None)
        result = real_exit(self, exc_type, exc_value, traceback)
        if mark is not None and exc_type is None:
            # The code's transaction "commits": its callbacks run, in order (those a rolled-back
            # savepoint inside it registered are gone from the queue already).
            done = connection.run_on_commit[mark:]
            del connection.run_on_commit[mark:]
            for _sids, func, robust in done:
                _run(func, robust)
        return result

    monkeypatch.setattr(transaction, "on_commit", on_commit)
    monkeypatch.setattr(transaction.Atomic, "__enter__", enter)
    monkeypatch.setattr(transaction.Atomic, "__exit__", exit)


def registration_form(**changes: str) -> dict[str, str]:
    """What a player types into the public registration form (valid unless changed)."""
    return {
        "name": "Анна Иванова",
        "email": "anna@example.org",
        "phone": "416 555 0123",
        "club": "Toronto",
        "experience": "club",
        "language": "ru",
        "consent": "on",
        "website": "",
        **changes,
    }


def make_registrations(tournament, n: int, *, prefix: str = "p", **fields) -> list[Registration]:  # type: ignore[no-untyped-def]
    """n registrations in one query, e-mails ``{prefix}{i}@example.org``."""
    now = timezone.now()
    defaults = {
        "phone": "+14165550123",
        "club": "Toronto",
        "experience": "club",
        "language": "ru",
        "consent_at": now,
        "email_confirmed_at": now,
    }
    return Registration.objects.bulk_create(
        Registration(
            tournament=tournament,
            name=f"Игрок {i}",
            email=f"{prefix}{i}@example.org",
            **{**defaults, **fields},
        )
        for i in range(n)
    )


def on_postgresql() -> bool:
    from django.db import connection

    return connection.vendor == "postgresql"


@pytest.fixture
def postgresql(transactional_db):  # type: ignore[no-untyped-def]
    """For tests of row locks (``SELECT … FOR UPDATE``) between parallel requests: SQLite has
    none. CI runs every test but the browser's on PostgreSQL too (.ci/run), where these run."""
    if not on_postgresql():
        pytest.skip("row locks need PostgreSQL: run with DATABASE_URL=postgres://… (CI does)")


def signed_links(page: str, view: str, purpose: str) -> list[tuple[int, str]]:
    """What each link of ``page`` to ``view`` (whose one argument is a signed token) says:
    (id, e-mail). A signed link carries the second it was made, so a test compares what a
    link says, never its text with one the test made itself: on a busy machine the page and
    the test make theirs in different seconds (it happened to the withdrawal link)."""
    from django.urls import reverse

    from registrations import tokens

    before, after = reverse(view, args=["TOKEN"]).split("TOKEN")
    found = re.findall(f'href="{re.escape(before)}([^"/]+){re.escape(after)}"', page)
    return [tokens.read_token(purpose, token) for token in found]


def shows_phone(page: str, phone: str) -> bool:
    """True when ``page`` shows ``phone`` written any way (``+1 416 555 0199``,
    ``(416) 555-0199``, ``555-0199``): its local seven digits in a row, with up to three other
    characters between two of them. (A test once looked for "416" alone, and met it in
    ``/people/1416/`` when PostgreSQL's sequences had reached that id.)"""
    digits = re.sub(r"\D", "", phone)[-7:]
    return re.search(r"\D{0,3}".join(digits), page) is not None
