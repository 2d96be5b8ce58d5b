"""Glicko-2, exactly as Glickman describes it in "Example of the Glicko-2 system" (2013):
one player's rating after one rating period, from their rating before it and the games of
the period against opponents rated as they were before it.

Pure Python, no Django. Ratings are kept on the Glicko scale (1500, RD 350) outside and
converted to the Glicko-2 scale (``SCALE`` = 173.7178) inside, step by step as the paper
numbers them. Sums are ``math.fsum`` (correctly rounded), so the order of a period's games
never changes a digit of the result.

One reading beyond the paper, from the club's rules (docs/ratings.md): a rating deviation is
never more than ``MAX_RD`` (350): the inactivity step and the new deviation after a period are
capped there (the new rating itself is Glickman's, from the uncapped deviation).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

#: The Glicko-2 scale factor (step 2 of the paper).
SCALE = 173.7178
#: A new player (step 1 of the paper, and the club's rules).
DEFAULT_RATING = 1500.0
DEFAULT_RD = 350.0
DEFAULT_VOLATILITY = 0.06
#: The system constant: how much the volatility may change over time.
DEFAULT_TAU = 0.5
#: The convergence tolerance of the volatility iteration (step 5).
EPSILON = 0.000001
#: No rating deviation is ever larger.
MAX_RD = 350.0
#: A rating with a deviation of this or more is provisional (shown with "?", as lichess does).
PROVISIONAL_RD = 110.0


class Rating(NamedTuple):
    """A player's rating, deviation and volatility on the Glicko scale (a named tuple: made
    some 20,000 times in a recomputation of the club's list, and cheap to make)."""

    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY

    @property
    def mu(self) -> float:
        return (self.rating - DEFAULT_RATING) / SCALE

    @property
    def phi(self) -> float:
        return self.rd / SCALE

    @property
    def provisional(self) -> bool:
        return self.rd >= PROVISIONAL_RD


#: A new player's rating.
NEW_PLAYER = Rating()


class Outcome(NamedTuple):
    """One game of the period: the opponent as rated before the period, and the score (1 a
    win, 0.5 a draw, 0 a loss)."""

    opponent: Rating
    score: float


class Update(NamedTuple):
    """The rating after the period, and each game's share of the change in rating points (in
    the order of the outcomes; they add up to ``after.rating - before.rating``)."""

    after: Rating
    shares: tuple[float, ...]


def g(phi: float) -> float:
    """Step 3: the weight of an opponent's game by their deviation."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def expected(mu: float, mu_j: float, phi_j: float) -> float:
    """Step 3: the expected score against an opponent."""
    return 1.0 / (1.0 + math.exp(-g(phi_j) * (mu - mu_j)))


def volatility(*, phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm to within ``EPSILON``."""
    a = math.log(sigma * sigma)
    tau2 = tau * tau

    def f(x: float) -> float:
        ex = math.exp(x)
        d = phi * phi + v + ex
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / tau2

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a = f_a / 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def _capped(phi: float) -> float:
    return min(phi, MAX_RD / SCALE)


def inactive(player: Rating) -> Rating:
    """A period without games (step 6 alone): the deviation grows, phi* = sqrt(phi^2 +
    sigma^2), to ``MAX_RD`` at most; rating and volatility stay."""
    phi_star = math.sqrt(player.phi**2 + player.volatility**2)
    return Rating(player.rating, _capped(phi_star) * SCALE, player.volatility)


def rate(player: Rating, outcomes: Sequence[Outcome], *, tau: float = DEFAULT_TAU) -> Update:
    """The player's rating after a period with these games (steps 2 to 8 of the paper); no
    games is the inactivity step."""
    if not outcomes:
        return Update(inactive(player), ())
    mu, phi = player.mu, player.phi
    weights = [g(o.opponent.phi) for o in outcomes]
    expectations = [expected(mu, o.opponent.mu, o.opponent.phi) for o in outcomes]
    v = 1.0 / math.fsum(w * w * e * (1.0 - e) for w, e in zip(weights, expectations, strict=True))
    terms = [w * (o.score - e) for w, e, o in zip(weights, expectations, outcomes, strict=True)]
    improvement = math.fsum(terms)
    delta = v * improvement
    sigma = volatility(phi=phi, sigma=player.volatility, delta=delta, v=v, tau=tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * improvement
    after = Rating(SCALE * new_mu + DEFAULT_RATING, SCALE * _capped(new_phi), sigma)
    shares = tuple(SCALE * new_phi * new_phi * t for t in terms)
    return Update(after, shares)
