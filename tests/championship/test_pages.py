"""Public and organiser pages of a tournament."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from championship.apps import ORGANISERS_GROUP
from championship.models import TERMINATIONS, Board, Entrant, GameResult, Round, Tournament
from games.demo import create_running_swiss
from tests.championship.results import enter, value

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser_client() -> Client:
    user = User.objects.create_user("org", password="pw-organiser-123")
    user.groups.add(Group.objects.get(name=ORGANISERS_GROUP))
    client = Client()
    client.force_login(user)
    return client


def pages(slug: str, entrant_pk: int) -> list[str]:
    base = f"/t/{slug}/"
    return [
        base,
        base + "players/",
        base + f"players/{entrant_pk}/",
        base + "pairings/2/",
        base + "standings/",
        base + "standings/?round=1",
        base + "crosstable/",
        base + "export.trf",
        base + "standings/?format=csv",
        base + "crosstable/?format=xlsx",
    ]


def test_public_pages_render_and_show_no_contacts(client: Client) -> None:
    t = create_running_swiss(slug="s", players=9, rounds=2)
    e = t.entrants.first()
    for url in pages("s", e.pk):
        response = client.get(url)
        assert response.status_code == 200, url
        assert b"@" not in response.content.replace(b"@media", b"") or url.endswith("xlsx")
    html = client.get("/t/s/standings/").content.decode()
    assert "BH-C1" in html and "SB" in html
    cross = client.get("/t/s/crosstable/?format=csv").content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(cross)))
    assert rows[0][:2] == ["Rank", "Name"] and len(rows) == 10


def test_draft_rounds_are_not_public(client: Client) -> None:
    t = create_running_swiss(slug="s", players=6, rounds=1, unfinished_last=False)
    from championship import services

    services.round_pair_next(tournament=t)
    assert client.get("/t/s/pairings/2/").status_code == 404
    assert client.get("/t/s/pairings/1/").status_code == 200


def open_game(t: Tournament, number: int) -> GameResult:
    """A game of round ``number`` still without a result."""
    return (
        GameResult.objects.filter(
            board__round__tournament=t, board__round__number=number, result=""
        )
        .select_related("board")
        .first()
    )


def post_result(client: Client, slug: str, game: GameResult, result: str, termination: str) -> Any:
    return client.post(
        f"/t/{slug}/manage/round/{game.board.round.number}/",
        {
            "action": "results",
            f"result-{game.pk}": result,
            f"termination-{game.pk}": termination,
            f"version-{game.pk}": game.version,
        },
    )


def test_version_changes_when_a_result_changes(client: Client, organiser_client: Client) -> None:
    t = create_running_swiss(slug="s", players=6, rounds=2)
    v1 = client.get("/t/s/version.json").json()["version"]
    game = open_game(t, 2)
    assert post_result(organiser_client, "s", game, "1-0", "resign").status_code == 302
    # The result's, and the club's rating recomputed after it (its pages show the ratings).
    assert client.get("/t/s/version.json").json()["version"] == v1 + 2
    game.refresh_from_db()
    assert (game.result, game.termination, game.source) == ("1-0", "resign", "organiser")
    # The game being played keeps its sheet; its public page shows the result entered.
    sheet = game.board.games.get()
    assert "1-0" in Client().get(f"/games/{sheet.pk}/").content.decode()


def _tbody(response: Any) -> str:
    return re.search(r"<tbody>.*?</tbody>", response.content.decode(), re.S).group(0)


def test_a_result_shows_on_the_next_request_and_the_worker_has_the_tables_ready(
    client: Client, organiser_client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    from championship import tasks

    t = create_running_swiss(slug="w", players=8, rounds=2)
    before = _tbody(client.get("/t/w/standings/"))
    before_csv = client.get("/t/w/standings/?format=csv").content.decode()
    queued: list[int] = []
    monkeypatch.setattr(
        tasks.warm_public_pages_task, "apply_async", lambda args, **options: queued.append(*args)
    )
    post_result(organiser_client, "w", open_game(t, 2), "1-0", "resign")
    assert queued == [t.pk]  # the organiser's request only queues the recomputation
    t.refresh_from_db()
    tasks.warm_public_pages_task(t.pk)  # the worker computes the new version's tables
    with CaptureQueriesContext(connection) as ctx:
        after = _tbody(client.get("/t/w/standings/"))
    assert after != before  # the new result, at once
    # Ready in the cache, not recomputed by the request: the version, the tournament, the
    # session-less page's few reads.
    assert len(ctx.captured_queries) <= 3, [q["sql"] for q in ctx.captured_queries]
    assert _tbody(organiser_client.get("/t/w/standings/")) == after
    assert client.get("/t/w/standings/?format=csv").content.decode() != before_csv
    assert f'data-version="{t.version}"' in client.get("/t/w/standings/").content.decode()


def test_while_the_worker_computes_the_tables_spectators_get_the_last_ones_it_finished(
    client: Client, organiser_client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A result every second at a 500-player event: spectators are not each to compute the
    new tables (seconds of CPU) while the worker does. They get the page of the last version
    the worker finished, for at most tables.STALE_SECONDS; organisers and downloads get the
    current version."""
    from championship import tables, tasks

    t = create_running_swiss(slug="w", players=8, rounds=2)
    before = _tbody(client.get("/t/w/standings/"))
    before_csv = client.get("/t/w/standings/?format=csv").content.decode()
    old_version = Tournament.objects.get(pk=t.pk).version
    queued: list[int] = []
    monkeypatch.setattr(
        tasks.warm_public_pages_task, "apply_async", lambda args, **options: queued.append(*args)
    )
    post_result(organiser_client, "w", open_game(t, 2), "1-0", "resign")
    assert queued == [t.pk]
    t.refresh_from_db()
    # The worker has not finished: the spectator's page is the previous version's, and says so
    # (its live reload fetches the new one once it is there); nothing is computed for it.
    with CaptureQueriesContext(connection) as ctx:
        stale = client.get("/t/w/standings/")
    assert _tbody(stale) == before
    assert f'data-version="{old_version}"' in stale.content.decode()
    assert len(ctx.captured_queries) <= 3, [q["sql"] for q in ctx.captured_queries]
    for url in ("/t/w/", "/t/w/crosstable/", "/t/w/pairings/2/"):
        assert client.get(url).status_code == 200
    # The organiser who entered it, and the downloads, have it at once.
    own = _tbody(organiser_client.get("/t/w/standings/"))
    assert own != before
    assert client.get("/t/w/standings/?format=csv").content.decode() != before_csv
    # The worker finishes: the new page on the next request.
    tasks.warm_public_pages_task(t.pk)
    assert _tbody(client.get("/t/w/standings/")) == own
    assert f'data-version="{t.version}"' in client.get("/t/w/standings/").content.decode()

    # A worker that never gets to it (stopped): after STALE_SECONDS the requests compute the
    # tables themselves.
    post_result(organiser_client, "w", open_game(t, 2), "0-1", "resign")
    newest = _tbody(organiser_client.get("/t/w/standings/"))
    assert _tbody(client.get("/t/w/standings/")) == own  # within the time: the last finished
    later = tables.time.time() + tables.STALE_SECONDS + 1
    monkeypatch.setattr(tables.time, "time", lambda: later)
    assert _tbody(client.get("/t/w/standings/")) == newest


def test_a_broker_that_is_down_does_not_stop_a_result(
    client: Client, organiser_client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    from championship import tasks

    t = create_running_swiss(slug="d", players=6, rounds=2)
    game = open_game(t, 2)

    def down(args: Any, **options: Any) -> None:
        raise ConnectionError("broker down")

    monkeypatch.setattr(tasks.warm_public_pages_task, "apply_async", down)
    assert post_result(organiser_client, "d", game, "0-1", "resign").status_code == 302
    game.refresh_from_db()
    assert game.result == "0-1"
    assert client.get("/t/d/standings/").status_code == 200  # computed by the request instead


def test_public_pages_are_sent_compressed_and_answer_304_when_unchanged(
    client: Client, organiser_client: Client
) -> None:
    import gzip

    create_running_swiss(slug="g", players=40, rounds=2)
    for url in ("/t/g/standings/", "/t/g/pairings/2/", "/t/g/crosstable/", "/t/g/"):
        plain = client.get(url)
        packed = client.get(url, headers={"accept-encoding": "gzip, deflate, br"})
        assert "Content-Encoding" not in plain
        assert packed["Content-Encoding"] == "gzip"
        assert gzip.decompress(packed.content) == plain.content
        assert len(packed.content) * 2 < len(plain.content)
        for response in (plain, packed):
            assert "Accept-Encoding" in response["Vary"]
            assert "Cookie" in response["Vary"]
        assert plain["ETag"] != packed["ETag"]  # one per encoding
        head = client.head(url, headers={"accept-encoding": "gzip"})
        assert head.status_code == 200 and head["ETag"] == packed["ETag"]  # monitors, proxies
        again = client.get(url, headers={"if-none-match": plain["ETag"]})
        assert again.status_code == 304 and again.content == b""
        again = client.get(
            url, headers={"if-none-match": packed["ETag"], "accept-encoding": "gzip"}
        )
        assert again.status_code == 304
    # A new result: a new page and a new ETag.
    post_result(
        organiser_client, "g", open_game(Tournament.objects.get(slug="g"), 2), "1-0", "resign"
    )
    fresh = client.get("/t/g/standings/", headers={"if-none-match": plain["ETag"]})
    assert fresh.status_code == 200 and fresh["ETag"] != plain["ETag"]
    # Organisers get the page rendered for them, uncompressed.
    own = organiser_client.get("/t/g/standings/", headers={"accept-encoding": "gzip"})
    assert own.status_code == 200 and "Content-Encoding" not in own


def test_a_kept_page_costs_one_query_and_a_new_version_is_a_new_page(
    client: Client, organiser_client: Client
) -> None:
    t = create_running_swiss(slug="m", players=10, rounds=2)
    first = client.get("/t/m/standings/").content
    with CaptureQueriesContext(connection) as ctx:
        assert client.get("/t/m/standings/").content == first
    assert len(ctx.captured_queries) <= 1  # the tournament's version at most (kept a second)
    post_result(organiser_client, "m", open_game(t, 2), "0-1", "resign")
    assert client.get("/t/m/standings/").content != first  # a new version, a new page


def test_the_results_form_shows_each_boards_values_chosen(organiser_client: Client) -> None:
    t = create_running_swiss(slug="f", players=6, rounds=1)
    boards = list(Board.objects.filter(round__tournament=t).exclude(black=None).order_by("number"))
    games = [GameResult.objects.get(board=b) for b in boards]
    GameResult.objects.filter(pk=games[0].pk).update(result="0-1", termination="time")
    GameResult.objects.filter(pk=games[1].pk).update(result="", termination="")
    html = organiser_client.get("/t/f/manage/round/1/").content.decode()

    def chosen(name: str) -> list[str]:
        select = re.search(rf'<select[^>]*name="{name}".*?</select>', html, re.S).group(0)
        return re.findall(r'<option value="([^"]*)" selected>', select)

    def checked(name: str) -> list[str]:
        """The result is a row of radio buttons (one tap each)."""
        return re.findall(
            rf'<input type="radio"[^>]*name="{name}"[^>]*value="([^"]*)"[^>]* checked>', html
        )

    assert checked(f"result-{games[0].pk}") == ["0-1"]
    assert chosen(f"termination-{games[0].pk}") == ["time"]
    assert checked(f"result-{games[1].pk}") == [""] and chosen(f"termination-{games[1].pk}") == []
    assert f'data-board="{boards[1].number}"' in html
    row = re.search(rf'<tr data-board="{boards[1].number}"[^>]*>', html).group(0)
    assert "data-open" in row  # the "only boards without a result" filter finds it


def test_an_edit_in_the_admin_shows_on_the_public_pages(client: Client) -> None:
    from django.forms.models import model_to_dict

    t = create_running_swiss(slug="ad", players=6, rounds=1)
    entrant = t.entrants.order_by("starting_number").first()
    assert entrant.name in client.get("/t/ad/players/").content.decode()  # cached now
    admin = Client()
    admin.force_login(User.objects.create_superuser("root", "root@example.org", "pw-root-12345"))
    data = {k: "" if v is None else v for k, v in model_to_dict(entrant).items()}
    data["name"] = "Renamed At The Desk"
    response = admin.post(f"/admin/championship/entrant/{entrant.pk}/change/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert "Renamed At The Desk" in client.get("/t/ad/players/").content.decode()
    assert "Renamed At The Desk" in client.get("/t/ad/standings/").content.decode()


def measure(client: Client, n: int) -> list[int]:
    from django.core.cache import cache

    t = create_running_swiss(slug=f"q{n}", players=n, rounds=3)
    e = t.entrants.order_by("starting_number").first()
    counts = []
    for url in pages(t.slug, e.pk):
        cache.clear()  # uncached: the worst case
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(url).status_code == 200
        counts.append(len(ctx.captured_queries))
    return counts


@pytest.mark.slow  # a tournament of 300
def test_public_pages_use_a_constant_number_of_queries(client: Client) -> None:
    small, large = measure(client, 20), measure(client, 300)
    assert small == large
    assert max(large) <= 12, large


def test_cached_standings_need_no_recomputation(client: Client) -> None:
    create_running_swiss(slug="c", players=12, rounds=2)
    page = client.get("/t/c/standings/").content
    with CaptureQueriesContext(connection) as ctx:
        client.get("/t/c/standings/")
    assert len(ctx.captured_queries) <= 3  # tournament (+ session); the table comes from the cache
    # Parameters the page does not use (tracking tags, junk) get the same cached page ...
    with CaptureQueriesContext(connection) as ctx:
        assert client.get("/t/c/standings/?utm_source=x&round=abc").content == page
    assert len(ctx.captured_queries) <= 3
    # ... while the round it is asked for is a page of its own.
    assert client.get("/t/c/standings/?round=1").content != page


def test_organiser_pairs_publishes_and_enters_results(organiser_client: Client) -> None:
    t = Tournament.objects.create(
        name="T", slug="o", starts_on="2027-03-14", ends_on="2027-03-14", rounds=2
    )
    page = organiser_client.get("/t/o/manage/")
    assert page.status_code == 200
    for name in ("Анна", "Boris", "Clara", "Dmitri"):
        organiser_client.post("/t/o/manage/", {"action": "add", "name": name, "rating": "1500"})
    response = organiser_client.post("/t/o/manage/pair/")
    assert response.status_code == 302
    rnd = Round.objects.get(tournament=t, number=1)
    assert rnd.status == "draft"
    status = organiser_client.get("/t/o/manage/pair/status.json").json()
    assert status["state"] == "done" and status["round"] == 1
    draft = organiser_client.get("/t/o/manage/round/1/").content.decode()
    assert "both 0 points" in draft  # the arbiter's "why", with names
    organiser_client.post("/t/o/manage/round/1/", {"action": "publish"})
    games = list(GameResult.objects.filter(board__round=rnd))
    data = {"action": "results"}
    for g in games:
        data[f"result-{g.pk}"] = "1-0"
        data[f"termination-{g.pk}"] = "home"
        data[f"version-{g.pk}"] = str(g.version)
    organiser_client.post("/t/o/manage/round/1/", data)
    assert all(g.result == "1-0" for g in GameResult.objects.filter(board__round=rnd))
    # The same form sent again by a second organiser with other values: told, nothing of
    # theirs saved, what they typed kept on the page and the current values shown.
    stale = dict(data)
    for g in games:
        stale[f"result-{g.pk}"] = "0-1"
    response = organiser_client.post("/t/o/manage/round/1/", stale)
    assert response.status_code == 409
    html = response.content.decode()
    assert "Someone else changed this result" in html
    assert 'value="0-1" autocomplete="off" checked>' in html and "table-warning" in html
    assert all(g.result == "1-0" for g in GameResult.objects.filter(board__round=rnd))
    # Next round, and an impossible request: pairing a third round of two.
    organiser_client.post("/t/o/manage/pair/")
    organiser_client.post("/t/o/manage/round/2/", {"action": "publish"})
    for g in GameResult.objects.filter(board__round__number=2, board__round__tournament=t):
        organiser_client.post(
            "/t/o/manage/round/2/",
            {
                "action": "results",
                f"result-{g.pk}": "1/2-1/2",
                f"termination-{g.pk}": "cards",
                f"version-{g.pk}": g.version,
            },
        )
    organiser_client.post("/t/o/manage/pair/")
    status = organiser_client.get("/t/o/manage/pair/status.json").json()
    assert status["state"] == "error" and "no rounds left" in status["text"]
    assert Round.objects.filter(tournament=t).count() == 2


def test_a_players_page_shows_the_mini_match_of_two_games(client: Client) -> None:
    from django.utils.html import escape

    from championship import services

    t = Tournament.objects.create(
        name="T2", slug="mm", starts_on="2027-03-14", ends_on="2027-03-14", games_per_pairing=2
    )
    for i in range(2):
        Entrant.objects.create(tournament=t, name=f"P{i}", rating=1500 - i, checked_in=True)
    rnd = services.round_pair_next(tournament=t)
    services.round_publish(round=rnd)
    board = rnd.boards.select_related("white", "black").get()
    labels = dict(TERMINATIONS)
    # Each side wins the game in which it has Black: 1-1, a drawn mini-match.
    enter(board, "0-1", "home")
    enter(board, "0-1", "blocked", game=2)
    for entrant in (board.white, board.black):
        html = client.get(f"/t/mm/players/{entrant.pk}/").content.decode()
        row = re.search(r"<tbody>.*?</tbody>", html, re.S).group(0)
        # Not game 1's result alone.
        assert '<td data-label="Result"><strong>½</strong> <span' in row, row
        assert f"({escape(labels['home'])}; {escape(labels['blocked'])})" in row, row


def test_two_game_pairings_show_game_points(client: Client, organiser_client: Client) -> None:
    from championship import services
    from championship.models import Entrant

    t = Tournament.objects.create(
        name="T2",
        slug="two",
        starts_on="2027-03-14",
        ends_on="2027-03-14",
        rounds=2,
        games_per_pairing=2,
    )
    for i in range(2):
        Entrant.objects.create(tournament=t, name=f"P{i}", rating=1500 - i, checked_in=True)
    rnd = services.round_pair_next(tournament=t)
    services.round_publish(round=rnd)
    board = rnd.boards.get()
    first, second = GameResult.objects.filter(board=board).order_by("number")
    form = organiser_client.get("/t/two/manage/round/1/").content.decode()
    assert f"result-{second.pk}" in form and "Game 2 (colours reversed)" in form
    organiser_client.post(
        "/t/two/manage/round/1/",
        {
            "action": "results",
            f"result-{first.pk}": "1-0",
            f"termination-{first.pk}": "home",
            f"version-{first.pk}": first.version,
            f"result-{second.pk}": "1/2-1/2",
            f"termination-{second.pk}": "cards",
            f"version-{second.pk}": second.version,
        },
    )
    assert (value(board, 1), value(board, 2)) == (("1-0", "home"), ("1/2-1/2", "cards"))
    html = client.get("/t/two/standings/").content.decode()
    assert "GP" in html and "<strong>1</strong></td>" in html  # the mini-match winner: 1 point
    assert "1.5" in html  # ... and 1½ game points
    assert "game 2" in client.get("/t/two/pairings/1/").content.decode()
