"""The club's monthly rating periods (championship.rating.periods), rule by rule
(docs/ratings.md), and against the independent implementation of the tests."""

from __future__ import annotations

import math
import random
from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from championship.rating import NEW_PLAYER, Game, inactive, month_index, month_of, rate
from championship.rating.glicko2 import Outcome
from championship.rating.periods import rate_history
from tests.hypothesis_profiles import examples

from .glicko2_reference import reference_series

JAN, FEB, MAR, APR = (month_index(date(2026, m, 1)) for m in (1, 2, 3, 4))


def test_month_boundary() -> None:
    assert month_index(date(2026, 1, 31)) == JAN
    assert month_index(date(2026, 2, 1)) == FEB == JAN + 1
    assert month_index(date(2027, 1, 1)) == month_index(date(2026, 12, 31)) + 1
    assert month_of(FEB) == date(2026, 2, 1)


def test_games_of_two_months_are_two_periods() -> None:
    """A game on 31 January and one on 1 February: the second is rated against the ratings
    after January."""
    history = rate_history([Game(JAN, "a", "b", 1.0, 1), Game(FEB, "a", "b", 1.0, 2)])
    assert history.months == [JAN, FEB]
    jan = rate(NEW_PLAYER, [Outcome(NEW_PLAYER, 1.0)]).after
    jan_b = rate(NEW_PLAYER, [Outcome(NEW_PLAYER, 0.0)]).after
    assert history.lists[JAN]["a"].rating == jan
    assert history.lists[FEB]["a"].rating == rate(jan, [Outcome(jan_b, 1.0)]).after
    assert history.games[2][0].before == jan and history.games[2][1].before == jan_b


def test_a_month_nobody_played_is_a_period_and_the_inactive_get_the_step() -> None:
    history = rate_history([Game(JAN, "a", "b", 0.5, 1), Game(MAR, "a", "c", 1.0, 2)])
    assert history.months == [JAN, FEB, MAR]
    after_jan = history.lists[JAN]["b"].rating
    assert history.lists[FEB]["b"].rating == inactive(after_jan)
    assert history.lists[FEB]["b"].games == 0
    assert history.lists[MAR]["b"].rating == inactive(inactive(after_jan))
    # c is on the list from March only, starting as a new player there.
    assert "c" not in history.lists[FEB]
    assert history.games[2][1].before == NEW_PLAYER
    assert history.total_games() == {"a": 2, "b": 1, "c": 1}


def test_two_games_between_the_same_players_in_a_month_both_count() -> None:
    once = rate_history([Game(JAN, "a", "b", 1.0, 1)]).final()["a"].rating
    twice = rate_history([Game(JAN, "a", "b", 1.0, 1), Game(JAN, "b", "a", 0.0, 2)]).final()
    assert twice["a"].games == 2
    assert twice["a"].rating.rating > once.rating and twice["a"].rating.rd < once.rd


def test_shares_of_a_month_add_up_to_its_change() -> None:
    history = rate_history(
        [Game(JAN, "a", "b", 1.0, 1), Game(JAN, "a", "c", 0.5, 2), Game(JAN, "c", "b", 0.0, 3)]
    )
    a = history.final()["a"].rating.rating
    assert math.isclose(history.games[1][0].share + history.games[2][0].share, a - 1500)


def test_a_player_cannot_play_themselves() -> None:
    with pytest.raises(ValueError, match="themselves"):
        rate_history([Game(JAN, "a", "a", 1.0, 7)])


def test_no_games_no_list() -> None:
    history = rate_history([])
    assert history.months == [] and history.final() == {}


players = st.sampled_from("abcdefg")
series = st.lists(
    st.tuples(st.integers(0, 5), players, players, st.sampled_from([0.0, 0.5, 1.0])).filter(
        lambda g: g[1] != g[2]
    ),
    max_size=40,
)


@settings(max_examples=examples(150))
@given(series)
def test_agrees_with_the_independent_implementation(
    games: list[tuple[int, str, str, float]],
) -> None:
    history = rate_history(Game(m, w, b, s, i) for i, (m, w, b, s) in enumerate(games))
    expected = reference_series(games)
    final = history.final()
    played = history.total_games()
    assert set(final) == set(expected)
    for name, (r, rd, sigma, count) in expected.items():
        got = final[name].rating
        assert math.isclose(got.rating, r, abs_tol=1e-4), name
        assert math.isclose(got.rd, rd, abs_tol=1e-4), name
        assert math.isclose(got.volatility, sigma, abs_tol=1e-7), name
        assert played[name] == count


@settings(max_examples=examples(100))
@given(series, st.randoms(use_true_random=False))
def test_deterministic_whatever_the_order_of_the_games(
    games: list[tuple[int, str, str, float]], rnd: random.Random
) -> None:
    listed = [Game(m, w, b, s, i) for i, (m, w, b, s) in enumerate(games)]
    shuffled = list(listed)
    rnd.shuffle(shuffled)
    first, second = rate_history(listed), rate_history(shuffled)
    assert first.lists == second.lists
    assert first.games == second.games
