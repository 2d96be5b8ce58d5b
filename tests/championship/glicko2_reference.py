"""An independent Glicko-2 for the tests: written straight from Glickman's "Example of the
Glicko-2 system" with nothing shared with ``championship.rating`` — plain loops, and the
volatility found by bisection (not the Illinois iteration), to a far finer tolerance — and the
club's monthly periods written again from docs/ratings.md. The product's code must agree."""

from __future__ import annotations

import math

Q = 173.7178


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi**2 / math.pi**2)


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def reference_rate(
    r: float, rd: float, sigma: float, games: list[tuple[float, float, float]], tau: float = 0.5
) -> tuple[float, float, float]:
    """(rating, rd, volatility) after a period with ``games`` = (opponent rating, opponent
    rd, score); RD capped at 350."""
    mu, phi = (r - 1500) / Q, rd / Q
    if not games:
        return r, min(math.sqrt(phi**2 + sigma**2) * Q, 350.0), sigma
    v_inv = 0.0
    total = 0.0
    for r_j, rd_j, s in games:
        mu_j, phi_j = (r_j - 1500) / Q, rd_j / Q
        e = _e(mu, mu_j, phi_j)
        v_inv += _g(phi_j) ** 2 * e * (1 - e)
        total += _g(phi_j) * (s - e)
    v = 1 / v_inv
    delta = v * total
    a = math.log(sigma**2)

    def f(x: float) -> float:
        return (math.exp(x) * (delta**2 - phi**2 - v - math.exp(x))) / (
            2 * (phi**2 + v + math.exp(x)) ** 2
        ) - (x - a) / tau**2

    # f decreases: bracket the root, then halve the bracket.
    lo, hi = a - 1.0, a + 1.0
    while f(lo) < 0:
        lo -= 1.0
    while f(hi) > 0:
        hi += 1.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    new_sigma = math.exp((lo + hi) / 4)
    phi_star = math.sqrt(phi**2 + new_sigma**2)
    new_phi = 1 / math.sqrt(1 / phi_star**2 + 1 / v)
    new_mu = mu + new_phi**2 * total
    return Q * new_mu + 1500, min(Q * new_phi, 350.0), new_sigma


def reference_series(
    games: list[tuple[int, str, str, float]], tau: float = 0.5
) -> dict[str, tuple[float, float, float, int]]:
    """``games`` = (month number, white, black, white's score): name -> (rating, rd,
    volatility, games) after the last month, by the club's rules."""
    if not games:
        return {}
    months = [m for m, *_ in games]
    state: dict[str, tuple[float, float, float]] = {}
    count: dict[str, int] = {}
    for month in range(min(months), max(months) + 1):
        these = [g for g in games if g[0] == month]
        played: dict[str, list[tuple[float, float, float]]] = {}
        for _, white, black, score in these:
            w = state.get(white, (1500.0, 350.0, 0.06))
            b = state.get(black, (1500.0, 350.0, 0.06))
            played.setdefault(white, []).append((b[0], b[1], score))
            played.setdefault(black, []).append((w[0], w[1], 1 - score))
            count[white] = count.get(white, 0) + 1
            count[black] = count.get(black, 0) + 1
        new = {}
        for name in set(state) | set(played):
            r, rd, s = state.get(name, (1500.0, 350.0, 0.06))
            new[name] = reference_rate(r, rd, s, played.get(name, []), tau)
        state = new
    return {name: (*state[name], count[name]) for name in state}
