"""Round robin by the FIDE Berger tables (C.05 Annex 1): odd fields get a bye, a double
round robin plays the second cycle with colours reversed."""

from __future__ import annotations

from .errors import PairingError
from .model import Pair


def berger_round(n_players: int, round_number: int) -> list[Pair]:
    """The pairs of round ``round_number`` (1-based, within one cycle) for players 1..n.

    With an odd n the player drawn against n+1 has the bye. Board 1 holds the game of the
    last player (n, or the bye), then boards as in the FIDE tables.
    """
    if n_players < 2:
        raise PairingError("roundrobin.too_few")
    n = n_players + (n_players % 2)
    m = n - 1  # rounds per cycle
    if not 1 <= round_number <= m:
        raise PairingError("roundrobin.no_such_round", rounds=m, round=round_number)
    r = round_number

    def wrap(x: int) -> int:
        return (x - 1) % m + 1

    # The player facing n: 2a ≡ r + 1 (mod m).
    a = next(i for i in range(1, n) if (2 * i - (r + 1)) % m == 0)
    pairs: list[Pair] = []
    last_white = r % 2 == 0  # n has White in even rounds
    first = (n, a) if last_white else (a, n)
    pairs.append(_pair(first, n_players))
    for k in range(1, n // 2):
        x, y = wrap(a + k), wrap(a - k)
        white, black = (x, y) if (y - x) % m % 2 == 1 else (y, x)
        pairs.append(_pair((white, black), n_players))
    return pairs


def _pair(pair: tuple[int, int], n_players: int) -> Pair:
    white, black = pair
    # The schedule's free round: no game and no points (a zero-point bye, not a
    # pairing-allocated one).
    if black > n_players:
        return Pair(white, None, "Z")
    if white > n_players:
        return Pair(black, None, "Z")
    return Pair(white, black)


def round_robin_round(n_players: int, round_number: int, *, cycles: int = 1) -> list[Pair]:
    """Round ``round_number`` of a (double) round robin; the second cycle reverses colours."""
    per_cycle = n_players - 1 + (n_players % 2)
    if not 1 <= round_number <= per_cycle * cycles:
        raise PairingError(
            "roundrobin.no_such_round", rounds=per_cycle * cycles, round=round_number
        )
    cycle, r = divmod(round_number - 1, per_cycle)
    pairs = berger_round(n_players, r + 1)
    if cycle % 2 == 1:
        pairs = [p if p.black is None else Pair(p.black, p.white) for p in pairs]
    return pairs
