"""Walk every URL as anonymous visitor, signed-link holder, logged-in user without rights,
organiser and superuser, and check who is let in. A new URL that is not listed here fails."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone

from championship.apps import ORGANISERS_GROUP
from championship.models import RatingRun, Tournament
from games import analysis, tablet
from games.demo import create_running_swiss
from games.models import Game, GameAnalysis
from registrations import tokens
from registrations.models import MasterClassSignup, Registration
from tests.conftest import make_session

pytestmark = pytest.mark.django_db

OK, LOGIN, DENIED = 200, 302, 403


def names(patterns, prefix=""):  # type: ignore[no-untyped-def]
    for p in patterns:
        if isinstance(p, URLResolver):
            if p.namespace == "admin" or str(p.pattern).startswith("i18n/"):
                continue
            yield from names(p.url_patterns, f"{p.namespace}:" if p.namespace else prefix)
        elif isinstance(p, URLPattern) and p.name:
            yield prefix + p.name


def test_every_url_by_role():
    t = Tournament.objects.create(name="T", slug="t", starts_on="2027-03-14", ends_on="2027-03-14")
    reg = Registration.objects.create(
        tournament=t,
        name="A",
        email="a@example.org",
        phone="+14165550123",
        experience="club",
        language="en",
        consent_at=timezone.now(),
    )
    session = make_session()
    signup = MasterClassSignup.objects.create(
        session=session, name="S", email="s@example.org", language="en", consent_at=timezone.now()
    )
    swiss = create_running_swiss(slug="sw", players=6, rounds=1)
    first = swiss.entrants.order_by("starting_number").first()
    game = Game.objects.filter(board__round__tournament=swiss).order_by("pk").first()
    board = game.board
    month = RatingRun.objects.get().last_month  # the swiss's games are rated (inline here)
    analysed = analysis.request(game.pk)  # a finished game, analysed: public like its page
    assert analysed is not None
    other = Game.objects.filter(board__round__tournament=swiss).order_by("pk")[1]
    tablet_path = tablet.path_for(game.pk)
    manage = tokens.make_token(tokens.MANAGE, reg.pk, reg.email)
    confirm = tokens.make_token(tokens.CONFIRM, reg.pk, reg.email)
    cancel = tokens.make_token(tokens.SIGNUP, signup.pk, signup.email)
    player = tokens.make_token(tokens.PLAYER, reg.pk, reg.email)
    # name -> (GET url, status for anonymous, plain user, organiser, superuser)
    pages = {
        "home": (reverse("home"), OK, OK, OK, OK),
        "healthz": (reverse("healthz"), OK, OK, OK, OK),
        "switch_language": (reverse("switch_language", args=["ru"]), 302, 302, 302, 302),
        "tournament_detail": (reverse("tournament_detail", args=["t"]), OK, OK, OK, OK),
        "registrations:register": (reverse("registrations:register", args=["t"]), OK, OK, OK, OK),
        "registrations:done": (reverse("registrations:done", args=["t"]), 302, 302, 302, 302),
        "registrations:confirm": (reverse("registrations:confirm", args=[confirm]), OK, OK, OK, OK),
        "registrations:manage": (reverse("registrations:manage", args=[manage]), OK, OK, OK, OK),
        # GET asks "are you sure?"; only a POST withdraws.
        "registrations:withdraw": (
            reverse("registrations:withdraw", args=[manage]),
            OK,
            OK,
            OK,
            OK,
        ),
        "registrations:lost_link": (reverse("registrations:lost_link"), OK, OK, OK, OK),
        "registrations:privacy": (reverse("registrations:privacy"), OK, OK, OK, OK),
        "registrations:reenter": (
            reverse("registrations:reenter", args=[manage]),
            405,
            405,
            405,
            405,
        ),
        "registrations:masterclass_list": (
            reverse("registrations:masterclass_list"),
            OK,
            OK,
            OK,
            OK,
        ),
        "registrations:signup": (
            reverse("registrations:signup", args=[session.pk]),
            OK,
            OK,
            OK,
            OK,
        ),
        "registrations:signup_done": (reverse("registrations:signup_done"), 302, 302, 302, 302),
        "registrations:signup_cancel": (
            reverse("registrations:signup_cancel", args=[cancel]),
            OK,
            OK,
            OK,
            OK,
        ),
        "registrations:list": (reverse("registrations:list", args=["t"]), LOGIN, DENIED, OK, OK),
        "registrations:overview": (reverse("registrations:overview"), LOGIN, DENIED, OK, OK),
        "registrations:session_create": (
            reverse("registrations:session_create"),
            LOGIN,
            DENIED,
            OK,
            OK,
        ),
        "registrations:session_edit": (
            reverse("registrations:session_edit", args=[session.pk]),
            LOGIN,
            DENIED,
            OK,
            OK,
        ),
        # GET asks "are you sure?"; only a POST cancels.
        "registrations:session_cancel": (
            reverse("registrations:session_cancel", args=[session.pk]),
            LOGIN,
            DENIED,
            OK,
            OK,
        ),
        "registrations:registration_detail": (
            reverse("registrations:registration_detail", args=[reg.pk]),
            LOGIN,
            DENIED,
            OK,
            OK,
        ),
        "registrations:announce": (
            reverse("registrations:announce", args=["t"]),
            LOGIN,
            DENIED,
            OK,
            OK,
        ),
        "registrations:digest": (reverse("registrations:digest"), 405, 405, 405, 405),
        "registrations:check_in": (
            reverse("registrations:check_in", args=[reg.pk]),
            405,
            405,
            405,
            405,
        ),
        "registrations:signup_list": (
            reverse("registrations:signup_list", args=[session.pk]),
            LOGIN,
            DENIED,
            OK,
            OK,
        ),
        "registrations:roster": (
            reverse("registrations:roster", args=[session.pk]),
            LOGIN,
            DENIED,
            OK,
            OK,
        ),
        "registrations:person": (reverse("registrations:person"), LOGIN, DENIED, OK, OK),
        "login": (reverse("login"), OK, OK, OK, OK),
        "logout": (reverse("logout"), 405, 405, 405, 405),
        "admin:index": (reverse("admin:index"), LOGIN, LOGIN, LOGIN, OK),
        "championship:overview": ("/t/sw/", OK, OK, OK, OK),
        "championship:players": ("/t/sw/players/", OK, OK, OK, OK),
        "championship:player": (f"/t/sw/players/{first.pk}/", OK, OK, OK, OK),
        "championship:pairings": ("/t/sw/pairings/1/", OK, OK, OK, OK),
        "championship:standings": ("/t/sw/standings/", OK, OK, OK, OK),
        "championship:crosstable": ("/t/sw/crosstable/", OK, OK, OK, OK),
        "championship:trf": ("/t/sw/export.trf", OK, OK, OK, OK),
        "championship:version": ("/t/sw/version.json", OK, OK, OK, OK),
        "championship:dashboard": ("/t/sw/manage/", LOGIN, DENIED, OK, OK),
        "championship:pair_next": ("/t/sw/manage/pair/", 405, 405, 405, 405),
        "championship:pair_status": ("/t/sw/manage/pair/status.json", LOGIN, DENIED, OK, OK),
        "championship:round_manage": ("/t/sw/manage/round/1/", LOGIN, DENIED, OK, OK),
        # Round 1 is published: there is no draft to pair again.
        "championship:round_pair_again": (
            "/t/sw/manage/round/1/pair-again/",
            LOGIN,
            DENIED,
            404,
            404,
        ),
        "championship:settings": ("/t/sw/manage/settings/", LOGIN, DENIED, OK, OK),
        "championship:schedule": ("/t/sw/manage/schedule/", LOGIN, DENIED, OK, OK),
        "championship:schedule_ics": ("/t/sw/schedule.ics", OK, OK, OK, OK),
        # The player's own page: the signed link is the key, whoever holds it.
        "registrations:my_day": (
            reverse("registrations:my_day", args=["t", player]),
            OK,
            OK,
            OK,
            OK,
        ),
        "registrations:my_day_state": (
            reverse("registrations:my_day_state", args=["t", player]),
            OK,
            OK,
            OK,
            OK,
        ),
        "championship:finish": ("/t/sw/manage/finish/", LOGIN, DENIED, OK, OK),
        "championship:entrants": ("/t/sw/manage/entrants/", LOGIN, DENIED, OK, OK),
        "championship:entrant_edit": (
            f"/t/sw/manage/entrants/{first.pk}/",
            LOGIN,
            DENIED,
            OK,
            OK,
        ),
        "championship:entrant_withdraw": (
            f"/t/sw/manage/entrants/{first.pk}/withdraw/",
            LOGIN,
            DENIED,
            OK,
            OK,
        ),
        "championship:entrant_delete": (
            f"/t/sw/manage/entrants/{first.pk}/delete/",
            LOGIN,
            DENIED,
            OK,
            OK,
        ),
        "championship:byes": ("/t/sw/manage/byes/", LOGIN, DENIED, OK, OK),
        "championship:forbidden": ("/t/sw/manage/forbidden-pairs/", LOGIN, DENIED, OK, OK),
        # The organisers' start page: the one tournament under way's dashboard; others home.
        "organiser_home": (reverse("organiser_home"), LOGIN, 302, 302, 302),
        "tournament_create": (reverse("tournament_create"), LOGIN, DENIED, OK, OK),
        # GET says what the demo data is; only a confirmed POST removes it.
        "demo_remove": (reverse("demo_remove"), LOGIN, DENIED, OK, OK),
        "games:tournament_records": ("/t/sw/games.nrd", OK, OK, OK, OK),
        "games:round_records": ("/t/sw/games/1.nrd", OK, OK, OK, OK),
        "games:pairing": (f"/games/pairing/{board.pk}/1/", 302, 302, 302, 302),
        "games:list": ("/games/", OK, OK, OK, OK),
        "games:new": ("/games/new/", 405, 405, 405, 405),
        "games:board_game": (f"/games/board/{board.pk}/1/", LOGIN, DENIED, 302, 302),
        "games:detail": (f"/games/{game.pk}/", OK, OK, OK, OK),
        "games:version": (f"/games/{game.pk}/version.json", OK, OK, OK, OK),
        "games:record": (f"/games/{game.pk}/record.nrd", OK, OK, OK, OK),
        "games:sheet": (f"/games/{game.pk}/sheet/", LOGIN, DENIED, OK, OK),
        "games:clock": (f"/games/{game.pk}/clock/", LOGIN, DENIED, OK, OK),
        "games:clock_state": (f"/games/{game.pk}/clock/state.json", LOGIN, DENIED, OK, OK),
        "games:clock_action": (f"/games/{game.pk}/clock/action/", 405, 405, 405, 405),
        "games:analysis_status": (f"/games/{game.pk}/analysis.json", OK, OK, OK, OK),
        "games:analysis_start": (f"/games/{game.pk}/analysis/start/", 405, 405, 405, 405),
        "games:analysis_ply": (f"/games/{game.pk}/analysis/1/", OK, OK, OK, OK),
        "games:live": (f"/games/{game.pk}/live.json", OK, OK, OK, OK),
        # Issue 24: public pages of what players do with the analysis; the awards wait for
        # the last round (404 for everyone while the tournament runs), exercises for the end
        # of their round; hiding the awards is a POST of organisers.
        "games:analysis_explained": ("/analysis/explained/", OK, OK, OK, OK),
        "games:explorer": ("/openings/", OK, OK, OK, OK),
        "games:awards": ("/t/sw/awards/", 404, 404, 404, 404),
        "games:awards_visibility": ("/t/sw/awards/visibility/", 405, 405, 405, 405),
        "games:training": (f"/t/sw/players/{first.pk}/training/", OK, OK, OK, OK),
        "games:exercise": (f"/t/sw/players/{first.pk}/training/1/", 404, 404, 404, 404),
        # The board's tablet: whoever holds the signed link, no account (games/tablet.py).
        "games:tablet": (tablet_path, OK, OK, OK, OK),
        "games:tablet_state": (f"{tablet_path}state.json", OK, OK, OK, OK),
        "games:tablet_action": (f"{tablet_path}action/", 405, 405, 405, 405),
        "games:hall": ("/t/sw/round/1/hall/", LOGIN, DENIED, OK, OK),
        "games:hall_json": ("/t/sw/round/1/hall.json", LOGIN, DENIED, OK, OK),
        "games:tablets": ("/t/sw/round/1/tablets/", LOGIN, DENIED, OK, OK),
        "games:paper_sheets": ("/t/sw/round/1/sheets/", LOGIN, DENIED, OK, OK),
        # The club's rating and people (issue 23): public pages, organisers' pages of people.
        "ratings": ("/ratings/", OK, OK, OK, OK),
        "ratings_month": (f"/ratings/{month:%Y-%m}/", OK, OK, OK, OK),
        "person": (f"/people/{first.person_id}/", OK, OK, OK, OK),
        "registrations:people": ("/organiser/players/", LOGIN, DENIED, OK, OK),
        "registrations:people_person": (
            f"/organiser/players/{first.person_id}/",
            LOGIN,
            DENIED,
            OK,
            OK,
        ),
        "registrations:people_merge": (
            f"/organiser/players/{first.person_id}/merge/",
            405,
            405,
            405,
            405,
        ),
        "registrations:people_split": (
            f"/organiser/players/{first.person_id}/split/",
            405,
            405,
            405,
            405,
        ),
        "registrations:people_undo": ("/organiser/players/changes/1/undo/", 405, 405, 405, 405),
        "registrations:entrants_import": ("/tournaments/sw/entrants/import/", 405, 405, 405, 405),
        "championship:seed_by_rating": ("/t/sw/manage/entrants/seed/", 405, 405, 405, 405),
        "championship:round_rated": ("/t/sw/manage/round/1/rated/", LOGIN, DENIED, OK, OK),
        "games:round_progress": ("/t/sw/round/1/progress/", LOGIN, DENIED, OK, OK),
        "championship:screen": ("/t/sw/screen/?lang=both", OK, OK, OK, OK),
        # Every game of a round at once: public (spectators delayed, games/delay.py).
        "games:multiboard": ("/t/sw/round/1/live/", OK, OK, OK, OK),
        "games:multiboard_feed": ("/t/sw/round/1/live.json", OK, OK, OK, OK),
        # The absent player's question: whoever holds the registration's signed link.
        "player_absence": (reverse("player_absence", args=[manage]), OK, OK, OK, OK),
    }
    routed = set(names(get_resolver().url_patterns))
    assert routed <= set(pages), f"URLs without a permission entry: {sorted(routed - set(pages))}"

    plain = User.objects.create_user("plain", password="pw-plain-12345")
    organiser = User.objects.create_user("org", password="pw-org-12345")
    organiser.groups.add(Group.objects.get(name=ORGANISERS_GROUP))
    superuser = User.objects.create_superuser("root", "root@example.org", "pw-root-12345")
    clients = [Client()]
    for user in (plain, organiser, superuser):
        c = Client()
        c.force_login(user)
        clients.append(c)
    for name, (url, *expected) in pages.items():
        got = [c.get(url).status_code for c in clients]
        assert got == expected, f"{name} {url}: {got} != {expected}"

    # Organiser actions by POST: refused without the permission, nothing changed.
    check_in = reverse("registrations:check_in", args=[reg.pk])
    assert clients[0].post(check_in).status_code == LOGIN
    assert clients[1].post(check_in).status_code == DENIED
    assert Registration.objects.get(pk=reg.pk).checked_in_at is None
    person = reverse("registrations:person")
    data = {"email": "a@example.org", "action": "anonymise", "confirm": "yes"}
    assert clients[1].post(person, data).status_code == DENIED
    assert Registration.objects.get(pk=reg.pk).anonymised_at is None
    detail = reverse("registrations:registration_detail", args=[reg.pk])
    withdraw = {"action": "withdraw", "confirm": "yes"}
    assert clients[0].post(detail, withdraw).status_code == LOGIN
    assert clients[1].post(detail, withdraw).status_code == DENIED
    assert Registration.objects.get(pk=reg.pk).status == "entered"
    announce = reverse("registrations:announce", args=["t"])
    message = {"audience": "entered", "subject": "S", "body": "B", "send": "1"}
    assert clients[0].post(announce, message).status_code == LOGIN
    assert clients[1].post(announce, message).status_code == DENIED
    digest = reverse("registrations:digest")
    assert clients[0].post(digest, {"digest": "on"}).status_code == LOGIN
    assert clients[1].post(digest, {"digest": "on"}).status_code == DENIED
    from registrations.models import Announcement, DigestSubscription

    assert not Announcement.objects.exists() and not DigestSubscription.objects.exists()
    # Merging people, seeding and marking a game unrated need the permission too.
    merge = f"/organiser/players/{first.person_id}/merge/"
    other_person = swiss.entrants.order_by("starting_number")[1].person_id
    assert clients[0].post(merge, {"other": other_person}).status_code == LOGIN
    assert clients[1].post(merge, {"other": other_person}).status_code == DENIED
    assert clients[1].post("/t/sw/manage/entrants/seed/", {"then": "name"}).status_code == DENIED
    rated = game.board.results.get(number=1)
    assert clients[1].post("/t/sw/manage/round/1/rated/", {"game": rated.pk}).status_code == DENIED
    from people.models import Person

    assert not Person.objects.exclude(merged_into=None).exists()
    assert game.board.results.get(number=1).rated
    # Pairing and result entry need the permission too.
    pair = reverse("championship:pair_next", args=["sw"])
    assert clients[0].post(pair).status_code == LOGIN
    assert clients[1].post(pair).status_code == DENIED
    assert swiss.round_set.count() == 1
    round_page = reverse("championship:round_manage", args=["sw", 1])
    assert clients[1].post(round_page, {"action": "results"}).status_code == DENIED
    # Move sheets and the clock too: nothing changes without the permission.
    turns = game.turns.count()
    for url, data in (
        (f"/games/{game.pk}/sheet/", {"action": "undo"}),
        (f"/games/{game.pk}/clock/action/", {"action": "start"}),
        ("/games/new/", {"white_name": "A", "black_name": "B"}),
        (f"/games/{other.pk}/analysis/start/", {}),
    ):
        assert clients[0].post(url, data).status_code == LOGIN
        assert clients[1].post(url, data).status_code == DENIED
    assert game.turns.count() == turns and Game.objects.filter(board=None).count() == 0
    assert not GameAnalysis.objects.filter(game=other).exists()
    # A tablet's link with another game's id, or a forged one, changes nothing.
    versions = list(Game.objects.order_by("pk").values_list("version", flat=True))
    forged = tablet_path.replace(f"/{game.pk}/", f"/{other.pk}/", 1)
    for url in (forged, f"/tablet/{game.pk}/{game.pk}:forged/"):
        assert clients[0].post(url, {"action": "resign", "side": "white"}).status_code == DENIED
        assert clients[0].post(f"{url}action/", {"action": "start"}).status_code == DENIED
    assert list(Game.objects.order_by("pk").values_list("version", flat=True)) == versions
    # A tampered link is refused with a clear page.
    assert clients[0].get(reverse("registrations:manage", args=[manage + "x"])).status_code == 400


def test_no_contacts_on_any_page_or_export_a_visitor_can_reach(client: Client) -> None:
    """Every entrant registered with an e-mail and a phone; an anonymous visitor follows every
    link from the home page (and the export variants), and no e-mail or phone number appears
    in any page, download or spreadsheet."""
    import io
    import re
    import zipfile
    from urllib.parse import urldefrag, urlparse

    swiss = create_running_swiss(slug="pd", players=8, rounds=2)
    make_session()  # the master-class list is public too
    for i, e in enumerate(swiss.entrants.order_by("pk")):
        e.registration = Registration.objects.create(
            tournament=swiss,
            name=e.name,
            email=f"player{i}@contact-example.org",
            phone=f"+1647289{7000 + i}",
            experience="club",
            language="en",
            consent_at=timezone.now(),
            status=Registration.Status.ENTERED,
        )
        e.save(update_fields=["registration"])
    contact = re.compile(r"contact-example|player\d@|647\D{0,2}289\D{0,2}7\d{3}")

    todo = ["/", "/t/pd/", "/t/pd/standings/?format=csv", "/t/pd/standings/?format=xlsx"]
    todo += ["/t/pd/crosstable/?format=csv", "/t/pd/crosstable/?format=xlsx"]
    seen: set[str] = set()
    kinds: set[str] = set()
    while todo and len(seen) < 400:
        url = todo.pop()
        if url in seen:
            continue
        seen.add(url)
        response = client.get(url, follow=True)  # a game of a pairing redirects to its page
        if response.status_code != 200:
            continue
        body = response.content
        if body.startswith(b"PK"):  # a spreadsheet: its sheets are XML inside a zip
            with zipfile.ZipFile(io.BytesIO(body)) as z:
                body = b"".join(z.read(n) for n in z.namelist())
        text = body.decode("utf-8", "replace")
        assert not contact.search(text), (url, contact.search(text))
        kinds.add(response["Content-Type"].split(";")[0])
        if response["Content-Type"].startswith("text/html"):
            for href in re.findall(r'href="([^"#][^"]*)"', text):
                link = urldefrag(href.replace("&amp;", "&"))[0]
                if urlparse(link).netloc or not link.startswith("/"):
                    continue
                if link.startswith(("/static/", "/admin/", "/accounts/", "/lang/")):
                    continue
                todo.append(link)
    # The walk did reach the players, games and downloads (not a walk of one page).
    assert any(u.startswith("/t/pd/players/") and u != "/t/pd/players/" for u in seen)
    assert any(re.fullmatch(r"/games/pairing/\d+/\d+/", u) for u in seen)
    assert any(u.endswith(".nrd") for u in seen) and "/t/pd/export.trf" in seen
    assert {"text/html", "text/csv"} <= kinds, kinds
