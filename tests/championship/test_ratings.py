"""The club's rating from the database (championship.services.ratings): each rule of
docs/ratings.md, recomputation after a correction, the coalesced task, and the stored result
against the independent implementation of the tests."""

from __future__ import annotations

import math
from datetime import UTC, date, datetime

import pytest

from championship import services
from championship.models import PersonRating, RatedGame, RatingRun, Tournament
from championship.rating import month_index
from championship.services import ratings

from .glicko2_reference import reference_series
from .ratings_world import event, game, person
from .results import enter

pytestmark = pytest.mark.django_db

JAN = date(2026, 1, 10)
MAR = date(2026, 3, 10)


def final(p: object) -> PersonRating:
    run = RatingRun.objects.get()
    return PersonRating.objects.get(person=p, month=run.last_month)


def test_what_is_rated_and_what_is_not() -> None:
    a, b, c, d, e, f = (person(n) for n in "ABCDEF")
    t = event("t", JAN, [a, b, c, d, e, f])
    rated = [
        game(t, 1, a, b, "1-0", "home", day=JAN),
        game(t, 1, c, d, "0-1", "time", day=JAN),
        game(t, 1, e, f, "1/2-1/2", "agreement", day=JAN),
        game(t, 2, a, c, "1-0", "blocked", day=JAN),
        game(t, 2, b, d, "0-1", "resign", day=JAN),
        game(t, 2, e, f, "1-0", "adjudication", day=JAN),
    ]
    not_rated = [
        game(t, 3, a, d, "1-0", "forfeit", day=JAN),  # a forfeit
        game(t, 3, b, c, "0-0", "forfeit", day=JAN),  # a double forfeit
        game(t, 3, e, f, "1-0", "home", day=JAN, rated=False),  # marked unrated
        game(t, 4, a, e, "1-0", "home", day=JAN, confirmed=False),  # awaiting confirmation
        game(t, 4, b, f, "", day=JAN),  # no result yet
        game(t, 5, c, d, "1-0", "home", day=JAN, status="draft"),  # a draft round
    ]
    game(t, 4, c, None, bye="H", day=JAN)  # byes of every kind
    game(t, 4, d, None, bye="U", day=JAN)
    run = services.ratings_recompute()
    assert run.games == 6
    assert set(RatedGame.objects.values_list("game_result_id", flat=True)) == {g.pk for g in rated}
    assert not RatedGame.objects.filter(game_result__in=not_rated).exists()
    games = dict(PersonRating.objects.values_list("person__name", "games"))
    assert games == {"A": 2, "B": 2, "C": 2, "D": 2, "E": 2, "F": 2}


def test_the_month_is_the_rounds_date_in_toronto() -> None:
    a, b = person("A"), person("B")
    t = event("t", date(2026, 1, 30), [a, b])
    game(t, 1, a, b, "1-0", day=date(2026, 1, 31))
    game(t, 2, a, b, "0-1", day=date(2026, 2, 1))
    # No date: the day it was published, in Toronto (03:00 UTC on 1 February is 31 January).
    game(t, 3, a, b, "1-0", day=None, published=datetime(2026, 2, 1, 3, 0, tzinfo=UTC))
    services.ratings_recompute()
    months = dict(PersonRating.objects.filter(person=a).values_list("month", "games"))
    assert months == {date(2026, 1, 1): 2, date(2026, 2, 1): 1}


def test_stored_list_agrees_with_the_independent_implementation_and_the_months_between() -> None:
    """Two events two months apart: February (nobody played) is a period; game 2 of a
    two-game pairing has the colours reversed."""
    a, b, c = person("A"), person("B"), person("C")
    jan = event("jan", JAN, [a, b, c])
    game(jan, 1, a, b, "1-0", day=JAN)
    game(jan, 1, a, b, "1/2-1/2", "agreement", day=JAN, game_number=2)  # b has White
    game(jan, 2, b, c, "0-1", day=JAN)
    mar = event("mar", MAR, [a, c])
    game(mar, 1, c, a, "1-0", day=MAR)
    services.ratings_recompute()
    j, m = month_index(JAN), month_index(MAR)
    expected = reference_series(
        [(j, "A", "B", 1.0), (j, "B", "A", 0.5), (j, "B", "C", 0.0), (m, "C", "A", 1.0)]
    )
    for name, (r, rd, sigma, count) in expected.items():
        got = final(person_named(name))
        assert (
            sum(PersonRating.objects.filter(person=got.person).values_list("games", flat=True))
            == count
        )
        assert math.isclose(got.rating, r, abs_tol=1e-6)
        assert math.isclose(got.rd, rd, abs_tol=1e-6)
        assert math.isclose(got.volatility, sigma, abs_tol=1e-8)
    feb = PersonRating.objects.get(person=b, month=date(2026, 2, 1))
    assert feb.games == 0 and feb.rd > PersonRating.objects.get(person=b, month=date(2026, 1, 1)).rd
    assert PersonRating.objects.filter(month=date(2026, 2, 1)).count() == 3
    # b is on the list in March without playing: the inactivity step again.
    assert PersonRating.objects.get(person=b, month=date(2026, 3, 1)).games == 0


def person_named(name: str) -> object:
    from people.models import Person

    return Person.objects.get(name=name)


def test_a_correction_in_an_old_event_rerates_everything_after_it() -> None:
    """Through the results door: the commit queues the recomputation (inline here), which
    changes the March ratings and gives the March tournament's pages a new version."""
    a, b = person("A"), person("B")
    jan = event("jan", JAN, [a, b])
    first = game(jan, 1, a, b, "1-0", day=JAN)
    mar = event("mar", MAR, [a, b])
    game(mar, 1, a, b, "1/2-1/2", "agreement", day=MAR)
    services.ratings_recompute()
    before = final(a).rating
    version = Tournament.objects.get(pk=mar.pk).version
    enter(first.board, "0-1", "home")
    assert final(a).rating < before
    assert Tournament.objects.get(pk=mar.pk).version > version
    assert RatingRun.objects.count() == 1


def test_the_same_games_are_not_rated_again() -> None:
    a, b = person("A"), person("B")
    t = event("t", JAN, [a, b])
    game(t, 1, a, b, "1-0", day=JAN)
    run = services.ratings_recompute()
    assert services.ratings_recompute().pk == run.pk  # the same games: nothing done
    assert services.ratings_recompute(force=True).pk != run.pk


def test_marking_a_result_unrated_takes_it_out_and_is_logged() -> None:
    a, b = person("A"), person("B")
    t = event("t", JAN, [a, b])
    g = game(t, 1, a, b, "1-0", day=JAN)
    services.ratings_recompute()
    assert RatedGame.objects.count() == 1
    services.game_result_rated_set(game_result=g, rated=False, user=None)
    assert RatedGame.objects.count() == 0 and not PersonRating.objects.exists()
    assert g.changes.get().action == "unrated"
    services.game_result_rated_set(game_result=g, rated=True, user=None)
    assert RatedGame.objects.count() == 1
    Tournament.objects.filter(pk=t.pk).update(status="finished")
    with pytest.raises(services.ChampionshipError):
        services.game_result_rated_set(game_result=g, rated=False, user=None)


def test_the_task_is_coalesced_and_reports_progress(monkeypatch: pytest.MonkeyPatch) -> None:
    from championship import tasks

    queued: list[object] = []
    monkeypatch.setattr(
        tasks.ratings_recompute_task, "apply_async", lambda *a, **k: queued.append(k)
    )
    ratings.queue_now()
    ratings.queue_now()
    assert len(queued) == 1  # one queued at a time
    assert services.ratings_status()["state"] == "queued"
    a, b = person("A"), person("B")
    game(event("t", JAN, [a, b]), 1, a, b, "1-0", day=JAN)
    seen: list[object] = []
    monkeypatch.setattr(ratings, "_status", lambda **v: seen.append(v))
    services.ratings_run_queued()
    assert seen[0] == {"state": "running", "percent": 0}
    assert seen[-1] == {"state": "idle", "percent": 100}
    assert RatedGame.objects.count() == 1
    ratings.queue_now()
    assert len(queued) == 2  # the run took the mark: the next change queues again


def test_a_task_that_finds_another_running_leaves_it_the_work(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from django.core.cache import cache

    runs: list[int] = []
    monkeypatch.setattr(ratings, "ratings_recompute", lambda **k: runs.append(1))
    cache.set(ratings.RUNNING_KEY, 1)
    services.ratings_run_queued()  # another one runs: this one leaves a note and ends
    assert runs == [] and cache.get(ratings.AGAIN_KEY) is not None
    cache.delete(ratings.RUNNING_KEY)
    services.ratings_run_queued()
    assert runs == [1] and cache.get(ratings.RUNNING_KEY) is None
