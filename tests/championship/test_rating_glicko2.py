"""Glicko-2 (championship.rating.glicko2): Glickman's worked example step by step, the
club's cap on the deviation, and properties against an independent implementation."""

from __future__ import annotations

import math
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from championship.rating.glicko2 import (
    MAX_RD,
    NEW_PLAYER,
    Outcome,
    Rating,
    expected,
    g,
    inactive,
    rate,
    volatility,
)
from tests.hypothesis_profiles import examples

from .glicko2_reference import reference_rate

#: Glickman's example: a player rated 1500 (RD 200) beats a 1400 (RD 30), loses to a 1550
#: (RD 100) and to a 1700 (RD 300).
PLAYER = Rating(1500, 200, 0.06)
GAMES = [Outcome(Rating(1400, 30), 1), Outcome(Rating(1550, 100), 0), Outcome(Rating(1700, 300), 0)]


def test_glickmans_worked_example() -> None:
    after = rate(PLAYER, GAMES).after
    assert f"{after.rating:.2f}" == "1464.05"
    assert f"{after.rd:.2f}" == "151.52"
    # The paper prints 0.05999 (its digits cut, not rounded): the value is 0.0599960.
    assert abs(after.volatility - 0.05999) < 1e-5
    assert f"{after.volatility:.6f}" == "0.059996"


def test_glickmans_intermediate_quantities() -> None:
    mu, phi = PLAYER.mu, PLAYER.phi
    assert (round(mu, 4), round(phi, 4)) == (0, 1.1513)
    assert [round(g(o.opponent.phi), 4) for o in GAMES] == [0.9955, 0.9531, 0.7242]
    assert [round(expected(mu, o.opponent.mu, o.opponent.phi), 3) for o in GAMES] == [
        0.639,
        0.432,
        0.303,
    ]
    # Step 5 from the paper's v and delta: sigma' = 0.05999(6).
    assert round(volatility(phi=phi, sigma=0.06, delta=-0.4834, v=1.7785, tau=0.5), 5) == 0.06


def test_shares_add_up_to_the_change() -> None:
    update = rate(PLAYER, GAMES)
    assert math.isclose(sum(update.shares), update.after.rating - PLAYER.rating, abs_tol=1e-9)
    assert update.shares[0] > 0 > update.shares[1]  # the win gains, the losses cost


def test_inactivity_step_and_its_cap() -> None:
    after = inactive(Rating(1600, 100, 0.06))
    assert math.isclose(after.rd / 173.7178, math.sqrt((100 / 173.7178) ** 2 + 0.06**2))
    assert (after.rating, after.volatility) == (1600, 0.06)
    assert inactive(Rating(1600, 349.9, 0.06)).rd == MAX_RD
    assert inactive(NEW_PLAYER).rd == MAX_RD
    assert rate(Rating(1600, 100, 0.06), []).after == after


def test_a_new_player_against_an_unreachable_opponent_stays_at_350() -> None:
    # Playing tells almost nothing here: phi' ~ phi* > 350 before the cap.
    after = rate(NEW_PLAYER, [Outcome(Rating(4000, 30), 0)]).after
    assert after.rd == MAX_RD


ratings = st.builds(
    Rating,
    rating=st.floats(800, 2600),
    rd=st.floats(30, 350),
    volatility=st.floats(0.03, 0.09),
)
outcomes = st.lists(
    st.builds(Outcome, opponent=ratings, score=st.sampled_from([0.0, 0.5, 1.0])),
    min_size=1,
    max_size=12,
)


@settings(max_examples=examples(300))
@given(ratings, outcomes)
def test_agrees_with_an_independent_implementation(player: Rating, games: list[Outcome]) -> None:
    after = rate(player, games).after
    r, rd, sigma = reference_rate(
        player.rating,
        player.rd,
        player.volatility,
        [(o.opponent.rating, o.opponent.rd, o.score) for o in games],
    )
    assert math.isclose(after.rating, r, abs_tol=1e-4)
    assert math.isclose(after.rd, rd, abs_tol=1e-4)
    assert math.isclose(after.volatility, sigma, abs_tol=1e-7)


@settings(max_examples=examples(300))
@given(ratings, outcomes)
def test_games_narrow_the_deviation_and_it_never_exceeds_350(
    player: Rating, games: list[Outcome]
) -> None:
    """Games always tell something: the deviation after them is below what the period alone
    would make it with the new volatility (phi' < phi* = sqrt(phi^2 + sigma'^2)). (Not always
    below the one before: a player with RD 30 who only meets an opponent 1,000 points away
    learns nearly nothing, and the period widens it.)"""
    after = rate(player, games).after
    assert after.rd <= MAX_RD
    phi_star = math.sqrt(player.phi**2 + after.volatility**2) * 173.7178
    assert after.rd < phi_star or after.rd == MAX_RD
    if player.rd >= 200 and all(abs(o.opponent.rating - player.rating) < 400 for o in games):
        assert after.rd < player.rd


@settings(max_examples=examples(200))
@given(ratings, outcomes, st.randoms(use_true_random=False))
def test_the_order_of_a_periods_games_changes_nothing(
    player: Rating, games: list[Outcome], rnd: random.Random
) -> None:
    shuffled = list(games)
    rnd.shuffle(shuffled)
    first, second = rate(player, games), rate(player, shuffled)
    assert first.after == second.after  # exactly: the sums are exact
    assert sorted(first.shares) == sorted(second.shares)
    assert rate(player, games) == first  # and the same input gives the same output
