"""Standings after a round: points, games, wins, draws, losses, time forfeits, unplayed games
and tie-breaks in the tournament's order, ranked."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from . import tiebreaks
from .model import TournamentData


@dataclass
class Row:
    rank: int
    number: int
    name: str
    club: str
    rating: int
    points: Fraction
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    time_losses: int = 0  # losses on time, counted apart from other losses
    unplayed: int = 0
    tiebreaks: dict[str, float] = field(default_factory=dict)
    shared: bool = False  # same rank as the row before
    game_points: Fraction | None = None  # two games per pairing: the games' points


def standings(
    data: TournamentData,
    *,
    upto: int | None = None,
    order: tuple[str, ...] | list[str] = tiebreaks.DEFAULT_ORDER,
    extra: tuple[str, ...] | list[str] = (),
) -> list[Row]:
    """Rank players by points, then by the tie-breaks in ``order`` (and compute those in
    ``extra`` too); players equal on everything share a rank and are listed by starting
    number."""
    upto = data.rounds_played if upto is None else upto
    keys = list(dict.fromkeys([*order, *extra]))
    values = tiebreaks.compute(data, upto, keys)
    rows = []
    for p in data.players:
        row = Row(0, p.number, p.name, p.club, p.rating, p.points(data.points, upto))
        if p.game_points is not None:
            row.game_points = sum((v for r, v in p.game_points.items() if r <= upto), Fraction(0))
        for i, r in enumerate(p.rounds[:upto], start=1):
            if r.code == "*":
                continue
            if r.played:
                row.games += 1
                if r.code in "1W":
                    row.wins += 1
                elif r.code in "=D":
                    row.draws += 1
                else:
                    row.losses += 1
                    if p.terminations.get(i) == "time":
                        row.time_losses += 1
            else:
                row.unplayed += 1
        row.unplayed += max(0, upto - len(p.rounds[:upto]))
        row.tiebreaks = values[p.number]
        rows.append(row)

    def key(row: Row) -> tuple[object, ...]:
        return (-row.points, *(-row.tiebreaks.get(k, 0.0) for k in order))

    rows.sort(key=lambda r: (key(r), r.number))
    previous = None
    for i, row in enumerate(rows, start=1):
        k = key(row)
        if previous is not None and k == previous[0]:
            row.rank = previous[1]
            row.shared = True
        else:
            row.rank = i
        previous = (k, row.rank)
    return rows
