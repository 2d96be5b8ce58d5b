"""Issue 11, the results flow: double forfeit and adjudication (vocabulary, write door,
standings, TRF, pairing input), two-person confirmation before pairing (pair anyway), pairing
refusals said in the reader's language, the round page's confirmations and messages."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client
from django.utils import translation

from championship import jobs, manager, selectors, services
from championship.apps import ORGANISERS_GROUP
from championship.models import Board, Entrant, GameResult, Round, Tournament
from championship.pairing import standings
from championship.pairing.trf import write_trf
from games.engine.game import Game as EngineGame
from games.engine.record import parse_record
from games.engine.vocabulary import Result, Termination, consistent
from tests.championship.results import enter, value


# --- The vocabulary and the engine (no database) --------------------------------------------
def test_double_forfeit_is_only_a_forfeit_and_adjudication_takes_any_result() -> None:
    assert consistent("0-0", "forfeit")
    for termination in set(Termination) - {Termination.FORFEIT}:
        assert not consistent("0-0", termination)
    for result in ("1-0", "0-1", "1/2-1/2"):
        assert consistent(result, "adjudication")
    assert not consistent("*", "adjudication")


def test_the_engine_ends_a_game_by_double_forfeit_or_adjudication() -> None:
    eg = EngineGame()
    outcome = eg.terminate("forfeit", result=Result.DOUBLE_FORFEIT)
    assert (outcome.result, outcome.termination, outcome.winner) == ("0-0", "forfeit", None)
    eg = EngineGame()
    eg.play("4:5 24/20 13/8")
    assert eg.terminate("adjudication", result="1/2-1/2").result == "1/2-1/2"
    eg = EngineGame()
    assert eg.terminate("adjudication", "white").result == "0-1"  # White lost the adjudication
    with pytest.raises(Exception, match="adjudication needs"):
        EngineGame().terminate("adjudication")


def test_records_carry_a_double_forfeit_and_an_adjudication() -> None:
    double = '[Result "0-0"]\n[Termination "forfeit"]\n\n0-0\n'
    assert parse_record(double).game.result == "0-0"
    adjudged = '[Result "1/2-1/2"]\n[Termination "adjudication"]\n\n1. 4:5 24/20 13/8\n1/2-1/2\n'
    assert parse_record(adjudged).game.termination == "adjudication"


# --- The championship -----------------------------------------------------------------------
def make(n: int = 4, rounds: int = 3, **extra: object) -> Tournament:
    t = Tournament.objects.create(
        name="T", slug="t", starts_on="2027-03-14", ends_on="2027-03-14", rounds=rounds, **extra
    )
    for i in range(n):
        Entrant.objects.create(
            tournament=t, name=f"P{i + 1}", rating=2000 - 10 * i, checked_in=True
        )
    return t


def paired(t: Tournament) -> Round:
    rnd = services.round_pair_next(tournament=t)
    services.round_publish(round=rnd)
    return rnd


def boards(rnd: Round) -> list[Board]:
    return list(rnd.boards.exclude(black=None).select_related("white", "black").order_by("number"))


@pytest.mark.django_db
def test_a_double_forfeit_scores_nothing_for_either_and_is_not_a_played_game() -> None:
    t = make(n=4)
    rnd = paired(t)
    first, second = boards(rnd)
    enter(first, "0-0", "forfeit")
    enter(second, "1-0", "home")
    assert value(first) == ("0-0", "forfeit")
    data = manager.tournament_data(t)
    w, b = first.white.starting_number, first.black.starting_number
    assert data.player(w).rounds[0].code == data.player(b).rounds[0].code == "-"
    assert not data.player(w).rounds[0].played
    rows = {r.number: r for r in standings(data)}
    for number in (w, b):
        assert rows[number].points == 0
        assert (rows[number].games, rows[number].losses, rows[number].unplayed) == (0, 0, 1)
    # TRF: "-" for both, with the opponent; FIDE's reading keeps it unplayed.
    trf = write_trf(data)
    line = next(x for x in trf.splitlines() if x.startswith("001") and x[4:8] == f"{w:>4}")
    assert line.rstrip().endswith(f"{b:>4} w -")


@pytest.mark.django_db
def test_a_double_forfeit_needs_the_forfeit_termination_and_an_empty_sheet() -> None:
    t = make(n=2)
    (board,) = boards(paired(t))
    with pytest.raises(services.ResultsRefused, match="double forfeit"):
        enter(board, "0-0", "resign")
    GameResult.objects.filter(board=board).update(has_sheet=True, sheet_plies=3)
    with pytest.raises(services.ResultsRefused, match="does not allow"):
        enter(board, "0-0", "forfeit")
    assert value(board) == ("", "")


@pytest.mark.django_db
def test_players_of_a_double_forfeit_may_meet_again_and_it_gives_them_no_colour() -> None:
    t = make(n=2, rounds=2)
    (board,) = boards(paired(t))
    enter(board, "0-0", "forfeit")
    data = manager.tournament_data(t)
    assert not any(r.played for p in data.players for r in p.rounds)
    second = services.round_pair_next(tournament=t)  # the only pairing left: a rematch
    (again,) = list(second.boards.exclude(black=None))
    assert {again.white_id, again.black_id} == {board.white_id, board.black_id}
    assert services.edit_warnings(second) == []  # no rematch warning: they never played


@pytest.mark.django_db
def test_an_adjudication_counts_as_a_played_game_with_the_arbiters_result() -> None:
    t = make(n=2)
    (board,) = boards(paired(t))
    enter(board, "1/2-1/2", "adjudication")
    rows = {r.number: r for r in standings(manager.tournament_data(t))}
    assert all(r.games == 1 and r.draws == 1 for r in rows.values())
    assert services.describe("1-0", "adjudication") == "1-0 (adjudication)"
    assert services.describe("0-0", "forfeit") == "0-0 (double forfeit)"


@pytest.mark.django_db
def test_a_double_forfeit_comes_back_from_a_trf_import() -> None:
    from championship.interchange import import_trf

    t = make(n=2)
    (board,) = boards(paired(t))
    enter(board, "0-0", "forfeit")
    text = write_trf(manager.tournament_data(t))
    copy = import_trf(text, slug="copy")
    assert list(
        GameResult.objects.filter(board__round__tournament=copy).values_list(
            "result", "termination"
        )
    ) == [("0-0", "forfeit")]


def organiser(name: str) -> Client:
    user = User.objects.create_user(name, password="pw-organiser-123")
    user.groups.add(Group.objects.get(name=ORGANISERS_GROUP))
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.django_db
def test_pairing_over_unconfirmed_results_needs_pair_anyway_after_a_warning_naming_the_boards() -> (
    None
):
    t = make(n=6, two_person_confirmation=True)
    rnd = paired(t)
    first, second, third = boards(rnd)
    enter(first, "1-0", "home")
    enter(second, "0-1", "resign")
    enter(third, "1/2-1/2", "agreement")
    confirmer = User.objects.create_user("second")
    services.game_results_confirm(board=second, user=confirmer)
    assert selectors.unconfirmed_boards(rnd) == [1, 3]
    assert selectors.provisional_boards(t) == {(1, 1), (1, 3)}
    provisional = {
        g.board.number: selectors.is_provisional(g)
        for g in GameResult.objects.filter(board__round=rnd)
    }
    assert provisional == {1: True, 2: False, 3: True}
    # The service refuses, with a code and the boards.
    with pytest.raises(services.ChampionshipError, match="boards 1, 3") as refused:
        services.round_pair_next(tournament=t)
    assert refused.value.code == "round.unconfirmed"
    # The page: a warning naming the boards, nothing paired; then a deliberate "pair anyway".
    client = organiser("org")
    page = client.post("/t/t/manage/pair/")
    html = page.content.decode()
    assert page.status_code == 200 and "boards 1, 3" in html and 'name="anyway"' in html
    assert t.round_set.count() == 1
    response = client.post("/t/t/manage/pair/", {"anyway": "1"}, follow=True)
    assert t.round_set.count() == 2
    assert "are not confirmed yet" in response.content.decode()


@pytest.mark.django_db
def test_confirmed_results_pair_without_a_question() -> None:
    t = make(n=4, two_person_confirmation=True)
    second = User.objects.create_user("second")
    for board in boards(paired(t)):
        enter(board, "1-0", "home")
        services.game_results_confirm(board=board, user=second)
    response = organiser("org").post("/t/t/manage/pair/", follow=True)
    assert t.round_set.count() == 2
    assert "Round 2 is paired as a draft" in response.content.decode()


@pytest.mark.django_db
def test_a_pairing_refusal_is_said_in_the_readers_language() -> None:
    t = make(n=2)
    services.round_pair_next(tournament=t)  # a draft: the next pairing is refused
    client = organiser("org")
    with translation.override("en"):
        client.post("/t/t/manage/pair/", HTTP_ACCEPT_LANGUAGE="en")
    job = jobs.status(t.pk)
    assert job["state"] == "error" and job["code"] == "round.draft_pending"
    client.cookies["django_language"] = "ru"
    status = client.get("/t/t/manage/pair/status.json").json()
    assert status["text"] == "Тур 1 ещё черновик: сначала опубликуйте или удалите его."
    client.cookies["django_language"] = "en"
    assert "still a draft" in client.get("/t/t/manage/pair/status.json").json()["text"]


# --- The round page -------------------------------------------------------------------------
@pytest.mark.django_db
def test_deleting_a_draft_asks_first_and_says_what_happened() -> None:
    t = make(n=4)
    services.round_pair_next(tournament=t)
    client = organiser("org")
    asked = client.post("/t/t/manage/round/1/", {"action": "delete"})
    assert asked.status_code == 200 and "Yes, delete the draft" in asked.content.decode()
    assert t.round_set.count() == 1
    done = client.post("/t/t/manage/round/1/", {"action": "delete", "confirm": "1"}, follow=True)
    assert t.round_set.count() == 0
    assert "The draft of round 1 is deleted" in done.content.decode()


@pytest.mark.django_db
def test_every_action_on_the_draft_ends_with_a_message() -> None:
    t = make(n=4)
    rnd = services.round_pair_next(tournament=t)
    first, second = boards(rnd)
    client = organiser("org")
    r = client.post(
        "/t/t/manage/round/1/", {"action": "swap_colours", "board": first.pk}, follow=True
    )
    assert f"Board 1: colours swapped, {first.black.name} now has White." in r.content.decode()
    first.refresh_from_db()
    r = client.post(
        "/t/t/manage/round/1/",
        {"action": "swap_players", "seat": [f"{first.pk}:white", f"{second.pk}:black"]},
        follow=True,
    )
    assert f"{first.white.name} and {second.black.name} exchanged places." in r.content.decode()
    first.refresh_from_db()
    assert first.white_id == second.black_id
    for seats in ("x", [f"{first.pk}:white", f"{first.pk}:white"]):
        r = client.post(
            "/t/t/manage/round/1/", {"action": "swap_players", "seat": seats}, follow=True
        )
        assert "Tick two players to exchange." in r.content.decode()
    r = client.post("/t/t/manage/round/1/", {"action": "publish"}, follow=True)
    assert "Round 1 is published." in r.content.decode()


@pytest.mark.django_db
def test_the_results_table_offers_a_double_forfeit_and_marks_provisional_results() -> None:
    t = make(n=2, two_person_confirmation=True)
    rnd = paired(t)
    (board,) = boards(rnd)
    game = GameResult.objects.get(board=board)
    client = organiser("org")
    html = client.get("/t/t/manage/round/1/").content.decode()
    assert 'value="0-0" autocomplete="off">' in html and 'value="adjudication"' in html
    r = client.post(
        "/t/t/manage/round/1/",
        {
            "action": "results",
            f"result-{game.pk}": "0-0",
            f"termination-{game.pk}": "forfeit",
            f"version-{game.pk}": str(game.version),
        },
        follow=True,
    )
    assert value(board) == ("0-0", "forfeit")
    assert "data-provisional" in r.content.decode()
