"""Move sheets through the web pages: turn by turn (notation and the click data), whole
records, undo, results that follow from the sheet, conflicts with results entered first,
organiser terminations, adjournment and downloads."""

from __future__ import annotations

import pytest
from django.test import Client

from championship.models import Board, GameResult, Round
from games.demo import create_running_swiss
from games.engine import BLACK, WHITE, legal_plays, playable_cards
from games.engine.core import BAR, PHASE_PLIES
from games.engine.record import parse_record
from games.models import Game, Turn
from games.views import click_plays
from tests.championship.results import enter as result_enter
from tests.championship.results import result_of, value
from tests.games.helpers import organiser_client, played, reach, record

pytestmark = pytest.mark.django_db


@pytest.fixture
def org() -> Client:
    return organiser_client()[0]


def new_game(client: Client) -> Game:
    r = client.post(
        "/games/new/",
        {
            "white_name": "Анна",
            "black_name": "Pavel",
            "phase1_minutes": "30",
            "phase2_minutes": "30",
        },
    )
    assert r.status_code == 302
    return Game.objects.get(board=None)


def enter(client: Client, game: Game, text: str, **extra: str) -> object:
    data = {"action": "turn", "text": text, "ply": str(game.turns.count()), **extra}
    return client.post(f"/games/{game.pk}/sheet/", data)


def load(game: Game, texts: list[str]) -> None:
    Turn.objects.bulk_create(Turn(game=game, ply=i, text=t) for i, t in enumerate(texts, 1))


def test_turns_by_notation_are_stored_canonical_and_the_page_shows_the_position(org):
    game = new_game(org)
    assert enter(org, game, "5:4 24/20 13/8").status_code == 302
    assert enter(org, game, "4:1 8/4 6/5").status_code == 302  # Black, card written b:a
    # Canonical: the hit on White's blot (White's 20 = Black's 5) is marked.
    assert list(game.turns.values_list("text", flat=True)) == ["4:5 24/20 13/8", "1:4 8/4 6/5*"]
    html = org.get(f"/games/{game.pk}/sheet/").content.decode()
    assert "<svg" in html and "Ply 3: White" in html
    # The piles: Black received White's 4:5, White received Black's 1:4.
    assert html.count("Received: 4:5") == 1 and html.count("Received: 1:4") == 1
    assert 'data-card="4:5">4:5</button>' in html  # one 4:5 left in White's hand
    assert 'id="legal-plays"' in html


ILLEGAL = [
    # (sheet before, turn, expected words in the message)
    ([], "4:4 24/20 24/20", "is not a card"),
    ([], "1:3 24/23 24/21", "is not one of the game's cards"),
    ([], "4:5 24-20 13/8", "cannot read the step"),
    ([], "4:5 24/20 13/9", "moves 4 points, but the card 4:5 has 5 left"),
    ([], "4:5 23/19 13/8", "starts from point 23, where White has no checker"),
    ([], "4:5 24/20", "is not played in full: 5 is still to be played"),
    ([], "4:5 24/20 13/8 8/3", "one too many"),
    ([], "4:5 13/9* 13/8", "marked with * but there is no blot"),
    ([], "1:5 6/5 6/1", "lands on point 1, held by 2 Black checkers"),
    ([], "1:5 24/23 24/19", "lands on point 19, held by 5 Black checkers"),
    ([], "4:5 bar/21 13/8", "enters from the bar, but White has no checker there"),
    ([], "4:5 24/20 6/0", "goes past point 1; there is no bearing off"),
    ([], "2:5 24/17", "24/17 cannot be played with the card 2:5: as 24/22 22/17"),
    (["3:6 8/5 8/2"], "1:2 24/21", "can be played more than one way with different results"),
    (
        ["4:5 24/20 13/8", "4:5 24/20 13/8", "4:5 24/15", "4:5 24/15"],
        "4:5 13/8 13/9",
        "has no 4:5 left",
    ),
]


@pytest.mark.parametrize(("before", "text", "words"), ILLEGAL)
def test_illegal_turns_are_refused_with_the_step_and_reason_keeping_the_input(
    org, before, text, words
):
    game = new_game(org)
    load(game, before)
    r = enter(org, game, text)
    assert r.status_code == 400
    html = r.content.decode()
    assert words in html.replace("&#x27;", "'"), html[html.find("alert-danger") :][:300]
    assert f'value="{text}"' in html.replace("&gt;", ">")  # what was typed is kept
    assert game.turns.count() == len(before)


def test_positional_errors_bar_first_ambiguous_blocked_card_and_game_over(org):
    # Black has a checker on the bar: any other step first is refused.
    texts = reach(lambda eg: eg.state.to_move == BLACK and eg.state.black[BAR] == 1)
    game = new_game(org)
    load(game, texts)
    eg = played(texts)
    source = next(p for p in range(24, 0, -1) if eg.state.black[p])
    r = enter(org, game, f"1:2 {source}/{source - 1} {source}/{source - 2}")
    assert "has 1 checker on the bar and must enter it first" in r.content.decode()
    # A card that cannot be played in full lists the playable ones.
    texts = reach(lambda eg: len(eg.playable_cards()) < len({c for c in _hand(eg)}))
    eg = played(texts)
    bad = next(c for c in _hand(eg) if c not in eg.playable_cards())
    game2 = new_game_named(org, "x")
    load(game2, texts)
    r = enter(org, game2, f"{bad[0]}:{bad[1]} 24/{24 - bad[0]} 13/{13 - bad[1]}")
    assert "playable cards" in r.content.decode() or "cannot be played" in r.content.decode()
    # After the end of the game no turn is taken.
    texts = reach(lambda eg: eg.outcome is not None and eg.termination == "blocked")
    game3 = new_game_named(org, "y")
    load(game3, texts)
    r = enter(org, game3, "4:5 24/20 13/8")
    assert "form" in r.content.decode() and game3.turns.count() == len(texts)


def test_a_step_after_the_winning_step_is_refused(org):
    import random

    from games.demo import play_game
    from games.engine import legal_plays

    # A game in which White has 14 checkers home after 38 turns (the demo's race policy).
    texts = [t.text for t in play_game(random.Random(7), strong="white").turns[:38]]
    eg = played(texts)
    assert eg.state.home_count(WHITE) == 14 and eg.state.to_move == WHITE
    win = next(
        p for c in eg.playable_cards() for p in legal_plays(eg.state, c) if len(p.steps) == 1
    )
    game = new_game(org)
    load(game, texts)
    r = enter(org, game, f"{win.text} 24/23")
    assert r.status_code == 400
    assert "comes after the game was won" in r.content.decode()
    assert game.turns.count() == 38


def _hand(eg):  # type: ignore[no-untyped-def]
    from games.engine.core import hand_cards

    return hand_cards(eg.state.hand(eg.state.to_move))


def new_game_named(client: Client, name: str) -> Game:
    client.post("/games/new/", {"white_name": name, "black_name": "B"})
    return Game.objects.filter(white_name=name).get()


def test_messages_in_russian(org):
    game = new_game(org)
    org.cookies["django_language"] = "ru"
    r = enter(org, game, "4:5 24/20 13/9")
    html = r.content.decode()
    assert r.status_code == 400
    assert "Ход 1 (Белые, 4:5)" in html and "13/9" in html
    # Every route tried is explained in Russian too.
    html = enter(org, game, "2:5 24/17").content.decode()
    assert "как 24/22 22/17: шаг 22/17 ведёт на пункт 17" in html


def test_undo_takes_back_the_last_turn_only_once(org):
    game = new_game(org)
    enter(org, game, "4:5 24/20 13/8")
    enter(org, game, "4:5 24/20 13/8")
    r = org.post(f"/games/{game.pk}/sheet/", {"action": "undo", "ply": "2"})
    assert r.status_code == 302 and game.turns.count() == 1
    # A second press with the old page (ply 2) is refused, not a second undo.
    r = org.post(f"/games/{game.pk}/sheet/", {"action": "undo", "ply": "2"})
    assert r.status_code == 400 and game.turns.count() == 1


def test_a_stale_page_cannot_enter_a_turn_twice(org):
    game = new_game(org)
    assert enter(org, game, "4:5 24/20 13/8").status_code == 302
    r = org.post(
        f"/games/{game.pk}/sheet/", {"action": "turn", "text": "4:5 24/20 13/8", "ply": "0"}
    )
    assert r.status_code == 400 and "changed meanwhile" in r.content.decode()
    assert game.turns.count() == 1


def test_click_data_lists_every_legal_play_in_each_clickable_order():
    from games.engine import legal_plays, start_state
    from games.engine.game import Game as EngineGame

    plays = click_plays(EngineGame())
    state = start_state()
    for card, listed in plays.items():
        assert {p["text"] for p in listed} == {p.text for p in legal_plays(state, card)}
        for p in listed:
            for order in p["orders"]:
                assert order[0][0] in range(1, 26)
    # 4:5: 24/20 13/8 may be clicked either way round; one checker 13/4 by either route.
    by_text = {p["text"]: p for p in plays["4:5"]}
    assert sorted(by_text["4:5 24/20 13/8"]["orders"]) == [[[13, 8], [24, 20]], [[24, 20], [13, 8]]]
    assert sorted(by_text["4:5 13/9 9/4"]["orders"]) == [[[13, 8], [8, 4]], [[13, 9], [9, 4]]]


def test_whole_record_upload_download_and_errors_name_the_ply(org):
    game = new_game(org)
    texts = reach(lambda eg: eg.outcome is not None)
    eg = played(texts)
    text = record(texts, eg.result, eg.termination)
    r = org.post(f"/games/{game.pk}/sheet/", {"action": "upload", "record": text})
    assert r.status_code == 302
    assert game.turns.count() == len(texts)
    down = Client().get(f"/games/{game.pk}/record.nrd").content.decode()
    assert parse_record(down).game.result == eg.result
    assert [t.text for t in parse_record(down).game.turns] == texts
    # A broken record: the ply is named, the text is kept, the old sheet is untouched.
    broken = text.replace(texts[4], "4:5 24/15/10", 1)
    game2 = new_game_named(org, "z")
    r = org.post(f"/games/{game2.pk}/sheet/", {"action": "upload", "record": broken})
    html = r.content.decode()
    assert r.status_code == 400 and "Ply 5" in html
    assert "24/15/10" in html and game2.turns.count() == 0
    # A file upload works the same way.
    from django.core.files.uploadedfile import SimpleUploadedFile

    f = SimpleUploadedFile("g.nrd", text.encode("utf-8"), content_type="text/plain")
    r = org.post(f"/games/{game2.pk}/sheet/", {"action": "upload", "record": "", "file": f})
    assert r.status_code == 302 and game2.turns.count() == len(texts)


def test_a_pasted_text_bigger_than_any_record_is_refused_at_once(org):
    game = new_game(org)
    texts = reach(lambda eg: eg.ply >= 4)
    sheet = record(texts, "*", None)
    org.post(f"/games/{game.pk}/sheet/", {"action": "upload", "record": sheet})
    huge = sheet + "".join(f"{{comment {i}}} " for i in range(8_000))  # about 100 KB
    r = org.post(f"/games/{game.pk}/sheet/", {"action": "upload", "record": huge})
    assert r.status_code == 400 and "at most 64 KB" in r.content.decode()
    assert game.turns.count() == len(texts)  # the sheet as it was
    r = org.post(f"/games/{game.pk}/sheet/", {"action": "turn", "text": "4:5 " + "24/20 " * 500})
    assert r.status_code == 400 and "a card and two steps" in r.content.decode()
    assert game.turns.count() == len(texts)


@pytest.fixture
def swiss():  # type: ignore[no-untyped-def]
    return create_running_swiss(slug="g", players=6, rounds=1, unfinished_last=False)


def fresh_board(t) -> Board:  # type: ignore[no-untyped-def]
    """A pairing whose game has not started: no sheet, no result."""
    board = Board.objects.filter(round__tournament=t).exclude(black=None).order_by("number")[0]
    board.games.all().delete()
    GameResult.objects.filter(board=board).update(
        result="",
        termination="",
        source="",
        has_sheet=False,
        sheet_plies=0,
        sheet_result="",
        sheet_termination="",
    )
    board.refresh_from_db()
    return board


def test_results_follow_from_the_sheet_and_standings_update(org, swiss):
    board = fresh_board(swiss)
    r = org.get(f"/games/board/{board.pk}/1/")
    game = Game.objects.get(board=board)
    assert r.status_code == 302 and r["Location"] == f"/games/{game.pk}/sheet/"
    texts = reach(lambda eg: eg.outcome is not None and eg.termination == "home", seed=1)
    load(game, texts[:-1])
    before = Client().get("/t/g/standings/").content
    assert enter(org, game, texts[-1]).status_code == 302
    eg = played(texts)
    assert value(board) == (eg.result, "home")
    assert result_of(board).source == "sheet"
    assert Client().get("/t/g/standings/").content != before
    # Terminations by an organiser are refused once the moves decide the game.
    r = org.post(
        f"/games/{game.pk}/sheet/",
        {"action": "terminate", "termination": "resign", "side": "white", "confirm": "1"},
    )
    assert r.status_code == 400 and "already decided" in r.content.decode()
    # Undo reopens the game: the result goes away again.
    org.post(f"/games/{game.pk}/sheet/", {"action": "undo", "ply": str(len(texts))})
    assert value(board) == ("", "")


def test_organiser_termination_on_the_game_gives_the_result(org, swiss):
    board = fresh_board(swiss)
    game = Game.objects.get(pk=org.get(f"/games/board/{board.pk}/1/")["Location"].split("/")[2])
    load(game, ["4:5 24/20 13/8"])
    r = org.post(
        f"/games/{game.pk}/sheet/",
        {"action": "terminate", "termination": "resign", "side": "black", "confirm": "1"},
    )
    assert r.status_code == 302
    assert value(board) == ("1-0", "resign")
    game.refresh_from_db()
    assert game.termination == "resign" and game.termination_side == "black"


def test_result_entered_first_must_agree_with_the_sheet_or_the_organiser_chooses(org, swiss):
    board = fresh_board(swiss)
    result_enter(board, "0-1", "resign")
    game = Game.objects.get(pk=org.get(f"/games/board/{board.pk}/1/")["Location"].split("/")[2])
    texts = reach(lambda eg: eg.outcome is not None and eg.result == "1-0", seed=2)
    eg = played(texts)
    text = record(texts, eg.result, eg.termination)
    r = org.post(f"/games/{game.pk}/sheet/", {"action": "upload", "record": text})
    html = r.content.decode()
    assert r.status_code == 409 and "Which one stands?" in html
    assert game.turns.count() == 0  # nothing saved until the organiser decides
    assert value(board) == ("0-1", "resign")
    # The sheet stands: the record is saved and the result changes.
    r = org.post(
        f"/games/{game.pk}/sheet/", {"action": "upload", "record": text, "overrule": "sheet"}
    )
    assert r.status_code == 302 and game.turns.count() == len(texts)
    assert value(board) == ("1-0", eg.termination)
    # Now a result entered directly that contradicts the sheet is refused.
    current = result_of(board)
    r = org.post(
        "/t/g/manage/round/1/",
        {
            "action": "results",
            f"result-{current.pk}": "0-1",
            f"termination-{current.pk}": "resign",
            f"version-{current.pk}": str(current.version),
        },
    )
    assert r.status_code == 400 and "decides it" in r.content.decode()
    assert value(board) == ("1-0", eg.termination)


def test_an_undecided_sheet_agrees_with_an_organiser_termination_entered_first(org, swiss):
    board = fresh_board(swiss)
    result_enter(board, "1-0", "resign")
    game = Game.objects.get(pk=org.get(f"/games/board/{board.pk}/1/")["Location"].split("/")[2])
    texts = reach(lambda eg: eg.ply == 10, seed=3)
    r = org.post(f"/games/{game.pk}/sheet/", {"action": "upload", "record": record(texts)})
    assert r.status_code == 302
    assert value(board) == ("1-0", "resign") and result_of(board).source == "organiser"
    # The game shows the result entered by hand, and is over: no turn after it.
    page = Client().get(f"/games/{game.pk}/").content.decode()
    assert "1-0" in page
    state = played(texts).state
    legal = legal_plays(state, playable_cards(state)[0])[0].text  # legal, but the game is over
    assert enter(org, game, legal).status_code == 400
    assert game.turns.count() == 10
    # A flag at ply 10 (phase 1) cannot be a draw: refused on the round page.
    current = result_of(board)
    r = org.post(
        "/t/g/manage/round/1/",
        {
            "action": "results",
            f"result-{current.pk}": "1/2-1/2",
            f"termination-{current.pk}": "time",
            f"version-{current.pk}": str(current.version),
        },
    )
    assert r.status_code == 400 and "does not allow" in r.content.decode()


def test_adjourn_after_ply_36_and_resume_with_fresh_phase_two_clocks(org):
    game = new_game(org)
    texts = reach(lambda eg: eg.ply == PHASE_PLIES and eg.outcome is None, seed=4)
    load(game, texts)
    Game.objects.filter(pk=game.pk).update(clock_white_ms=5000, clock_black_ms=7000)
    assert org.post(f"/games/{game.pk}/sheet/", {"action": "adjourn"}).status_code == 302
    game.refresh_from_db()
    assert game.adjourned
    page = Client().get(f"/games/{game.pk}/").content.decode()
    assert "adjourned" in page
    assert "text/plain" in Client().get(f"/games/{game.pk}/record.nrd")["Content-Type"]
    r = enter(org, game, "4:5 24/20 13/8")
    assert r.status_code == 400 and "adjourned" in r.content.decode()
    assert org.post(f"/games/{game.pk}/sheet/", {"action": "resume"}).status_code == 302
    game.refresh_from_db()
    assert not game.adjourned and game.clock_white_ms == game.clock_black_ms == 1_800_000
    # Adjourning is refused at any other moment.
    game2 = new_game_named(org, "w")
    load(game2, texts[:10])
    r = org.post(f"/games/{game2.pk}/sheet/", {"action": "adjourn"})
    assert r.status_code == 400 and "only right after ply 36" in r.content.decode()


def test_round_and_tournament_downloads_hold_every_game(swiss):
    client = Client()
    one = client.get("/t/g/games/1.nrd")
    assert one.status_code == 200
    text = one.content.decode()
    games = Game.objects.filter(board__round__tournament=swiss)
    records = [r for r in text.split("\n\n[") if r.strip()]
    assert len(records) == games.count() == 3
    for chunk in records:
        rec = parse_record(chunk if chunk.startswith("[") else "[" + chunk)
        assert rec.tag("White") and rec.tag("Round").startswith("1.")
    assert client.get("/t/g/games.nrd").content.decode() == text
    Round.objects.filter(tournament=swiss).update(status=Round.Status.DRAFT)
    assert client.get("/t/g/games/1.nrd").status_code == 404
    assert client.get(f"/games/{games[0].pk}/").status_code == 404


def test_every_demo_game_has_a_sheet_that_gives_its_result(swiss):
    from games.selectors import replay

    for board in Board.objects.filter(round__tournament=swiss).exclude(black=None):
        game = board.games.get()
        eg = replay(game)
        if game.termination != "forfeit":
            assert eg.turns
        assert value(board) == ((eg.result, eg.termination) if eg.outcome else ("", ""))
        facts = result_of(board)
        assert facts.has_sheet and facts.sheet_plies == eg.ply


def test_player_page_and_crosstable_link_to_the_games(swiss):
    client = Client()
    game = Game.objects.filter(board__round__tournament=swiss).first()
    entrant = game.board.white
    link = f"/games/pairing/{game.board_id}/1/"
    assert link in client.get(f"/t/g/players/{entrant.pk}/").content.decode()
    assert link in client.get("/t/g/crosstable/").content.decode()
    assert client.get(link)["Location"] == f"/games/{game.pk}/"


def test_side_constants():  # the side names used by the pages
    assert (WHITE, BLACK) == ("white", "black")
