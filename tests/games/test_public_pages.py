"""The public game page: replay data for every ply, live reload while the game goes on, and a
number of queries that does not grow with the number of turns."""

from __future__ import annotations

import json
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.models import Game, Turn
from tests.games.helpers import organiser_client, played, reach

pytestmark = pytest.mark.django_db


def game_with(texts: list[str], name: str = "W") -> Game:
    game = Game.objects.create(white_name=name, black_name="B")
    Turn.objects.bulk_create(
        Turn(game=game, ply=i, text=t, clock="0:29:00") for i, t in enumerate(texts, 1)
    )
    return game


def frames(html: str) -> list[dict]:
    m = re.search(r'<script id="replay-frames" type="application/json">(.*?)</script>', html, re.S)
    assert m
    return json.loads(m.group(1))


def test_replay_has_every_position_cards_and_clocks():
    texts = reach(lambda eg: eg.outcome is not None, seed=7)
    eg = played(texts)
    game = game_with(texts)
    html = Client().get(f"/games/{game.pk}/").content.decode()
    data = frames(html)
    assert len(data) == len(texts) + 1
    assert data[1]["turn"] == texts[0] and data[1]["clock"] == "0:29:00"
    assert data[0]["white_hand"].count("4:5") == 2
    assert data[-1]["white_home"] == eg.state.home_count("white")
    assert "data-version-url" not in html  # finished: no live polling
    assert eg.result.replace("1/2-1/2", "½-½") in html
    assert f'href="/games/{game.pk}/record.nrd"' in html


def test_a_game_in_progress_reloads_itself_and_its_version_moves():
    client, _user = organiser_client()
    game = game_with(["4:5 24/20 13/8"])
    html = Client().get(f"/games/{game.pk}/").content.decode()
    assert f'data-version-url="/games/{game.pk}/version.json"' in html
    v = Client().get(f"/games/{game.pk}/version.json").json()["version"]
    client.post(
        f"/games/{game.pk}/sheet/", {"action": "turn", "text": "4:5 24/20 13/8", "ply": "1"}
    )
    assert Client().get(f"/games/{game.pk}/version.json").json()["version"] > v
    # The cached page for spectators is the new one.
    assert len(frames(Client().get(f"/games/{game.pk}/").content.decode())) == 3


def count(client: Client, url: str) -> int:
    from django.core.cache import cache

    cache.clear()
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


@pytest.mark.parametrize("who", ["spectator", "organiser"])
def test_game_pages_queries_do_not_grow_with_the_turns(who):
    short = game_with(reach(lambda eg: eg.ply == 4, seed=8), "short")
    long = game_with(reach(lambda eg: eg.ply == 60 and eg.outcome is None, seed=9), "long")
    client = Client() if who == "spectator" else organiser_client()[0]
    urls = ["/games/{}/", "/games/{}/record.nrd"]
    if who == "organiser":
        urls += ["/games/{}/sheet/", "/games/{}/clock/"]
    for url in urls:
        assert count(client, url.format(short.pk)) == count(client, url.format(long.pk)), url


def test_the_game_page_is_sent_compressed_and_answers_304_when_unchanged():
    import gzip

    texts = reach(lambda eg: eg.ply >= 20, seed=3)
    game = game_with(texts)
    client = Client()
    url = f"/games/{game.pk}/"
    first = client.get(url, headers={"accept-encoding": "gzip"})  # rendered now
    plain = client.get(url)  # from the cache
    assert first["Content-Encoding"] == "gzip"
    assert gzip.decompress(first.content) == plain.content
    assert len(first.content) * 5 < len(plain.content)
    assert "Accept-Encoding" in plain["Vary"]
    assert client.get(url, headers={"if-none-match": plain["ETag"]}).status_code == 304
    # The next turn: a new page, so the old ETag no longer matches.
    from games.engine import legal_plays, playable_cards
    from games.services import turn_add

    state = played(texts).state
    turn_add(game=game, text=legal_plays(state, playable_cards(state)[0])[0].text, user=None)
    fresh = client.get(url, headers={"if-none-match": plain["ETag"]})
    assert fresh.status_code == 200 and fresh["ETag"] != plain["ETag"]


def test_a_kept_game_page_costs_one_query() -> None:
    game = game_with(reach(lambda eg: eg.ply >= 10, seed=4), "kept")
    client = Client()
    url = f"/games/{game.pk}/"
    first = client.get(url).content
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).content == first
    assert len(ctx.captured_queries) == 1, [q["sql"] for q in ctx.captured_queries]
    assert client.get("/games/999999/").status_code == 404
