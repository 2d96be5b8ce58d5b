"""Championship services: pairing rounds, manual edits, publishing, results, concurrency."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from championship import services
from championship.models import (
    Board,
    Entrant,
    GameResult,
    RequestedBye,
    ResultChange,
    Round,
    Tournament,
)
from championship.tables import standings as standings_rows
from games.demo import create_running_swiss
from registrations.models import Registration
from registrations.services import field
from tests.championship.results import enter, result_of, value

pytestmark = pytest.mark.django_db


def make(system: str = "swiss", n: int = 6, rounds: int = 3, **extra: object) -> Tournament:
    t = Tournament.objects.create(
        name="T",
        slug=f"t-{system}-{n}",
        starts_on="2027-03-14",
        ends_on="2027-03-14",
        system=system,
        rounds=rounds,
        **extra,
    )
    for i in range(n):
        Entrant.objects.create(
            tournament=t, name=f"P{i + 1}", rating=2000 - 10 * i, checked_in=True
        )
    return t


def finish(rnd: Round, result: str = "1-0", termination: str = "home") -> None:
    services.round_publish(round=rnd)
    for b in rnd.boards.exclude(black=None):
        enter(b, result, termination)


def test_round_one_numbers_by_rating_and_pairs_top_half_against_bottom_half() -> None:
    t = make(n=6)
    Entrant.objects.create(tournament=t, name="Late", rating=2500, checked_in=False)
    rnd = services.round_pair_next(tournament=t)
    assert rnd.status == "draft" and rnd.number == 1
    boards = list(rnd.boards.select_related("white", "black"))
    assert [(b.white.starting_number, b.black.starting_number) for b in boards] == [
        (1, 4),
        (5, 2),
        (3, 6),
    ]
    assert Entrant.objects.get(name="Late").starting_number is None  # not checked in: not paired
    assert boards[0].explanation["score_group"] == "0"


def test_cannot_pair_over_a_draft_or_unfinished_round_or_past_the_last() -> None:
    t = make(n=4, rounds=1)
    rnd = services.round_pair_next(tournament=t)
    with pytest.raises(services.ChampionshipError, match="still a draft"):
        services.round_pair_next(tournament=t)
    services.round_publish(round=rnd)
    with pytest.raises(services.ChampionshipError, match="without a result"):
        services.round_pair_next(tournament=t)
    finish(rnd)
    with pytest.raises(services.ChampionshipError, match="no rounds left"):
        services.round_pair_next(tournament=t)
    assert t.round_set.count() == 1


def test_round_robin_runs_out_of_rounds() -> None:
    t = make(system="rr", n=4)
    for _ in range(3):
        finish(services.round_pair_next(tournament=t))
    with pytest.raises(services.ChampionshipError, match="no rounds left"):
        services.round_pair_next(tournament=t)
    met = {frozenset((b.white_id, b.black_id)) for b in Board.objects.filter(round__tournament=t)}
    assert len(met) == 6  # everyone met everyone


def test_requested_bye_withdrawal_and_late_entry() -> None:
    t = make(n=6, rounds=3)
    finish(services.round_pair_next(tournament=t))
    p1 = t.entrants.get(name="P1")
    p2 = t.entrants.get(name="P2")
    RequestedBye.objects.create(entrant=p1, round_number=2, kind="H")
    services.entrant_withdraw(entrant=p2)
    late = services.entrant_add(
        tournament=t, name="Late", rating=1500, joined_round=2, checked_in=True
    )
    assert late.starting_number == 7
    rnd = services.round_pair_next(tournament=t)
    boards = list(rnd.boards.all())
    half = [b for b in boards if b.white_id == p1.pk]
    assert half and half[0].bye == "H" and half[0].black_id is None
    assert not any(p2.pk in (b.white_id, b.black_id) for b in boards)
    assert any(late.pk in (b.white_id, b.black_id) for b in boards)
    finish(rnd)
    rows = {r.name: r for r in standings_rows(Tournament.objects.get(pk=t.pk))}
    assert rows["Late"].unplayed == 1  # round 1: not yet in the tournament
    assert rows["P1"].unplayed == 1


def test_manual_edits_warn_about_rematches_and_publishing_freezes_them() -> None:
    t = make(n=4, rounds=3)
    r1 = services.round_pair_next(tournament=t)
    finish(r1)
    r2 = services.round_pair_next(tournament=t)
    b1, b2 = list(r2.boards.all())
    first_round_opponent = (
        Board.objects.get(round=r1, white=b1.white).black_id
        or Board.objects.get(round=r1, black=b1.white).white_id
    )
    side = "white" if b2.white_id == first_round_opponent else "black"
    services.boards_swap_players(first=b1, first_side="black", second=b2, second_side=side)
    assert any("played each other" in w for w in services.edit_warnings(r2))
    services.board_swap_colours(board=b1)
    services.round_publish(round=r2)
    with pytest.raises(services.ChampionshipError):
        services.board_swap_colours(board=Board.objects.get(pk=b1.pk))


def test_result_entry_history_and_lost_update_protection() -> None:
    t = make(n=4, rounds=2)
    rnd = services.round_pair_next(tournament=t)
    board = rnd.boards.exclude(black=None).first()
    with pytest.raises(services.ChampionshipError, match="published"):
        enter(board, "1-0", "home")
    services.round_publish(round=rnd)
    alice = User.objects.create_user("alice")
    bob = User.objects.create_user("bob")
    seen_by_alice = seen_by_bob = result_of(board).version
    enter(board, "1-0", "home", user=alice, expected=seen_by_alice)
    with pytest.raises(services.ResultsRefused) as exc:
        enter(board, "0-1", "time", user=bob, expected=seen_by_bob)
    # The second saver is shown the current value, and nothing of theirs is saved.
    (current,) = exc.value.conflicts.values()
    assert (current.result, current.termination) == ("1-0", "home")
    assert "meanwhile" in str(exc.value)
    assert value(board) == ("1-0", "home")
    enter(board, "1/2-1/2", "agreement", user=bob, expected=result_of(board).version)
    history = list(
        ResultChange.objects.filter(game_result__board=board)
        .order_by("at", "pk")
        .values_list("user__username", "action", "source", "old", "new")
    )
    assert history == [
        ("alice", "enter", "organiser", "", "1-0 home"),
        ("bob", "correct", "organiser", "1-0 home", "1/2-1/2 agreement"),
    ]
    for result, termination, why in (
        ("1-0", "cards", "is a draw"),
        ("1/2-1/2", "resign", "cannot be a draw"),
        ("1-0", "", "how the game ended"),
        ("2-0", "home", "Unknown result"),
        ("1-0", "checkmate", "Unknown termination"),
    ):
        with pytest.raises(services.ChampionshipError, match=why):
            enter(board, result, termination, user=bob)
    assert value(board) == ("1/2-1/2", "agreement")


def test_a_form_saves_all_its_results_or_none_and_makes_one_new_version() -> None:
    t = make(n=6, rounds=2)
    rnd = services.round_pair_next(tournament=t)
    services.round_publish(round=rnd)
    boards = list(rnd.boards.select_related("round__tournament").exclude(black=None))
    version = Tournament.objects.get(pk=t.pk).version
    entries = [services.ResultEntry(b, 1, "1-0", "home") for b in boards]
    bad = [*entries[:-1], services.ResultEntry(boards[-1], 1, "1/2-1/2", "home")]
    with pytest.raises(services.ResultsRefused) as exc:
        services.game_result_set(entries=bad, user=None)
    assert [(p[0], p[1]) for p in exc.value.problems] == [(boards[-1].number, 1)]
    assert all(value(b) == ("", "") for b in boards)  # none saved
    assert Tournament.objects.get(pk=t.pk).version == version
    assert len(services.game_result_set(entries=entries, user=None)) == 3
    # One, for three results; and one more from the club's rating recomputed after the commit
    # (its games' ratings show on the tournament's pages).
    assert Tournament.objects.get(pk=t.pk).version == version + 2
    assert services.game_result_set(entries=entries, user=None) == []  # nothing changed
    assert Tournament.objects.get(pk=t.pk).version == version + 2


def test_two_person_confirmation() -> None:
    t = make(n=2, rounds=1, two_person_confirmation=True)
    rnd = services.round_pair_next(tournament=t)
    services.round_publish(round=rnd)
    board = rnd.boards.get()
    alice = User.objects.create_user("alice")
    bob = User.objects.create_user("bob")
    enter(board, "0-1", "resign", user=alice)
    assert not result_of(board).confirmed
    with pytest.raises(services.ChampionshipError, match="another organiser"):
        services.game_results_confirm(board=board, user=alice)
    services.game_results_confirm(board=board, user=bob)
    assert result_of(board).confirmed
    with pytest.raises(services.ChampionshipError, match="no result to confirm"):
        services.game_results_confirm(board=board, user=bob)


def test_standings_count_time_forfeits_and_unplayed_and_custom_points() -> None:
    t = make(n=4, rounds=1, points_win=Decimal("2"), points_draw=Decimal("1"))
    rnd = services.round_pair_next(tournament=t)
    services.round_publish(round=rnd)
    b1, b2 = list(rnd.boards.all())
    enter(b1, "1-0", "time")
    enter(b2, "0-1", "forfeit")
    rows = {r.number: r for r in standings_rows(Tournament.objects.get(pk=t.pk))}
    loser = b1.black.starting_number
    assert rows[loser].time_losses == 1 and rows[loser].losses == 1
    assert rows[b1.white.starting_number].points == 2
    absent = b2.white.starting_number
    assert rows[absent].unplayed == 1 and rows[absent].games == 0


def test_import_confirmed_registrations_once() -> None:
    t = make(n=0)
    now = timezone.now()
    for i, confirmed in enumerate([True, True, False]):
        Registration.objects.create(
            tournament=t,
            name=f"R{i}",
            email=f"r{i}@example.org",
            phone="+14165550123",
            experience="club",
            language="en",
            consent_at=now,
            email_confirmed_at=now if confirmed else None,
        )
    players = f"/t/{t.slug}/players/"
    # Before the start the confirmed registrations are listed already (selectors.
    # tournament_field), the unconfirmed one is not; the page is kept for spectators.
    page = Client().get(players).content.decode()
    assert "R0" in page and "R1" in page and "R2" not in page
    report = field.entrants_import_registrations(tournament=t)
    assert report.added == ["R0", "R1"] and report.left_out == [("R2", "e-mail not confirmed")]
    assert field.entrants_import_registrations(tournament=t).added == []
    page = Client().get(players).content.decode()
    assert "R0" in page and "R1" in page and "R2" not in page  # a new version of the page
    services.entrant_add(tournament=t, name="Walk-in", checked_in=True)
    assert "Walk-in" in Client().get(players).content.decode()


def test_demo_swiss_has_every_termination() -> None:
    t = create_running_swiss(slug="demo", players=12, rounds=3)
    terminations = set(
        GameResult.objects.filter(board__round__tournament=t)
        .exclude(termination="")
        .values_list("termination", flat=True)
    )
    assert terminations == {"home", "blocked", "time", "cards", "resign", "agreement", "forfeit"}
    assert t.round_set.filter(status="published").count() == 3


def test_two_games_per_pairing_make_a_mini_match() -> None:
    t = make(n=4, rounds=2, games_per_pairing=2)
    rnd = services.round_pair_next(tournament=t)
    services.round_publish(round=rnd)
    b1, b2 = list(rnd.boards.select_related("white", "black"))
    assert GameResult.objects.filter(board__round=rnd).count() == 4  # two games a pairing
    # Board 1: each side wins with White: 1-1, a drawn mini-match.
    enter(b1, "1-0", "home")
    enter(b1, "1-0", "blocked", game=2)
    # Board 2: the first White wins both (game 2 "0-1": the board's White, now Black, wins).
    enter(b2, "1-0", "home")
    with pytest.raises(services.ChampionshipError, match="without a result"):
        services.round_pair_next(tournament=t)  # game 2 of board 2 is missing
    enter(b2, "0-1", "time", game=2)
    with pytest.raises(services.ChampionshipError, match="no game 3"):
        enter(b2, "0-1", "time", game=3)
    rows = {r.number: r for r in standings_rows(Tournament.objects.get(pk=t.pk))}
    w1, k1 = b1.white.starting_number, b1.black.starting_number
    w2, k2 = b2.white.starting_number, b2.black.starting_number
    assert (rows[w1].points, rows[k1].points) == (Decimal("0.5"), Decimal("0.5"))
    assert (rows[w1].game_points, rows[k1].game_points) == (1, 1)
    assert (rows[w2].points, rows[w2].game_points, rows[k2].game_points) == (1, 2, 0)
    assert rows[k2].time_losses == 1  # lost game 2 on time
    # The history says which game each line is about.
    history = list(
        ResultChange.objects.filter(game_result__board=b2)
        .order_by("at", "pk")
        .values_list("game_result__number", "new")
    )
    assert history == [(1, "1-0 home"), (2, "0-1 time")]
    r2 = services.round_pair_next(tournament=t)
    assert r2.boards.count() == 2


def test_late_entry_with_half_point_byes_for_missed_rounds() -> None:
    t = make(n=4, rounds=4)
    finish(services.round_pair_next(tournament=t))
    finish(services.round_pair_next(tournament=t))
    Tournament.objects.filter(pk=t.pk).update(max_half_point_byes=2)
    late = services.entrant_add(
        tournament=t, name="Late", rating=1900, checked_in=True, missed_rounds="H"
    )
    zero = services.entrant_add(tournament=t, name="Zero", rating=1800, checked_in=True)
    Tournament.objects.filter(pk=t.pk).update(max_half_point_byes=1)
    services.entrant_add(
        tournament=t,
        name="Capped",
        rating=1700,
        checked_in=True,
        missed_rounds="H",
    )
    assert (late.starting_number, late.joined_round) == (5, 3)
    rows = {r.name: r for r in standings_rows(Tournament.objects.get(pk=t.pk))}
    assert rows["Late"].points == 1 and rows["Late"].unplayed == 2  # two half-point byes
    # The tournament allows one half-point bye a player: round 2 missed scores zero.
    assert rows["Capped"].points == Decimal("0.5") and rows["Capped"].unplayed == 2
    assert rows["Zero"].points == 0 and rows["Zero"].unplayed == 2
    r3 = services.round_pair_next(tournament=t)
    paired = {b.white_id for b in r3.boards.all()} | {b.black_id for b in r3.boards.all()}
    assert late.pk in paired and zero.pk in paired
