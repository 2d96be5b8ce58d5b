"""No input anywhere gets a server error, and a refused request changes nothing.

The walk is generic, so a new page or form is covered without being listed: every URL pattern
of the project (public, signed-link, organiser, admin) is reversed with the objects of a small
running tournament, then requested by an anonymous visitor and an administrator with hostile
query strings and path values; every POST form found on those pages (each submit button a
variant) is sent back with each field in turn replaced by hostile values — NUL bytes, overlong
text, text where a number belongs, numbers out of range, unknown choices, invalid UTF-8 — and
with fields missing or forged. Any 5xx fails; a 4xx must leave every table as it was.

Every organisers' endpoint — a view marked by ``common.permissions.organiser_required``, so
new organisers' pages are found without being listed — also gets generated posts (hypothesis)
of its own: the forms that post to it with fields replaced or added."""

from __future__ import annotations

import hashlib
import itertools
import re
from collections.abc import Iterator
from datetime import timedelta
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urljoin, urlsplit

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.auth.models import Group, User
from django.core.cache import cache
from django.db import connection, transaction
from django.test import Client, override_settings
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from championship.apps import ORGANISERS_GROUP
from championship.models import Tournament
from championship.services import round_pair_next, round_starts_set
from games import tablet
from games.demo import create_running_swiss
from games.models import Game
from games.selectors import replay
from registrations import tokens
from registrations.models import MasterClassSignup, Registration
from tests.conftest import make_session
from tests.hypothesis_profiles import examples

pytestmark = pytest.mark.django_db

#: Values a field or parameter may receive from a hostile or careless client.
HOSTILE = [
    "a\x00b",
    "x" * 5000,
    "abc",
    "-1",
    "1.5",
    "99999999999999999999",
    "",
    "<script>alert(1)</script>",
    "white:black:x",
    'Ωмега\u202e\n[Event "forged"]',
    # Digits that are not ASCII: "²".isdigit() is true and int("²") fails; int("٣") is 3.
    "²",
    "٣",
]
QUERIES = [
    "q=%00",
    "q=" + "x" * 3000,
    "round=abc",
    "round=-1",
    "round=99999999999999999999",
    "round=%00",
    "format=xlsx&round=abc",
    "format=%00",
    "format=pdf",
    "o=abc",
    "o=-99",
    "p=abc",
    "p=99999999999",
    "page=%00",
    "status=%00",
    "status__exact=%00",
    "tournament__id__exact=abc",
    "e=1",
    "all=%00",
    "sort=%00",
    "next=http://evil.example.org/",
    "ply=abc",
    "ply=%C2%B2",
    "round=%C2%B2",
    "round=%C2%B3&format=csv",
    "round=%D9%A3",
    "%FF%FE=%FF",
    "q=%FF%FE",
]
#: What a person would type into an empty input of each type.
PLAUSIBLE = {
    "number": "2",
    "email": "walker@example.org",
    "tel": "416 555 0199",
    "date": "2027-03-14",
    "datetime-local": "2027-03-14T10:00",
    "time": "10:00",
    "hidden": "",
    "password": "",
    "search": "",
}
#: Path values for each converter besides the valid ones.
PATH_VALUES = {
    "int": ["0", "99999999999999999999", "2147483648"],
    "id": ["0", "99999999999999999999", "999999999999999999", "2147483648"],
    "slug": ["x" * 300, "no-such-thing"],
    "str": ["%00", "x" * 2000, "%FF%FE", "<b>", "a.b.c"],
    "path": ["%00", "x/../y"],
}


def _patterns(patterns: Any, prefix: str = "") -> list[tuple[str, list[tuple[str, str]]]]:
    """(route, [(parameter, converter)]) for every URL pattern, admin included."""
    out: list[tuple[str, list[tuple[str, str]]]] = []
    for p in patterns:
        route = prefix + str(p.pattern)
        if isinstance(p, URLResolver):
            out += _patterns(p.url_patterns, route)
        elif isinstance(p, URLPattern):
            out.append((route, []))
    result = []
    for route, _ in out:
        route = route.lstrip("^").rstrip("$").replace("\\Z", "").replace("\\/", "/")
        params = re.findall(r"<(?:(\w+):)?(\w+)>", route)
        result.append((route, [(name, conv or "str") for conv, name in params]))
    return result


def _fill(route: str, values: dict[str, str]) -> str:
    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda m: values[m.group(1)], route)


class _Forms(HTMLParser):
    """The POST forms of a page: action, fields with a value, and submit buttons."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict[str, Any]] = []
        self._form: dict[str, Any] | None = None
        self._select: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            if a.get("method", "get").lower() == "post":
                self._form = {"action": a.get("action", ""), "fields": {}, "buttons": []}
                self.forms.append(self._form)
            else:
                self._form = None
            return
        form = self._form
        if form is None or "name" not in a:
            return
        name = a["name"]
        if tag == "input":
            kind = a.get("type", "text").lower()
            if kind in ("submit", "button", "image"):
                form["buttons"].append((name, a.get("value", "")))
            elif kind in ("checkbox", "radio"):
                if "checked" in a or name not in form["fields"]:
                    form["fields"][name] = a.get("value", "on")
            elif kind != "file":
                # An empty field gets a plausible value, so that a hostile value in another
                # field is what the server has to deal with (not "the name is missing").
                form["fields"][name] = a.get("value", "") or PLAUSIBLE.get(kind, "Walker")
        elif tag == "button" and a.get("type", "submit") == "submit":
            form["buttons"].append((name, a.get("value", "")))
        elif tag == "select":
            self._select = name
            form["fields"].setdefault(name, "")
        elif tag == "option" and self._select:
            if "selected" in a or not form["fields"].get(self._select):
                form["fields"][self._select] = a.get("value", "")
        elif tag == "textarea":
            self._textarea = name
            form["fields"][name] = ""

    def handle_data(self, data: str) -> None:
        if self._form is not None and self._textarea:
            self._form["fields"][self._textarea] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None
        elif tag == "form":
            self._form = None


def post_forms(html: str, page_url: str) -> list[tuple[str, dict[str, str]]]:
    """(url, data) for each submit variant of each POST form of a page."""
    parser = _Forms()
    parser.feed(html)
    out = []
    for form in parser.forms:
        url = urljoin(page_url, form["action"] or page_url)
        if urlsplit(url).netloc and urlsplit(url).netloc != "testserver":
            continue
        url = urlsplit(url).path + (f"?{urlsplit(url).query}" if urlsplit(url).query else "")
        fields = {k: v for k, v in form["fields"].items() if k != "csrfmiddlewaretoken"}
        buttons = [b for b in form["buttons"] if b[0]] or [None]
        for button in buttons:
            data = dict(fields)
            if button:
                data[button[0]] = button[1]
            out.append((url, data))
    return out


def fingerprint() -> str:
    """Every row of every table of ours (and users, groups, admin log), as one hash."""
    digest = hashlib.blake2b(digest_size=16)
    with connection.cursor() as cursor:  # plain SQL: the walk takes one after every post
        for model in apps.get_models():
            if model._meta.app_label in ("sessions", "contenttypes"):
                continue
            table = connection.ops.quote_name(model._meta.db_table)
            pk = connection.ops.quote_name(model._meta.pk.column)
            cursor.execute(f"SELECT * FROM {table} ORDER BY {pk}")  # noqa: S608 (our own names)
            digest.update(repr(cursor.fetchall()).encode())
    return digest.hexdigest()


def test_the_fingerprint_sees_every_kind_of_change(world: dict[str, Any]) -> None:
    """What the walks below rely on: a row added, changed or removed in any table changes it."""
    before = fingerprint()
    user = User.objects.create(username="fingerprinted")
    added = fingerprint()
    User.objects.filter(pk=user.pk).update(first_name="Changed")
    changed = fingerprint()
    user.delete()
    assert len({before, added, changed}) == 3 and fingerprint() == before


def _world() -> dict[str, Any]:
    """A registration tournament, a running Swiss with a draft round, a master class, a
    friendly game, signed links, and the users who walk."""
    # First, so that its games have the smallest ids (the walk tries the first few ids): a
    # round being played, whose unfinished game's tablet link works.
    playing = create_running_swiss(slug="lv", players=4, rounds=2, unfinished_last=True)
    at_board = next(
        g
        for g in Game.objects.filter(board__round__tournament=playing).order_by("pk")
        if replay(g).outcome is None
    )
    t = Tournament.objects.create(
        name="Open", slug="open", starts_on="2027-03-14", ends_on="2027-03-14", entry_cap=1
    )
    reg = Registration.objects.create(
        tournament=t,
        name="Анна",
        email="anna@example.org",
        phone="+14165550123",
        experience="club",
        language="ru",
        consent_at=timezone.now(),
    )
    session = make_session(seats=1)
    signup = MasterClassSignup.objects.create(
        session=session, name="S", email="s@example.org", language="en", consent_at=timezone.now()
    )
    swiss = create_running_swiss(slug="sw", players=7, rounds=2, unfinished_last=False)
    round_pair_next(tournament=swiss)  # round 3 as a draft
    # A schedule, and a player of it with their own page (a signed link).
    round_starts_set(
        tournament=swiss,
        starts={n: timezone.now() + timedelta(hours=n - 3) for n in range(1, 5)},
    )
    player = Registration.objects.create(
        tournament=swiss,
        name="Игрок",
        email="player@example.org",
        experience="club",
        language="en",
        consent_at=timezone.now(),
    )
    swiss.entrants.filter(pk=swiss.entrants.order_by("pk").first().pk).update(  # type: ignore[union-attr]
        registration=player
    )
    friendly = Game.objects.create(white_name="A", black_name="B")
    game = Game.objects.filter(board__round__tournament=swiss).order_by("pk").first()
    assert game is not None
    organiser = User.objects.create_user("org", password="pw-org-12345")
    organiser.groups.add(Group.objects.get(name=ORGANISERS_GROUP))
    root = User.objects.create_superuser("root", "root@example.org", "pw-root-12345")
    return {
        "slugs": ["sw", "open"],
        # The objects' own ids first (the walk tries the first few combinations of values):
        # on PostgreSQL ids are not small, sequences go on from earlier tests.
        "ints": list(
            dict.fromkeys(
                [
                    at_board.pk,
                    game.board_id,
                    game.pk,
                    1,
                    2,
                    3,
                    friendly.pk,
                    at_board.board_id,
                    session.pk,
                    reg.pk,
                    swiss.entrants.order_by("pk").first().pk,  # type: ignore[union-attr]
                    # A person (issue 23): ids go on from earlier tests in the same process.
                    swiss.entrants.order_by("pk").first().person_id,  # type: ignore[union-attr]
                    reg.person_id,
                    t.pk,
                    root.pk,
                ]
            )
        ),
        "strs": [
            tablet.token_for(at_board.pk),  # the board's tablet (its page and forms are walked)
            tokens.make_token(tokens.MANAGE, reg.pk, reg.email),
            tokens.make_token(tokens.CONFIRM, reg.pk, reg.email),
            tokens.make_token(tokens.SIGNUP, signup.pk, signup.email),
            tokens.make_token(tokens.PLAYER, player.pk, player.email),
            "ru",
            "en",
            "1",
        ],
        "users": {"organiser": organiser, "root": root},
    }


@pytest.fixture(scope="module")
def world(django_db_setup: Any, django_db_blocker: Any) -> Iterator[dict[str, Any]]:
    """The world, built once for this module's tests (in each worker), inside a transaction
    that every test's own nests in (a savepoint, rolled back after the test) and that is rolled
    back when the module is done, as Django's ``TestCase.setUpTestData``: what a test posts is
    gone for the next one, the world stays. (Built for each test, the world and the walk of its
    pages were nine tenths of this module's time.) What is found by walking it — the pages that
    open, the forms on them — is kept in it too (``_memo``)."""
    with django_db_blocker.unblock():
        atomic = transaction.atomic()
        atomic._from_testcase = True  # the code's own transactions are those inside it
        atomic.__enter__()
        try:
            built = _world()
            built["_memo"] = {}
            # Walked here, once: the first visit of some pages makes what they show (a pairing's
            # game), which then belongs to the world and not to a test's GETs.
            with override_settings(RATELIMIT_ENABLE=False):
                _memo_urls(built)
                _organiser_forms(built)
                _organiser_urls(built)
            cache.clear()
            yield built
        finally:
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)


def _memo(world: dict[str, Any], key: str, compute: Any) -> Any:
    """``compute()`` once per world (what walking the world finds does not change)."""
    memo: dict[str, Any] = world["_memo"]
    if key not in memo:
        memo[key] = compute()
    return memo[key]


def _organiser(world: dict[str, Any]) -> Client:
    """A client logged in as the world's organiser (a session of this test's own)."""
    client = Client(raise_request_exception=False)
    client.force_login(world["users"]["organiser"])
    return client


def _organiser_forms(world: dict[str, Any]) -> list[tuple[str, dict[str, str]]]:
    """Every form on the organiser's pages of the world (walked once)."""
    return _memo(world, "forms", lambda: _forms_of(_organiser(world), _memo_urls(world)[0]))


def _memo_urls(world: dict[str, Any]) -> tuple[list[str], list[str]]:
    return _memo(world, "urls", lambda: _urls(world))  # type: ignore[no-any-return]


def _pools(world: dict[str, Any]) -> dict[str, list[str]]:
    ints = [str(i) for i in world["ints"]]
    return {"int": ints, "id": ints, "slug": world["slugs"], "str": world["strs"]}


def _valid_values(
    root: Client, route: str, params: list[tuple[str, str]], pools: dict[str, list[str]]
) -> dict[str, str] | None:
    """The first values of the world a superuser can open ``route`` with (None: none)."""
    choices = [pools.get(conv, pools["str"]) for _, conv in params]
    for combo in itertools.islice(itertools.product(*choices), 120):
        values = dict(zip([n for n, _ in params], combo, strict=True))
        # 403: a signed link for another object (the tablet's token names its game).
        if root.get(_fill(route, values)).status_code not in (404, 400, 403, 410):
            return values
    return None


def _urls(world: dict[str, Any]) -> tuple[list[str], list[str]]:
    """Valid URLs (each pattern reversed with the first values a superuser can open) and
    hostile ones (each parameter in turn given hostile values)."""
    root = Client()
    root.force_login(world["users"]["root"])
    pools = _pools(world)
    valid: list[str] = []
    hostile: list[str] = []
    for route, params in _patterns(get_resolver().url_patterns):
        if route.startswith(("i18n/", "static/")) or "(?P<" in route:
            continue
        if not params:
            valid.append(_fill(route, {}))
            continue
        chosen = _valid_values(root, route, params, pools)
        if chosen is not None:
            valid.append(_fill(route, chosen))
        base = chosen or {n: pools.get(c, pools["str"])[0] for n, c in params}
        for name, conv in params:
            for bad in PATH_VALUES.get(conv, PATH_VALUES["str"]):
                hostile.append(_fill(route, {**base, name: bad}))
    return valid, hostile


def _admin_urls() -> list[str]:
    """Each model's changelist with hostile filters on its own list_filter and search."""
    out = []
    for model, model_admin in admin.site._registry.items():
        base = f"/admin/{model._meta.app_label}/{model._meta.model_name}/"
        filters = [f if isinstance(f, str) else "" for f in model_admin.list_filter]
        for f in filter(None, filters):
            out += [f"{base}?{f}__exact=%00", f"{base}?{f}__id__exact=abc", f"{base}?{f}=%00"]
        out += [f"{base}?q=%00", f"{base}?q=%FF", f"{base}abc/change/", f"{base}%00/change/"]
        out += [f"{base}99999999999999999999/change/", f"{base}?o=9.x", f"{base}?p=-1"]
    return out


#: The two long walks below are cut into this many shares, each a test of its own with its own
#: world, so that parallel workers share them (tests/hypothesis_profiles.py, docs/testing.md).
SHARES = 8


@pytest.mark.slow
@pytest.mark.parametrize("share", range(SHARES))
def test_every_url_with_hostile_paths_and_query_strings_gets_no_server_error(
    share: int, world: dict[str, Any]
) -> None:
    valid, hostile = _memo_urls(world)
    assert len(valid) > 40, valid  # the walk reached the pages, not only their 404s
    assert any(re.fullmatch(r"/tablet/\d+/[^/]+/", url) for url in valid), "the tablet's page"
    clients = [Client(raise_request_exception=False)]
    root = Client(raise_request_exception=False)
    root.force_login(world["users"]["root"])
    clients.append(root)
    failures = []
    before = fingerprint()
    targets = [*hostile, *_admin_urls()]
    for url in valid:
        sep = "&" if "?" in url else "?"
        # Django's admin pages once each (their list filters are in _admin_urls); ours with
        # every hostile query string.
        queries = QUERIES[:2] if url.startswith("/admin/") else QUERIES
        targets += [url, *[f"{url}{sep}{query}" for query in queries]]
    for client in clients:
        for target in targets[share::SHARES]:
            status = client.get(target).status_code
            if status >= 500:
                failures.append((status, target))
    assert not failures, failures[:30]
    assert fingerprint() == before  # GETs change nothing


#: The exceptions behind the server errors seen (for the failure message).
ERRORS: dict[tuple[str, str], str] = {}


def _send(client: Client, url: str, data: dict[str, str] | bytes) -> int:
    if isinstance(data, bytes):
        response = client.post(url, data, content_type="application/x-www-form-urlencoded")
    else:
        response = client.post(url, data)
    if response.status_code >= 500 and getattr(response, "exc_info", None):
        exc = response.exc_info[1]
        tb = response.exc_info[2]
        while tb.tb_next is not None:
            tb = tb.tb_next
        where = f"{tb.tb_frame.f_code.co_filename.split('/work/')[-1]}:{tb.tb_lineno}"
        ERRORS[(url, repr(exc)[:120])] = where
    return response.status_code


def _forms_of(client: Client, urls: list[str]) -> list[tuple[str, dict[str, str]]]:
    forms = []
    for url in urls:
        if url.startswith("/admin/"):
            continue  # Django's own forms; their list filters are walked by GET
        response = client.get(url)
        if response.status_code == 200 and "html" in response.get("Content-Type", ""):
            forms += post_forms(response.content.decode(), url)
    seen = set()
    unique = []
    logout = reverse("logout")
    for url, data in forms:
        if url == logout:
            continue  # the walker would sign itself out
        key = (url, tuple(sorted(data)), data.get("action"))
        if key not in seen:
            seen.add(key)
            unique.append((url, data))
    return unique


# The walk grows with every organiser form (each field × each hostile value, with a
# fingerprint of every table after each post): more time than the default 300 s on a busy machine.
@pytest.mark.slow
@pytest.mark.timeout(900)
@pytest.mark.parametrize("share", range(SHARES))
def test_every_post_form_with_hostile_fields_gets_no_server_error_and_refusals_change_nothing(
    share: int, world: dict[str, Any]
) -> None:
    failures: list[Any] = []
    # The organiser's forms (an administrator sees the same ones, and Django's admin forms).
    for role in ("organiser",):
        client = _organiser(world)
        forms = _organiser_forms(world)
        assert len(forms) > 10, forms
        state = fingerprint()
        posts: list[tuple[str, dict[str, str] | bytes]] = []
        for url, data in forms:
            posts += [(url, {}), (url, {"action": "no-such-action"})]
            posts.append((url, b"action=%FF%FE&name=%FF%00"))
            for field in list(data)[:25]:
                posts += [(url, {**data, field: bad}) for bad in HOSTILE]
                posts.append((url, {k: v for k, v in data.items() if k != field}))
        # Each share takes every SHARES-th post (not every SHARES-th form: one long form, the
        # settings', would make its share the last to end).
        for url, body in posts[share::SHARES]:
            status = _send(client, url, body)
            if status >= 500:
                failures.append((role, status, url, body))
                continue
            after = fingerprint()
            if status >= 400 and after != state:
                failures.append(("changed on refusal", role, status, url, body))
            state = after
    if failures:
        errors = "\n".join(f"{url} {exc} at {where}" for (url, exc), where in ERRORS.items())
        examples = "\n".join(repr(f)[:300] for f in failures[:10])
        pytest.fail(f"{len(failures)} failures. Server errors:\n{errors}\nFirst:\n{examples}")


@settings(max_examples=examples(60), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_generated_posts_to_organiser_endpoints(data: st.DataObject, world: dict[str, Any]) -> None:
    """Hypothesis picks a form and writes arbitrary text into arbitrary fields of it."""
    global _GENERATED
    if _GENERATED is None:
        _GENERATED = (_organiser(world), _organiser_forms(world))
    client, forms = _GENERATED
    url, fields = data.draw(st.sampled_from(forms))
    changes = data.draw(
        st.dictionaries(
            st.sampled_from(sorted(fields)) if fields else st.just("action"),
            st.one_of(st.text(max_size=40), st.sampled_from(HOSTILE)),
            max_size=4,
        )
    )
    before = fingerprint()
    status = _send(client, url, {**fields, **changes})
    assert status < 500, (url, fields, changes)
    if status >= 400:
        assert fingerprint() == before, (url, changes)


_GENERATED: tuple[Client, list[tuple[str, dict[str, str]]]] | None = None


@pytest.fixture(autouse=True)
def _fresh_generated_world() -> Any:
    """The hypothesis test builds its world once per test run (inside the test's database)."""
    global _GENERATED
    _GENERATED = None
    yield
    _GENERATED = None


# --- Every organisers' endpoint, found by its mark --------------------------------------------
def _organiser_routes(patterns: Any = None, prefix: str = "") -> list[str]:
    """The route of every view marked by ``common.permissions.organiser_required``: the pages
    and POST endpoints of organisers, today's and any added later."""
    out: list[str] = []
    for p in get_resolver().url_patterns if patterns is None else patterns:
        route = prefix + str(p.pattern)
        if isinstance(p, URLResolver):
            out += _organiser_routes(p.url_patterns, route)
        elif isinstance(p, URLPattern) and getattr(p.callback, "organiser_required", None):
            out.append(route)
    return sorted(set(out))


ORGANISER_ROUTES = _organiser_routes()
#: Names posted besides a form's own fields: what organisers' views read from a POST.
EXTRA_FIELDS = [
    "action",
    "confirm",
    "anyway",
    "board",
    "entrant",
    "round",
    "kind",
    "a",
    "b",
    # What the clock's script posts (its endpoint has no form to find them in).
    "ply",
    "text",
]


def test_organiser_endpoints_are_found_by_their_mark() -> None:
    """The walk below covers the organisers' pages known today (and finds new ones itself)."""
    for known in ("t/<slug:slug>/manage/", "t/<slug:slug>/manage/pair/", "games/<id:pk>/sheet/"):
        assert known in ORGANISER_ROUTES, ORGANISER_ROUTES
    assert "t/<slug:slug>/standings/" not in ORGANISER_ROUTES
    assert len(ORGANISER_ROUTES) >= 15


_ENDPOINT: dict[str, Any] = {}


def _organiser_urls(world: dict[str, Any]) -> dict[str, str]:
    """Each organisers' route reversed with values of the world that open it (walked once)."""

    def walk() -> dict[str, str]:
        root = Client()
        root.force_login(world["users"]["root"])
        pools = _pools(world)
        urls = {}
        for each in ORGANISER_ROUTES:
            params = [(n, conv or "str") for conv, n in re.findall(r"<(?:(\w+):)?(\w+)>", each)]
            values = _valid_values(root, each, params, pools)
            if values is not None:
                urls[each] = _fill(each, values)
        return urls

    return _memo(world, "organiser_urls", walk)  # type: ignore[no-any-return]


def _endpoint(
    route: str, world: dict[str, Any]
) -> tuple[Client, str, list[dict[str, str]], dict[str, Any]]:
    """The organiser's client (once per test), the endpoint's URL reversed with the world's
    values and the forms of the site that post to it."""
    if _ENDPOINT.get("route") != route:
        urls = _organiser_urls(world)
        assert route in urls, f"no object of the world opens {route}"
        url = urls[route]
        # The forms that post here, from every organisers' page.
        every = _memo(
            world,
            "organiser_route_forms",
            lambda: _forms_of(_organiser(world), list(urls.values())),
        )
        forms = [data for target, data in every if urlsplit(target).path == url]
        _ENDPOINT.update(route=route, client=_organiser(world), url=url, forms=forms)
    return _ENDPOINT["client"], _ENDPOINT["url"], _ENDPOINT["forms"], world


@pytest.mark.parametrize("route", ORGANISER_ROUTES)
@settings(max_examples=examples(12), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_generated_posts_to_every_organiser_endpoint(
    route: str, data: st.DataObject, world: dict[str, Any]
) -> None:
    """Each organisers' endpoint in turn gets generated posts: one of the site's forms that
    post to it (or none) with any of its fields, or the names views read, replaced by text,
    hostile values, numbers out of range or ids of other objects. No 5xx; a refusal (4xx)
    changes nothing."""
    client, url, forms, world = _endpoint(route, world)
    base = data.draw(st.sampled_from([{}, *forms]))
    names = sorted(set(base) | set(EXTRA_FIELDS))
    values = st.one_of(
        st.text(max_size=30),
        st.sampled_from(HOSTILE),
        st.integers(min_value=-5, max_value=2**40).map(str),
        st.sampled_from([str(i) for i in world["ints"]]),
        st.sampled_from(["1", "publish", "delete", "results", "confirm", "terminate", "both"]),
    )
    changes = data.draw(st.dictionaries(st.sampled_from(names), values, max_size=5))
    before = fingerprint()
    status = _send(client, url, {**base, **changes})
    assert status < 500, (url, base, changes, ERRORS)
    if status >= 400:
        assert fingerprint() == before, (url, base, changes)


@pytest.fixture(autouse=True)
def _fresh_endpoint_world() -> Any:
    _ENDPOINT.clear()
    yield
    _ENDPOINT.clear()


# --- What the tablet's script posts (a signed link: no form to find, no organiser's mark) ---
_TABLET: dict[str, Any] = {}


def test_the_tablets_clock_with_hostile_fields_gets_no_server_error(world: dict[str, Any]) -> None:
    """Each field the clock's script posts, in turn, with each hostile value (as the form walk
    above does for the forms of the pages)."""
    token = world["strs"][0]
    url = f"/tablet/{tablet.game_of(token)}/{token}/action/"
    client = Client(raise_request_exception=False)
    failures = []
    for action in ("start", "pause", "turn"):
        data = {"action": action, "ply": "0", "text": "4:5 24/20 13/8"}
        for field in data:
            for bad in HOSTILE:
                before = fingerprint()
                status = _send(client, url, {**data, field: bad})
                if status >= 500 or (status >= 400 and fingerprint() != before):
                    failures.append((status, action, field, bad))
    assert not failures, (failures[:10], ERRORS)


@settings(max_examples=examples(60), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_generated_posts_to_the_tablets_clock(data: st.DataObject, world: dict[str, Any]) -> None:
    """The clock's presses at the board (start, pause, a turn with the ply the page showed),
    with any of their fields replaced: no 5xx; a refusal changes nothing."""
    if not _TABLET:
        token = world["strs"][0]
        game = tablet.game_of(token)
        _TABLET.update(url=f"/tablet/{game}/{token}/action/", client=Client(), ints=world["ints"])
    client, url = _TABLET["client"], _TABLET["url"]
    client.raise_request_exception = False
    values = st.one_of(
        st.text(max_size=30),
        st.sampled_from(HOSTILE),
        st.integers(min_value=-5, max_value=2**40).map(str),
        st.sampled_from(["0", "1", "start", "pause", "turn", "4:5 24/20 13/8", "0:²²:00"]),
    )
    base = {"action": data.draw(st.sampled_from(["start", "pause", "turn"])), "ply": "0"}
    changes = data.draw(
        st.dictionaries(st.sampled_from(["action", "ply", "text", "side"]), values, max_size=3)
    )
    before = fingerprint()
    status = _send(client, url, {**base, **changes})
    assert status < 500, (url, changes, ERRORS)
    if status >= 400:
        assert fingerprint() == before, (url, changes)


@pytest.fixture(autouse=True)
def _fresh_tablet_world() -> Any:
    _TABLET.clear()
    yield
    _TABLET.clear()
