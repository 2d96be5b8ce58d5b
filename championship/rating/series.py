"""Ratings of a series of TRF files (``manage.py ratings_from_trf``): one person per name
across the files (``people.names.name_key``: case, spaces and Unicode form do not matter),
each game in the month of its round's date (line 132), rated by ``periods.rate_history``.
Pure Python, no Django."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from people.names import name_key

from .glicko2 import DEFAULT_TAU
from .periods import Game, month_index, rate_history
from .trf_games import TrfGames


@dataclass(frozen=True)
class SeriesRow:
    name: str
    rating: float
    rd: float
    volatility: float
    games: int


def rate_series(
    files: Sequence[tuple[str, TrfGames]], *, tau: float = DEFAULT_TAU
) -> tuple[list[SeriesRow], list[str]]:
    """The list after the series (highest rating first, then by name), and warnings about
    games left out: those of rounds without a date, and games between two players of one
    file who are one person by name. A person is named as first written (first file first)."""
    shown: dict[str, str] = {}
    games: list[Game[str]] = []
    warnings: list[str] = []
    for source, found in files:
        for name in found.players:
            shown.setdefault(name_key(name), name)
        undated: dict[int, int] = {}
        for game in found.games:
            white, black = name_key(game.white), name_key(game.black)
            if game.day is None:
                undated[game.round] = undated.get(game.round, 0) + 1
                continue
            if white == black:
                warnings.append(
                    f"{source}: round {game.round}: {game.white} and {game.black} are one "
                    "person by name: their game is not rated"
                )
                continue
            games.append(Game(month_index(game.day), white, black, game.score, len(games)))
        for number in sorted(undated):
            warnings.append(
                f"{source}: round {number} has no date in line 132: "
                f"its {undated[number]} rated game(s) are left out"
            )
    history = rate_history(games, tau=tau)
    played = history.total_games()
    rows = [
        SeriesRow(shown[key], s.rating.rating, s.rating.rd, s.rating.volatility, played[key])
        for key, s in history.final().items()
    ]
    rows.sort(key=lambda r: (-r.rating, name_key(r.name), r.name))
    return rows, warnings
