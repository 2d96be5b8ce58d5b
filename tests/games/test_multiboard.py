"""The live multiboard of a round (issue 22, point 6; games.multiboard)."""

from __future__ import annotations

import json
import re
import time
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

from championship.models import Tournament
from championship.services import ResultEntry, game_result_set
from games import services

from .hall_helpers import games_of, published_round
from .helpers import organiser_client

pytestmark = pytest.mark.django_db

OPENING = "4:5 24/20 13/8"


def _feed(client: Client, rnd, **headers: str):  # type: ignore[no-untyped-def]
    return client.get(f"/t/{rnd.tournament.slug}/round/{rnd.number}/live.json", headers=headers)


def test_every_game_with_its_board_clocks_cards_ply_and_result() -> None:
    rnd = published_round(players=6)
    first, second, third = games_of(rnd)
    t0 = timezone.now() - timedelta(minutes=2)
    services.clock_start(game=first, user=None, now=t0)
    services.turn_add(
        game=first, text=OPENING, user=None, from_clock=True, now=t0 + timedelta(minutes=1)
    )
    game_result_set(
        entries=[ResultEntry(board=third.board, number=1, result="0-1", termination="forfeit")],
        user=None,
    )
    response = _feed(Client(), rnd)
    assert response.status_code == 200 and int(response["X-Now"]) > 0
    games = {g["board"]: g for g in response.json()["games"]}
    assert len(games) == 3
    playing = games[first.board.number]
    assert playing["state"] == "playing" and playing["ply"] == 1 and playing["to_move"] == "black"
    assert playing["running"] == "black" and playing["since"] is not None
    assert (playing["white_ms"], playing["black_ms"]) == (29 * 60_000, 30 * 60_000)
    # White has played a 4:5: one card fewer than Black, who has them all, two of each.
    assert playing["black_cards"].endswith("4:5×2 (18)")
    assert playing["white_cards"].endswith("3:6×2 4:5 (17)")
    assert '<g class="layer" data-ply="1">' in playing["layer"]
    assert playing["url"] == f"/games/{first.pk}/"
    assert games[second.board.number]["state"] == "waiting"
    assert games[third.board.number]["state"] == "over"
    assert games[third.board.number]["result"] == "0-1 (forfeit)"
    page = Client().get(f"/t/{rnd.tournament.slug}/round/{rnd.number}/live/")
    html = page.content.decode()
    assert page.status_code == 200 and html.count('class="card h-100 mb-card"') == 3
    assert f'href="/games/{first.pk}/"' in html and html.count('<svg class="nardy-board"') == 3


def test_an_unchanged_round_answers_304_and_a_turn_is_in_the_next_poll() -> None:
    rnd = published_round()
    game = games_of(rnd)[0]
    first = _feed(Client(), rnd)
    tag = first["ETag"]
    assert _feed(Client(), rnd, If_None_Match=tag).status_code == 304
    services.clock_start(game=game, user=None)  # its commit forgets the round's key
    changed = _feed(Client(), rnd, If_None_Match=tag)
    assert changed.status_code == 200 and changed["ETag"] != tag


def test_the_multiboard_takes_the_same_queries_for_4_or_40_boards(
    django_assert_max_num_queries,  # type: ignore[no-untyped-def]
) -> None:
    rnd = published_round(players=80)
    Tournament.objects.filter(pk=rnd.tournament_id).update(spectator_delay_minutes=3)
    games = games_of(rnd)
    t0 = timezone.now() - timedelta(minutes=10)
    for game in games[:30]:
        services.clock_start(game=game, user=None, now=t0)
        services.turn_add(game=game, text=OPENING, user=None, from_clock=True, now=t0)
    client, _user = organiser_client()
    for viewer in (Client(), client):  # delayed (two queries more) and live
        for _ in range(2):  # cold, then the parts cached
            cache.delete_many([f"mb:key:hall-open:1:{k}" for k in "sa"])
            with django_assert_max_num_queries(12):
                data = _feed(viewer, rnd).json()
            assert len(data["games"]) == 40
            assert sum(1 for g in data["games"] if g["ply"] == 1) == 30
        with django_assert_max_num_queries(14):
            assert viewer.get(f"/t/hall-open/round/{rnd.number}/live/").status_code == 200


def test_a_kept_feed_is_two_cache_reads_and_no_query(
    django_assert_max_num_queries,  # type: ignore[no-untyped-def]
) -> None:
    rnd = published_round(players=10)
    _feed(Client(), rnd)
    with django_assert_max_num_queries(0):
        assert _feed(Client(), rnd).status_code == 200


def test_spectators_see_the_round_late_and_the_arbiters_live() -> None:
    rnd = published_round()
    Tournament.objects.filter(pk=rnd.tournament_id).update(spectator_delay_minutes=5)
    game = games_of(rnd)[0]
    t0 = timezone.now() - timedelta(minutes=10)
    services.clock_start(game=game, user=None, now=t0)
    services.turn_add(
        game=game, text=OPENING, user=None, from_clock=True, now=t0 + timedelta(minutes=1)
    )
    services.turn_add(
        game=game, text="3:6 24/18 13/10", user=None, from_clock=True, now=timezone.now()
    )
    late = _feed(Client(), rnd).json()
    assert late["delay"] == 5 and late["games"][0]["ply"] == 1
    assert late["games"][0]["running"] == "black"
    client, _user = organiser_client()
    live = _feed(client, rnd).json()
    assert live["delay"] == 0 and live["games"][0]["ply"] == 2
    page = Client().get(f"/t/hall-open/round/{rnd.number}/live/").content.decode()
    assert "5 minutes late" in page


def _shown_plies(response) -> list[int]:  # type: ignore[no-untyped-def]
    found = re.search(
        r'<script id="mb-data" type="application/json">(.*?)</script>',
        response.content.decode(),
        re.S,
    )
    assert found is not None
    return [g["ply"] for g in json.loads(found.group(1))["games"]]


def test_the_page_a_spectator_opens_is_at_most_a_poll_old_and_the_feed_exact(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Spectators open the multiboard in crowds while every turn makes a new feed: the page is
    rendered once a poll interval (its script asks for the exact feed at once); an arbiter's
    page and everybody's feed are never kept behind a turn."""
    from games import multiboard_views

    now = [(time.time() // multiboard_views.PAGE_SECONDS) * multiboard_views.PAGE_SECONDS]
    monkeypatch.setattr(multiboard_views, "time", SimpleNamespace(time=lambda: now[0]))
    rnd = published_round()
    game = games_of(rnd)[0]
    url = f"/t/hall-open/round/{rnd.number}/live/"
    first = Client().get(url)
    assert _shown_plies(first)[0] == 0
    t0 = timezone.now() - timedelta(minutes=1)
    services.clock_start(game=game, user=None, now=t0)
    services.turn_add(game=game, text=OPENING, user=None, from_clock=True, now=timezone.now())
    assert _feed(Client(), rnd).json()["games"][0]["ply"] == 1
    client, _user = organiser_client()
    assert _shown_plies(client.get(url))[0] == 1
    now[0] += multiboard_views.PAGE_SECONDS - 0.5  # the same interval: the page as kept
    kept = Client().get(url)
    assert _shown_plies(kept)[0] == 0 and kept["ETag"] == first["ETag"]
    now[0] += 0.5  # the next one
    fresh = Client().get(url)
    assert _shown_plies(fresh)[0] == 1 and fresh["ETag"] != first["ETag"]
    assert Client().get(url, headers={"If-None-Match": fresh["ETag"]}).status_code == 304


def test_a_draft_or_missing_round_has_no_multiboard() -> None:
    rnd = published_round()
    assert Client().get("/t/hall-open/round/2/live.json").status_code == 404
    assert Client().get("/t/nothing/round/1/live/").status_code == 404
    assert Client().get(f"/t/hall-open/round/{rnd.number}/live/").status_code == 200


def test_with_a_shared_cache_an_unchanged_round_is_polled_from_the_process_near_copy(
    monkeypatch: pytest.MonkeyPatch, settings: object
) -> None:
    """As with Redis (common.cache, the near copy): a poll of an unchanged round makes no
    round trip to the cache, and a turn committed in this process is in the next poll."""
    from common import cache as layers

    from ..common.test_cache import Counting

    settings.NEAR_CACHE_MS = 500  # type: ignore[attr-defined]
    monkeypatch.setattr(layers, "near", layers.Near())
    counting = Counting()
    monkeypatch.setattr(layers, "cache", counting)
    rnd = published_round()
    game = games_of(rnd)[0]
    tag = _feed(Client(), rnd)["ETag"]
    before = counting.trips
    assert _feed(Client(), rnd, If_None_Match=tag).status_code == 304
    assert _feed(Client(), rnd).status_code == 200
    assert counting.trips == before
    services.clock_start(game=game, user=None)  # its commit forgets the round's key here
    changed = _feed(Client(), rnd, If_None_Match=tag)
    assert changed.status_code == 200 and changed["ETag"] != tag
