"""The club's rating list over time: Glicko-2 (``glicko2``) applied month by month to every
rated game, by the rules of docs/ratings.md. Pure Python, no Django: the database's games
(``championship.ratings``) and a TRF file's (``trf_games``) come here as plain ``Game``s.

- A rating period is a calendar month; each game carries its month (``month_index``).
- The periods run from the first month with a rated game to the last one; a month in between
  in which nobody played is a period all the same.
- A player is on the list from the month of their first rated game on. In that month they
  start as a new player (1500, RD 350, volatility 0.06); in a later month without a game they
  get the inactivity step.
- Every game of a month is rated against the opponent as rated before that month (Glicko-2);
  two players meeting twice in a month are two games.

The result is deterministic: players are taken in the order of their keys, and a period's sums
do not depend on the order of its games (``glicko2`` sums exactly).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date
from typing import Generic, NamedTuple, TypeVar

from .glicko2 import DEFAULT_TAU, NEW_PLAYER, Outcome, Rating, rate

#: A player's key: a person's id in the database, a normalised name in a TRF series.
K = TypeVar("K", int, str)


def month_index(day: date) -> int:
    """The month a day belongs to, as a number that counts months (consecutive months differ
    by one)."""
    return day.year * 12 + day.month - 1


def month_of(index: int) -> date:
    """The first day of the month ``index`` stands for."""
    return date(index // 12, index % 12 + 1, 1)


@dataclass(frozen=True)
class Game(Generic[K]):
    """A rated game: who had White and Black, White's score (1, 0.5 or 0), and its month.
    ``ref`` identifies it to the caller (a game result's id), to find its ratings again."""

    month: int
    white: K
    black: K
    score: float
    ref: int = 0


class GameRating(NamedTuple):
    """One side's ratings in a game: before its month, after it, and this game's share of
    the month's change (the shares of a month add up to ``after - before``)."""

    before: Rating
    after: Rating
    share: float


class Standing(NamedTuple):
    """A player on the list at the end of a month: their rating, and how many rated games
    they played in that month."""

    rating: Rating
    games: int


@dataclass
class History(Generic[K]):
    """The list at the end of every month from the first to the last, and each game's
    ratings (``games[ref] = (white's, black's)``)."""

    months: list[int] = field(default_factory=list)
    lists: dict[int, dict[K, Standing]] = field(default_factory=dict)
    games: dict[int, tuple[GameRating, GameRating]] = field(default_factory=dict)

    def final(self) -> dict[K, Standing]:
        """The list after the last month (empty without games)."""
        return self.lists[self.months[-1]] if self.months else {}

    def total_games(self) -> dict[K, int]:
        """Rated games per player, over every month."""
        out: dict[K, int] = {}
        for standings in self.lists.values():
            for key, standing in standings.items():
                out[key] = out.get(key, 0) + standing.games
        return out


def rate_history(
    games: Iterable[Game[K]],
    *,
    tau: float = DEFAULT_TAU,
    progress: Callable[[int, int], None] | None = None,
) -> History[K]:
    """Rate every game month by month (``progress(done, total)`` after each month)."""
    by_month: dict[int, list[Game[K]]] = {}
    for game in games:
        if game.white == game.black:
            raise ValueError(f"a player cannot play themselves (game {game.ref})")
        by_month.setdefault(game.month, []).append(game)
    history: History[K] = History()
    if not by_month:
        return history
    first, last = min(by_month), max(by_month)
    current: dict[K, Rating] = {}
    total = last - first + 1
    for done, month in enumerate(range(first, last + 1), start=1):
        played = by_month.get(month, [])
        outcomes: dict[K, list[tuple[Outcome, int, int]]] = {}
        for index, game in enumerate(played):
            white = current.get(game.white, NEW_PLAYER)
            black = current.get(game.black, NEW_PLAYER)
            outcomes.setdefault(game.white, []).append((Outcome(black, game.score), index, 0))
            outcomes.setdefault(game.black, []).append((Outcome(white, 1.0 - game.score), index, 1))
        before = {key: current.get(key, NEW_PLAYER) for key in outcomes}
        shares: dict[tuple[int, int], float] = {}
        after: dict[K, Rating] = {}
        for key in sorted(set(current) | set(outcomes)):
            own = outcomes.get(key, [])
            update = rate(current.get(key, NEW_PLAYER), [o for o, _, _ in own], tau=tau)
            after[key] = update.after
            for (_, index, side), share in zip(own, update.shares, strict=True):
                shares[(index, side)] = share
        for index, game in enumerate(played):
            history.games[game.ref] = (
                GameRating(before[game.white], after[game.white], shares[(index, 0)]),
                GameRating(before[game.black], after[game.black], shares[(index, 1)]),
            )
        current = after
        history.months.append(month)
        history.lists[month] = {
            key: Standing(rating, len(outcomes.get(key, ()))) for key, rating in after.items()
        }
        if progress is not None:
            progress(done, total)
    return history
