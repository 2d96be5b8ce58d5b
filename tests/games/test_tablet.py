"""The tablet at a board: a signed link opens one game's clock and entry page with no account,
for that game only, until the game is over and both players confirmed, or the round closed."""

from __future__ import annotations

import pytest
from django.test import Client

from championship.models import GameResult, ResultChange, Round, Tournament
from championship.services import ResultEntry, game_result_set
from games import tablet
from games.models import Game

from .hall_helpers import games_of, published_round, tablet_url

pytestmark = pytest.mark.django_db

OPENING = "4:5 24/20 13/8"


def _action(client: Client, game: Game, **data: str) -> tuple[int, dict]:
    response = client.post(f"{tablet_url(game)}action/", data)
    return response.status_code, response.json()


def test_the_link_opens_the_clock_without_an_account_and_plays() -> None:
    rnd = published_round()
    game = games_of(rnd)[0]
    client = Client()  # nobody logged in
    page = client.get(tablet_url(game))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Board 1" in html and "30 min + 15 min" in html
    assert "Move sheet" not in html  # the organisers' sheet is not offered
    assert _action(client, game, action="start")[0] == 200
    status, state = _action(client, game, action="turn", text=OPENING, ply="0")
    assert status == 200, state
    assert state["ply"] == 1 and state["running"] == "black"
    turn = game.turns.get()
    assert turn.text == OPENING and turn.from_tablet and turn.entered_by is None
    state = client.get(f"{tablet_url(game)}state.json").json()
    assert state["to_move"] == "black"
    # The result follows in the championship, as from any sheet.
    assert GameResult.objects.get(board=game.board, number=1).sheet_plies == 1


def test_a_turn_is_answered_from_the_replay_made_under_the_lock(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The turn's answer is the clock a fresh look gives (state.json), read from the replay
    the service made under the game's lock: one replay of the sheet a turn (the locked one
    that validates the turn; the link's check of a turn needs none), none for the answer."""
    from games import selectors

    rnd = published_round()
    game = games_of(rnd)[0]
    client = Client()
    assert _action(client, game, action="start")[0] == 200
    real = selectors.replay
    calls: list[int] = []

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(selectors, "replay", counted)
    status, answered = _action(client, game, action="turn", text=OPENING, ply="0")
    assert status == 200, answered
    assert len(calls) == 1
    fresh = client.get(f"{tablet_url(game)}state.json").json()
    for key in ("version", "ply", "to_move", "running", "result"):
        assert answered[key] == fresh[key], key
    assert answered["white_ms"] == fresh["white_ms"]  # White's clock stopped at the turn
    assert answered["ply"] == 1 and answered["to_move"] == "black"


def test_a_turn_at_the_tablet_reads_and_writes_a_bounded_number_of_rows(
    django_assert_max_num_queries,  # type: ignore[no-untyped-def]
) -> None:
    """The hall's busiest write (docs/performance.md, "The hall"), each statement a round trip
    to a database that waits for a core like everything else in the hall: the transaction's
    start; the game locked, read with its round, its entered result, whether a later round is
    paired and whether it has an analysis; its turns; the turn; the game's new version and its
    snapshot; the championship's row locked with its tournament's; that row written; the
    commit. Nothing read before the lock (the link is checked under it), no savepoint, not the
    opening explorer's rows (an undecided sheet has none), not the game read again after."""
    rnd = published_round()
    game = games_of(rnd)[0]
    client = Client()
    assert _action(client, game, action="start")[0] == 200
    assert _action(client, game, action="turn", text=OPENING, ply="0")[0] == 200  # the first
    with django_assert_max_num_queries(9):
        status, answered = _action(client, game, action="turn", text="5:4 24/20 13/8", ply="1")
    assert status == 200, answered
    assert answered["ply"] == 2


def test_the_tablets_page_and_state_read_the_game_and_its_turns_only(
    django_assert_max_num_queries,  # type: ignore[no-untyped-def]
) -> None:
    """Every few seconds at every board: the link's game read with its round, its entered
    result and whether a later round is paired (``selectors.link_reads``), then its turns —
    the round's check made once, not again with the replay's."""
    rnd = published_round()
    game = games_of(rnd)[0]
    client = Client()
    assert _action(client, game, action="start")[0] == 200
    assert _action(client, game, action="turn", text=OPENING, ply="0")[0] == 200
    client.get(tablet_url(game))  # the session's cookie set
    with django_assert_max_num_queries(2):
        assert client.get(f"{tablet_url(game)}state.json").json()["ply"] == 1
    with django_assert_max_num_queries(2):
        assert client.get(tablet_url(game)).status_code == 200


def test_after_the_tablets_page_its_turn_plays_only_itself_in_the_engine(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The sheet the page replayed is kept in the process (``selectors.played_turns``): the
    turn under the lock is that sheet copied, and the engine plays the new turn alone — not
    the whole game again for each of the link's check, the lock and the answer."""
    from games.engine.game import Game as EngineGame
    from tests.engine.helpers import random_game

    rnd = published_round()
    game = games_of(rnd)[0]
    client = Client()
    assert _action(client, game, action="start")[0] == 200
    texts = [t.text for t in random_game(5, max_plies=4).turns]
    for ply, text in enumerate(texts[:3]):
        assert _action(client, game, action="turn", text=text, ply=str(ply))[0] == 200
    assert client.get(tablet_url(game)).status_code == 200  # the page after the third turn
    real = EngineGame.play
    plays: list[str] = []

    def counted(self, text, **kwargs):  # type: ignore[no-untyped-def]
        plays.append(text)
        return real(self, text, **kwargs)

    monkeypatch.setattr(EngineGame, "play", counted)
    status, answered = _action(client, game, action="turn", text=texts[3], ply="3")
    assert status == 200 and answered["ply"] == 4, answered
    assert plays == [texts[3]]


def test_a_turn_on_a_game_whose_link_has_ended_is_refused_as_the_link() -> None:
    """A turn is let through on the link's round alone and refused under the lock by the
    finished sheet; the answer is then the link's own (403, why), as for any other press."""
    rnd = published_round(players=6)
    Tournament.objects.filter(pk=rnd.tournament_id).update(two_person_confirmation=True)
    first, second, third = games_of(rnd)
    client = Client()
    client.post(tablet_url(first), {"action": "resign", "side": "black"})
    client.post(tablet_url(first), {"action": "confirm", "side": "white"})
    client.post(tablet_url(first), {"action": "confirm", "side": "black"})
    game_result_set(
        entries=[ResultEntry(board=second.board, number=1, result="0-1", termination="forfeit")],
        user=None,
    )
    for game in (first, second):
        status, answered = _action(client, game, action="turn", text=OPENING, ply="0")
        assert status == 403 and answered["refused"], answered
        assert "finished" in answered["error"]
        assert not game.turns.exists()
    # A turn refused on a game whose link still works keeps the service's reason (400).
    assert _action(client, third, action="start")[0] == 200
    status, answered = _action(client, third, action="turn", text=OPENING, ply="7")
    assert status == 400 and "refused" not in answered and "sheet changed" in answered["error"]


def test_the_token_of_one_game_does_not_open_another() -> None:
    rnd = published_round()
    first, second = games_of(rnd)
    token = tablet.token_for(first.pk)
    client = Client()
    for suffix in ("", "state.json"):
        assert client.get(f"/tablet/{second.pk}/{token}/{suffix}").status_code == 403
    assert (
        client.post(f"/tablet/{second.pk}/{token}/action/", {"action": "start"}).status_code == 403
    )
    response = client.post(f"/tablet/{second.pk}/{token}/", {"action": "resign", "side": "white"})
    assert response.status_code == 403
    assert Game.objects.get(pk=second.pk).termination == ""
    assert Game.objects.get(pk=second.pk).clock_running_since is None
    # Forged or foreign signatures: refused too.
    assert client.get(f"/tablet/{first.pk}/{first.pk}:forged/").status_code == 403
    assert client.get(f"/tablet/{first.pk}/{token[:-1]}x/").status_code == 403


def test_only_turns_clocks_resignation_and_agreement_are_allowed() -> None:
    rnd = published_round()
    game = games_of(rnd)[0]
    client = Client()
    _action(client, game, action="start")
    _action(client, game, action="turn", text=OPENING, ply="0")
    before = game.turns.count()
    for name in ("undo", "upload", "terminate", "adjourn", "resume", ""):
        status, _data = _action(client, game, action=name, text=OPENING)
        assert status == 400
        assert client.post(tablet_url(game), {"action": name, "record": ""}).status_code == 400
    # The time or forfeit terminations are the arbiter's; so are the organisers' pages.
    response = client.post(tablet_url(game), {"action": "resign", "side": "nobody"})
    assert response.status_code == 400
    assert client.post(f"/games/{game.pk}/sheet/", {"action": "undo"}).status_code == 302
    assert client.post(f"/games/{game.pk}/clock/action/", {"action": "pause"}).status_code == 302
    game.refresh_from_db()
    assert game.turns.count() == before and game.termination == ""


def test_both_players_confirm_a_resignation_then_the_link_stops() -> None:
    rnd = published_round()
    Tournament.objects.filter(pk=rnd.tournament_id).update(two_person_confirmation=True)
    game = games_of(rnd)[0]
    client = Client()
    _action(client, game, action="start")
    _action(client, game, action="turn", text=OPENING, ply="0")
    response = client.post(tablet_url(game), {"action": "resign", "side": "black"})
    assert response.status_code == 302
    row = GameResult.objects.get(board=game.board, number=1)
    assert (row.result, row.termination, row.confirmed) == ("1-0", "resign", False)
    page = client.get(tablet_url(game)).content.decode()
    assert "White confirms" in page and "Black confirms" in page
    client.post(tablet_url(game), {"action": "confirm", "side": "white"})
    assert client.get(tablet_url(game)).status_code == 200  # Black has not confirmed yet
    assert not GameResult.objects.get(pk=row.pk).confirmed
    client.post(tablet_url(game), {"action": "confirm", "side": "black"})
    row.refresh_from_db()
    assert row.confirmed
    assert ResultChange.objects.filter(game_result=row, action="players", user=None).exists()
    refused = client.get(tablet_url(game))
    assert refused.status_code == 403
    assert "finished" in refused.content.decode()
    assert client.post(f"{tablet_url(game)}action/", {"action": "start"}).status_code == 403


def test_a_draw_agreed_and_a_disagreement_goes_to_the_arbiter() -> None:
    rnd = published_round()
    game = games_of(rnd)[0]
    client = Client()
    client.post(tablet_url(game), {"action": "agreement"})
    game.refresh_from_db()
    assert game.termination == "agreement"
    client.post(tablet_url(game), {"action": "confirm", "side": "white"})
    client.post(tablet_url(game), {"action": "dispute", "side": "black"})
    game.refresh_from_db()
    assert game.disputed == "1/2-1/2 agreement" and game.disputed_by == "black"
    assert client.get(tablet_url(game)).status_code == 403  # the arbiter decides now


def test_a_result_entered_by_hand_or_a_closed_round_stops_the_links() -> None:
    rnd = published_round()
    first, second = games_of(rnd)
    client = Client()
    assert client.get(tablet_url(first)).status_code == 200
    game_result_set(
        entries=[ResultEntry(board=second.board, number=1, result="0-1", termination="forfeit")],
        user=None,
    )
    refused = client.get(tablet_url(second))
    assert refused.status_code == 403 and "finished" in refused.content.decode()
    # The next round paired (here made directly: pairing needs every result in) closes this one.
    Round.objects.create(tournament=rnd.tournament, number=2)
    refused = client.get(tablet_url(first))
    assert refused.status_code == 403 and "Round 1 is closed" in refused.content.decode()
    assert client.post(f"{tablet_url(first)}action/", {"action": "start"}).status_code == 403
    assert Game.objects.get(pk=first.pk).clock_running_since is None
    # A turn, whose view reads nothing before the game's lock, is refused there the same way.
    status, answered = _action(client, first, action="turn", text=OPENING, ply="0")
    assert status == 403 and answered["refused"] and "Round 1 is closed" in answered["error"]
    assert not first.turns.exists()


def test_a_turn_for_a_game_that_is_no_more_is_not_found() -> None:
    """The turn's view reads nothing before the service's lock: a game deleted meanwhile
    (its round paired again) is a 404, as for every other request of its link."""
    rnd = published_round()
    game = games_of(rnd)[0]
    url = tablet_url(game)
    Game.objects.filter(pk=game.pk).delete()
    client = Client()
    response = client.post(f"{url}action/", {"action": "turn", "text": OPENING, "ply": "0"})
    assert response.status_code == 404
    assert client.post(f"{url}action/", {"action": "start"}).status_code == 404


def test_a_finished_tournament_closes_its_rounds() -> None:
    rnd = published_round()
    game = games_of(rnd)[0]
    Tournament.objects.filter(pk=rnd.tournament_id).update(status=Tournament.Status.FINISHED)
    response = Client().get(tablet_url(game))
    assert response.status_code == 403
    assert "The tournament is finished: this link no longer works." in response.content.decode()
    response = Client().post(f"{tablet_url(game)}action/", {"action": "start"})
    assert response.status_code == 403 and "finished" in response.json()["error"]


def test_a_draft_round_or_a_friendly_game_has_no_tablet() -> None:
    friendly = Game.objects.create(white_name="A", black_name="B")
    assert Client().get(tablet_url(friendly)).status_code == 403


def test_both_players_confirming_ends_on_the_game_is_over_not_on_a_broken_link() -> None:
    """The players confirm the result and are thanked: the page they land on said "This link
    does not work", as if something had gone wrong. It says the game is over, with the
    result, and where the tablet goes; a link refused for another reason still says it does
    not work."""
    rnd = published_round()
    first, second = games_of(rnd)
    client = Client()
    client.post(tablet_url(first), {"action": "resign", "side": "black"})
    client.post(tablet_url(first), {"action": "confirm", "side": "white"})
    landed = client.post(tablet_url(first), {"action": "confirm", "side": "black"}, follow=True)
    html = landed.content.decode()
    assert "Both players confirmed the result" in html
    assert heading(html) == "The game is over"
    assert "1-0" in html and "give the tablet back" in html and "does not work" not in html
    token = tablet.token_for(first.pk)
    wrong = client.get(f"/tablet/{second.pk}/{token}/").content.decode()
    assert heading(wrong) == "This link does not work"
    client.post(tablet_url(second), {"action": "agreement"})
    client.post(tablet_url(second), {"action": "dispute", "side": "white"})
    disputed = client.get(tablet_url(second)).content.decode()
    assert heading(disputed) == "This link does not work" and "the arbiter decides" in disputed


def heading(html: str) -> str:
    return html.split('<h1 class="h3">', 1)[1].split("</h1>", 1)[0]


def test_before_the_clock_is_started_each_side_sees_the_time_it_will_start_with() -> None:
    """The clocks showed "–:––:––" until the arbiter started them: players at the board could
    not tell whether the tablet worked or how long they had. They show the phase's time."""
    rnd = published_round()  # 30 min + 15 min
    game = games_of(rnd)[0]
    page = Client().get(tablet_url(game)).content.decode()
    assert page.count("data-time>0:30:00</span>") == 2 and "–:––:––" not in page
    assert 'data-ms=""' in page  # nothing counts down before the start
    client = Client()
    client.post(f"{tablet_url(game)}action/", {"action": "start"})
    started = client.get(tablet_url(game)).content.decode()
    assert 'data-ms="1800000"' in started  # the side not to move: its whole time


def test_the_tablet_is_a_kiosk_with_the_language_switch_only() -> None:
    """The tablet showed the site's menu (Tournaments, Organiser login…): players at a board
    could wander off it. The tablet's pages, open or refused, keep only the language switch;
    the organisers' clock of the same game keeps the menu."""
    from tests.games.helpers import organiser_client

    rnd = published_round()
    game = games_of(rnd)[0]
    for language in ("en", "ru"):
        html = Client().get(tablet_url(game), HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert "kiosk-nav" in html and "lang-switch" in html and "/lang/ru/" in html
        for way_off in ('href="/"', 'href="/accounts/login/"', "navbar-toggler", "/ratings/"):
            assert way_off not in html, (language, way_off)
    client = Client()
    client.post(tablet_url(game), {"action": "resign", "side": "black"})
    client.post(tablet_url(game), {"action": "confirm", "side": "white"})
    client.post(tablet_url(game), {"action": "confirm", "side": "black"})
    refused = client.get(tablet_url(game))  # the game is over: the link's refusal
    assert refused.status_code == 403
    html = refused.content.decode()
    assert "kiosk-nav" in html and 'href="/accounts/login/"' not in html
    org, _user = organiser_client()
    clock = org.get(f"/games/{game.pk}/clock/").content.decode()
    assert "kiosk-nav" not in clock and "navbar-toggler" in clock
