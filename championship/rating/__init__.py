"""The club's rating: Glicko-2 (``glicko2``) month by month (``periods``), and the rated games
of TRF files (``trf_games``). Pure Python, no Django imports (a test checks it);
``championship.ratings`` is the only bridge to the database."""

from .glicko2 import (
    DEFAULT_TAU,
    MAX_RD,
    NEW_PLAYER,
    PROVISIONAL_RD,
    Outcome,
    Rating,
    Update,
    inactive,
    rate,
)
from .periods import Game, GameRating, History, Standing, month_index, month_of, rate_history

__all__ = [
    "DEFAULT_TAU",
    "MAX_RD",
    "NEW_PLAYER",
    "PROVISIONAL_RD",
    "Game",
    "GameRating",
    "History",
    "Outcome",
    "Rating",
    "Standing",
    "Update",
    "inactive",
    "month_index",
    "month_of",
    "rate",
    "rate_history",
]
