"""An unchanged spectator's poll answered before the rest of the middleware
(games.middleware.EarlyPollMiddleware; issue 22, the hall's load)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client, override_settings
from django.utils import timezone

from championship.models import Tournament
from games import services
from games.middleware import EarlyPollMiddleware
from games.models import Game

from .hall_helpers import games_of, published_round
from .helpers import organiser_client

pytestmark = pytest.mark.django_db

OPENING = "4:5 24/20 13/8"
WITHOUT_EARLY = [m for m in settings.MIDDLEWARE if m != "games.middleware.EarlyPollMiddleware"]


@pytest.fixture
def early_calls(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether each request was answered early (True) or went on through the stack."""
    calls: list[bool] = []
    original = EarlyPollMiddleware.early

    def watched(request):  # type: ignore[no-untyped-def]
        response = original(request)
        calls.append(response is not None)
        return response

    monkeypatch.setattr(EarlyPollMiddleware, "early", staticmethod(watched))
    return calls


def _urls() -> tuple[str, str]:
    rnd = published_round()
    game = games_of(rnd)[0]
    services.clock_start(game=game, user=None)
    services.turn_add(game=game, text=OPENING, user=None, from_clock=True)
    return f"/t/{rnd.tournament.slug}/round/{rnd.number}/live.json", f"/games/{game.pk}/live.json"


def _headers(response) -> dict[str, str]:  # type: ignore[no-untyped-def]
    return {k: v for k, v in response.headers.items() if k != "X-Now"}


@pytest.mark.parametrize("language", ["en", "ru"])
def test_an_unchanged_poll_gets_the_same_304_as_through_the_whole_stack(
    early_calls: list[bool], language: str
) -> None:
    """Status and every header (but the server's time) as the whole stack sends them, in
    either language, for the multiboard's feed and for a game's live state."""
    for url in _urls():
        headers = {"Accept-Encoding": "gzip", "Accept-Language": language}
        tag = Client().get(url, headers=headers)["ETag"]
        early_calls.clear()
        early = Client().get(url, headers={**headers, "If-None-Match": tag})
        assert early_calls == [True]
        with override_settings(MIDDLEWARE=WITHOUT_EARLY):
            whole = Client().get(url, headers={**headers, "If-None-Match": tag})
        assert early.status_code == whole.status_code == 304
        assert _headers(early) == _headers(whole), url
        assert ("X-Now" in early) == ("X-Now" in whole)  # the feed's clocks' server time


def test_the_feed_in_the_other_language_is_not_the_same_poll(early_calls: list[bool]) -> None:
    """The feed's tag names its language: a Russian reader's tag is not an English one's."""
    feed, _live = _urls()
    tag = Client().get(feed, headers={"Accept-Language": "ru"})["ETag"]
    english = Client().get(feed, headers={"Accept-Language": "en", "If-None-Match": tag})
    cookie = Client()
    cookie.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    chosen = cookie.get(feed, headers={"Accept-Language": "ru", "If-None-Match": tag})
    assert english.status_code == chosen.status_code == 200
    assert english.json()["games"] and early_calls[-2:] == [False, False]


def test_an_unchanged_poll_takes_no_query(  # type: ignore[no-untyped-def]
    django_assert_max_num_queries,
    early_calls: list[bool],
) -> None:
    for url in _urls():
        tag = Client().get(url)["ETag"]
        with django_assert_max_num_queries(0):
            assert Client().get(url, headers={"If-None-Match": tag}).status_code == 304
    assert early_calls[-1] is True


def test_a_changed_poll_goes_through_the_whole_stack_and_gets_the_new_state(
    early_calls: list[bool],
) -> None:
    feed, live = _urls()
    tags = {url: Client().get(url)["ETag"] for url in (feed, live)}
    game_pk = int(live.split("/")[2])
    services.turn_add(
        game=Game.objects.get(pk=game_pk),
        text="3:6 24/18 13/10",
        user=None,
        from_clock=True,
    )
    early_calls.clear()
    for url, tag in tags.items():
        response = Client().get(url, headers={"If-None-Match": tag})
        assert response.status_code == 200 and response["ETag"] != tag
        assert response["X-Frame-Options"] == "DENY" and "Content-Security-Policy" in response
    assert early_calls == [False, False]


def test_an_arbiter_never_takes_it_and_sees_the_games_live(early_calls: list[bool]) -> None:
    """A logged-in organiser sees a tournament with a delay undelayed (games.delay): their
    request has a session, so it goes through the whole stack, whatever tag it sends."""
    rnd = published_round()
    Tournament.objects.filter(pk=rnd.tournament_id).update(spectator_delay_minutes=5)
    game = games_of(rnd)[0]
    t0 = timezone.now() - timedelta(minutes=10)
    services.clock_start(game=game, user=None, now=t0)
    services.turn_add(game=game, text=OPENING, user=None, from_clock=True, now=timezone.now())
    feed = f"/t/{rnd.tournament.slug}/round/{rnd.number}/live.json"
    spectator = Client().get(feed)
    assert spectator.json()["games"][0]["ply"] == 0
    client, _user = organiser_client()
    early_calls.clear()
    arbiter = client.get(feed, headers={"If-None-Match": spectator["ETag"]})
    assert arbiter.status_code == 200 and arbiter.json()["games"][0]["ply"] == 1
    assert early_calls == [False]


def test_what_is_not_an_unchanged_anonymous_poll_goes_on_as_before(
    early_calls: list[bool],
) -> None:
    """Each of these gets what the whole stack gives it, and none is answered early."""
    _feed, live = _urls()
    tag = Client().get(live)["ETag"]

    def answers() -> list[int]:
        with_message = Client()
        with_message.cookies["messages"] = "x"
        return [
            Client().get(live).status_code,  # no tag
            Client().get(f"{live}?lang=ru", headers={"If-None-Match": tag}).status_code,
            Client().post(live, headers={"If-None-Match": tag}).status_code,
            Client(enforce_csrf_checks=True).post(live, headers={"If-None-Match": tag}).status_code,
            with_message.get(live, headers={"If-None-Match": tag}).status_code,
            Client().get("/games/999999/live.json", headers={"If-None-Match": tag}).status_code,
            Client().get("/healthz", headers={"If-None-Match": tag}).status_code,
        ]

    early_calls.clear()
    seen = answers()
    assert early_calls == [False] * 7
    with override_settings(MIDDLEWARE=WITHOUT_EARLY):
        assert answers() == seen
    assert seen[0] == 200 and seen[3] == 403 and seen[5] == 404
