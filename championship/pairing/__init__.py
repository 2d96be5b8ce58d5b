"""Pure pairing, standings and interchange code: no Django imports (a test checks it).

``manager.py`` in the app is the only bridge between these and the database."""

from .errors import MESSAGES as ERROR_MESSAGES
from .errors import PairingError
from .explain import NOTE_MESSAGES, Explanation, note_text
from .model import Pair, Player, PointSystem, RoundEntry, TournamentData
from .roundrobin import round_robin_round
from .standings import Row, standings
from .swiss import (
    DEFAULT_RULESET,
    RULESET_CHOICES,
    RULESET_KEYS,
    RULESETS,
    Ruleset,
    explain,
    pair_swiss,
    pair_trf_text,
)
from .tiebreaks import DEFAULT_ORDER, TIEBREAKS
from .trf import TrfHeader, clean_name, parse_trf, read_trf, write_trf

__all__ = [
    "DEFAULT_ORDER",
    "DEFAULT_RULESET",
    "ERROR_MESSAGES",
    "NOTE_MESSAGES",
    "RULESETS",
    "RULESET_CHOICES",
    "RULESET_KEYS",
    "TIEBREAKS",
    "Explanation",
    "Pair",
    "PairingError",
    "Player",
    "PointSystem",
    "RoundEntry",
    "Row",
    "Ruleset",
    "TournamentData",
    "TrfHeader",
    "clean_name",
    "explain",
    "note_text",
    "pair_swiss",
    "pair_trf_text",
    "parse_trf",
    "read_trf",
    "round_robin_round",
    "standings",
    "write_trf",
]
