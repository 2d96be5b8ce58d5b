"""Random tournaments for pairing and tie-break tests."""

from __future__ import annotations

import random

from championship.pairing import Pair, Player, RoundEntry, TournamentData, pair_swiss


def new_tournament(n: int, rounds: int, seed: int = 0) -> TournamentData:
    rng = random.Random(seed)
    players = [Player(i + 1, f"P{i + 1}", rating=2400 - 10 * i - rng.randrange(5)) for i in range(n)]
    return TournamentData("Random", players, rounds)


def apply_round(data: TournamentData, pairs: list[Pair], rng: random.Random) -> None:
    """Give every pair a result (stronger player more likely to win; some draws, forfeits)."""
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


def play_swiss(n: int, rounds: int, seed: int) -> tuple[TournamentData, list[list[Pair]]]:
    rng = random.Random(seed)
    data = new_tournament(n, rounds, seed)
    history = []
    for _ in range(rounds):
        pairs = pair_swiss(data)
        apply_round(data, pairs, rng)
        history.append(pairs)
    return data, history
