"""Pure pairing, standings and interchange code: no Django imports (a test checks it).

``manager.py`` in the app is the only bridge between these and the database."""

from .errors import PairingError
from .model import Pair, Player, PointSystem, RoundEntry, TournamentData
from .roundrobin import round_robin_round
from .standings import Row, standings
from .swiss import explain, pair_swiss, pair_trf_text
from .tiebreaks import DEFAULT_ORDER, TIEBREAKS
from .trf import read_trf, write_trf

__all__ = [
    "DEFAULT_ORDER",
    "TIEBREAKS",
    "Pair",
    "PairingError",
    "Player",
    "PointSystem",
    "RoundEntry",
    "Row",
    "TournamentData",
    "explain",
    "pair_swiss",
    "pair_trf_text",
    "read_trf",
    "round_robin_round",
    "standings",
    "write_trf",
]
