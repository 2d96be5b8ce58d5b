"""Random but realistic tournaments: for demo data, benchmarks and tests."""

from __future__ import annotations

import random

from .model import Pair, Player, RoundEntry, TournamentData
from .swiss import pair_swiss


def new_tournament(n: int, rounds: int, seed: int = 0) -> TournamentData:
    """n players rated from 2400 down to 1000 (a little noise), starting numbers by rating."""
    rng = random.Random(seed)
    players = [
        Player(i + 1, f"P{i + 1}", rating=2400 - (1400 * i) // max(1, n - 1) - rng.randrange(3))
        for i in range(n)
    ]
    return TournamentData("Random", players, rounds)


def apply_round(data: TournamentData, pairs: list[Pair], rng: random.Random) -> None:
    """A result for every pair: the stronger player wins more often; some draws, some
    forfeits."""
    by = {p.number: p for p in data.players}
    for pair in pairs:
        if pair.black is None:
            by[pair.white].rounds.append(RoundEntry(None, None, pair.bye or "U"))
            continue
        w, b = by[pair.white], by[pair.black]
        x = rng.random()
        if x < 0.03:
            cw, cb = "+", "-"
        elif x < 0.25:
            cw, cb = "=", "="
        elif x < 0.25 + 0.75 * (0.5 + (w.rating - b.rating) / 1000):
            cw, cb = "1", "0"
        else:
            cw, cb = "0", "1"
        w.rounds.append(RoundEntry(b.number, "w", cw))
        b.rounds.append(RoundEntry(w.number, "b", cb))


def play_swiss(
    n: int, rounds: int, seed: int, *, upto: int | None = None
) -> tuple[TournamentData, list[list[Pair]]]:
    """Pair and play ``upto`` (default all) rounds of a random Swiss."""
    rng = random.Random(seed)
    data = new_tournament(n, rounds, seed)
    history = []
    for _ in range(rounds if upto is None else upto):
        pairs = pair_swiss(data)
        apply_round(data, pairs, rng)
        history.append(pairs)
    return data, history
